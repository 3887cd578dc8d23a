// SPDX-License-Identifier: GPL-2.0
/*
 * A seccomp supervisor that does a sandboxed child's bind() for it: the
 * child binds a TCP socket to port 80 and an AF_UNIX socket; the parent
 * reads the address, lets the AF_UNIX bind go on to the kernel, and for the
 * AF_INET one takes the socket out of the child with PIDFD_IOCTL_GETFD and
 * binds it to 127.0.0.1:4998 itself.
 *
 * It shows PIDFD_IOCTL_GETFD, which it comes with.  pidfd_getfd(2) (Linux
 * 5.6) does the same fetch, pidfd_getfd(pidfd, fd, 0), and is what to use
 * on a kernel without the ioctl, which answers it with ENOTTY.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <linux/pidfd.h>
#include <linux/seccomp.h>

#include "user-trap-helper.h"

#define SUPERVISOR_PORT 4998

static int sandboxed(int sk)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(80) };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	socklen_t len = sizeof(in);
	int listener, s, u;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		perror("child: prctl(PR_SET_NO_NEW_PRIVS)");
		return 1;
	}
	listener = user_trap_syscall(__NR_bind, SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (listener < 0) {
		perror("child: seccomp(SECCOMP_SET_MODE_FILTER)");
		return 1;
	}
	if (send_fd(sk, listener) < 0)
		return 1;
	close(listener);

	/*
	 * bind(2) itself: the filter traps __NR_bind only, and some C
	 * libraries (i386 glibc) bind through socketcall(2).
	 */
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0 || syscall(__NR_bind, s, (struct sockaddr *)&in, sizeof(in))) {
		perror("child: bind(AF_INET, port 80)");
		return 1;
	}
	if (getsockname(s, (struct sockaddr *)&in, &len)) {
		perror("child: getsockname");
		return 1;
	}
	printf("child: bind() to port 80 returned 0; getsockname() says %s:%d\n",
	       inet_ntoa(in.sin_addr), ntohs(in.sin_port));

	/* An abstract AF_UNIX address: the supervisor lets the kernel do it. */
	snprintf(un.sun_path + 1, sizeof(un.sun_path) - 1, "user-trap-pidfd");
	u = socket(AF_UNIX, SOCK_STREAM, 0);
	if (u < 0 || syscall(__NR_bind, u, (struct sockaddr *)&un, sizeof(un))) {
		perror("child: bind(AF_UNIX)");
		return 1;
	}
	printf("child: bind() of an AF_UNIX socket returned 0\n");
	return ntohs(in.sin_port) == SUPERVISOR_PORT ? 0 : 1;
}

/* Handle one trapped bind(); returns 0, or -1 after saying what failed. */
static int handle(int listener, struct seccomp_notif *req,
		  struct seccomp_notif_resp *resp)
{
	struct sockaddr_in in = {
		.sin_family = AF_INET,
		.sin_port = htons(SUPERVISOR_PORT),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct pidfd_getfd_args args = {
		.size = sizeof(args),
		.fd = (__u32)req->data.args[0],
		.flags = PIDFD_GETFD_CLOEXEC,
	};
	struct sockaddr_in want;
	int domain = 0;
	socklen_t domain_len = sizeof(domain);
	struct iovec local = { &want, sizeof(want) };
	struct iovec remote = {
		(void *)(unsigned long)req->data.args[1], sizeof(want)
	};
	int pidfd, fd;

	resp->id = req->id;
	/*
	 * Decide on a copy of the address, before taking anything: only an
	 * AF_INET bind is ours; the kernel does the rest (here, AF_UNIX).
	 */
	if ((int)req->data.args[2] < (int)sizeof(want) ||
	    process_vm_readv(req->pid, &local, 1, &remote, 1, 0) != sizeof(want) ||
	    want.sin_family != AF_INET) {
		printf("parent: a bind() that is not AF_INET: let the kernel do it\n");
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		return 0;
	}
	pidfd = syscall(__NR_pidfd_open, req->pid, 0);
	if (pidfd < 0) {
		perror("parent: pidfd_open");
		return -1;
	}
	/*
	 * The child may have died and its pid been reused between the
	 * notification and pidfd_open(): only while the notification is still
	 * valid does the pidfd refer to the process that trapped.
	 */
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id)) {
		perror("parent: SECCOMP_IOCTL_NOTIF_ID_VALID");
		close(pidfd);
		return -1;
	}
	fd = ioctl(pidfd, PIDFD_IOCTL_GETFD, &args);
	close(pidfd);
	if (fd < 0) {
		perror("parent: ioctl(PIDFD_IOCTL_GETFD)");
		return -1;
	}
	/*
	 * The fd number is the child's to change: another of its threads may
	 * have closed it or dup2()ed another file over it since the trap.
	 * Judge the file we got, not the number.
	 */
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &domain_len) ||
	    domain != AF_INET) {
		printf("parent: fd %u is no AF_INET socket now: refused\n", args.fd);
		resp->error = -EINVAL;
	} else if (bind(fd, (struct sockaddr *)&in, sizeof(in))) {
		resp->error = -errno;
		perror("parent: bind");
	} else {
		printf("parent: bound the child's socket to 127.0.0.1:%d\n",
		       SUPERVISOR_PORT);
	}
	close(fd);
	return 0;
}

int main(void)
{
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	int sk_pair[2], listener, status, handled = 0;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sk_pair)) {
		perror("socketpair");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		close(sk_pair[0]);
		exit(sandboxed(sk_pair[1]));
	}
	close(sk_pair[1]);

	listener = recv_fd(sk_pair[0]);
	if (listener < 0)
		return 1;
	if (seccomp(SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0) {
		perror("seccomp(SECCOMP_GET_NOTIF_SIZES)");
		return 1;
	}
	req = malloc(sizes.seccomp_notif);
	resp = malloc(sizes.seccomp_notif_resp);
	if (!req || !resp) {
		perror("parent: malloc");
		return 1;
	}

	/* The child binds twice: once AF_INET, once AF_UNIX. */
	while (handled < 2) {
		memset(req, 0, sizes.seccomp_notif);
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req)) {
			perror("parent: SECCOMP_IOCTL_NOTIF_RECV");
			goto fail;
		}
		memset(resp, 0, sizes.seccomp_notif_resp);
		if (handle(listener, req, resp))
			goto fail;
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp)) {
			perror("parent: SECCOMP_IOCTL_NOTIF_SEND");
			goto fail;
		}
		handled++;
	}
	if (waitpid(pid, &status, 0) != pid) {
		perror("waitpid");
		return 1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "child failed\n");
		return 1;
	}
	printf("user-trap-pidfd: ok\n");
	return 0;
fail:
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return 1;
}
