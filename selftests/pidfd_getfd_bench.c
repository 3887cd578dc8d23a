// SPDX-License-Identifier: GPL-2.0
/*
 * What it costs to take one fd from a running process and close it:
 * PIDFD_IOCTL_GETFD against pidfd_getfd(2), a local dup(), an SCM_RIGHTS
 * round trip from a cooperating process and a ptrace stop/resume cycle;
 * how the ioctl scales with the target's fd count, with concurrent callers
 * and with the target's thread count; and, from calls that fail early on
 * purpose, where the ioctl's time goes beyond pidfd_getfd(2)'s.
 *
 * The methods are interleaved in every round, after a warm-up round that
 * also sizes each method's batch to take at least the target time; each
 * figure is the min/median/max over the rounds of a batch's ns per call.
 * Output is TAP; the table and its CSV rows ('# csv,...') are comments.
 *
 *	pidfd_getfd_bench [-r ROUNDS] [-t MS-PER-BATCH]
 */

#define _GNU_SOURCE
#include <errno.h>
#include <linux/kcmp.h>
#include <linux/pidfd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"

#define MAX_ROUNDS	32

static int sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return syscall(__NR_pidfd_open, pid, flags);
}

static int sys_pidfd_getfd(int pidfd, int fd, unsigned int flags)
{
	return syscall(__NR_pidfd_getfd, pidfd, fd, flags);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what)
{
	ksft_exit_fail_msg("%s: %s\n", what, strerror(errno));
}

/* A target: NFDS open fds (fetches take the highest), NTHREADS threads. */
struct target {
	pid_t pid;
	int pidfd;
	int fd;
};

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/* The target's answer: 0 once it is ready, or the errno of the step that failed. */
struct ready {
	int err;
	char step[16];
};

static void spawn(struct target *t, int nfds, int nthreads)
{
	struct ready r = { 0 };
	int ready[2];

	if (pipe(ready))
		die("pipe");
	t->pid = fork();
	if (t->pid < 0)
		die("fork");
	if (t->pid == 0) {
		struct rlimit rl = { nfds + 16, nfds + 16 };
		int fd, w = nfds - 1;	/* the fd fetched, and our answer's */
		pthread_t th;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (nfds > 1000 && setrlimit(RLIMIT_NOFILE, &rl)) {
			r.err = errno;
			strcpy(r.step, "setrlimit");
			w = ready[1];
		} else if (dup2(ready[1], w) != w) {
			r.err = errno;
			strcpy(r.step, "dup2");
			w = ready[1];
		}
		/* Exactly fds 0 to nfds - 1: none of the parent's others. */
		for (fd = 3; fd < 1024; fd++)
			if (fd != w)
				close(fd);
		for (fd = 3; !r.err && fd < w; fd++) {
			if (dup2(w, fd) != fd) {
				r.err = errno;
				strcpy(r.step, "dup2");
			}
		}
		for (int i = 1; !r.err && i < nthreads; i++) {
			r.err = pthread_create(&th, NULL, sleeper, NULL);
			strcpy(r.step, "pthread_create");
		}
		if (write(w, &r, sizeof(r)) != sizeof(r) || r.err)
			_exit(1);
		sleeper(NULL);
	}
	close(ready[1]);
	if (read(ready[0], &r, sizeof(r)) != sizeof(r))
		ksft_exit_fail_msg("a target with %d fds, %d threads did not answer\n",
				   nfds, nthreads);
	if (r.err)
		ksft_exit_fail_msg("a target with %d fds, %d threads: %s: %s\n",
				   nfds, nthreads, r.step, strerror(r.err));
	close(ready[0]);
	t->pidfd = sys_pidfd_open(t->pid, 0);
	if (t->pidfd < 0)
		die("pidfd_open");
	t->fd = nfds - 1;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static int ioctl_getfd(const struct target *t)
{
	struct pidfd_getfd_args args = { .size = sizeof(args), .fd = t->fd };

	return ioctl(t->pidfd, PIDFD_IOCTL_GETFD, &args);
}

/* Everything a method works on. */
static struct target plain, many_fds[2], threaded, ptraced;
static int local_fd, scm_sock;
static pid_t scm_server;

/*
 * The second caller: a process that fetches from 'plain' between
 * two_callers_begin() and two_callers_end(), in step with them through
 * *state: IDLE, RUNNING (set by the helper), STOP (set by us).
 */
enum { IDLE, RUNNING, STOP };
static volatile int *state;
static int helper_go;
static pid_t helper;

static void start_helper(void)
{
	int go[2];

	state = mmap(NULL, sizeof(*state), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (state == MAP_FAILED || pipe(go))
		die("helper setup");
	*state = IDLE;
	helper = fork();
	if (helper < 0)
		die("fork");
	if (helper == 0) {
		struct target mine = plain;
		char c;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(go[1]);
		mine.pidfd = sys_pidfd_open(plain.pid, 0);
		while (read(go[0], &c, 1) == 1) {
			*state = RUNNING;
			while (*state == RUNNING)
				close(ioctl_getfd(&mine));
			*state = IDLE;
		}
		_exit(0);
	}
	close(go[0]);
	helper_go = go[1];
}

static void two_callers_begin(void)
{
	if (write(helper_go, "g", 1) != 1)
		die("helper");
	while (*state != RUNNING)
		;
}

static void two_callers_end(void)
{
	*state = STOP;
	while (*state != IDLE)
		;
}

/* The SCM_RIGHTS server: sends its fd 0 for every byte it reads. */
static void start_scm_server(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		die("socketpair");
	scm_server = fork();
	if (scm_server < 0)
		die("fork");
	if (scm_server == 0) {
		char c, cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
		struct iovec iov = { &c, 1 };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(sv[0]);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &local_fd, sizeof(int));
		while (read(sv[1], &c, 1) == 1)
			if (sendmsg(sv[1], &msg, 0) != 1)
				_exit(1);
		_exit(0);
	}
	close(sv[1]);
	scm_sock = sv[0];
}

static int scm_fetch(void)
{
	char c = 'x', cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	int fd;

	if (write(scm_sock, &c, 1) != 1 || recvmsg(scm_sock, &msg, 0) != 1)
		return -1;
	memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(int));
	return fd;
}

/* One fetch and close, or one ptrace cycle; nonzero if it failed. */
static int op_ioctl(void) { return close(ioctl_getfd(&plain)); }
static int op_syscall(void) { return close(sys_pidfd_getfd(plain.pidfd, plain.fd, 0)); }
static int op_dup(void) { return close(dup(local_fd)); }
static int op_scm(void) { return close(scm_fetch()); }
static int op_fds_1000(void) { return close(ioctl_getfd(&many_fds[0])); }
static int op_fds_100000(void) { return close(ioctl_getfd(&many_fds[1])); }
static int op_threads_16(void) { return close(ioctl_getfd(&threaded)); }

/*
 * Calls that stop early with an errno, to split up the ioctl's cost:
 * pidfd_getfd(2) rejects bad flags before it looks at the pidfd (a bare
 * system call); an unknown pidfd ioctl comes back from the pidfd handler's
 * switch (the ioctl dispatch); bad flags in the args come back once the
 * args are copied in, just before the lookup pidfd_getfd(2) also does.
 */
static int fails_with(int ret, int err)
{
	return ret == -1 && errno == err ? 0 : -1;
}

static int op_syscall_einval(void)
{
	return fails_with(sys_pidfd_getfd(plain.pidfd, plain.fd, ~0U), EINVAL);
}

static int op_ioctl_enotty(void)
{
	struct pidfd_getfd_args args = { .size = sizeof(args), .fd = plain.fd };
	/* Our number with the wrong direction: the handler says ENOTTY. */
	unsigned int unknown = _IOWR('p', 0xb0, struct pidfd_getfd_args);

	return fails_with(ioctl(plain.pidfd, unknown, &args), ENOTTY);
}

static int op_ioctl_einval(void)
{
	struct pidfd_getfd_args args = {
		.size = sizeof(args), .fd = plain.fd, .flags = 1U << 31,
	};

	return fails_with(ioctl(plain.pidfd, PIDFD_IOCTL_GETFD, &args), EINVAL);
}

static int op_ptrace(void)
{
	int status;

	if (ptrace(PTRACE_SEIZE, ptraced.pid, 0, 0) ||
	    ptrace(PTRACE_INTERRUPT, ptraced.pid, 0, 0) ||
	    waitpid(ptraced.pid, &status, 0) != ptraced.pid)
		return -1;
	return ptrace(PTRACE_DETACH, ptraced.pid, 0, 0);
}

struct method {
	const char *name;
	const char *what;
	int (*op)(void);
	void (*begin)(void), (*end)(void);
	const char *base;	/* the row its ratio is to */
	long iters;
	double ns[MAX_ROUNDS];
};

static struct method methods[] = {
	{ "ioctl", "PIDFD_IOCTL_GETFD + close", op_ioctl, .base = "ioctl" },
	{ "pidfd_getfd", "pidfd_getfd(2) + close", op_syscall, .base = "ioctl" },
	{ "dup", "dup() + close, local", op_dup, .base = "ioctl" },
	{ "scm_rights", "SCM_RIGHTS round trip + close", op_scm, .base = "ioctl" },
	{ "ptrace_cycle", "SEIZE+INTERRUPT+wait+DETACH", op_ptrace, .base = "ioctl" },
	{ "syscall_only", "pidfd_getfd(2), bad flags", op_syscall_einval, .base = "ioctl" },
	{ "dispatch", "ioctl, unknown pidfd command", op_ioctl_enotty, .base = "ioctl" },
	{ "args_copied", "ioctl, bad flags in args", op_ioctl_einval, .base = "ioctl" },
	{ "fds_10", "ioctl, target has 10 fds", op_ioctl, .base = "fds_10" },
	{ "fds_1000", "ioctl, target has 1,000 fds", op_fds_1000, .base = "fds_10" },
	{ "fds_100000", "ioctl, target has 100,000 fds", op_fds_100000, .base = "fds_10" },
	{ "callers_1", "ioctl, 1 caller", op_ioctl, .base = "callers_1" },
	{ "callers_2", "ioctl, 2 callers at once", op_ioctl, two_callers_begin,
	  two_callers_end, .base = "callers_1" },
	{ "threads_1", "ioctl, 1-thread target", op_ioctl, .base = "threads_1" },
	{ "threads_16", "ioctl, 16-thread target", op_threads_16, .base = "threads_1" },
};

#define NMETHODS ARRAY_SIZE(methods)

/* ns per call of one batch of m->iters calls; -1 if a call failed. */
static double batch(struct method *m)
{
	long long t0;
	long i;

	if (m->begin)
		m->begin();
	t0 = now_ns();
	for (i = 0; i < m->iters; i++)
		if (m->op())
			break;
	t0 = now_ns() - t0;
	if (m->end)
		m->end();
	return i < m->iters ? -1 : (double)t0 / m->iters;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const struct method *m, int rounds, double *min, double *max)
{
	double v[MAX_ROUNDS];

	memcpy(v, m->ns, rounds * sizeof(v[0]));
	qsort(v, rounds, sizeof(v[0]), cmp_double);
	*min = v[0];
	*max = v[rounds - 1];
	return rounds % 2 ? v[rounds / 2] : (v[rounds / 2 - 1] + v[rounds / 2]) / 2;
}

static const struct method *find(const char *name)
{
	for (size_t i = 0; i < NMETHODS; i++)
		if (!strcmp(methods[i].name, name))
			return &methods[i];
	return NULL;
}

/* Every fetching method must hand back the target's file, not just an fd. */
static int fetches_the_right_file(void)
{
	struct target *ts[] = { &plain, &many_fds[0], &many_fds[1], &threaded };
	int ok = 1;

	for (size_t i = 0; i < ARRAY_SIZE(ts); i++) {
		int fd = ioctl_getfd(ts[i]);

		ok &= fd >= 0 && !syscall(__NR_kcmp, getpid(), ts[i]->pid,
					  KCMP_FILE, fd, ts[i]->fd);
		close(fd);
	}
	return ok;
}

static void clocksource(void)
{
	char name[64] = "unknown";
	struct timespec res;
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (f) {
		if (fscanf(f, "%63s", name) != 1)
			strcpy(name, "unknown");
		fclose(f);
	}
	clock_getres(CLOCK_MONOTONIC, &res);
	ksft_print_msg("clocksource: %s (CLOCK_MONOTONIC resolution %ld ns)\n",
		       name, res.tv_nsec);
	/* jiffies and refined-jiffies tick every 1-10 ms */
	if (strstr(name, "jiffies"))
		ksft_test_result_fail("the clocksource is high resolution (%s)\n", name);
	else
		ksft_test_result_pass("the clocksource is high resolution (%s)\n", name);
}

int main(int argc, char **argv)
{
	int rounds = 5, opt;
	double target_ms = 500;

	while ((opt = getopt(argc, argv, "r:t:")) != -1) {
		switch (opt) {
		case 'r':
			rounds = atoi(optarg);
			break;
		case 't':
			target_ms = atof(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-r ROUNDS] [-t MS-PER-BATCH]\n", argv[0]);
			return KSFT_FAIL;
		}
	}
	if (rounds < 1 || rounds > MAX_ROUNDS)
		rounds = 5;

	ksft_print_header();
	ksft_set_plan(2 + NMETHODS);
	clocksource();

	local_fd = memfd_create("bench", 0);
	if (local_fd < 0)
		die("memfd_create");
	spawn(&plain, 10, 1);
	spawn(&many_fds[0], 1000, 1);
	spawn(&many_fds[1], 100000, 1);
	spawn(&threaded, 10, 16);
	spawn(&ptraced, 10, 1);
	start_scm_server();
	start_helper();
	if (fetches_the_right_file())
		ksft_test_result_pass("every target's fd is fetched as its file\n");
	else
		ksft_test_result_fail("every target's fd is fetched as its file\n");

	/* Warm-up: translate the code, and size each batch to target_ms. */
	for (size_t i = 0; i < NMETHODS; i++) {
		struct method *m = &methods[i];
		double ns;

		for (m->iters = 1;; m->iters *= 2) {
			ns = batch(m);
			if (ns < 0 || ns * m->iters >= target_ms * 1e6 || m->iters >= 1L << 30)
				break;
		}
		if (ns < 0)
			m->iters = 0;
	}
	/* Rounds: every method in turn, so drift hits them all alike. */
	for (int r = 0; r < rounds; r++)
		for (size_t i = 0; i < NMETHODS; i++)
			if (methods[i].iters)
				methods[i].ns[r] = batch(&methods[i]);

	ksft_print_msg("%d rounds, batches of >= %.0f ms; ns per call\n", rounds, target_ms);
	ksft_print_msg("%-13s %-30s %9s %9s %9s %9s %7s\n", "method", "what", "calls",
		       "min", "median", "max", "ratio");
	for (size_t i = 0; i < NMETHODS; i++) {
		struct method *m = &methods[i];
		const struct method *b = find(m->base);
		double lo, hi, med, blo, bhi, bmed;
		int failed = !m->iters;

		for (int r = 0; r < rounds && !failed; r++)
			failed = m->ns[r] < 0;
		if (failed || !b->iters) {
			ksft_test_result_fail("%s: a call failed: %s\n", m->name, strerror(errno));
			continue;
		}
		med = median(m, rounds, &lo, &hi);
		bmed = median(b, rounds, &blo, &bhi);
		ksft_print_msg("%-13s %-30s %9ld %9.0f %9.0f %9.0f %6.2fx\n", m->name,
			       m->what, m->iters, lo, med, hi, med / bmed);
		ksft_print_msg("csv,%s,%s,%ld,%.1f,%.1f,%.1f,%.3f\n", m->name, m->base,
			       m->iters, lo, med, hi, med / bmed);
		ksft_test_result_pass("%s\n", m->name);
	}

	reap(helper);
	reap(scm_server);
	reap(plain.pid);
	reap(many_fds[0].pid);
	reap(many_fds[1].pid);
	reap(threaded.pid);
	reap(ptraced.pid);
	ksft_finished();
}
