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

int sd_listen_socket(const char *prog, const char *path)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	int fd = SD_LISTEN_FDS_START, val, ret;
	struct sockaddr_un addr;
	socklen_t len = sizeof(val), alen = sizeof(addr);
	struct stat st;

	/* Meant for another process (our parent's LISTEN_* inherited): not ours. */
	if (!pid || !fds || parse_number(pid, 1, 0x7fffffff) != getpid())
		return -1;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	if (parse_number(fds, 0, 0x7fffffff) != 1)
		refuse(prog, "LISTEN_FDS is '%s': want 1, the socket runtimes connect to", fds);
	if (fcntl(fd, F_SETFD, FD_CLOEXEC))
		refuse(prog, "fd %d: %s", fd, strerror(errno));
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
	return fd;
}

int sd_ready(const char *prog, const char *status)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char msg[512];
	socklen_t alen;
	size_t plen;
	int sk, n;

	if (!path)
		return 0;
	plen = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || plen < 2 || plen >= sizeof(addr.sun_path)) {
		fprintf(stderr, "%s: NOTIFY_SOCKET '%s': not a path or an abstract name\n", prog, path);
		return -1;
	}
	memcpy(addr.sun_path, path, plen);
	if (path[0] == '@')
		addr.sun_path[0] = '\0';
	alen = offsetof(struct sockaddr_un, sun_path) + plen + (path[0] == '/');
	n = snprintf(msg, sizeof(msg), "READY=1\nSTATUS=%s\nMAINPID=%d", status, getpid());
	sk = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sk < 0 || sendto(sk, msg, (size_t)n, MSG_NOSIGNAL, (struct sockaddr *)&addr, alen) != n) {
		fprintf(stderr, "%s: READY=1 to NOTIFY_SOCKET %s: %s\n", prog, path, strerror(errno));
		if (sk >= 0)
			close(sk);
		return -1;
	}
	close(sk);
	unsetenv("NOTIFY_SOCKET");
	return 0;
}
