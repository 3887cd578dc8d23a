// SPDX-License-Identifier: GPL-2.0
/*
 * fdstore-probe STATE: a service of the systemd guest (fdstore-probe.service,
 * FileDescriptorStoreMax=1) that shows whether systemd's fd store keeps an
 * fd across a restart. If systemd passed it an fd named "probe"
 * (LISTEN_PID, LISTEN_FDS, LISTEN_FDNAMES, sd_listen_fds(3)), it reads the
 * token in it; otherwise it makes a memfd holding its own pid as the token
 * and stores it (sd_notify(3): "FDSTORE=1", "FDNAME=probe", the fd in
 * SCM_RIGHTS). Then it writes "pid=PID fd=stored|received token=TOKEN
 * names=LISTEN_FDNAMES" to STATE (a rename, so a reader never sees half of
 * it), says READY=1 and waits for its end. systemd-smoke.sh reads STATE.
 *
 * The protocol is written here from sd_notify(3) and sd_listen_fds(3), not
 * taken from bind-agent's code: this probe is how the guest shows that the
 * service manager does what the agent relies on, so it does not share the
 * agent's mistakes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "fdstore-probe: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* One datagram to $NOTIFY_SOCKET, with @fd in SCM_RIGHTS if @fd >= 0. */
static void notify(const char *state, int fd)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { (void *)state, strlen(state) };
	struct msghdr msg = { .msg_name = &sa, .msg_iov = &iov, .msg_iovlen = 1 };
	size_t len;
	int s;

	if (!path || (path[0] != '/' && path[0] != '@') || (len = strlen(path)) >= sizeof(sa.sun_path)) {
		errno = EINVAL;
		die("NOTIFY_SOCKET");
	}
	memcpy(sa.sun_path, path, len);
	if (path[0] == '@')	/* an abstract socket */
		sa.sun_path[0] = 0;
	msg.msg_namelen = offsetof(struct sockaddr_un, sun_path) + len;
	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&control, 0, sizeof(control));
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0 || sendmsg(s, &msg, MSG_NOSIGNAL) < 0)
		die("sendmsg to NOTIFY_SOCKET");
	close(s);
}

int main(int argc, char **argv)
{
	const char *lpid = getenv("LISTEN_PID"), *lfds = getenv("LISTEN_FDS");
	const char *names = getenv("LISTEN_FDNAMES");
	char token[64] = "", tmp[4200], line[512];
	const char *how = "stored";
	int nfds = 0;
	FILE *f;

	if (argc != 2 || strlen(argv[1]) > 4000) {
		fprintf(stderr, "usage: fdstore-probe STATE-FILE\n");
		return 2;
	}
	if (lpid && lfds && atoi(lpid) == getpid())
		nfds = atoi(lfds);
	/* LISTEN_FDNAMES: the names of fds 3, 4, ..., joined by ':' */
	for (int i = 0; i < nfds && names; i++) {
		const char *end = strchr(names, ':');
		size_t n = end ? (size_t)(end - names) : strlen(names);

		if (n == 5 && !strncmp(names, "probe", 5)) {
			ssize_t got = pread(3 + i, token, sizeof(token) - 1, 0);

			if (got <= 0)
				die("reading the stored fd");
			token[got] = 0;
			how = "received";
		}
		names = end ? end + 1 : NULL;
	}
	if (!token[0]) {
		int fd = memfd_create("fdstore-probe", MFD_CLOEXEC);

		snprintf(token, sizeof(token), "%d", (int)getpid());
		if (fd < 0 || write(fd, token, strlen(token)) != (ssize_t)strlen(token))
			die("memfd");
		notify("FDSTORE=1\nFDNAME=probe\n", fd);
		close(fd);
	}
	snprintf(line, sizeof(line), "pid=%d fd=%s token=%s names=%s\n", (int)getpid(), how, token,
		 getenv("LISTEN_FDNAMES") ? getenv("LISTEN_FDNAMES") : "");
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	f = fopen(tmp, "w");
	if (!f || fputs(line, f) < 0 || fclose(f) || rename(tmp, argv[1]))
		die(argv[1]);
	notify("READY=1\n", -1);
	for (;;)
		pause();
}
