// SPDX-License-Identifier: GPL-2.0
/*
 * agent-client: bind-agent's clients for its tests, a good one and bad ones.
 *
 *	agent-client SOCKET run [--id ID] [--metadata M] [--listen]
 *		-- PROGRAM [ARG...]
 *		what an OCI runtime does: PROGRAM runs (as uid and gid 1000
 *		when we are root) under a filter that sends bind() (and
 *		listen() with --listen) to a listener, which goes to SOCKET
 *		with the container process state; exits with PROGRAM's status
 *	agent-client SOCKET CASE
 *		one bad message: nofd, twofds, notlistener, badjson,
 *		truncated, oversized, silent, badfds, trailing
 *
 * Exits 0 once a bad message is sent, 1 if it could not be (an agent that
 * has read enough to refuse it may hang up before all of it is sent).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>

#include "../seccomp/user-trap-helper.h"

static int fail(const char *what)
{
	fprintf(stderr, "agent-client: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int connect_to(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int sk = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	if (sk < 0 || connect(sk, (struct sockaddr *)&addr, sizeof(addr)))
		fail(path);
	return sk;
}

/* One sendmsg(), as runc and crun send: @len bytes and @nfds fds. */
static int send_state(int sk, const char *buf, size_t len, const int *fds, int nfds)
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} ctl = { 0 };
	struct iovec iov = { (void *)buf, len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (nfds) {
		struct cmsghdr *cm;

		msg.msg_control = ctl.buf;
		msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		cm = &ctl.align;
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(cm), fds, nfds * sizeof(int));
	}
	if (sendmsg(sk, &msg, MSG_NOSIGNAL) == (ssize_t)len)
		return 0;
	fprintf(stderr, "agent-client: sendmsg: %s\n", strerror(errno));
	return -1;
}

static int state_json(char *buf, size_t len, const char *fds, int pid, const char *id,
		      const char *metadata)
{
	return snprintf(buf, len,
			"{\"ociVersion\":\"1.0.2\",\"fds\":[%s],\"pid\":%d,\"metadata\":\"%s\","
			"\"state\":{\"ociVersion\":\"1.0.2\",\"id\":\"%s\",\"status\":\"creating\","
			"\"pid\":%d,\"bundle\":\"/\"}}", fds, pid, metadata, id, pid);
}

/*
 * A child installs the filter and sends us the listener; as root it first
 * becomes uid/gid 1000 (no capabilities), as a container's program would
 * be. It then waits for a byte on @sk before exec'ing @argv (or exits).
 */
/* Send bind() (and listen() if @listen) to a new listener; allow the rest. */
static int trap(int listen)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_bind, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, listen ? __NR_listen : __NR_bind, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };

	return seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}

static pid_t start_child(int *listener, int *go, char **argv, int listen)
{
	int sk[2];
	pid_t pid;
	char c;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sk))
		fail("socketpair");
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		int fd;

		close(sk[0]);
		if (!getuid() && (setgroups(0, NULL) || setresgid(1000, 1000, 1000) ||
				  setresuid(1000, 1000, 1000)))
			fail("becoming uid 1000");
		/* After the uid change, which clears it: we leave no orphan. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			fail("PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS");
		fd = trap(listen);
		if (fd < 0 || send_fd(sk[1], fd))
			fail("the filter");
		close(fd);
		if (read(sk[1], &c, 1) != 1 || !argv)
			_exit(0);
		close(sk[1]);
		execvp(argv[0], argv);
		fail(argv[0]);
	}
	close(sk[1]);
	*listener = recv_fd(sk[0]);
	if (*listener < 0)
		fail("receiving the listener");
	*go = sk[0];
	return pid;
}

static int run(const char *path, int argc, char **argv)
{
	const char *id = "agent-client", *metadata = "";
	int i, listener, go, status, sk, listen = 0;
	char buf[2048];
	pid_t pid;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--id"))
			id = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--metadata"))
			metadata = argv[++i];
		else if (!strcmp(argv[i], "--listen"))
			listen = 1;
		else
			return fprintf(stderr, "agent-client: bad option '%s'\n", argv[i]), 2;
	}
	if (i + 1 >= argc)
		return fprintf(stderr, "agent-client: no program after --\n"), 2;
	pid = start_child(&listener, &go, &argv[i + 1], listen);
	sk = connect_to(path);
	/*
	 * An agent that refuses us may hang up before we are done: the
	 * program runs anyway, its binds fail (ENOSYS) with no listener.
	 */
	send_state(sk, buf, state_json(buf, sizeof(buf), "\"seccompFd\"", pid, id, metadata),
		   &listener, 1);
	/* Like a runtime: hand it over, keep no copy. */
	close(sk);
	close(listener);
	if (write(go, "g", 1) != 1)
		fail("starting the program");
	close(go);
	if (waitpid(pid, &status, 0) != pid)
		fail("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	static char big[70000];
	const char *how = argc > 2 ? argv[2] : "";
	int fds[2], go, sk, n = 0, ret = 0;
	char buf[2048];
	pid_t pid;

	if (argc < 3)
		return fprintf(stderr, "usage: agent-client SOCKET run|CASE ...\n"), 2;
	if (!strcmp(how, "run"))
		return run(argv[1], argc - 3, argv + 3);
	pid = start_child(&fds[0], &go, NULL, 0);
	fds[1] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	n = state_json(buf, sizeof(buf), "\"seccompFd\"", pid, "bad-client", "");
	sk = connect_to(argv[1]);
	if (!strcmp(how, "nofd"))
		ret = send_state(sk, buf, n, NULL, 0);
	else if (!strcmp(how, "twofds"))
		ret = send_state(sk, buf, n, fds, 2);
	else if (!strcmp(how, "notlistener"))
		ret = send_state(sk, buf, n, &fds[1], 1);
	else if (!strcmp(how, "badjson"))
		ret = send_state(sk, "{\"ociVersion\": [}", 17, fds, 1);
	else if (!strcmp(how, "truncated"))
		ret = send_state(sk, buf, n / 2, fds, 1);
	else if (!strcmp(how, "oversized")) {
		/* A state whose metadata string never ends. */
		memset(big, 'a', sizeof(big));
		ret = send_state(sk, "{\"metadata\":\"", 13, fds, 1) ||
		      send_state(sk, big, sizeof(big), NULL, 0);
	} else if (!strcmp(how, "badfds"))
		ret = send_state(sk, buf, state_json(buf, sizeof(buf), "\"notifyFd\"", pid,
						    "bad-client", ""), fds, 1);
	else if (!strcmp(how, "trailing"))
		ret = send_state(sk, buf, n + snprintf(buf + n, sizeof(buf) - n, "{}"), fds, 1);
	else if (strcmp(how, "silent"))
		ret = fprintf(stderr, "agent-client: unknown case '%s'\n", how);
	close(sk);
	close(go);
	waitpid(pid, NULL, 0);
	return ret ? 1 : 0;
}
