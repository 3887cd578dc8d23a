// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded stress of PIDFD_IOCTL_GETFD, for debug kernels (KASAN, lockdep,
 * kmemleak): FETCHERS threads fetch from TARGETS processes while the
 * targets dup2() and close the fd, exit, or exec, and are replaced as they
 * go.  It stops after MAX_OPS fetches or MAX_SECONDS, whichever is first,
 * and counts what it got.  Only the file, EBADF or ESRCH are right; what
 * the debug options catch shows in the kernel log, which the verdict reads.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <linux/kcmp.h>
#include <linux/pidfd.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define TARGETS		4
#define FETCHERS	4
#define MAX_OPS		100000
#define MAX_SECONDS	60
#define FD		100	/* the fd number every target churns */

enum behaviour { CHURN, EXIT, EXEC };

static const enum behaviour behaviours[TARGETS] = { CHURN, CHURN, EXIT, EXEC };

struct slot {
	pthread_mutex_t lock;
	pid_t pid;
	int pidfd;
	int respawns;
};

static struct slot slots[TARGETS];
static int file;		/* what the targets hold at FD */
static volatile int stop;

static struct {
	pthread_mutex_t lock;
	long ops, ok, ebadf, esrch, wrong_file, other;
	int other_errno;
} count = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return syscall(__NR_pidfd_open, pid, flags);
}

static int sys_kcmp(pid_t pid1, pid_t pid2, int type, unsigned long idx1,
		    unsigned long idx2)
{
	return syscall(__NR_kcmp, pid1, pid2, type, idx1, idx2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Exec'ed by an EXEC target: churns a little in the new image, then exits. */
__attribute__((constructor)) static void exec_target(void)
{
	if (!getenv("PIDFD_GETFD_STRESS_EXEC"))
		return;
	for (int i = 0; i < 100; i++) {
		dup2(1, FD);
		close(FD);
	}
	_exit(0);
}

/* Between fork and exec/exit: no locks or allocation, other threads run. */
static void target(enum behaviour b, unsigned int delay)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	switch (b) {
	case CHURN:
		for (;;) {
			dup2(file, FD);
			close(FD);
		}
	case EXIT:
		dup2(file, FD);
		usleep(delay);
		_exit(0);
	case EXEC:
		/* FD is close-on-exec: it goes away in the middle of exec. */
		dup3(file, FD, O_CLOEXEC);
		usleep(delay);
		execle("/proc/self/exe", "stress-exec-target", (char *)NULL,
		       (char *[]){ "PIDFD_GETFD_STRESS_EXEC=1", NULL });
		_exit(1);
	}
}

/* Called with the slot locked: replace its target with a new one. */
static int respawn(struct slot *s, enum behaviour b)
{
	unsigned int delay = rand() % 2000;

	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, NULL, 0);
		close(s->pidfd);
	}
	s->pid = fork();
	if (s->pid < 0)
		return -1;
	if (s->pid == 0)
		target(b, delay);
	s->pidfd = sys_pidfd_open(s->pid, 0);
	s->respawns++;
	return s->pidfd < 0 ? -1 : 0;
}

static void *fetcher(void *arg)
{
	unsigned int seed = (unsigned long)arg;

	while (!stop) {
		struct slot *s = &slots[rand_r(&seed) % TARGETS];
		int pidfd, fd, e;
		struct pidfd_getfd_args args = { .size = sizeof(args), .fd = FD };

		/* Our own pidfd: the slot's may be closed and its number reused. */
		pthread_mutex_lock(&s->lock);
		pidfd = dup(s->pidfd);
		pthread_mutex_unlock(&s->lock);
		if (pidfd < 0)
			continue;
		fd = ioctl(pidfd, PIDFD_IOCTL_GETFD, &args);
		e = errno;
		pthread_mutex_lock(&count.lock);
		count.ops++;
		if (fd >= 0) {
			/* The exec'ed image churns its stdout, which is ours. */
			if (sys_kcmp(getpid(), getpid(), KCMP_FILE, fd, file) == 0 ||
			    sys_kcmp(getpid(), getpid(), KCMP_FILE, fd, 1) == 0)
				count.ok++;
			else
				count.wrong_file++;
		} else if (e == EBADF) {
			count.ebadf++;
		} else if (e == ESRCH) {
			count.esrch++;
		} else {
			count.other++;
			count.other_errno = e;
		}
		if (count.ops >= MAX_OPS)
			stop = 1;
		pthread_mutex_unlock(&count.lock);
		if (fd >= 0)
			close(fd);
		close(pidfd);
	}
	return NULL;
}

FIXTURE(stress) {};
FIXTURE_SETUP(stress) {}
FIXTURE_TEARDOWN(stress) {}

/* The harness's default of 30 s is less than the run is allowed. */
TEST_F_TIMEOUT(stress, fetchers_racing_churning_exiting_and_execing_targets_get_only_documented_answers,
	       MAX_SECONDS * 2)
{
	pthread_t threads[FETCHERS];
	double start = now(), elapsed;
	int i, respawns = 0;

	file = memfd_create("stress", 0);
	ASSERT_GE(file, 0);
	for (i = 0; i < TARGETS; i++) {
		pthread_mutex_init(&slots[i].lock, NULL);
		ASSERT_EQ(0, respawn(&slots[i], behaviours[i]));
	}
	for (i = 0; i < FETCHERS; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, fetcher,
					    (void *)(unsigned long)i + 1));

	/* Replace the targets that exit or exec, until time or count is up. */
	while (!stop && now() - start < MAX_SECONDS) {
		for (i = 0; i < TARGETS; i++) {
			struct slot *s = &slots[i];

			if (behaviours[i] == CHURN ||
			    waitpid(s->pid, NULL, WNOHANG) != s->pid)
				continue;
			pthread_mutex_lock(&s->lock);
			s->pid = 0;	/* reaped */
			close(s->pidfd);
			ASSERT_EQ(0, respawn(s, behaviours[i]));
			pthread_mutex_unlock(&s->lock);
		}
		usleep(1000);
	}
	stop = 1;
	for (i = 0; i < FETCHERS; i++)
		pthread_join(threads[i], NULL);
	elapsed = now() - start;
	for (i = 0; i < TARGETS; i++) {
		kill(slots[i].pid, SIGKILL);
		waitpid(slots[i].pid, NULL, 0);
		close(slots[i].pidfd);
		respawns += slots[i].respawns;
	}

	TH_LOG("%ld fetches in %.1f s by %d threads from %d targets (%d spawned):",
	       count.ops, elapsed, FETCHERS, TARGETS, respawns);
	TH_LOG("%ld got the file, %ld EBADF, %ld ESRCH, %ld wrong file, %ld other",
	       count.ok, count.ebadf, count.esrch, count.wrong_file, count.other);
	EXPECT_EQ(0, count.wrong_file);
	EXPECT_EQ(0, count.other) TH_LOG("unexpected errno %s", strerror(count.other_errno));
	/* Each kind of answer must have come up, or the race was not run. */
	EXPECT_GT(count.ok, 0);
	EXPECT_GT(count.ebadf, 0);
	EXPECT_GT(count.esrch, 0);
	close(file);
}

TEST_HARNESS_MAIN
