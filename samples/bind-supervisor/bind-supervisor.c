// SPDX-License-Identifier: GPL-2.0
/*
 * bind-supervisor: run an unmodified program as an unprivileged user and
 * grant it privileged ports by policy.
 *
 *	bind-supervisor --user USER --allow tcp:80 [--allow udp:53 ...] -- PROGRAM [ARG...]
 *
 * The program runs as USER (a name or a uid), without capabilities and with
 * no_new_privs, under a seccomp filter that sends its bind() calls here.
 * For a bind() to an allowed privileged port, the supervisor (which keeps
 * CAP_NET_BIND_SERVICE) takes the socket out of the program with
 * PIDFD_IOCTL_GETFD and binds it itself; a privileged port that is not
 * allowed gets EACCES; anything else goes on to the kernel unchanged.
 * It exits with the program's exit status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/pidfd.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../seccomp/user-trap-helper.h"

#define MAX_ALLOW 64

struct rule {
	int type;		/* SOCK_STREAM or SOCK_DGRAM */
	unsigned short port;
};

static struct rule allowed[MAX_ALLOW];
static int nallowed;
static int verbose;

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "bind-supervisor: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nusage: bind-supervisor [-v] --user USER --allow tcp|udp:PORT... -- PROGRAM [ARG...]\n");
	exit(2);
}

static void parse_allow(const char *spec)
{
	struct rule r;
	const char *port;
	char *end;
	long n;

	if (!strncmp(spec, "tcp:", 4))
		r.type = SOCK_STREAM;
	else if (!strncmp(spec, "udp:", 4))
		r.type = SOCK_DGRAM;
	else
		usage_error("bad port spec '%s': want tcp:PORT or udp:PORT", spec);
	port = spec + 4;
	errno = 0;
	n = strtol(port, &end, 10);
	if (errno || end == port || *end || n < 1 || n > 65535)
		usage_error("bad port in '%s': want 1-65535", spec);
	if (nallowed == MAX_ALLOW)
		usage_error("too many --allow rules (at most 64): '%s'", spec);
	r.port = (unsigned short)n;
	allowed[nallowed++] = r;
}

/*
 * /etc/passwd is read directly (fgetpwent), not through NSS: a static
 * binary cannot load NSS modules.
 */
static struct passwd *find_user(const char *name, uid_t uid)
{
	FILE *f = fopen("/etc/passwd", "re");
	struct passwd *pw = NULL;

	while (f && (pw = fgetpwent(f)))
		if (name ? !strcmp(pw->pw_name, name) : pw->pw_uid == uid)
			break;
	if (f)
		fclose(f);
	return pw;
}

static void parse_user(const char *user, uid_t *uid, gid_t *gid)
{
	struct passwd *pw = find_user(user, 0);
	char *end;
	long n;

	if (pw) {
		*uid = pw->pw_uid;
		*gid = pw->pw_gid;
		return;
	}
	errno = 0;
	n = strtol(user, &end, 10);
	if (errno || end == user || *end || n < 0 || n > 0x7fffffffL)
		usage_error("unknown user '%s'", user);
	*uid = (uid_t)n;
	pw = find_user(NULL, *uid);
	*gid = pw ? pw->pw_gid : (gid_t)n;
}

#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined(__arm__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_ARM
#else
#error "bind-supervisor: add this architecture's AUDIT_ARCH_*"
#endif

/*
 * Trap bind() of our own ABI only: syscall numbers mean other things in
 * another ABI (49 is bind on x86_64 but geteuid on i386). A program of
 * another ABI, or one whose libc binds through socketcall(2), is not
 * trapped: it has no capabilities, so the kernel refuses its privileged
 * binds (EACCES) and it gets nothing it could not have anyway.
 */
static int trap_bind(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_bind, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	return seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}

static int is_allowed(int type, unsigned short port)
{
	for (int i = 0; i < nallowed; i++)
		if (allowed[i].type == type && allowed[i].port == port)
			return 1;
	return 0;
}

/* Runs in the child: become the user, trap bind(), hand over the listener. */
static void run_child(int sk, uid_t uid, gid_t gid, char **argv)
{
	sigset_t none;
	int listener;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	if (setgroups(0, NULL) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
		perror("bind-supervisor: dropping to the user");
		_exit(126);
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		perror("bind-supervisor: prctl(PR_SET_NO_NEW_PRIVS)");
		_exit(126);
	}
	listener = trap_bind();
	if (listener < 0) {
		perror("bind-supervisor: seccomp(SECCOMP_SET_MODE_FILTER)");
		_exit(126);
	}
	if (send_fd(sk, listener) < 0)
		_exit(126);
	close(listener);
	close(sk);
	execvp(argv[0], argv);
	fprintf(stderr, "bind-supervisor: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/*
 * pidfd_open() wants a thread-group leader; a notification names the
 * thread that trapped, so look up its leader: they share the fd table.
 */
static int open_process(pid_t tid)
{
	char path[64], line[128];
	int pidfd = syscall(__NR_pidfd_open, tid, 0);
	FILE *f;

	if (pidfd >= 0 || errno != EINVAL)
		return pidfd;
	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5)) {
			pidfd = syscall(__NR_pidfd_open, atoi(line + 5), 0);
			break;
		}
	fclose(f);
	return pidfd;
}

static int id_valid(int listener, __u64 id)
{
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

/* Decide one bind(); fill in resp. Returns a word for the log. */
static const char *handle(int listener, struct seccomp_notif *req,
			  struct seccomp_notif_resp *resp)
{
	struct sockaddr_storage addr = { 0 };
	socklen_t len = (socklen_t)req->data.args[2];
	struct iovec local = { &addr, sizeof(addr) };
	struct iovec remote = { (void *)(uintptr_t)req->data.args[1], sizeof(addr) };
	unsigned short port;
	int pidfd, fd, type = 0, domain = 0;
	socklen_t optlen = sizeof(int);
	const char *what;

	resp->id = req->id;
	resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;

	/* Copy the address once: what is checked is what gets bound. */
	if (len > sizeof(addr))
		len = sizeof(addr);
	remote.iov_len = len;
	if (len < sizeof(sa_family_t) ||
	    process_vm_readv(req->pid, &local, 1, &remote, 1, 0) != (ssize_t)len)
		return "continue (address not readable here)";
	if (!id_valid(listener, req->id))
		return "gone";
	if (addr.ss_family == AF_INET && len >= sizeof(struct sockaddr_in))
		port = ntohs(((struct sockaddr_in *)&addr)->sin_port);
	else if (addr.ss_family == AF_INET6 && len >= sizeof(struct sockaddr_in6))
		port = ntohs(((struct sockaddr_in6 *)&addr)->sin6_port);
	else
		return "continue (not AF_INET/AF_INET6)";
	/*
	 * Unprivileged ports go on to the kernel. The program could change
	 * the address in between, but only to what it may bind anyway: it
	 * has no capabilities, so the kernel refuses privileged ports.
	 */
	if (port == 0 || port >= 1024)
		return "continue (unprivileged port)";

	resp->flags = 0;
	resp->error = -EACCES;
	pidfd = open_process(req->pid);
	if (pidfd < 0)
		return "denied (pidfd_open failed)";
	{
		struct pidfd_getfd_args args = {
			.size = sizeof(args),
			.fd = (__u32)req->data.args[0],
			.flags = PIDFD_GETFD_CLOEXEC,
		};

		fd = ioctl(pidfd, PIDFD_IOCTL_GETFD, &args);
	}
	close(pidfd);
	if (fd < 0) {
		resp->error = -errno;
		return "failed (PIDFD_IOCTL_GETFD)";
	}
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &optlen) ||
	    getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &optlen) ||
	    domain != addr.ss_family) {
		/* Not a socket, or not of that family: let the kernel say so. */
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		resp->error = 0;
		what = "continue (not a socket of that family)";
	} else if (!is_allowed(type, port)) {
		what = "denied (EACCES)";
	} else if (!id_valid(listener, req->id)) {
		what = "gone";
	} else if (bind(fd, (struct sockaddr *)&addr, len)) {
		resp->error = -errno;
		what = "allowed, bind failed";
	} else {
		resp->error = 0;
		what = "allowed, bound";
	}
	close(fd);
	if (verbose)
		fprintf(stderr, "bind-supervisor: pid %d %s port %u: %s\n", req->pid,
			type == SOCK_DGRAM ? "udp" : "tcp", port, what);
	return what;
}

/*
 * The listener hangs up once no task uses the filter any more, which is
 * when the last of them has been reaped: as a child subreaper, we reap the
 * program and everything it leaves behind, and so see that hang-up.
 */
static int supervise(int listener, int sigchld, pid_t child)
{
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	int status = 0, wstatus;
	pid_t pid;

	if (seccomp(SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0) {
		perror("bind-supervisor: seccomp(SECCOMP_GET_NOTIF_SIZES)");
		return -1;
	}
	req = malloc(sizes.seccomp_notif);
	resp = malloc(sizes.seccomp_notif_resp);
	if (!req || !resp)
		return -1;

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = listener, .events = POLLIN },
			{ .fd = sigchld, .events = POLLIN },
		};
		struct signalfd_siginfo si;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("bind-supervisor: poll");
			return -1;
		}
		if (pfd[1].revents & POLLIN) {
			while (read(sigchld, &si, sizeof(si)) == sizeof(si))
				;
			while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0)
				if (pid == child)
					status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) :
						 128 + WTERMSIG(wstatus);
		}
		if (pfd[0].revents & POLLIN) {
			memset(req, 0, sizes.seccomp_notif);
			if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req)) {
				if (errno == EINTR || errno == ENOENT)
					continue;
				perror("bind-supervisor: SECCOMP_IOCTL_NOTIF_RECV");
				return -1;
			}
			memset(resp, 0, sizes.seccomp_notif_resp);
			handle(listener, req, resp);
			/* ENOENT: the caller died or was interrupted meanwhile. */
			if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp) &&
			    errno != ENOENT) {
				perror("bind-supervisor: SECCOMP_IOCTL_NOTIF_SEND");
				return -1;
			}
		} else if (pfd[0].revents & (POLLHUP | POLLERR)) {
			break;
		}
	}
	free(req);
	free(resp);
	return status;
}

int main(int argc, char **argv)
{
	const char *user = NULL;
	int i, sk[2], listener, sigchld, ret;
	sigset_t mask;
	uid_t uid;
	gid_t gid;
	pid_t child;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--user") && i + 1 < argc) {
			user = argv[++i];
		} else if (!strcmp(argv[i], "--allow") && i + 1 < argc) {
			parse_allow(argv[++i]);
		} else if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else {
			usage_error("unknown or incomplete option '%s'", argv[i]);
		}
	}
	if (!user)
		usage_error("%s", "--user is required");
	if (i >= argc)
		usage_error("%s", "no program given after --");
	parse_user(user, &uid, &gid);

	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sigchld = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sigchld < 0 || prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) {
		perror("bind-supervisor: signalfd/PR_SET_CHILD_SUBREAPER");
		return 1;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sk)) {
		perror("bind-supervisor: socketpair");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("bind-supervisor: fork");
		return 1;
	}
	if (child == 0) {
		close(sk[0]);
		run_child(sk[1], uid, gid, &argv[i]);
	}
	close(sk[1]);
	listener = recv_fd(sk[0]);
	close(sk[0]);
	if (listener < 0) {
		fprintf(stderr, "bind-supervisor: the child did not start\n");
		waitpid(child, &ret, 0);
		return WIFEXITED(ret) ? WEXITSTATUS(ret) : 1;
	}
	ret = supervise(listener, sigchld, child);
	if (ret < 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return 1;
	}
	return ret;
}
