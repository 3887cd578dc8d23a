// SPDX-License-Identifier: GPL-2.0
/*
 * bind-supervisor: run an unmodified program as an unprivileged user and
 * grant it privileged ports by policy.
 *
 *	bind-supervisor [-v] [--fetch auto|ioctl|syscall] --user USER
 *		[--allow tcp:PORT|udp:PORT ...] -- PROGRAM [ARG...]
 *
 * The program runs as USER (never root) in a new session, with no
 * capabilities in any set, locked securebits and no_new_privs, under a
 * seccomp filter that sends its bind() calls here and refuses TIOCSTI and
 * TIOCLINUX. For a bind() to an allowed privileged port, the supervisor
 * (which keeps CAP_NET_BIND_SERVICE) takes the socket out of the program
 * with PIDFD_IOCTL_GETFD, or pidfd_getfd(2) on kernels without it, and
 * binds it itself; a privileged port that is not allowed gets EACCES;
 * anything else goes on to the kernel unchanged, which is safe because the
 * program can bind nothing privileged on its own. Whatever goes wrong on
 * the supervisor's side is EACCES for the program and a line on stderr.
 * It exits with the program's exit status. docs/bind-supervisor.md has the
 * threat model.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/kcmp.h>
#include <linux/keyctl.h>
#include <linux/net.h>
#include <linux/pidfd.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
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
#include "supervise.h"

#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif

#define MAX_ALLOW 64
#define MAX_GROUPS 64
#define WORKERS 4	/* notifications answered at once */

struct rule {
	int type, protocol;	/* SOCK_STREAM/IPPROTO_TCP or SOCK_DGRAM/IPPROTO_UDP */
	unsigned short port;
};

static struct rule allowed[MAX_ALLOW];
static int nallowed, verbose, listener;
static unsigned int unpriv_start;	/* net.ipv4.ip_unprivileged_port_start */
static enum { FETCH_AUTO, FETCH_IOCTL, FETCH_SYSCALL } fetch_method;

static const char usage[] =
	"usage: bind-supervisor [-v] [--fetch auto|ioctl|syscall] --user USER\n"
	"                       [--allow tcp:PORT|udp:PORT ...] -- PROGRAM [ARG...]\n"
	"Run PROGRAM as USER (a name or a uid; not root) without capabilities, and\n"
	"bind its sockets to the privileged ports --allow names for it.\n"
	"  -v       log every decision on stderr\n"
	"  --help   this text\n"
	"  --fetch  how to take a socket from the program (default auto: the\n"
	"           PIDFD_IOCTL_GETFD ioctl, else pidfd_getfd(2))\n";

static void __attribute__((format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bind-supervisor: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s", usage);
	exit(2);
}

/* A decimal number, digits only, in [min, max]; -1 if it is not one. */
static long parse_number(const char *s, long min, long max)
{
	long n = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > max)
			return -1;
		n = n * 10 + (*s - '0');
	}
	return n < min || n > max ? -1 : n;
}

static void parse_allow(const char *spec)
{
	struct rule r = { SOCK_STREAM, IPPROTO_TCP, 0 };
	long port;

	if (!strncmp(spec, "udp:", 4))
		r = (struct rule){ SOCK_DGRAM, IPPROTO_UDP, 0 };
	else if (strncmp(spec, "tcp:", 4))
		usage_error("bad port spec '%s': want tcp:PORT or udp:PORT", spec);
	port = parse_number(spec + 4, 1, 65535);
	if (port < 0)
		usage_error("bad port in '%s': want 1-65535", spec);
	if ((unsigned long)port >= unpriv_start)
		usage_error("port %ld of '%s' is not privileged here (net.ipv4.ip_unprivileged_port_start is %u): nothing to allow",
			    port, spec, unpriv_start);
	if (nallowed == MAX_ALLOW)
		usage_error("too many --allow rules (at most %d): '%s'", MAX_ALLOW, spec);
	r.port = (unsigned short)port;
	allowed[nallowed++] = r;
}

/* The privileged range of the child's network namespace, which is ours. */
static void read_unpriv_start(void)
{
	FILE *f = fopen("/proc/sys/net/ipv4/ip_unprivileged_port_start", "re");

	if (!f || fscanf(f, "%u", &unpriv_start) != 1) {
		perror("bind-supervisor: net.ipv4.ip_unprivileged_port_start");
		exit(1);
	}
	fclose(f);
}

struct user {
	uid_t uid;
	gid_t groups[MAX_GROUPS];	/* [0] is the primary group */
	int ngroups;
};

/* initgroups(3) for a static binary: @name's supplementary groups. */
static void add_groups(const char *name, struct user *u)
{
	FILE *f = fopen("/etc/group", "re");
	struct group *gr;

	while (f && (gr = fgetgrent(f)))
		for (char **m = gr->gr_mem; *m; m++)
			if (!strcmp(*m, name) && gr->gr_gid != u->groups[0]) {
				if (u->ngroups == MAX_GROUPS)
					usage_error("user '%s' is in too many groups", name);
				u->groups[u->ngroups++] = gr->gr_gid;
			}
	if (f)
		fclose(f);
}

/*
 * /etc/passwd and /etc/group are read directly (fgetpwent, fgetgrent),
 * not through NSS: a static binary cannot load NSS modules.
 */
static int find_user(const char *name, uid_t uid, struct user *u)
{
	FILE *f = fopen("/etc/passwd", "re");
	struct passwd *pw = NULL;

	while (f && (pw = fgetpwent(f)))
		if (name ? !strcmp(pw->pw_name, name) : pw->pw_uid == uid)
			break;
	if (pw) {
		u->uid = pw->pw_uid;
		u->groups[0] = pw->pw_gid;
		u->ngroups = 1;
		add_groups(pw->pw_name, u);
	}
	if (f)
		fclose(f);
	return pw ? 0 : -1;
}

static void parse_user(const char *arg, struct user *u)
{
	long n;

	if (find_user(arg, 0, u)) {
		n = parse_number(arg, 0, 0x7fffffffL);
		if (n < 0)
			usage_error("unknown user '%s'", arg);
		/* A uid not in /etc/passwd: its own gid, no other group. */
		u->uid = (uid_t)n;
		u->groups[0] = (gid_t)n;
		u->ngroups = 1;
		find_user(NULL, u->uid, u);
	}
	/* -1 is "leave unchanged" to setresuid() and setresgid(): root again. */
	if (u->uid == 0 || u->uid == (uid_t)-1)
		usage_error("refusing --user %s: the program must not run as uid 0 or -1", arg);
	for (int i = 0; i < u->ngroups; i++)
		if (u->groups[i] == 0 || u->groups[i] == (gid_t)-1)
			usage_error("refusing --user %s: the program must not run with gid 0 or -1", arg);
}

/*
 * The seccomp filter: one block per ABI the kernel may run the program in
 * (syscall numbers mean other things in another ABI: 49 is bind on x86_64
 * but geteuid on i386). It traps bind() and socketcall(SYS_BIND), answers
 * TIOCSTI and TIOCLINUX with EPERM, refuses x32, and kills a process of an
 * ABI it does not know.
 */
struct abi {
	__u32 arch, bind, socketcall, ioctl, word;	/* word: sizeof(long) */
	__u32 badnr;	/* JSET mask of numbers to refuse (x32) */
};

#define NO_SOCKETCALL(nr) (nr)	/* socketcall == bind: never reached */
static const struct abi abis[] = {
	{ AUDIT_ARCH_X86_64, 49, NO_SOCKETCALL(49), 16, 8, 0x40000000 },
	{ AUDIT_ARCH_I386, 361, 102, 54, 4, 0 },
	{ AUDIT_ARCH_AARCH64, 200, NO_SOCKETCALL(200), 29, 8, 0 },
	{ AUDIT_ARCH_ARM, 282, NO_SOCKETCALL(282), 54, 4, 0 },
};

#define NABIS (sizeof(abis) / sizeof(abis[0]))
#define ABI_INSNS 17
/* Low 32 bits of an argument: ioctl's cmd and socketcall's call are ints. */
#define ARG_LO(n) (offsetof(struct seccomp_data, args[n]) + \
		   (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? 4 : 0))
#define LD(off) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, off)
#define JEQ(k, t, f) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, t, f)
#define RET(k) BPF_STMT(BPF_RET | BPF_K, k)

static int install_filter(void)
{
	struct sock_filter filter[NABIS * ABI_INSNS + 1];
	struct sock_fprog prog = { .len = NABIS * ABI_INSNS + 1, .filter = filter };

	for (size_t i = 0; i < NABIS; i++) {
		const struct abi *a = &abis[i];
		struct sock_filter block[ABI_INSNS] = {
			/* 0 */ LD(offsetof(struct seccomp_data, arch)),
			/* 1 */ JEQ(a->arch, 0, 15),	/* else the next block */
			/* 2 */ LD(offsetof(struct seccomp_data, nr)),
			/* 3 */ BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, a->badnr, 0, 1),
			/* 4 */ RET(SECCOMP_RET_ERRNO | ENOSYS),
			/* 5 */ JEQ(a->bind, 4, 0),
			/* 6 */ JEQ(a->socketcall, 0, 4),
			/* 7 */ LD(ARG_LO(0)),
			/* 8 */ JEQ(SYS_BIND, 1, 0),
			/* 9 */ RET(SECCOMP_RET_ALLOW),
			/* 10 */ RET(SECCOMP_RET_USER_NOTIF),
			/* 11 */ JEQ(a->ioctl, 0, 4),
			/* 12 */ LD(ARG_LO(1)),
			/* 13 */ JEQ(TIOCSTI, 1, 0),
			/* 14 */ JEQ(TIOCLINUX, 0, 1),
			/* 15 */ RET(SECCOMP_RET_ERRNO | EPERM),
			/* 16 */ RET(SECCOMP_RET_ALLOW),
		};

		memcpy(&filter[i * ABI_INSNS], block, sizeof(block));
	}
	filter[NABIS * ABI_INSNS] = (struct sock_filter)RET(SECCOMP_RET_KILL_PROCESS);
	/* Once we have the notification, a signal must not abort the call. */
	return seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER |
		       SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, &prog);
}

static int capset_zero(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	return syscall(SYS_capset, &hdr, data);
}

/* Nonzero if any capability is left in any set, or securebits unlocked. */
static int capabilities_left(int last_cap, int secbits)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	int left = 0;

	if (syscall(SYS_capget, &hdr, data))
		return 1;
	for (int i = 0; i < 2; i++)
		left |= data[i].permitted | data[i].effective | data[i].inheritable;
	for (int cap = 0; cap <= last_cap; cap++)
		left |= prctl(PR_CAPBSET_READ, cap, 0, 0, 0) != 0 ||
			prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, cap, 0, 0) != 0;
	return left || prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) != secbits;
}

/* Whether any real, effective, saved uid or gid, or a group, is not the user's. */
static int ids_differ(const struct user *u)
{
	uid_t r, e, s;
	gid_t gr, ge, gs, groups[MAX_GROUPS + 1];
	int n = getgroups(MAX_GROUPS + 1, groups);

	if (getresuid(&r, &e, &s) || r != u->uid || e != u->uid || s != u->uid ||
	    getresgid(&gr, &ge, &gs) || gr != u->groups[0] || ge != gr || gs != gr ||
	    n != u->ngroups)
		return 1;
	/* The kernel keeps groups sorted: compare as sets. */
	for (int i = 0; i < n; i++) {
		int j = 0;

		while (j < u->ngroups && u->groups[j] != groups[i])
			j++;
		if (j == u->ngroups)
			return 1;
	}
	return 0;
}

static void child_fail(const char *what)
{
	fprintf(stderr, "bind-supervisor: %s: %s; not running the program\n", what,
		strerror(errno));
	_exit(126);
}

/*
 * Become the user, with nothing left that could make the program
 * privileged, and verify it. The bounding set and the securebits need
 * CAP_SETPCAP, so they go first; with NO_SETUID_FIXUP the uid change
 * clears nothing by itself, so the capsets are cleared explicitly.
 */
static void drop_privileges(const struct user *u)
{
	const int secbits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
		SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
		SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
		SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "re");
	int last_cap = -1;

	if (!f || fscanf(f, "%d", &last_cap) != 1 || last_cap < 0 || last_cap > 63)
		child_fail("/proc/sys/kernel/cap_last_cap");
	fclose(f);
	if (setgroups(u->ngroups, u->groups))
		child_fail("setgroups");
	if (setresgid(u->groups[0], u->groups[0], u->groups[0]))
		child_fail("setresgid");
	for (int cap = 0; cap <= last_cap; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0))
			child_fail("dropping the capability bounding set (needs CAP_SETPCAP)");
	if (prctl(PR_SET_SECUREBITS, secbits, 0, 0, 0))
		child_fail("locking the securebits");
	if (setresuid(u->uid, u->uid, u->uid))
		child_fail("setresuid");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) || capset_zero())
		child_fail("clearing the capabilities");
	errno = EPERM;
	if (capabilities_left(last_cap, secbits))
		child_fail("capabilities left after dropping them");
	if (ids_differ(u))
		child_fail("uids or gids other than the user's left after the change");
	/*
	 * Root's session keyring survives the uid change and exec, and its
	 * possessor may use its keys: give the program a keyring of its own
	 * (a kernel without keyrings has nothing to leak).
	 */
	if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 && errno != ENOSYS)
		child_fail("joining a session keyring of the user's own");
}

/* Runs in the child: become the user, trap bind(), hand over the listener. */
static void run_child(int sk, const struct user *u, pid_t parent, char **argv)
{
	sigset_t none;
	int fd;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* No controlling terminal to push input into (TIOCSTI). */
	if (setsid() < 0)
		child_fail("setsid");
	/*
	 * Nor the invoker's terminal as an open fd: without job control the
	 * program could read the keystrokes meant for the shell.
	 */
	for (fd = 0; fd < 3; fd++) {
		int null;

		if (!isatty(fd))
			continue;
		fprintf(stderr, "bind-supervisor: fd %d is a terminal: the program gets /dev/null\n", fd);
		/* open(2) through syscall(2): <fcntl.h> clashes with linux/pidfd.h */
		null = syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDWR | O_CLOEXEC);
		if (null < 0 || dup2(null, fd) != fd)
			child_fail("replacing a terminal with /dev/null");
		close(null);
	}
	drop_privileges(u);
	/* After the uid change, which clears it; then the parent may be gone. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) || getppid() != parent)
		child_fail("PR_SET_PDEATHSIG, or the supervisor is gone");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		child_fail("prctl(PR_SET_NO_NEW_PRIVS)");
	fd = install_filter();
	if (fd < 0)
		child_fail("seccomp(SECCOMP_SET_MODE_FILTER)");
	if (send_fd(sk, fd) < 0)
		child_fail("sending the listener");
	/* Nothing of ours leaks into the program: not sk, not the listener. */
	if (close_range(3, ~0U, 0))
		child_fail("close_range");
	execvp(argv[0], argv);
	fprintf(stderr, "bind-supervisor: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int fetch(int pidfd, int fd)
{
	struct pidfd_getfd_args args = {
		.size = sizeof(args),
		.fd = (__u32)fd,
		.flags = PIDFD_GETFD_CLOEXEC,
	};

	if (fetch_method == FETCH_IOCTL)
		return ioctl(pidfd, PIDFD_IOCTL_GETFD, &args);
	return syscall(__NR_pidfd_getfd, pidfd, fd, 0);
}

/*
 * Use PIDFD_IOCTL_GETFD where the kernel has it, else pidfd_getfd(2). A
 * kernel without it says ENOTTY (6.1), or EINVAL where pidfs refuses any
 * command with an argument before looking at the command (6.12 as Debian
 * ships it; mainline's 8ce352818820 makes that ENOTTY): the arguments
 * here are valid, so neither can mean anything else.
 */
static void probe_fetch(void)
{
	int pidfd = syscall(__NR_pidfd_open, getpid(), 0), fd = -1;
	int want = fetch_method;

	if (pidfd < 0) {
		perror("bind-supervisor: pidfd_open");
		exit(1);
	}
	if (want != FETCH_SYSCALL) {
		fetch_method = FETCH_IOCTL;
		fd = fetch(pidfd, pidfd);
		if (fd < 0 && ((errno != ENOTTY && errno != EINVAL) ||
			       want == FETCH_IOCTL)) {
			perror("bind-supervisor: PIDFD_IOCTL_GETFD");
			exit(1);
		}
	}
	if (fd < 0) {
		fetch_method = FETCH_SYSCALL;
		fd = fetch(pidfd, pidfd);
		if (fd < 0) {
			perror("bind-supervisor: pidfd_getfd(2)");
			exit(1);
		}
	}
	close(fd);
	close(pidfd);
	if (verbose)
		fprintf(stderr, "bind-supervisor: fetch method: %s\n", fetch_method ==
			FETCH_IOCTL ? "PIDFD_IOCTL_GETFD" : "pidfd_getfd(2) (no PIDFD_IOCTL_GETFD here)");
}

/*
 * pidfd_open() wants a thread-group leader (6.1 says EINVAL for another
 * thread, later kernels ENOENT); a notification names the thread that
 * trapped, so look up its leader.
 */
static int open_process(pid_t tid)
{
	char path[64], line[128];
	int pidfd = syscall(__NR_pidfd_open, tid, 0);
	FILE *f;

	if (pidfd >= 0)
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

static int id_valid(__u64 id)
{
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

/* Copy @len bytes at @addr out of the target, once. */
static int read_target(pid_t pid, void *buf, size_t len, __u64 addr)
{
	struct iovec local = { buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	char path[64];
	ssize_t n;
	FILE *f;

	if (addr <= UINTPTR_MAX - len)
		return process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -1;
	/* A 64-bit program under a 32-bit supervisor: beyond our pointers. */
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = pread64(fileno(f), buf, len, (off64_t)addr);
	fclose(f);
	return n == (ssize_t)len ? 0 : -1;
}

static const struct rule *find_rule(int type, int protocol, unsigned short port)
{
	for (int i = 0; i < nallowed; i++)
		if (allowed[i].port == port && (!type || (allowed[i].type == type &&
							  allowed[i].protocol == protocol)))
			return &allowed[i];
	return NULL;
}

/* What one bind() is: the copy of its arguments every decision is made on. */
struct call {
	int fd, len;
	struct sockaddr_storage addr;
	unsigned short port;
};

/* Read bind()'s or socketcall(SYS_BIND)'s arguments once; -1 if we cannot. */
static int read_call(const struct seccomp_notif *req, struct call *c)
{
	const struct abi *a = NULL;
	__u64 args[3] = { req->data.args[0], req->data.args[1], req->data.args[2] };

	for (size_t i = 0; i < NABIS; i++)
		if (abis[i].arch == req->data.arch)
			a = &abis[i];
	if (!a)
		return -1;
	if (req->data.nr == (int)a->socketcall && a->socketcall != a->bind) {
		__u32 words[3];

		if ((int)args[0] != SYS_BIND || a->word != 4 ||
		    read_target(req->pid, words, sizeof(words), args[1]))
			return -1;
		for (int i = 0; i < 3; i++)
			args[i] = words[i];
	} else if (req->data.nr != (int)a->bind) {
		return -1;
	}
	/* The kernel takes fd and addrlen as ints: so do we. */
	c->fd = (int)(__u32)args[0];
	c->len = (int)(__u32)args[2];
	if (c->len < 4 || c->len > (int)sizeof(c->addr) ||
	    read_target(req->pid, &c->addr, c->len, args[1]))
		return -1;
	/* sin_port and sin6_port are at the same place. */
	c->port = ntohs(((struct sockaddr_in *)&c->addr)->sin_port);
	return 0;
}

/* Is this a bind the kernel would do, for the socket's family? */
static int valid_for(int domain, const struct call *c)
{
	const struct sockaddr_in *in = (const struct sockaddr_in *)&c->addr;

	if (domain == AF_INET6)
		return c->len >= 24 && in->sin_family == AF_INET6;	/* SIN6_LEN_RFC2133 */
	return domain == AF_INET && c->len >= (int)sizeof(*in) &&
	       (in->sin_family == AF_INET ||
		(in->sin_family == AF_UNSPEC && in->sin_addr.s_addr == htonl(INADDR_ANY)));
}

#define CONTINUE 1	/* let the kernel do the call */

/* *why = "WHAT: strerror(errno)", for a failure on our side. */
#define FAILED(what) (snprintf(failure, sizeof(failure), "%s: %s", what, strerror(errno)), \
		      *why = failure)

/*
 * Decide one bind() the program trapped on, on a copy of its arguments.
 * Returns CONTINUE, 0 with *err set, or -1 (EACCES) after a failure on our
 * side; *why says why, for the log.
 */
static int decide(const struct seccomp_notif *req, struct call *c, int *err,
		  const char **why)
{
	static __thread char failure[160];
	int pidfd, fd, domain, type, protocol, reuse, ret = -1;
	socklen_t optlen = sizeof(int);

	*err = EACCES;
	/*
	 * What we cannot read, or the kernel would refuse anyway, goes on to
	 * the kernel: the program may change its memory meanwhile, but only to
	 * a bind it could do itself, and it has no capabilities.
	 */
	*why = "not a bind we can read: the kernel answers";
	if (read_call(req, c))
		return CONTINUE;
	*why = "not AF_INET/AF_INET6, or not a privileged port: the kernel answers";
	if ((c->addr.ss_family != AF_INET && c->addr.ss_family != AF_INET6 &&
	     c->addr.ss_family != AF_UNSPEC) || !c->port || c->port >= unpriv_start)
		return CONTINUE;
	*why = "port not allowed";
	if (!find_rule(0, 0, c->port))
		return 0;
	pidfd = open_process(req->pid);
	if (pidfd < 0)
		return FAILED("pidfd_open"), -1;
	/* The pid in the notification might have been reused: check now. */
	if (!id_valid(req->id)) {
		FAILED("the caller is gone");
		close(pidfd);
		return -1;
	}
	fd = fetch(pidfd, c->fd);
	if (fd < 0)
		FAILED(fetch_method == FETCH_IOCTL ? "PIDFD_IOCTL_GETFD" : "pidfd_getfd(2)");
	close(pidfd);
	/* Not open: the program's mistake, which the kernel will name. */
	if (fd < 0 && errno == EBADF)
		*why = "fd not open: the kernel answers";
	if (fd < 0)
		return errno == EBADF ? CONTINUE : -1;
	/* A thread with its own fd table: the leader's fd is another file. */
	switch (syscall(SYS_kcmp, getpid(), req->pid, KCMP_FILE, fd, c->fd)) {
	case 0:
		break;
	case -1:
		FAILED("kcmp");
		goto out;
	default:
		*why = "the calling thread has an fd table of its own: its fd is not the process's";
		goto out;
	}
	*why = "not a socket, or not AF_INET/AF_INET6, or a bind the kernel refuses: the kernel answers";
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &optlen) ||
	    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &optlen) ||
	    getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &protocol, &optlen) ||
	    !valid_for(domain, c)) {
		ret = CONTINUE;
		goto out;
	}
	ret = 0;
	*why = "protocol not allowed";
	if (!find_rule(type, protocol, c->port))
		goto out;
	/* No uid check shares a UDP port between SO_REUSEADDR sockets. */
	*why = "a UDP socket with SO_REUSEADDR could share the port with another user's";
	if (type == SOCK_DGRAM &&
	    (getsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, &optlen) || reuse))
		goto out;
	if (!id_valid(req->id)) {
		FAILED("the caller is gone");
		ret = -1;
		goto out;
	}
	*err = bind(fd, (struct sockaddr *)&c->addr, c->len) ? errno : 0;
	*why = *err ? "allowed, bind failed" : "allowed, bound";
out:
	close(fd);
	return ret;
}

/* "fd 3 tcp 127.0.0.1:80" for the log; what we read, if we did. */
static void format_call(const struct call *c, char *buf, size_t len)
{
	const struct sockaddr_in *in = (const struct sockaddr_in *)&c->addr;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&c->addr;
	char ip[INET6_ADDRSTRLEN] = "?";

	if (in->sin_family == AF_INET || in->sin_family == AF_UNSPEC)
		inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
	else if (in->sin_family == AF_INET6)
		inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
	snprintf(buf, len, "fd %d family %u addrlen %d %s port %u", c->fd, in->sin_family,
		 c->len, ip, c->port);
}

static void answer(const struct seccomp_notif *req, struct seccomp_notif_resp *resp)
{
	struct call c = { .fd = -1 };
	const char *why;
	char addr[128];
	int err, ret;

	ret = decide(req, &c, &err, &why);
	if (ret == CONTINUE)
		err = 0;
	memset(resp, 0, sizeof(*resp));
	resp->id = req->id;
	if (ret == CONTINUE)
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	else
		resp->error = -err;
	format_call(&c, addr, sizeof(addr));
	if (ret < 0)	/* ours: always said */
		fprintf(stderr, "bind-supervisor: pid %d %s: supervisor-side failure: %s; answered EACCES\n",
			req->pid, addr, why);
	else if (verbose)
		fprintf(stderr, "bind-supervisor: pid %d %s: %s%s%s\n", req->pid, addr, why,
			err ? ": " : "", err ? strerror(err) : "");
}

static void *worker(void *sizes_)
{
	const struct seccomp_notif_sizes *sizes = sizes_;
	struct seccomp_notif *req = malloc(sizes->seccomp_notif);
	struct seccomp_notif_resp *resp = malloc(sizes->seccomp_notif_resp);

	for (;;) {
		if (!req || !resp) {
			fprintf(stderr, "bind-supervisor: out of memory\n");
			exit(1);
		}
		struct pollfd pfd = { .fd = listener, .events = POLLIN };

		/* Once no task uses the filter, there is nothing to wait for. */
		if (poll(&pfd, 1, -1) == 1 && !(pfd.revents & POLLIN))
			return NULL;
		memset(req, 0, sizes->seccomp_notif);
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req)) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			perror("bind-supervisor: SECCOMP_IOCTL_NOTIF_RECV");
			exit(1);
		}
		answer(req, resp);
		/* ENOENT: the caller died meanwhile. */
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp) && errno != ENOENT)
			fprintf(stderr, "bind-supervisor: pid %d: SECCOMP_IOCTL_NOTIF_SEND: %s\n",
				req->pid, strerror(errno));
	}
	return NULL;
}

static int start_workers(void)
{
	static struct seccomp_notif_sizes sizes;
	pthread_t t;

	if (seccomp(SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0) {
		perror("bind-supervisor: seccomp(SECCOMP_GET_NOTIF_SIZES)");
		return -1;
	}
	/* Our structs must be at least as large as the kernel's. */
	sizes.seccomp_notif = sizes.seccomp_notif > sizeof(struct seccomp_notif) ?
			      sizes.seccomp_notif : sizeof(struct seccomp_notif);
	sizes.seccomp_notif_resp = sizeof(struct seccomp_notif_resp) > sizes.seccomp_notif_resp ?
				   sizeof(struct seccomp_notif_resp) : sizes.seccomp_notif_resp;
	for (int i = 0; i < WORKERS; i++)
		if (pthread_create(&t, NULL, worker, &sizes) || pthread_detach(t)) {
			fprintf(stderr, "bind-supervisor: pthread_create failed\n");
			return -1;
		}
	return 0;
}

static int parse_args(int argc, char **argv, struct user *u)
{
	const char *user = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("%s", usage);
			exit(0);
		} else if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if (i + 1 == argc) {
			usage_error("unknown or incomplete option '%s'", argv[i]);
		} else if (!strcmp(argv[i], "--user")) {
			if (user)
				usage_error("--user given twice");
			user = argv[++i];
		} else if (!strcmp(argv[i], "--allow")) {
			parse_allow(argv[++i]);
		} else if (!strcmp(argv[i], "--fetch")) {
			i++;
			if (!strcmp(argv[i], "ioctl"))
				fetch_method = FETCH_IOCTL;
			else if (!strcmp(argv[i], "syscall"))
				fetch_method = FETCH_SYSCALL;
			else if (strcmp(argv[i], "auto"))
				usage_error("bad --fetch '%s': want auto, ioctl or syscall", argv[i]);
		} else {
			usage_error("unknown or incomplete option '%s'", argv[i]);
		}
	}
	if (!user)
		usage_error("--user is required");
	if (i >= argc)
		usage_error("no program given after --");
	parse_user(user, u);
	return i;
}

int main(int argc, char **argv)
{
	static const int forwarded[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT };
	int i, sk[2], sigfd, pidfd, ret;
	struct user u;
	sigset_t mask;
	pid_t child, self = getpid();

	/* An inherited SIG_IGN would reap the child for us: no exit status. */
	signal(SIGCHLD, SIG_DFL);
	read_unpriv_start();
	i = parse_args(argc, argv, &u);
	probe_fetch();

	/* Blocked here, so in every thread: they come through sigfd. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	for (size_t s = 0; s < sizeof(forwarded) / sizeof(forwarded[0]); s++)
		sigaddset(&mask, forwarded[s]);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sigfd < 0 || prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) {
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
	if (child == 0)
		run_child(sk[1], &u, self, &argv[i]);
	/* The program shares our stderr: closing it must not kill the log. */
	signal(SIGPIPE, SIG_IGN);
	close(sk[1]);
	/* Our unreaped child: its pid cannot have been reused yet. */
	pidfd = syscall(__NR_pidfd_open, child, 0);
	listener = recv_fd(sk[0]);
	close(sk[0]);
	if (pidfd < 0 || listener < 0) {
		fprintf(stderr, "bind-supervisor: the child did not start\n");
		/* Unreaped, so the pid is still the child's. */
		kill(child, SIGKILL);
		waitpid(child, &ret, 0);
		return WIFEXITED(ret) ? WEXITSTATUS(ret) : 126;
	}
	ret = start_workers();
	if (!ret)
		ret = supervise(listener, sigfd, pidfd, child);
	if (ret < 0) {
		syscall(__NR_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
		waitid(P_PIDFD, pidfd, NULL, WEXITED);
		return 1;
	}
	return ret;
}
