// SPDX-License-Identifier: GPL-2.0
/*
 * Socket activation and readiness for bind-agent (sd-daemon.h), as
 * sd_listen_fds(3) and sd_notify(3) document the protocols.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "../lib/bind-cli.h"
#include "sd-daemon.h"

#define SD_LISTEN_FDS_START 3

static void __attribute__((noreturn, format(printf, 2, 3)))
refuse(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: socket activation: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Whether @fd is a socket (the one from bind-agent.socket, if it is ours). */
static int is_socket(int fd)
{
	int val;
	socklen_t len = sizeof(val);

	return !getsockopt(fd, SOL_SOCKET, SO_TYPE, &val, &len);
}

/* The socket runtimes connect to, as systemd passed it: checked, or exits. */
static void check_socket(const char *prog, int fd, const char *path)
{
	int val, ret;
	struct sockaddr_un addr;
	socklen_t len = sizeof(val), alen = sizeof(addr);
	struct stat st;

	ret = getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &val, &len);
	if (ret || val != AF_UNIX)
		refuse(prog, "fd %d is not an AF_UNIX socket", fd);
	ret = getsockopt(fd, SOL_SOCKET, SO_TYPE, &val, &len);
	if (ret || val != SOCK_STREAM)
		refuse(prog, "fd %d is not a stream socket (ListenStream=)", fd);
	ret = getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &val, &len);
	if (ret || !val)
		refuse(prog, "fd %d is not listening (Accept=no is wanted)", fd);
	memset(&addr, 0, sizeof(addr));
	if (getsockname(fd, (struct sockaddr *)&addr, &alen) || alen <= offsetof(struct sockaddr_un, sun_path) ||
	    !addr.sun_path[0] || alen >= sizeof(addr))
		refuse(prog, "fd %d is not bound to a path (an abstract socket has no mode)", fd);
	/* Only root may hand over a listener: the socket file says who may connect. */
	if (lstat(addr.sun_path, &st) || !S_ISSOCK(st.st_mode))
		refuse(prog, "%s is not there, or not a socket", addr.sun_path);
	/* connect(2) needs write permission on the socket file. */
	if (st.st_uid != 0 || (st.st_mode & 022))
		refuse(prog, "%s is mode %04o owned by uid %u: want it owned by root, writable by no one else (SocketMode=0600)",
		       addr.sun_path, st.st_mode & 07777, st.st_uid);
	if (path && strcmp(path, addr.sun_path))
		refuse(prog, "the socket passed is %s, --socket says %s", addr.sun_path, path);
}

int sd_listen_socket(const char *prog, const char *path, struct sd_fd **stored, int *nstored)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	const char *names = getenv("LISTEN_FDNAMES");
	int sk = -1, n, sockets = 0;
	char *copy = NULL, *name, *save = NULL;

	*stored = NULL;
	*nstored = 0;
	/* Meant for another process (our parent's LISTEN_* inherited): not ours. */
	if (!pid || !fds || parse_number(pid, 1, 0x7fffffff) != getpid())
		return -1;
	n = (int)parse_number(fds, 0, 65536);
	if (n < 0)
		refuse(prog, "LISTEN_FDS is '%s': not a number of fds", fds);
	if (names) {
		copy = strdup(names);
		if (!copy)
			refuse(prog, "out of memory");
	}
	*stored = calloc((size_t)n + 1, sizeof(**stored));
	if (!*stored)
		refuse(prog, "out of memory");
	name = copy ? strtok_r(copy, ":", &save) : NULL;
	for (int fd = SD_LISTEN_FDS_START; fd < SD_LISTEN_FDS_START + n; fd++) {
		if (fcntl(fd, F_SETFD, FD_CLOEXEC))
			refuse(prog, "fd %d: %s", fd, strerror(errno));
		/* Sockets are the socket unit's; the rest come from our fd store. */
		if (is_socket(fd)) {
			sockets++;
			sk = fd;
		} else {
			struct sd_fd *s = &(*stored)[(*nstored)++];

			s->fd = fd;
			snprintf(s->name, sizeof(s->name), "%s", name ? name : "");
		}
		name = name ? strtok_r(NULL, ":", &save) : NULL;
	}
	free(copy);
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	if (sockets > 1)
		refuse(prog, "LISTEN_FDS is '%s': want 1 socket, the one runtimes connect to (%d passed), and our fd store's fds",
		       fds, sockets);
	if (sk >= 0)
		check_socket(prog, sk, path);
	return sk;
}

static char notify_path[sizeof(((struct sockaddr_un *)0)->sun_path)];

int sd_notify_init(const char *prog)
{
	const char *path = getenv("NOTIFY_SOCKET");
	size_t plen;

	if (!path)
		return 0;
	plen = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || plen < 2 || plen >= sizeof(notify_path)) {
		fprintf(stderr, "%s: NOTIFY_SOCKET '%s': not a path or an abstract name\n", prog, path);
		return -1;
	}
	memcpy(notify_path, path, plen + 1);
	unsetenv("NOTIFY_SOCKET");
	return 1;
}

int sd_notify_fds(const char *prog, const char *msg, const int *fds, int nfds)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	union {
		char buf[CMSG_SPACE(SD_NOTIFY_FDS_MAX * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { (void *)msg, strlen(msg) };
	struct msghdr mh = { .msg_name = &addr, .msg_iov = &iov, .msg_iovlen = 1 };
	size_t plen = strlen(notify_path);
	int sk, ret;

	if (!plen)
		return 1;
	if (nfds < 0 || nfds > SD_NOTIFY_FDS_MAX)
		return errno = EINVAL, -1;
	memcpy(addr.sun_path, notify_path, plen);
	if (notify_path[0] == '@')
		addr.sun_path[0] = '\0';
	mh.msg_namelen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen + (notify_path[0] == '/'));
	if (nfds) {
		struct cmsghdr *cm = &ctl.align;

		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(cm), fds, nfds * sizeof(int));
	}
	sk = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ret = sk >= 0 && sendmsg(sk, &mh, MSG_NOSIGNAL) == (ssize_t)iov.iov_len ? 0 : -1;
	if (ret)
		fprintf(stderr, "%s: '%.40s...' to NOTIFY_SOCKET %s: %s\n", prog, msg, notify_path,
			strerror(errno));
	if (sk >= 0)
		close(sk);
	return ret;
}

int sd_ready(const char *prog, const char *status)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "READY=1\nSTATUS=%s\nMAINPID=%d", status, getpid());
	return sd_notify_fds(prog, msg, NULL, 0) < 0 ? -1 : 0;
}
