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
#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/keyctl.h>
#include <linux/net.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../seccomp/user-trap-helper.h"
#include "../lib/bind-cli.h"
#include "../lib/fetch.h"
#include "../lib/serve.h"
#include "supervise.h"

#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif

#define MAX_GROUPS 64
#define WORKERS 4	/* notifications answered at once */

static struct policy allowed;
static struct served served = {
	.policy = &allowed, .name = "bind-supervisor", .recv_lock = PTHREAD_MUTEX_INITIALIZER,
};

static const char usage[] =
	"usage: bind-supervisor [-v] [--fetch auto|ioctl|syscall] --user USER\n"
	"                       [--allow tcp:PORT|udp:PORT ...] -- PROGRAM [ARG...]\n"
	"Run PROGRAM as USER (a name or a uid; not root) without capabilities, and\n"
	"bind its sockets to the privileged ports --allow names for it.\n"
	COMMON_OPTIONS_HELP;

#define usage_error(...) usage_exit("bind-supervisor", usage, __VA_ARGS__)

static void parse_allow(const char *spec)
{
	char err[160];

	if (policy_add(&allowed, spec, err, sizeof(err)))
		usage_error("%s", err);
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
		null = open("/dev/null", O_RDWR | O_CLOEXEC);
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

static void *worker(void *sizes)
{
	if (serve(&served, sizes))
		exit(1);
	return NULL;
}

static int start_workers(void)
{
	static struct seccomp_notif_sizes sizes;
	pthread_t t;

	if (notif_sizes(&sizes) < 0) {
		perror("bind-supervisor: seccomp(SECCOMP_GET_NOTIF_SIZES)");
		return -1;
	}
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
		} else if (version_option("bind-supervisor", argv[i])) {
			;
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
			if (set_fetch(argv[i]))
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

	/*
	 * Set-uid, set-gid or file capabilities (AT_SECURE): whoever runs us
	 * would pick --user (any uid but 0, with its groups) and --allow. The
	 * operator gives capabilities through the service manager (ambient),
	 * which AT_SECURE does not report.
	 */
	if (getauxval(AT_SECURE)) {
		fprintf(stderr, "bind-supervisor: refusing to run set-uid or set-gid or with file capabilities (AT_SECURE): whoever runs it would choose --user and --allow; run it as root, or with ambient capabilities\n");
		return 2;
	}
	/* An inherited SIG_IGN would reap the child for us: no exit status. */
	signal(SIGCHLD, SIG_DFL);
	read_unpriv_start("bind-supervisor");
	i = parse_args(argc, argv, &u);
	probe_fetch("bind-supervisor");

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
	served.listener = recv_fd(sk[0]);
	close(sk[0]);
	if (pidfd < 0 || served.listener < 0) {
		fprintf(stderr, "bind-supervisor: the child did not start\n");
		/* Unreaped, so the pid is still the child's. */
		kill(child, SIGKILL);
		waitpid(child, &ret, 0);
		return WIFEXITED(ret) ? WEXITSTATUS(ret) : 126;
	}
	ret = start_workers();
	if (!ret)
		ret = supervise(served.listener, sigfd, pidfd, child);
	if (ret < 0) {
		syscall(__NR_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
		waitid(P_PIDFD, pidfd, NULL, WEXITED);
		return 1;
	}
	return ret;
}
