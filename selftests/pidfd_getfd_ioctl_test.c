// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_IOCTL_GETFD: take a file from another process through its pidfd.
 *
 * Every case forks a target that holds a few files and obeys one-byte
 * commands on a control socket; the test (run as root) fetches the
 * target's files and checks what it gets, or the errno it gets.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <linux/kcmp.h>
#include <linux/pidfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"

/*
 * linux/pidfd.h includes linux/fcntl.h, whose struct flock clashes with
 * glibc's <fcntl.h>: use the two calls needed from there directly.
 */
static int sys_fcntl(int fd, int cmd)
{
	return syscall(__NR_fcntl, fd, cmd);
}

static int sys_open(const char *path, int flags)
{
	return syscall(__NR_openat, AT_FDCWD, path, flags);
}

#define UNKNOWN_FD	111
#define UID_USER	1000
#define UID_OTHER	2000
#define RACE_SECONDS	2
#define RACE_MAX_OPS	20000

static int sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return syscall(__NR_pidfd_open, pid, flags);
}

static int sys_kcmp(pid_t pid1, pid_t pid2, int type, unsigned long idx1,
		    unsigned long idx2)
{
	return syscall(__NR_kcmp, pid1, pid2, type, idx1, idx2);
}

static int getfd(int pidfd, __u32 fd, __u32 flags)
{
	struct pidfd_getfd_args args = {
		.size = sizeof(args),
		.fd = fd,
		.flags = flags,
	};

	return ioctl(pidfd, PIDFD_IOCTL_GETFD, &args);
}

/* The errno of a call that was expected to fail, or 0 if it succeeded. */
static int getfd_errno(int pidfd, void *args)
{
	int fd = ioctl(pidfd, PIDFD_IOCTL_GETFD, args);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

static int lowest_free_fd(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Commands the target obeys; it answers each with one byte. */
enum {
	CMD_NOT_DUMPABLE = 'P',	/* prctl(PR_SET_DUMPABLE, 0) */
	CMD_DUMPABLE = 'D',	/* prctl(PR_SET_DUMPABLE, 1) */
	CMD_UID_USER = 'u',	/* become UID_USER */
	CMD_UID_OTHER = 'o',	/* become UID_OTHER */
	CMD_READ_PIPE = 'R',	/* answer with a byte read from the pipe */
	CMD_OFFSET = 'O',	/* answer with the memfd's offset */
	CMD_CLOSE_WPIPE = 'W',	/* close its only end of the eof pipe */
	CMD_EXIT = 'X',		/* exit without answering */
};

/* The target's files, by their fd numbers there. */
struct target_files {
	int memfd;
	int pipe_r, pipe_w;
	int sock;		/* connected to the fixture's peer */
	int eof_w;		/* the only write end of the fixture's eof_r */
};

FIXTURE(target)
{
	pid_t pid;
	int pidfd;
	int ctl;		/* our end of the control socket */
	struct target_files t;
	int peer;
	int eof_r;
};

static int become(uid_t uid)
{
	return setresgid(uid, uid, uid) || setresuid(uid, uid, uid);
}

static void target_loop(const struct target_files *t, int ctl)
{
	unsigned char c, reply;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (read(ctl, &c, 1) == 1) {
		reply = 0;
		switch (c) {
		case CMD_NOT_DUMPABLE:
			reply = prctl(PR_SET_DUMPABLE, 0) != 0;
			break;
		case CMD_DUMPABLE:
			reply = prctl(PR_SET_DUMPABLE, 1) != 0;
			break;
		case CMD_UID_USER:
			reply = become(UID_USER);
			break;
		case CMD_UID_OTHER:
			reply = become(UID_OTHER);
			break;
		case CMD_READ_PIPE:
			if (read(t->pipe_r, &reply, 1) != 1)
				reply = 0xff;
			break;
		case CMD_OFFSET:
			reply = (unsigned char)lseek(t->memfd, 0, SEEK_CUR);
			break;
		case CMD_CLOSE_WPIPE:
			reply = close(t->eof_w) != 0;
			break;
		case CMD_EXIT:
			_exit(0);
		default:
			_exit(1);
		}
		if (write(ctl, &reply, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

FIXTURE_SETUP(target)
{
	int sv[2], sp[2], p[2], e[2];

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv));
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sp));
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(e));
	self->t.memfd = memfd_create("pidfd_getfd_ioctl", 0);
	ASSERT_GE(self->t.memfd, 0);
	ASSERT_EQ(8, write(self->t.memfd, "01234567", 8));
	ASSERT_EQ(0, lseek(self->t.memfd, 0, SEEK_SET));
	self->t.pipe_r = p[0];
	self->t.pipe_w = p[1];
	self->t.sock = sp[0];
	self->peer = sp[1];
	self->eof_r = e[0];
	self->t.eof_w = e[1];

	self->pid = fork();
	ASSERT_GE(self->pid, 0);
	if (self->pid == 0) {
		close(sv[0]);
		close(self->peer);
		close(self->eof_r);
		target_loop(&self->t, sv[1]);
	}
	close(sv[1]);
	self->ctl = sv[0];
	/* Only the target holds these now: what we touch, we fetched. */
	close(self->t.memfd);
	close(self->t.pipe_r);
	close(self->t.pipe_w);
	close(self->t.sock);
	close(self->t.eof_w);

	self->pidfd = sys_pidfd_open(self->pid, 0);
	ASSERT_GE(self->pidfd, 0);
}

FIXTURE_TEARDOWN(target)
{
	int status;

	close(self->ctl);
	close(self->pidfd);
	close(self->peer);
	close(self->eof_r);
	if (self->pid) {	/* 0: the case reaped it */
		EXPECT_EQ(self->pid, waitpid(self->pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

/* Send a command to the target; return its one-byte answer. */
static int ask(int ctl, unsigned char cmd)
{
	unsigned char reply;

	if (write(ctl, &cmd, 1) != 1 || read(ctl, &reply, 1) != 1)
		return -1;
	return reply;
}

static int same_file(pid_t pid, int ours, int theirs)
{
	return sys_kcmp(getpid(), pid, KCMP_FILE, ours, theirs) == 0;
}

/* Success: what the caller gets */

TEST_F(target, fetched_pipe_socket_and_memfd_are_the_targets_files)
{
	int remote[] = { self->t.pipe_r, self->t.pipe_w, self->t.sock, self->t.memfd };

	for (size_t i = 0; i < ARRAY_SIZE(remote); i++) {
		int fd = getfd(self->pidfd, remote[i], 0);

		ASSERT_GE(fd, 0) TH_LOG("fd %d: %s", remote[i], strerror(errno));
		EXPECT_TRUE(same_file(self->pid, fd, remote[i]))
			TH_LOG("kcmp: fd %d is not the target's fd %d", fd, remote[i]);
		close(fd);
	}
}

TEST_F(target, fetched_file_shares_the_targets_file_offset)
{
	int fd = getfd(self->pidfd, self->t.memfd, 0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(5, lseek(fd, 5, SEEK_SET));
	EXPECT_EQ(5, ask(self->ctl, CMD_OFFSET));
	close(fd);
}

TEST_F(target, a_pipe_written_through_the_fetched_fd_is_read_by_the_target)
{
	int fd = getfd(self->pidfd, self->t.pipe_w, 0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(1, write(fd, "z", 1));
	EXPECT_EQ('z', ask(self->ctl, CMD_READ_PIPE));
	close(fd);
}

TEST_F(target, a_fetched_connected_socket_works_where_proc_reopen_cannot)
{
	char path[64], buf[8] = "";
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", self->pid, self->t.sock);
	EXPECT_EQ(-1, sys_open(path, O_RDWR));
	EXPECT_EQ(ENXIO, errno);

	fd = getfd(self->pidfd, self->t.sock, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(5, send(fd, "hello", 5, 0));
	ASSERT_EQ(5, recv(self->peer, buf, sizeof(buf), 0));
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	close(fd);
}

TEST_F(target, the_new_fd_is_not_cloexec_without_the_flag)
{
	int fd = getfd(self->pidfd, self->t.memfd, 0);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, sys_fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

TEST_F(target, the_new_fd_is_cloexec_with_pidfd_getfd_cloexec)
{
	int fd = getfd(self->pidfd, self->t.memfd, PIDFD_GETFD_CLOEXEC);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(FD_CLOEXEC, sys_fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

TEST_F(target, the_new_fd_is_the_lowest_free_one)
{
	int hole = lowest_free_fd(), fd, higher;

	ASSERT_GE(hole, 0);
	higher = dup2(0, hole + 3);
	ASSERT_EQ(hole + 3, higher);
	fd = getfd(self->pidfd, self->t.memfd, 0);
	EXPECT_EQ(hole, fd);
	close(fd);
	close(higher);
}

/* Errors: the arguments */

TEST_F(target, size_zero_is_einval)
{
	struct pidfd_getfd_args args = { .size = 0, .fd = self->t.memfd };

	EXPECT_EQ(EINVAL, getfd_errno(self->pidfd, &args));
}

TEST_F(target, size_11_is_einval)
{
	struct pidfd_getfd_args args = { .size = 11, .fd = self->t.memfd };

	EXPECT_EQ(EINVAL, getfd_errno(self->pidfd, &args));
}

TEST_F(target, size_12_is_the_first_version)
{
	struct pidfd_getfd_args args = { .size = 12, .fd = self->t.memfd };

	EXPECT_EQ(PIDFD_GETFD_ARGS_SIZE_VER0, sizeof(args));
	EXPECT_EQ(0, getfd_errno(self->pidfd, &args));
}

/*
 * A larger struct, as a later version would pass: args at the start of a
 * page-aligned, zeroed buffer of two pages.
 */
static unsigned char *big_args(int fd, __u32 size)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *buf = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct pidfd_getfd_args args = { .size = size, .fd = fd };

	if (buf == MAP_FAILED)
		return NULL;
	memcpy(buf, &args, sizeof(args));
	return buf;
}

static int big_errno(int pidfd, int fd, __u32 size, size_t dirty)
{
	unsigned char *buf = big_args(fd, size);
	int err;

	if (!buf)
		return -1;
	if (dirty)
		buf[dirty] = 1;
	err = getfd_errno(pidfd, buf);
	munmap(buf, 2 * sysconf(_SC_PAGESIZE));
	return err;
}

TEST_F(target, size_13_with_a_zero_tail_succeeds)
{
	EXPECT_EQ(0, big_errno(self->pidfd, self->t.memfd, 13, 0));
}

TEST_F(target, size_13_with_a_non_zero_tail_is_e2big)
{
	EXPECT_EQ(E2BIG, big_errno(self->pidfd, self->t.memfd, 13, 12));
}

TEST_F(target, size_64_with_a_zero_tail_succeeds)
{
	EXPECT_EQ(0, big_errno(self->pidfd, self->t.memfd, 64, 0));
}

TEST_F(target, size_64_with_a_non_zero_last_byte_is_e2big)
{
	EXPECT_EQ(E2BIG, big_errno(self->pidfd, self->t.memfd, 64, 63));
}

TEST_F(target, size_page_size_with_a_zero_tail_succeeds)
{
	EXPECT_EQ(0, big_errno(self->pidfd, self->t.memfd, sysconf(_SC_PAGESIZE), 0));
}

TEST_F(target, size_page_size_plus_one_is_e2big)
{
	EXPECT_EQ(E2BIG, big_errno(self->pidfd, self->t.memfd, sysconf(_SC_PAGESIZE) + 1, 0));
}

TEST_F(target, size_0xffffffff_is_e2big)
{
	EXPECT_EQ(E2BIG, big_errno(self->pidfd, self->t.memfd, 0xffffffff, 0));
}

TEST_F(target, a_command_with_a_larger_size_still_reaches_the_handler)
{
	struct {
		struct pidfd_getfd_args args;
		__u32 later_field;
	} v1 = { { .size = sizeof(v1), .fd = self->t.memfd }, 0 };
	unsigned long cmd = _IOWR(PIDFD_IOC_MAGIC, 0xb0, v1);
	int fd;

	ASSERT_NE(PIDFD_IOCTL_GETFD, cmd);
	fd = ioctl(self->pidfd, cmd, &v1);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_TRUE(same_file(self->pid, fd, self->t.memfd));
	close(fd);
}

TEST_F(target, a_null_args_pointer_is_efault)
{
	EXPECT_EQ(EFAULT, getfd_errno(self->pidfd, NULL));
}

TEST_F(target, an_unmapped_args_pointer_is_efault)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p, page));
	EXPECT_EQ(EFAULT, getfd_errno(self->pidfd, p));
}

/* Args whose first @readable bytes end a page followed by a PROT_NONE page. */
static int straddle_errno(int pidfd, int fd, __u32 size, size_t readable)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *buf = big_args(fd, size);
	struct pidfd_getfd_args args = { .size = size, .fd = fd };
	unsigned char *at;
	int err;

	if (!buf || mprotect(buf + page, page, PROT_NONE))
		return -1;
	at = buf + page - readable;
	memset(buf, 0, page);
	memcpy(at, &args, readable < sizeof(args) ? readable : sizeof(args));
	err = getfd_errno(pidfd, at);
	munmap(buf, 2 * page);
	return err;
}

TEST_F(target, args_straddling_into_a_prot_none_page_are_efault)
{
	EXPECT_EQ(EFAULT, straddle_errno(self->pidfd, self->t.memfd, 12, 8));
}

TEST_F(target, a_tail_straddling_into_a_prot_none_page_is_efault)
{
	EXPECT_EQ(EFAULT, straddle_errno(self->pidfd, self->t.memfd, 16, 12));
}

TEST_F(target, args_ending_exactly_at_a_prot_none_page_succeed)
{
	EXPECT_EQ(0, straddle_errno(self->pidfd, self->t.memfd, 12, 12));
}

TEST_F(target, flag_bit_1_is_einval)
{
	struct pidfd_getfd_args args = {
		.size = sizeof(args), .fd = self->t.memfd, .flags = 1u << 1,
	};

	EXPECT_EQ(EINVAL, getfd_errno(self->pidfd, &args));
}

TEST_F(target, flag_bit_31_is_einval)
{
	struct pidfd_getfd_args args = {
		.size = sizeof(args), .fd = self->t.memfd,
		.flags = PIDFD_GETFD_CLOEXEC | 1u << 31,
	};

	EXPECT_EQ(EINVAL, getfd_errno(self->pidfd, &args));
}

TEST_F(target, an_unknown_command_is_enotty)
{
	struct pidfd_getfd_args args = { .size = sizeof(args), .fd = self->t.memfd };

	EXPECT_EQ(-1, ioctl(self->pidfd, _IOWR(PIDFD_IOC_MAGIC, 0xb1, args), &args));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->pidfd, _IOR(PIDFD_IOC_MAGIC, 0xb0, args), &args));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->pidfd, _IOWR('q', 0xb0, args), &args));
	EXPECT_EQ(ENOTTY, errno);
}

/* Errors: the pidfd */

TEST_F(target, the_command_on_a_file_that_is_not_a_pidfd_is_enotty)
{
	int memfd = memfd_create("not-a-pidfd", MFD_CLOEXEC);

	ASSERT_GE(memfd, 0);
	EXPECT_EQ(-1, getfd(memfd, self->t.memfd, 0));
	EXPECT_EQ(ENOTTY, errno);
	close(memfd);
}

TEST_F(target, a_closed_pidfd_is_ebadf)
{
	int pidfd = dup(self->pidfd);

	ASSERT_GE(pidfd, 0);
	ASSERT_EQ(0, close(pidfd));
	EXPECT_EQ(-1, getfd(pidfd, self->t.memfd, 0));
	EXPECT_EQ(EBADF, errno);
}

/* Errors: the target's fd */

TEST_F(target, an_fd_not_open_in_the_target_is_ebadf)
{
	EXPECT_EQ(-1, getfd(self->pidfd, UNKNOWN_FD, 0));
	EXPECT_EQ(EBADF, errno);
}

TEST_F(target, fd_0x7fffffff_is_ebadf)
{
	EXPECT_EQ(-1, getfd(self->pidfd, 0x7fffffff, 0));
	EXPECT_EQ(EBADF, errno);
}

TEST_F(target, fd_0xffffffff_is_ebadf)
{
	EXPECT_EQ(-1, getfd(self->pidfd, 0xffffffff, 0));
	EXPECT_EQ(EBADF, errno);
}

/* Errors: the target's state */

TEST_F(target, a_zombie_target_is_esrch)
{
	siginfo_t info;
	unsigned char cmd = CMD_EXIT;

	ASSERT_EQ(1, write(self->ctl, &cmd, 1));
	ASSERT_EQ(0, waitid(P_PIDFD, self->pidfd, &info, WEXITED | WNOWAIT));
	EXPECT_EQ(-1, getfd(self->pidfd, self->t.memfd, 0));
	EXPECT_EQ(ESRCH, errno);
}

TEST_F(target, a_reaped_target_is_esrch)
{
	unsigned char cmd = CMD_EXIT;
	int status;

	ASSERT_EQ(1, write(self->ctl, &cmd, 1));
	ASSERT_EQ(self->pid, waitpid(self->pid, &status, 0));
	EXPECT_EQ(-1, getfd(self->pidfd, self->t.memfd, 0));
	EXPECT_EQ(ESRCH, errno);
	self->pid = 0;
}

/* Permission: as ptrace attach */

TEST_F(target, an_unprivileged_caller_gets_a_same_uid_dumpable_targets_fd)
{
	int fd;

	ASSERT_EQ(0, ask(self->ctl, CMD_UID_USER));
	ASSERT_EQ(0, ask(self->ctl, CMD_DUMPABLE));
	ASSERT_EQ(0, become(UID_USER));
	fd = getfd(self->pidfd, self->t.memfd, 0);
	EXPECT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	close(fd);
}

TEST_F(target, an_unprivileged_caller_gets_eperm_for_another_uid)
{
	ASSERT_EQ(0, ask(self->ctl, CMD_UID_OTHER));
	ASSERT_EQ(0, ask(self->ctl, CMD_DUMPABLE));
	ASSERT_EQ(0, become(UID_USER));
	EXPECT_EQ(-1, getfd(self->pidfd, self->t.memfd, 0));
	EXPECT_EQ(EPERM, errno);
}

TEST_F(target, an_unprivileged_caller_gets_eperm_for_a_non_dumpable_target)
{
	ASSERT_EQ(0, ask(self->ctl, CMD_UID_USER));
	ASSERT_EQ(0, ask(self->ctl, CMD_NOT_DUMPABLE));
	ASSERT_EQ(0, become(UID_USER));
	EXPECT_EQ(-1, getfd(self->pidfd, self->t.memfd, 0));
	EXPECT_EQ(EPERM, errno);
}

TEST_F(target, root_with_cap_sys_ptrace_gets_a_non_dumpable_targets_fd)
{
	int fd;

	ASSERT_EQ(0, getuid()) TH_LOG("this case needs root");
	ASSERT_EQ(0, ask(self->ctl, CMD_UID_OTHER));
	ASSERT_EQ(0, ask(self->ctl, CMD_NOT_DUMPABLE));
	fd = getfd(self->pidfd, self->t.memfd, 0);
	EXPECT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	close(fd);
}

/* Resources */

TEST_F(target, no_free_fd_is_emfile_and_leaks_no_reference)
{
	struct rlimit rl;
	struct pollfd pfd = { .fd = self->eof_r, .events = POLLIN };
	char c;

	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &rl));
	rl.rlim_cur = lowest_free_fd();
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	EXPECT_EQ(-1, getfd(self->pidfd, self->t.eof_w, 0));
	EXPECT_EQ(EMFILE, errno);

	/* The target drops the last reference we know of: EOF, if no leak. */
	ASSERT_EQ(0, ask(self->ctl, CMD_CLOSE_WPIPE));
	ASSERT_EQ(1, poll(&pfd, 1, 5000)) TH_LOG("no EOF: a reference leaked");
	EXPECT_EQ(0, read(self->eof_r, &c, 1));
}

/* Other targets */

static void *sleeper(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

TEST(fetches_from_a_multi_threaded_target)
{
	int fds[2], pidfd, fd;
	char ready;
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		pthread_t threads[4];

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (int i = 0; i < 4; i++)
			if (pthread_create(&threads[i], NULL, sleeper, NULL))
				_exit(1);
		/* All threads are up: tell the parent, and wait to be killed. */
		close(fds[0]);
		if (write(fds[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fds[1]);
	ASSERT_EQ(1, read(fds[0], &ready, 1));
	pidfd = sys_pidfd_open(pid, 0);
	ASSERT_GE(pidfd, 0);
	fd = getfd(pidfd, fds[1], 0);
	EXPECT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, sys_kcmp(getpid(), pid, KCMP_FILE, fd, fds[1]));
	close(fd);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(pidfd);
}

static int sleeps(void *arg)
{
	(void)arg;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;)
		pause();
	return 0;
}

TEST(fetches_from_a_target_that_shares_its_fd_table)
{
	size_t stack_size = 64 * 1024;
	char *stack = malloc(stack_size);
	int remote, pidfd, fd;
	pid_t pid;

	ASSERT_NE(NULL, stack);
	pid = clone(sleeps, stack + stack_size, CLONE_FILES | SIGCHLD, NULL);
	ASSERT_GE(pid, 0);
	pidfd = sys_pidfd_open(pid, 0);
	ASSERT_GE(pidfd, 0);
	/* Opened after the clone: the target has it only through the shared table. */
	remote = memfd_create("clone_files", 0);
	ASSERT_GE(remote, 0);
	fd = getfd(pidfd, remote, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_NE(remote, fd);
	EXPECT_EQ(0, sys_kcmp(getpid(), pid, KCMP_FILE, fd, remote));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fd);
	close(remote);
	close(pidfd);
	free(stack);
}

/* Races, bounded in time and count: only documented answers, ever */

static int race_done(double start, long ops)
{
	return ops >= RACE_MAX_OPS || now() - start > RACE_SECONDS;
}

TEST(a_target_that_dup2s_and_closes_the_fd_gives_its_file_or_ebadf)
{
	long ok = 0, ebadf = 0, ops = 0;
	double start = now();
	int file, pidfd, racy = 100;
	pid_t pid;

	file = memfd_create("churn", 0);
	ASSERT_GE(file, 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;) {
			dup2(file, racy);
			close(racy);
		}
	}
	pidfd = sys_pidfd_open(pid, 0);
	ASSERT_GE(pidfd, 0);

	for (; !race_done(start, ops); ops++) {
		int fd = getfd(pidfd, racy, 0);

		if (fd >= 0) {
			ok++;
			EXPECT_EQ(0, sys_kcmp(getpid(), getpid(), KCMP_FILE, fd, file));
			close(fd);
		} else {
			ASSERT_EQ(EBADF, errno);
			ebadf++;
		}
	}
	TH_LOG("%ld fetches: %ld got the file, %ld EBADF", ops, ok, ebadf);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(pidfd);
	close(file);
}

TEST(a_target_that_exits_gives_its_file_or_esrch)
{
	long ok = 0, esrch = 0, ops = 0, targets = 0;
	double start = now();

	while (!race_done(start, ops)) {
		int pidfd, fd, e;
		pid_t pid = fork();

		ASSERT_GE(pid, 0);
		if (pid == 0)
			_exit(0);
		targets++;
		/* Not reaped yet, so the pid is still there. */
		pidfd = sys_pidfd_open(pid, 0);
		ASSERT_GE(pidfd, 0);
		do {
			fd = getfd(pidfd, 1, 0);
			e = errno;
			ops++;
			if (fd >= 0) {
				ok++;
				close(fd);
			} else {
				ASSERT_EQ(ESRCH, e);
				esrch++;
			}
		} while (fd >= 0 && !race_done(start, ops));
		waitpid(pid, NULL, 0);
		close(pidfd);
	}
	TH_LOG("%ld targets, %ld fetches: %ld got the file, %ld ESRCH",
	       targets, ops, ok, esrch);
	EXPECT_GT(esrch, 0);
}

/* Exec'ed as the target of the exec race: exits as soon as it starts. */
__attribute__((constructor)) static void exec_target(void)
{
	if (getenv("PIDFD_GETFD_EXEC_TARGET"))
		_exit(0);
}

TEST(a_target_that_execs_gives_its_file_ebadf_or_esrch)
{
	long ok = 0, ebadf = 0, esrch = 0, ops = 0;
	double start = now();

	while (!race_done(start, ops)) {
		int pidfd, fd, e, keep = memfd_create("exec", MFD_CLOEXEC);
		pid_t pid;

		ASSERT_GE(keep, 0);
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0) {
			setenv("PIDFD_GETFD_EXEC_TARGET", "1", 1);
			execl("/proc/self/exe", "exec-target", (char *)NULL);
			_exit(1);
		}
		pidfd = sys_pidfd_open(pid, 0);
		ASSERT_GE(pidfd, 0);
		do {
			fd = getfd(pidfd, keep, 0);
			e = errno;
			ops++;
			if (fd >= 0) {
				ok++;
				close(fd);
			} else if (e == EBADF) {
				ebadf++;
			} else {
				ASSERT_EQ(ESRCH, e);
				esrch++;
			}
		} while (fd >= 0 && !race_done(start, ops));
		waitpid(pid, NULL, 0);
		close(pidfd);
		close(keep);
	}
	TH_LOG("%ld fetches: %ld got the file, %ld EBADF, %ld ESRCH",
	       ops, ok, ebadf, esrch);
	EXPECT_GT(ebadf + esrch, 0);
}

TEST_HARNESS_MAIN
