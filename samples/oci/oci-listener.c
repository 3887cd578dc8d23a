// SPDX-License-Identifier: GPL-2.0
/*
 * oci-listener PATH: a stand-in seccomp agent for the oci suite, to see
 * what an OCI runtime sends to linux.seccomp.listenerPath. It listens on
 * the unix socket PATH (mode 0600), says so on stderr, accepts one
 * connection, and prints on stdout what came: the peer's credentials,
 * each message (its size, flags, fds and payload), and whether the peer
 * then closed the connection. It then serves the seccomp listener it was
 * given: every notification is printed and answered with
 * SECCOMP_USER_NOTIF_FLAG_CONTINUE (the call goes on to the kernel as if
 * nothing had trapped it), until every task of the filter is gone. Exit
 * status 0 if exactly one seccomp listener came, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_FDS 8
#define WAIT_MS 60000	/* for the runtime's connection */
#define CLOSE_MS 3000	/* for the runtime to close it after its message */

static int die(const char *what)
{
	fprintf(stderr, "oci-listener: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* One message: returns its byte count (0 at EOF), stores the fds it carried. */
static ssize_t receive(int conn, char *buf, size_t len, int *fds, int *nfds)
{
	union {
		char buf[CMSG_SPACE(MAX_FDS * sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = buf, .iov_len = len - 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
	};
	ssize_t n = recvmsg(conn, &msg, MSG_CMSG_CLOEXEC);

	if (n < 0)
		die("recvmsg");
	buf[n] = 0;
	printf("message: %zd bytes%s%s\n", n, msg.msg_flags & MSG_TRUNC ? ", truncated" : "",
	       msg.msg_flags & MSG_CTRUNC ? ", control truncated" : "");
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) {
			printf("control message: level %d type %d\n", c->cmsg_level, c->cmsg_type);
			continue;
		}
		for (int i = 0; i < k && *nfds < MAX_FDS; i++) {
			char link[64], target[256];
			ssize_t t;

			memcpy(&fds[*nfds], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			snprintf(link, sizeof(link), "/proc/self/fd/%d", fds[*nfds]);
			t = readlink(link, target, sizeof(target) - 1);
			target[t < 0 ? 0 : t] = 0;
			printf("fd: %s\n", target);
			(*nfds)++;
		}
	}
	if (n > 0)
		printf("payload: %s\n", buf);
	fflush(stdout);
	return n;
}

/* Answer every notification of @fd with CONTINUE until its tasks are gone. */
static void serve(int fd)
{
	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll on the listener");
		}
		if (!(p.revents & POLLIN)) {
			printf("listener: every task of the filter is gone\n");
			return;
		}
		memset(&req, 0, sizeof(req));
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req)) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			die("SECCOMP_IOCTL_NOTIF_RECV");
		}
		printf("notification: pid %u syscall %d arch 0x%x: continue\n", req.pid,
		       req.data.nr, req.data.arch);
		fflush(stdout);
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp) && errno != ENOENT)
			die("SECCOMP_IOCTL_NOTIF_SEND");
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct pollfd p;
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	static char buf[1 << 16];
	int fds[MAX_FDS], nfds = 0, messages = 0, s, conn, seccomp_fd = -1;

	if (argc != 2 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "usage: oci-listener PATH\n");
		return 2;
	}
	strcpy(addr.sun_path, argv[1]);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		die("socket");
	unlink(argv[1]);
	umask(077);
	if (bind(s, (struct sockaddr *)&addr, sizeof(addr)) || chmod(argv[1], 0600) || listen(s, 4))
		die(argv[1]);
	fprintf(stderr, "oci-listener: listening on %s\n", argv[1]);

	p = (struct pollfd){ .fd = s, .events = POLLIN };
	if (poll(&p, 1, WAIT_MS) != 1) {
		fprintf(stderr, "oci-listener: no connection within %d s\n", WAIT_MS / 1000);
		return 1;
	}
	conn = accept4(s, NULL, NULL, SOCK_CLOEXEC);
	if (conn < 0)
		die("accept");
	close(s);
	unlink(argv[1]);
	if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &clen))
		die("SO_PEERCRED");
	printf("peer: pid %d uid %u gid %u\n", cred.pid, cred.uid, cred.gid);

	/* The first message, then whatever follows until EOF or a pause. */
	for (;;) {
		p = (struct pollfd){ .fd = conn, .events = POLLIN };
		if (messages > 0 && poll(&p, 1, CLOSE_MS) != 1) {
			printf("connection: still open %d s after %d message(s)\n", CLOSE_MS / 1000,
			       messages);
			break;
		}
		if (receive(conn, buf, sizeof(buf), fds, &nfds) == 0) {
			printf("connection: closed by the peer after %d message(s)\n", messages);
			break;
		}
		messages++;
	}
	close(conn);
	fflush(stdout);

	/* A seccomp listener says ENOENT for an id that is not pending; any
	 * other file says ENOTTY. */
	for (int i = 0; i < nfds; i++) {
		if (seccomp_fd < 0 && ioctl(fds[i], SECCOMP_IOCTL_NOTIF_ID_VALID, &(__u64){ 0 }) &&
		    errno == ENOENT)
			seccomp_fd = fds[i];
		else
			close(fds[i]);
	}
	if (nfds != 1 || seccomp_fd < 0) {
		printf("listener: %d fd(s), %s seccomp listener\n", nfds, seccomp_fd < 0 ? "no" : "one");
		return 1;
	}
	serve(seccomp_fd);
	close(seccomp_fd);
	return 0;
}
