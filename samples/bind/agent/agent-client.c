// SPDX-License-Identifier: GPL-2.0
/*
 * agent-client: bind-agent's clients for its tests, a good one and bad ones.
 *
 *	agent-client SOCKET run [--id ID] [--metadata M] [--listen] [--root]
 *		[--netns] [--wait-killable] [--annotations BYTES] -- PROGRAM [ARG...]
 *		what an OCI runtime does: PROGRAM runs (as uid and gid 1000
 *		when we are root; with --root as uid 0 without any capability,
 *		a container's root without a user namespace) under a filter
 *		that sends bind() (and listen() with --listen) to a listener,
 *		which goes to SOCKET with the container process state (with
 *		--annotations, BYTES of annotations in it); with --netns in a
 *		network namespace of its own (lo up); with --wait-killable the
 *		filter has SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (what crun
 *		does with linux.seccomp.flags); exits with PROGRAM's status
 *	agent-client SOCKET CASE
 *		one bad message: nofd, twofds, notlistener, badjson,
 *		truncated, oversized, silent, badfds, trailing
 *	agent-client SOCKET slow N SECONDS
 *		N root clients that each send "{" and then one byte a second
 *		for SECONDS; says how many the agent hung up on, and when
 *
 * Exits 0 once a bad message is sent, 1 if it could not be (an agent that
 * has read enough to refuse it may hang up before all of it is sent).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>

#include "../../seccomp/user-trap-helper.h"

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
 * The same with @bytes of annotations in the state, as runc puts the
 * config's annotations there: one annotation of @bytes - 32 'a's and, as
 * JSON escapes '<' in 6 bytes, 32 more bytes of "\u003c". Returns a
 * malloc()ed string.
 */
static char *state_with_annotations(size_t bytes, int pid, const char *id, const char *metadata,
				    size_t *len)
{
	size_t n = bytes > 64 ? bytes - 32 : 32, used;
	char *buf = malloc(n + 1024);

	if (!buf)
		fail("malloc");
	used = (size_t)snprintf(buf, 1024,
		"{\"ociVersion\":\"1.0.2\",\"fds\":[\"seccompFd\"],\"pid\":%d,\"metadata\":\"%s\","
		"\"state\":{\"ociVersion\":\"1.0.2\",\"id\":\"%s\",\"status\":\"creating\","
		"\"pid\":%d,\"bundle\":\"/\",\"annotations\":{\"big\":\"", pid, metadata, id, pid);
	memset(buf + used, 'a', n - 30);
	used += n - 30;
	for (int i = 0; i < 5; i++)
		used += (size_t)sprintf(buf + used, "\\u003c");
	used += (size_t)sprintf(buf + used, "\"}}}");
	*len = used;
	return buf;
}

/* uid 0 without any capability, as a container's root without a user namespace */
static void drop_capabilities(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED, 0, 0, 0))
		fail("PR_SET_SECUREBITS");
	for (int cap = 0; cap <= 63; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
			fail("PR_CAPBSET_DROP");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) ||
	    syscall(SYS_capset, &hdr, data))
		fail("clearing the capabilities");
}

/* A network namespace of our own, with lo up. */
static void own_netns(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int s;

	if (unshare(CLONE_NEWNET))
		fail("unshare(CLONE_NEWNET)");
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr))
		fail("lo");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr))
		fail("lo up");
	close(s);
}

enum { AS_ROOT = 1, OWN_NETNS = 2, WAIT_KILLABLE = 4 };

/*
 * A child installs the filter and sends us the listener; as root it first
 * becomes uid/gid 1000 (no capabilities), as a container's program would
 * be. It then waits for a byte on @sk before exec'ing @argv (or exits).
 */
/* Send bind() (and listen() if @listen) to a new listener; allow the rest. */
static int trap(int listen, int how)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_bind, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, listen ? __NR_listen : __NR_bind, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };

	return seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER |
		       (how & WAIT_KILLABLE ? SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV : 0), &prog);
}

static pid_t start_child(int *listener, int *go, char **argv, int listen, int how)
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
		if (how & OWN_NETNS)
			own_netns();
		if (how & AS_ROOT)
			drop_capabilities();
		else if (!getuid() && (setgroups(0, NULL) || setresgid(1000, 1000, 1000) ||
				       setresuid(1000, 1000, 1000)))
			fail("becoming uid 1000");
		/* After the uid change, which clears it: we leave no orphan. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			fail("PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS");
		fd = trap(listen, how);
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
	int i, listener, go, status, sk, listen = 0, how = 0;
	size_t annotations = 0, len;
	char buf[2048], *state = buf;
	pid_t pid;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--id"))
			id = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--metadata"))
			metadata = argv[++i];
		else if (!strcmp(argv[i], "--listen"))
			listen = 1;
		else if (!strcmp(argv[i], "--root"))
			how |= AS_ROOT;
		else if (!strcmp(argv[i], "--netns"))
			how |= OWN_NETNS;
		else if (!strcmp(argv[i], "--wait-killable"))
			how |= WAIT_KILLABLE;
		else if (i + 1 < argc && !strcmp(argv[i], "--annotations"))
			annotations = strtoul(argv[++i], NULL, 10);
		else
			return fprintf(stderr, "agent-client: bad option '%s'\n", argv[i]), 2;
	}
	if (i + 1 >= argc)
		return fprintf(stderr, "agent-client: no program after --\n"), 2;
	pid = start_child(&listener, &go, &argv[i + 1], listen, how);
	sk = connect_to(path);
	if (annotations)
		state = state_with_annotations(annotations, pid, id, metadata, &len);
	else
		len = (size_t)state_json(buf, sizeof(buf), "\"seccompFd\"", pid, id, metadata);
	/*
	 * An agent that refuses us may hang up before we are done: the
	 * program runs anyway, its binds fail (ENOSYS) with no listener.
	 */
	send_state(sk, state, len, &listener, 1);
	if (state != buf)
		free(state);
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

static char buf_dummy[1];

/*
 * agent-client SOCKET slow N SECONDS: N clients that send "{" and then a
 * space a second. Each runs into the agent's deadline for the whole
 * message, or into its limit of clients: either way it is hung up on.
 */
static int slow(const char *path, int n, int seconds)
{
	int *sk, dropped = 0, last = -1;
	time_t t0 = time(NULL);

	if (n < 1 || seconds < 1)
		return fprintf(stderr, "agent-client: slow N SECONDS\n"), 2;
	sk = calloc(n, sizeof(int));
	if (!sk)
		fail("calloc");
	for (int i = 0; i < n; i++) {
		sk[i] = connect_to(path);
		if (send(sk[i], "{", 1, MSG_NOSIGNAL) != 1)
			close(sk[i]), sk[i] = -1, dropped++;
	}
	for (int s = 1; s <= seconds && dropped < n; s++) {
		sleep(1);
		for (int i = 0; i < n; i++) {
			struct pollfd pfd = { sk[i], POLLIN, 0 };

			if (sk[i] < 0)
				continue;
			/* the agent hangs up: readable (EOF), or the send fails */
			if ((poll(&pfd, 1, 0) == 1 && recv(sk[i], buf_dummy, 1, MSG_DONTWAIT) <= 0) ||
			    send(sk[i], " ", 1, MSG_NOSIGNAL) != 1) {
				close(sk[i]);
				sk[i] = -1;
				dropped++;
				last = (int)(time(NULL) - t0);
			}
		}
	}
	for (int i = 0; i < n; i++)
		if (sk[i] >= 0)
			close(sk[i]);
	free(sk);
	printf("slow: %d of %d clients hung up on by the agent within %d s (the last after %d s)\n",
	       dropped, n, seconds, last);
	return 0;
}

int main(int argc, char **argv)
{
	static char big[3 << 20];
	const char *how = argc > 2 ? argv[2] : "";
	int fds[2], go, sk, n = 0, ret = 0;
	char buf[2048];
	pid_t pid;

	if (argc < 3)
		return fprintf(stderr, "usage: agent-client SOCKET run|CASE ...\n"), 2;
	if (!strcmp(how, "run"))
		return run(argv[1], argc - 3, argv + 3);
	if (!strcmp(how, "slow") && argc == 5)
		return slow(argv[1], atoi(argv[3]), atoi(argv[4]));
	pid = start_child(&fds[0], &go, NULL, 0, 0);
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
