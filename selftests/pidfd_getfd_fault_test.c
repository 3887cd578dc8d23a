// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_IOCTL_GETFD under fault injection (a debug kernel with
 * CONFIG_FAULT_INJECTION, FAILSLAB, FAULT_INJECTION_USERCOPY and debugfs).
 *
 * Each case sweeps one successful fetch: for n = 1, 2, ... the n-th fault
 * site the ioctl reaches is made to fail (/proc/thread-self/fail-nth), until
 * the call completes without reaching site n.  Every failure must be a
 * documented errno, and after every call, failed or not, the caller has no
 * fd it did not have before and the fetched file has no reference left
 * once the target is gone: the target's pipe end is the last writer, so
 * the reader must see EOF.  Leaked task references are left to kmemleak.
 *
 * Each attempt runs in a new caller process, so that an fd table grown by
 * one attempt does not hide the allocation from the next.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <linux/pidfd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define MAX_SITES	1000
#define FAILSLAB	"/sys/kernel/debug/failslab/"

static int sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return syscall(__NR_pidfd_open, pid, flags);
}

static int sys_fcntl(int fd, int cmd, long arg)
{
	return syscall(__NR_fcntl, fd, cmd, arg);
}

static int sys_open(const char *path, int flags)
{
	return syscall(__NR_openat, AT_FDCWD, path, flags);
}

static int write_file(const char *path, const char *val)
{
	int fd = sys_open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = -1;

	if (fd >= 0) {
		n = write(fd, val, strlen(val));
		close(fd);
	}
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

/* Counted without opening anything, which could grow the fd table. */
static int open_fds(void)
{
	int fd, n = 0;

	for (fd = 0; fd < 4096; fd++)
		n += sys_fcntl(fd, F_GETFD, 0) >= 0;
	return n;
}

/* The fetch a sweep repeats, with a fault at each site in turn. */
struct fetch {
	__u32 size;		/* args size */
	int new_fd;		/* if set, fill the fds below it: the table is full */
};

/* What one attempt saw, sent from the caller process to the test. */
struct attempt {
	int injected;		/* site n was reached and failed */
	int err;		/* the ioctl's errno, 0 if it gave an fd */
	int fd_leaked;		/* the caller has more fds than before */
	int file_leaked;	/* the target's pipe end outlived the target */
	int harness_errno;	/* a step of the attempt itself failed */
};

/* Run as the caller process: one fetch with the n-th fault site failing. */
static void attempt(int n, const struct fetch *f, struct attempt *a)
{
	char buf[128] = { 0 }, num[16];
	struct pidfd_getfd_args *args = (void *)buf;
	int p[2], pidfd, nth, before, fd, len;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		goto harness;
	pid = fork();
	if (pid < 0)
		goto harness;
	if (pid == 0) {
		pause();
		_exit(0);
	}
	close(p[1]);
	pidfd = sys_pidfd_open(pid, 0);
	nth = sys_open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (pidfd < 0 || nth < 0)
		goto harness;
	if (f->new_fd) {
		do
			fd = dup(nth);
		while (fd >= 0 && fd < f->new_fd - 1);
		if (fd != f->new_fd - 1)
			goto harness;
	}

	before = open_fds();
	args->size = f->size;
	args->fd = p[1];	/* the same number in the forked target */
	len = snprintf(num, sizeof(num), "%d", n);
	if (pwrite(nth, num, len, 0) != len)
		goto harness;
	fd = ioctl(pidfd, PIDFD_IOCTL_GETFD, args);
	a->err = fd < 0 ? errno : 0;
	/*
	 * fail-nth counts down as the call passes fault sites; 0 means site
	 * n failed.  If one was left, this read's own copy-out is site n and
	 * fails with EFAULT: the ioctl did not reach it.
	 */
	len = pread(nth, num, sizeof(num) - 1, 0);
	if (len <= 0 && errno != EFAULT)
		goto harness;
	a->injected = len > 0 && num[0] == '0';
	/* Writing counts too: a site left over fails the write, once. */
	while (pwrite(nth, "0", 1, 0) != 1)
		if (errno != EFAULT)
			goto harness;

	a->fd_leaked = open_fds() != before + (fd >= 0);
	if (fd >= 0)
		close(fd);
	kill(pid, SIGKILL);
	if (waitpid(pid, NULL, 0) != pid)
		goto harness;
	/* The target is gone and so is our copy: its pipe end must be too. */
	if (sys_fcntl(p[0], F_SETFL, O_NONBLOCK))
		goto harness;
	a->file_leaked = read(p[0], num, 1) != 0;
	return;
harness:
	a->harness_errno = errno ?: -1;
}

static struct attempt run_attempt(struct __test_metadata *_metadata, int n,
				  const struct fetch *f)
{
	struct attempt a = { .harness_errno = -1 };
	int p[2], status;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct attempt r = { 0 };

		close(p[0]);
		attempt(n, f, &r);
		_exit(write(p[1], &r, sizeof(r)) != sizeof(r));
	}
	close(p[1]);
	EXPECT_EQ((ssize_t)sizeof(a), read(p[0], &a, sizeof(a)));
	close(p[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	return a;
}

/* What a sweep saw: how many fault sites, and the errnos they gave. */
struct sweep {
	int sites;
	unsigned long long errnos;	/* bit e: some site failed with e */
};

static int seen(const struct sweep *s, int err)
{
	return s->errnos >> err & 1;
}

static struct sweep sweep(struct __test_metadata *_metadata, const struct fetch *f)
{
	struct sweep s = { 0 };
	char log[512] = "";

	for (int n = 1; n <= MAX_SITES; n++) {
		struct attempt a = run_attempt(_metadata, n, f);
		size_t len = strlen(log);

		ASSERT_EQ(0, a.harness_errno) TH_LOG("site %d: %s", n, strerror(a.harness_errno));
		EXPECT_FALSE(a.fd_leaked) TH_LOG("site %d: an fd leaked", n);
		EXPECT_FALSE(a.file_leaked) TH_LOG("site %d: a file reference leaked", n);
		if (!a.injected) {
			EXPECT_EQ(0, a.err) TH_LOG("no fault, yet %s", strerror(a.err));
			TH_LOG("%d fault sites:%s; then the call succeeds", n - 1, log);
			s.sites = n - 1;
			return s;
		}
		/* A fault may be absorbed (the call succeeds), or it is one of: */
		EXPECT_TRUE(a.err == 0 || a.err == EFAULT || a.err == ENOMEM)
			TH_LOG("site %d: undocumented errno %d (%s)", n, a.err, strerror(a.err));
		if (a.err > 0 && a.err < 64)
			s.errnos |= 1ULL << a.err;
		snprintf(log + len, sizeof(log) - len, " %d:%s", n,
			 a.err ? strerrorname_np(a.err) : "absorbed");
	}
	TH_LOG("the call never completed in %d fault sites", MAX_SITES);
	EXPECT_TRUE(0);
	s.sites = MAX_SITES;
	return s;
}

FIXTURE(faults) {};

FIXTURE_SETUP(faults)
{
	ASSERT_EQ(0, access("/proc/thread-self/fail-nth", W_OK))
		TH_LOG("no fail-nth: the kernel needs CONFIG_FAULT_INJECTION");
	/* fail-nth must count GFP_KERNEL allocations too. */
	ASSERT_EQ(0, write_file(FAILSLAB "ignore-gfp-wait", "N"))
		TH_LOG("no failslab in debugfs: CONFIG_FAILSLAB, FAULT_INJECTION_DEBUG_FS");
	ASSERT_EQ(0, write_file(FAILSLAB "verbose", "1"));
	/* One line per injected fault, not a stack trace that reads as a bug. */
	ASSERT_EQ(0, write_file("/sys/kernel/debug/fail_usercopy/verbose", "1"))
		TH_LOG("no fail_usercopy: CONFIG_FAULT_INJECTION_USERCOPY");
}

FIXTURE_TEARDOWN(faults)
{
	write_file(FAILSLAB "ignore-gfp-wait", "Y");
}

TEST_F(faults, a_fault_in_reading_the_args_is_efault_and_leaks_nothing)
{
	struct fetch f = { .size = sizeof(struct pidfd_getfd_args) };
	struct sweep s = sweep(_metadata, &f);

	EXPECT_GE(s.sites, 1);
	EXPECT_TRUE(seen(&s, EFAULT));
}

TEST_F(faults, a_fault_in_growing_the_callers_fd_table_is_enomem_and_leaks_nothing)
{
	/* A process starts with room for 64 fds (BITS_PER_LONG of the kernel). */
	struct fetch f = { .size = sizeof(struct pidfd_getfd_args), .new_fd = 64 };
	struct sweep s = sweep(_metadata, &f);

	EXPECT_GE(s.sites, 2);
	EXPECT_TRUE(seen(&s, ENOMEM));
}

TEST_HARNESS_MAIN
