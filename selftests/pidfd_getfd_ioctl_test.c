// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_IOCTL_GETFD: take a file from another process through its pidfd.
 *
 * Most cases fork a target that holds a few files and obeys one-byte
 * commands on a control socket (fixture "target"); the test fetches the
 * target's files and checks what it gets, or the errno it gets.  The
 * cases that change uids or Yama's ptrace_scope need root and are skipped
 * without it.  On a kernel without the command the whole test is skipped
 * (probe_the_command(), from main(), so that -l lists the cases on any
 * kernel), and the cases that compare files with kcmp() are skipped where
 * kcmp() is missing.
 *
 * No case leaves a process behind, whatever fails: a "target" exits when
 * its control socket closes, "child" fixtures kill their child in the
 * teardown, and the children that could outlive a test process killed
 * before its teardown ask for SIGKILL when it dies (fork_child()).
 */

#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <linux/kcmp.h>
#include <linux/pidfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
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
 * The struct has the same size on every ABI (linux/pidfd.h): this file is
 * built for each ABI the tests run on, so a layout that differs breaks the
 * build of one of them.  Name the newest _SIZE_VER* here.
 */
static_assert(sizeof(struct pidfd_getfd_args) == PIDFD_GETFD_ARGS_SIZE_VER0,
	      "struct pidfd_getfd_args differs from its newest version");
static_assert(_IOC_SIZE(PIDFD_IOCTL_GETFD) == sizeof(struct pidfd_getfd_args),
	      "PIDFD_IOCTL_GETFD does not encode the struct's size");

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

/* Linux 6.9's value, for headers older than the kernel under test */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD	O_EXCL
#endif

/* waitid()'s idtype for a pidfd (Linux 5.4), for a libc older than 2.36 */
#ifndef P_PIDFD
#define P_PIDFD		3
#endif

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

/*
 * fork() for a child that must not outlive the test: it gets @sig when the
 * test process dies, and exits at once if that happened before it could
 * ask to.
 */
static pid_t fork_child_sig(int sig)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0 && (prctl(PR_SET_PDEATHSIG, sig) || getppid() != parent))
		_exit(1);
	return pid;
}

static pid_t fork_child(void)
{
	return fork_child_sig(SIGKILL);
}

static bool is_root(void)
{
	return geteuid() == 0;
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

/*
 * PIDFD_IOCTL_GETFD as a program built with a @size-byte struct issues it:
 * the size bits of the command are the version of the struct.
 */
static unsigned long getfd_cmd(unsigned int size)
{
	return _IOC(_IOC_WRITE, _IOC_TYPE(PIDFD_IOCTL_GETFD), _IOC_NR(PIDFD_IOCTL_GETFD),
		    size);
}

/* Whether a write command of @size bytes can be expressed at all. */
static bool encodable(unsigned long size)
{
	return _IOC_SIZE(getfd_cmd(size)) == size &&
	       _IOC_DIR(getfd_cmd(size)) == _IOC_WRITE;
}

/* The errno of a call that was expected to fail, or 0 if it succeeded. */
static int cmd_errno(int pidfd, unsigned long cmd, void *args)
{
	int fd = ioctl(pidfd, cmd, args);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

static int getfd_errno(int pidfd, void *args)
{
	return cmd_errno(pidfd, PIDFD_IOCTL_GETFD, args);
}

static int lowest_free_fd(void)
{
	int fd = sys_open("/", O_RDONLY);

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

static int read_scope(void);
static int restore_scope(void);
static void only_in_the_main_harness(void);

static int become(uid_t uid)
{
	return setresgid(uid, uid, uid) || setresuid(uid, uid, uid);
}

static void target_loop(const struct target_files *t, int ctl)
{
	unsigned char c, reply;

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

	only_in_the_main_harness();
	/* A case killed on timeout may have left ptrace_scope changed. */
	ASSERT_EQ(0, restore_scope());
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

	self->pid = fork_child();
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

	EXPECT_EQ(0, restore_scope());
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

/*
 * kcmp() of our own memory with itself works unless the kernel was built
 * without CONFIG_KCMP.
 */
static bool have_kcmp(void)
{
	return sys_kcmp(getpid(), getpid(), KCMP_VM, 0, 0) == 0;
}

#define NO_KCMP "kcmp() fails here: a kernel without CONFIG_KCMP"

static int same_file(pid_t pid, int ours, int theirs)
{
	return sys_kcmp(getpid(), pid, KCMP_FILE, ours, theirs) == 0;
}

/* Success: what the caller gets */

TEST_F(target, fetched_pipe_socket_and_memfd_are_the_targets_files)
{
	int remote[] = { self->t.pipe_r, self->t.pipe_w, self->t.sock, self->t.memfd };

	if (!have_kcmp())
		SKIP(return, NO_KCMP);

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
	/* not stdin, which a test runner may have closed */
	higher = dup2(self->pidfd, hole + 3);
	ASSERT_EQ(hole + 3, higher);
	fd = getfd(self->pidfd, self->t.memfd, 0);
	EXPECT_EQ(hole, fd);
	close(fd);
	close(higher);
}

/* Errors: the arguments; the size bits of the command are the version */

/*
 * A @size-byte struct, as a later version would pass: args at the start of
 * a page-aligned, zeroed buffer of two pages.
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

/*
 * The errno of a command of @cmd_size bytes whose args say @args_size; a
 * byte at @dirty (if not 0) is not zero.
 */
static int sized_errno(int pidfd, int fd, unsigned int cmd_size,
		       __u32 args_size, size_t dirty)
{
	unsigned char *buf = big_args(fd, args_size);
	int err;

	if (!buf)
		return -1;
	if (dirty)
		buf[dirty] = 1;
	err = cmd_errno(pidfd, getfd_cmd(cmd_size), buf);
	munmap(buf, 2 * sysconf(_SC_PAGESIZE));
	return err;
}

TEST_F(target, size_12_is_the_first_version)
{
	struct pidfd_getfd_args args = { .size = 12, .fd = self->t.memfd };

	EXPECT_EQ(PIDFD_GETFD_ARGS_SIZE_VER0, sizeof(args));
	EXPECT_EQ(PIDFD_GETFD_ARGS_SIZE_VER0, _IOC_SIZE(PIDFD_IOCTL_GETFD));
	EXPECT_EQ(_IOC_WRITE, _IOC_DIR(PIDFD_IOCTL_GETFD));
	EXPECT_EQ('p', _IOC_TYPE(PIDFD_IOCTL_GETFD));
	EXPECT_EQ(0xb0, _IOC_NR(PIDFD_IOCTL_GETFD));
#if _IOC_WRITE == 1U && _IOC_SIZEBITS == 14	/* x86, arm, and most others */
	EXPECT_EQ(0x400c70b0, PIDFD_IOCTL_GETFD);
#endif
	EXPECT_EQ(0, getfd_errno(self->pidfd, &args));
}

TEST_F(target, a_command_of_size_0_is_einval)
{
	EXPECT_EQ(EINVAL, sized_errno(self->pidfd, self->t.memfd, 0, 0, 0));
}

TEST_F(target, a_command_of_size_11_is_einval)
{
	EXPECT_EQ(EINVAL, sized_errno(self->pidfd, self->t.memfd, 11, 11, 0));
}

TEST_F(target, a_command_of_size_13_with_a_zero_tail_succeeds)
{
	EXPECT_EQ(0, sized_errno(self->pidfd, self->t.memfd, 13, 13, 0));
}

TEST_F(target, a_command_of_size_13_with_a_non_zero_tail_is_e2big)
{
	EXPECT_EQ(E2BIG, sized_errno(self->pidfd, self->t.memfd, 13, 13, 12));
}

TEST_F(target, a_later_16_byte_struct_with_a_zero_tail_gets_the_file)
{
	struct {
		struct pidfd_getfd_args args;
		__u32 later_field;
	} v1 = { { .size = sizeof(v1), .fd = self->t.memfd }, 0 };
	int fd;

	if (!have_kcmp())
		SKIP(return, NO_KCMP);

	ASSERT_EQ(16, sizeof(v1));
	fd = ioctl(self->pidfd, _IOW('p', 0xb0, v1), &v1);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_TRUE(same_file(self->pid, fd, self->t.memfd));
	close(fd);
}

/* A later version as linux/pidfd.h says it must be: a __u64 after a pad. */
TEST_F(target, a_later_24_byte_struct_with_a_zero_tail_gets_the_file)
{
	struct {
		struct pidfd_getfd_args args;
		__u32 pad;
		__u64 later_field;
	} v1 = { { .size = sizeof(v1), .fd = self->t.memfd }, 0, 0 };
	int fd;

	if (!have_kcmp())
		SKIP(return, NO_KCMP);
	static_assert(sizeof(v1) == 24, "a later version is 24 bytes on every ABI");
	fd = ioctl(self->pidfd, _IOW('p', 0xb0, v1), &v1);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_TRUE(same_file(self->pid, fd, self->t.memfd));
	close(fd);
}

TEST_F(target, a_command_of_size_16_with_a_non_zero_tail_is_e2big)
{
	EXPECT_EQ(E2BIG, sized_errno(self->pidfd, self->t.memfd, 16, 16, 15));
}

TEST_F(target, a_command_of_size_64_with_a_non_zero_last_byte_is_e2big)
{
	EXPECT_EQ(E2BIG, sized_errno(self->pidfd, self->t.memfd, 64, 64, 63));
}

TEST_F(target, a_command_of_page_size_with_a_zero_tail_succeeds)
{
	long page = sysconf(_SC_PAGESIZE);

	if (!encodable(page))
		SKIP(return, "no ioctl command has a page's size (%ld)", page);
	EXPECT_EQ(0, sized_errno(self->pidfd, self->t.memfd, page, page, 0));
}

TEST_F(target, a_command_above_page_size_is_e2big)
{
	long page = sysconf(_SC_PAGESIZE);

	if (!encodable(page + 1))
		SKIP(return, "no ioctl command is larger than a page (%ld)", page);
	EXPECT_EQ(E2BIG, sized_errno(self->pidfd, self->t.memfd, page + 1, page + 1, 0));
}

TEST_F(target, args_size_larger_than_the_commands_is_einval)
{
	EXPECT_EQ(EINVAL, sized_errno(self->pidfd, self->t.memfd, 12, 16, 0));
}

TEST_F(target, args_size_smaller_than_the_commands_is_einval)
{
	EXPECT_EQ(EINVAL, sized_errno(self->pidfd, self->t.memfd, 16, 12, 0));
}

TEST_F(target, a_non_zero_tail_is_e2big_before_the_sizes_are_compared)
{
	EXPECT_EQ(E2BIG, sized_errno(self->pidfd, self->t.memfd, 16, 12, 15));
}

TEST_F(target, args_size_0xffffffff_is_einval)
{
	EXPECT_EQ(EINVAL, sized_errno(self->pidfd, self->t.memfd, 12, 0xffffffff, 0));
}

TEST_F(target, a_null_args_pointer_is_efault)
{
	EXPECT_EQ(EFAULT, getfd_errno(self->pidfd, NULL));
}

TEST_F(target, an_unmapped_args_pointer_is_efault)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_TRUE(p != MAP_FAILED);
	ASSERT_EQ(0, munmap(p, page));
	EXPECT_EQ(EFAULT, getfd_errno(self->pidfd, p));
}

/*
 * A command of @size bytes whose args (saying @args_size) end, after
 * @readable bytes, at a PROT_NONE page.
 */
static int straddle_errno(int pidfd, int fd, __u32 size, __u32 args_size,
			  size_t readable)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *buf = big_args(fd, args_size);
	struct pidfd_getfd_args args = { .size = args_size, .fd = fd };
	unsigned char *at;
	int err;

	if (!buf || mprotect(buf + page, page, PROT_NONE))
		return -1;
	at = buf + page - readable;
	memset(buf, 0, page);
	memcpy(at, &args, readable < sizeof(args) ? readable : sizeof(args));
	err = cmd_errno(pidfd, getfd_cmd(size), at);
	munmap(buf, 2 * page);
	return err;
}

TEST_F(target, args_straddling_into_a_prot_none_page_are_efault)
{
	EXPECT_EQ(EFAULT, straddle_errno(self->pidfd, self->t.memfd, 12, 12, 8));
}

TEST_F(target, a_tail_straddling_into_a_prot_none_page_is_efault)
{
	EXPECT_EQ(EFAULT, straddle_errno(self->pidfd, self->t.memfd, 16, 16, 12));
}

TEST_F(target, args_ending_exactly_at_a_prot_none_page_succeed)
{
	EXPECT_EQ(0, straddle_errno(self->pidfd, self->t.memfd, 12, 12, 12));
}

TEST_F(target, a_larger_args_size_is_einval_and_not_read_past_the_command)
{
	/* args.size 16 in a 12-byte command whose bytes 12-15 are unmapped */
	EXPECT_EQ(EINVAL, straddle_errno(self->pidfd, self->t.memfd, 12, 16, 12));
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

TEST_F(target, the_iowr_form_of_the_command_is_enotty)
{
	struct pidfd_getfd_args args = { .size = sizeof(args), .fd = self->t.memfd };

	EXPECT_EQ(-1, ioctl(self->pidfd, _IOWR('p', 0xb0, args), &args));
	EXPECT_EQ(ENOTTY, errno);
}

TEST_F(target, an_unknown_command_is_enotty)
{
	struct pidfd_getfd_args args = { .size = sizeof(args), .fd = self->t.memfd };

	EXPECT_EQ(-1, ioctl(self->pidfd, _IOW('p', 0xb1, args), &args));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->pidfd, _IOR('p', 0xb0, args), &args));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->pidfd, _IOW('q', 0xb0, args), &args));
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

	if (!is_root())
		SKIP(return, "changing uids needs root");
	if (read_scope() >= 2)
		SKIP(return, "Yama's ptrace_scope %d: only CAP_SYS_PTRACE attaches", read_scope());
	ASSERT_EQ(0, ask(self->ctl, CMD_UID_USER));
	ASSERT_EQ(0, ask(self->ctl, CMD_DUMPABLE));
	ASSERT_EQ(0, become(UID_USER));
	fd = getfd(self->pidfd, self->t.memfd, 0);
	EXPECT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	close(fd);
}

TEST_F(target, an_unprivileged_caller_gets_eperm_for_another_uid)
{
	if (!is_root())
		SKIP(return, "changing uids needs root");
	ASSERT_EQ(0, ask(self->ctl, CMD_UID_OTHER));
	ASSERT_EQ(0, ask(self->ctl, CMD_DUMPABLE));
	ASSERT_EQ(0, become(UID_USER));
	EXPECT_EQ(-1, getfd(self->pidfd, self->t.memfd, 0));
	EXPECT_EQ(EPERM, errno);
}

TEST_F(target, an_unprivileged_caller_gets_eperm_for_a_non_dumpable_target)
{
	if (!is_root())
		SKIP(return, "changing uids needs root");
	ASSERT_EQ(0, ask(self->ctl, CMD_UID_USER));
	ASSERT_EQ(0, ask(self->ctl, CMD_NOT_DUMPABLE));
	ASSERT_EQ(0, become(UID_USER));
	EXPECT_EQ(-1, getfd(self->pidfd, self->t.memfd, 0));
	EXPECT_EQ(EPERM, errno);
}

TEST_F(target, root_with_cap_sys_ptrace_gets_a_non_dumpable_targets_fd)
{
	int fd;

	if (!is_root())
		SKIP(return, "changing uids needs root");
	ASSERT_EQ(0, ask(self->ctl, CMD_UID_OTHER));
	ASSERT_EQ(0, ask(self->ctl, CMD_NOT_DUMPABLE));
	fd = getfd(self->pidfd, self->t.memfd, 0);
	EXPECT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	close(fd);
}

/*
 * Permission: Yama's ptrace_scope, an LSM that refuses ptrace_may_access().
 * The unprivileged callers run in a child, so that the case stays root and
 * can put the scope back.
 *
 * ptrace_scope is a global knob.  The scope from before the first change
 * is kept in a page shared by every process of this test, and put back by
 * the teardown, by the next case's setup, and by the harness's main process
 * when it exits or gets SIGTERM.  The exit matters when the harness kills a
 * case on timeout: it kills the case's whole process group, teardown
 * included (also 6.12's FIXTURE_TEARDOWN_PARENT(), which runs in that group
 * too), but not itself.  SIGTERM is what the kselftest runner's own timeout
 * sends the main process.  A SIGKILL of the main process leaves the scope
 * changed: nothing can run then.
 */

#define YAMA_SCOPE "/proc/sys/kernel/yama/ptrace_scope"

static int read_scope(void)
{
	FILE *f = fopen(YAMA_SCOPE, "r");
	int scope = -1;

	if (f) {
		if (fscanf(f, "%d", &scope) != 1)
			scope = -1;
		fclose(f);
	}
	return scope;
}

static int write_scope(int scope)
{
	FILE *f = fopen(YAMA_SCOPE, "w");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%d\n", scope) < 0;
	return fclose(f) || ret ? -1 : 0;
}

/* Shared by all our processes */
struct shared {
	int saved_scope;	/* -1: none */
	pid_t hanging_group;	/* of hang.with_the_scope_changed, or 0 */
};

static struct shared *shared;
static pid_t harness_pid;	/* the harness's main process */

/* Put back the scope from before the first change, if one is saved. */
static int restore_scope(void)
{
	int scope = shared ? __atomic_exchange_n(&shared->saved_scope, -1, __ATOMIC_SEQ_CST) : -1;

	return scope < 0 ? 0 : write_scope(scope);
}

/*
 * SIGTERM to the harness's main process: put the scope back, end the case
 * that hangs with it changed (its own process group, which would outlive
 * us), and die of the signal.  Async-signal-safe: no stdio.
 */
static void restore_the_scope_on_sigterm(int sig)
{
	int scope, fd;
	char c[2];

	if (getpid() != harness_pid)
		goto die;
	scope = __atomic_exchange_n(&shared->saved_scope, -1, __ATOMIC_SEQ_CST);
	c[0] = '0' + scope;
	c[1] = '\n';
	if (shared->hanging_group > 0)
		kill(-shared->hanging_group, SIGKILL);
	if (scope >= 0 && scope <= 9) {
		fd = sys_open(YAMA_SCOPE, O_WRONLY);
		if (fd >= 0) {
			if (write(fd, c, sizeof(c)) != sizeof(c))
				shared->saved_scope = scope;	/* not put back */
			close(fd);
		}
	}
die:
	signal(sig, SIG_DFL);
	raise(sig);
}

__attribute__((constructor)) static void share_the_saved_scope(void)
{
	harness_pid = getpid();
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		shared = NULL;
		return;
	}
	shared->saved_scope = -1;
	shared->hanging_group = 0;
	signal(SIGTERM, restore_the_scope_on_sigterm);
}

__attribute__((destructor)) static void restore_the_scope_at_exit(void)
{
	if (getpid() == harness_pid && restore_scope())
		ksft_print_msg("could not put Yama's ptrace_scope back: %s\n", strerror(errno));
}

/*
 * Set ptrace_scope to @scope; the old one is saved, before the change, for
 * restore_scope(), unless @scope is 3, which cannot be undone anyway.
 * Returns why this cannot be done here, or NULL.
 */
static const char *use_scope(int scope)
{
	int old = read_scope();

	if (!is_root())
		return "setting ptrace_scope needs root";
	if (old < 0)
		return "no Yama (" YAMA_SCOPE ")";
	if (old == 3 && scope != 3)
		return "ptrace_scope is 3 until the next boot";
	if (!shared)
		return "no shared page to save ptrace_scope in";
	if (scope != 3 && shared->saved_scope < 0)
		shared->saved_scope = old;
	if (write_scope(scope) && (errno == EPERM || errno == EACCES || errno == EROFS))
		return "ptrace_scope cannot be written here";
	return NULL;
}

/*
 * The errno a process of @uid gets (0 for a file) taking fd @fd from
 * @target or, if @target is 0, from a child of its own.
 */
static int errno_as(uid_t uid, pid_t target, int fd)
{
	pid_t pid = fork_child();
	int status, pidfd, got;

	if (pid == 0) {
		if (become(uid) || prctl(PR_SET_DUMPABLE, 1))
			_exit(100);
		if (!target) {
			target = fork_child();
			if (target == 0)
				for (;;)
					pause();
		}
		pidfd = sys_pidfd_open(target, 0);
		if (pidfd < 0)
			_exit(101);
		got = getfd(pidfd, fd, 0);
		_exit(got >= 0 ? 0 : errno);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Make the fixture's target a dumpable process of UID_USER. */
static int target_as_user(int ctl)
{
	return ask(ctl, CMD_UID_USER) || ask(ctl, CMD_DUMPABLE);
}

TEST_F(target, yama_scope_0_lets_a_same_uid_caller_take_from_a_non_descendant)
{
	const char *why = use_scope(0);

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, read_scope());
	ASSERT_EQ(0, target_as_user(self->ctl));
	EXPECT_EQ(0, errno_as(UID_USER, self->pid, self->t.memfd));
}

TEST_F(target, yama_scope_1_is_eperm_for_a_same_uid_caller_and_a_non_descendant)
{
	const char *why = use_scope(1);

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(1, read_scope());
	ASSERT_EQ(0, target_as_user(self->ctl));
	EXPECT_EQ(EPERM, errno_as(UID_USER, self->pid, self->t.memfd));
}

TEST_F(target, yama_scope_1_lets_a_same_uid_caller_take_from_its_own_child)
{
	const char *why = use_scope(1);

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(1, read_scope());
	EXPECT_EQ(0, errno_as(UID_USER, 0, STDERR_FILENO));
}

TEST_F(target, yama_scope_2_is_eperm_for_a_caller_without_cap_sys_ptrace)
{
	const char *why = use_scope(2);

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(2, read_scope());
	EXPECT_EQ(EPERM, errno_as(UID_USER, 0, STDERR_FILENO));
}

TEST_F(target, yama_scope_2_lets_root_take_the_file)
{
	const char *why = use_scope(2);
	int fd;

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(2, read_scope());
	fd = getfd(self->pidfd, self->t.memfd, 0);
	EXPECT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	close(fd);
}

/*
 * What a case killed by the harness on timeout, or a harness killed by
 * SIGTERM, leaves: the test runs itself, in a harness of its own where
 * every case but hang.with_the_scope_changed returns at once, and that
 * case changes the scope and hangs, until the harness kills it or gets
 * SIGTERM.
 */
#define HANG_ENV	"PIDFD_GETFD_TEST_HANG_WITH_THE_SCOPE_CHANGED"

static int other_scope(int scope)
{
	return scope > 0 ? scope - 1 : 1;	/* lower, where it can be */
}

/* In the harness that runs that case, the other cases have nothing to do. */
static void only_in_the_main_harness(void)
{
	if (getenv(HANG_ENV))
		_exit(0);
}

/*
 * Why the scope cannot be changed and put back here, or NULL; the scope is
 * *@before.
 */
static const char *cannot_change_the_scope(int *before)
{
	*before = read_scope();
	if (!is_root())
		return "setting ptrace_scope needs root";
	if (*before < 0)
		return "no Yama (" YAMA_SCOPE ")";
	if (*before == 3)
		return "ptrace_scope is 3 until the next boot";
	if (write_scope(*before))
		return "ptrace_scope cannot be written here";
	return NULL;
}

/*
 * Start the harness that runs that case (it gets @deathsig if we die), and
 * wait until the case has changed the scope from @before.
 */
static pid_t start_the_hanging_harness(int deathsig, int before)
{
	double start;
	pid_t pid = fork_child_sig(deathsig);

	if (pid == 0) {
		int null = sys_open("/dev/null", O_WRONLY);

		if (null < 0 || dup2(null, STDOUT_FILENO) < 0 || dup2(null, STDERR_FILENO) < 0)
			_exit(100);
		setenv(HANG_ENV, "1", 1);
		execl("/proc/self/exe", "hang", (char *)NULL);
		_exit(101);
	}
	start = now();
	while (pid > 0 && read_scope() == before && now() - start < 10)
		usleep(1000);
	return pid;
}

/*
 * Start the hanging harness, see the case change the scope, end it as
 * @how says (SIGKILL: let its harness kill the case on timeout; SIGTERM:
 * send the harness SIGTERM, as a runner's timeout does), and check that
 * the scope is back.
 */
static void hang_and_end(struct __test_metadata *_metadata, int how)
{
	const char *why;
	int before, status;
	pid_t pid;

	only_in_the_main_harness();
	why = cannot_change_the_scope(&before);
	if (why)
		SKIP(return, "%s", why);

	/* The scope changes while the case runs ... */
	pid = start_the_hanging_harness(how, before);
	ASSERT_GE(pid, 0);
	EXPECT_EQ(other_scope(before), read_scope()) TH_LOG("the case did not change the scope");
	/* ... the case ends: a timeout is a failure, not a skip ... */
	if (how == SIGTERM)
		ASSERT_EQ(0, kill(pid, SIGTERM));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (how == SIGTERM) {
		EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM)
			TH_LOG("status 0x%x: not killed by SIGTERM", status);
	} else {
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == KSFT_FAIL)
			TH_LOG("status 0x%x: the case did not time out", status);
	}
	/* ... and the scope is back. */
	EXPECT_EQ(before, read_scope());
	write_scope(before);
}

TEST(a_case_killed_on_timeout_leaves_yama_as_it_was)
{
	hang_and_end(_metadata, SIGKILL);
}

TEST(a_harness_killed_by_sigterm_leaves_yama_as_it_was)
{
	hang_and_end(_metadata, SIGTERM);
}

/* Runs only in the harness that the two cases above start. */
FIXTURE(hang) {
	int unused;
};

FIXTURE_SETUP(hang)
{
}

FIXTURE_TEARDOWN(hang)
{
}

TEST_F_TIMEOUT(hang, with_the_scope_changed, 1)
{
	const char *why;

	if (!getenv(HANG_ENV))
		SKIP(return, "runs only in the harness of the cases that kill it");
	/* The harness's SIGTERM handler ends our process group. */
	shared->hanging_group = getpgrp();
	why = use_scope(other_scope(read_scope()));
	if (why)
		SKIP(return, "%s", why);
	for (;;)
		pause();
}

/* Resources */

TEST_F(target, a_fetched_fd_once_closed_leaks_no_reference)
{
	struct pollfd pfd = { .fd = self->eof_r, .events = POLLIN };
	int fd = getfd(self->pidfd, self->t.eof_w, 0);
	char c;

	ASSERT_GE(fd, 0);
	close(fd);
	/* The target drops the last reference we know of: EOF, if no leak. */
	ASSERT_EQ(0, ask(self->ctl, CMD_CLOSE_WPIPE));
	ASSERT_EQ(1, poll(&pfd, 1, 5000)) TH_LOG("no EOF: a reference leaked");
	EXPECT_EQ(0, read(self->eof_r, &c, 1));
}

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

/* Other targets: one child, killed in the teardown if still there */

FIXTURE(child)
{
	pid_t pid;
	int pidfd;
};

FIXTURE_SETUP(child)
{
	only_in_the_main_harness();
	ASSERT_EQ(0, restore_scope());
	self->pid = 0;
	self->pidfd = -1;
}

FIXTURE_TEARDOWN(child)
{
	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		EXPECT_EQ(self->pid, waitpid(self->pid, NULL, 0));
	}
	close(self->pidfd);
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

TEST_F(child, fetches_from_a_multi_threaded_target)
{
	int fds[2], fd;
	char ready;

	if (!have_kcmp())
		SKIP(return, NO_KCMP);

	ASSERT_EQ(0, pipe(fds));
	self->pid = fork_child();
	ASSERT_GE(self->pid, 0);
	if (self->pid == 0) {
		pthread_t threads[4];

		for (int i = 0; i < 4; i++)
			if (pthread_create(&threads[i], NULL, sleeper, NULL))
				_exit(1);
		/* All threads are up: tell the parent, and wait to be killed. */
		close(fds[0]);
		if (write(fds[1], "r", 1) != 1)
			_exit(1);
		sleeper(NULL);
	}
	close(fds[1]);
	ASSERT_EQ(1, read(fds[0], &ready, 1));
	self->pidfd = sys_pidfd_open(self->pid, 0);
	ASSERT_GE(self->pidfd, 0);
	fd = getfd(self->pidfd, fds[1], 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, sys_kcmp(getpid(), self->pid, KCMP_FILE, fd, fds[1]));
	close(fd);
}

/* The state letter of /proc/PID/stat (R, S, Z, ...), or 0. */
static char proc_state(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
			state = 0;
		fclose(f);
	}
	return state;
}

/*
 * The leader's files are gone, but its threads run on: this kernel answers
 * ESRCH, a kernel that resolves the pidfd through a live thread may give
 * the file.  Both are right; the case logs which one it saw.
 */
TEST_F(child, a_process_whose_leader_has_exited_gives_a_file_or_esrch)
{
	double start = now();
	pthread_t thread;
	int fd;

	self->pid = fork_child();
	ASSERT_GE(self->pid, 0);
	if (self->pid == 0) {
		if (pthread_create(&thread, NULL, sleeper, NULL))
			_exit(1);
		/* pthread_exit() of the leader alone: the process runs on. */
		syscall(__NR_exit, 0);
	}
	self->pidfd = sys_pidfd_open(self->pid, 0);
	ASSERT_GE(self->pidfd, 0);
	while (proc_state(self->pid) != 'Z' && now() - start < 10)
		usleep(1000);
	ASSERT_EQ('Z', proc_state(self->pid)) TH_LOG("the leader did not exit");
	ASSERT_EQ(0, kill(self->pid, 0)) TH_LOG("the process is gone");

	fd = getfd(self->pidfd, STDERR_FILENO, 0);
	if (fd >= 0) {
		TH_LOG("leader exited, threads running: got a file");
		close(fd);
	} else {
		EXPECT_EQ(ESRCH, errno) TH_LOG("%s", strerror(errno));
		TH_LOG("leader exited, threads running: ESRCH");
	}
}

/* clone()d with CLONE_FILES: its parent's pid is @arg. */
static int sleeps(void *arg)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != *(pid_t *)arg)
		_exit(1);
	sleeper(NULL);
	return 0;
}

TEST_F(child, fetches_from_a_target_that_shares_its_fd_table)
{
	/* Without CLONE_VM the child runs on its own copy of it. */
	static max_align_t stack[64 * 1024 / sizeof(max_align_t)];
	pid_t parent = getpid();
	int remote, fd;

	if (!have_kcmp())
		SKIP(return, NO_KCMP);

	self->pid = clone(sleeps, stack + ARRAY_SIZE(stack), CLONE_FILES | SIGCHLD, &parent);
	ASSERT_GE(self->pid, 0);
	self->pidfd = sys_pidfd_open(self->pid, 0);
	ASSERT_GE(self->pidfd, 0);
	/* Opened after the clone: the target has it only through the shared table. */
	remote = memfd_create("clone_files", 0);
	ASSERT_GE(remote, 0);
	fd = getfd(self->pidfd, remote, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_NE(remote, fd);
	EXPECT_EQ(0, sys_kcmp(getpid(), self->pid, KCMP_FILE, fd, remote));
	close(fd);
	close(remote);
}

struct thread_file {
	int ready;		/* write end of the pipe for this struct */
	int fd;			/* in the thread's own fd table only */
	pid_t tid;
};

/* A thread of the target: it leaves the shared table and opens a file. */
static void *unshares_and_opens(void *arg)
{
	struct thread_file *tf = arg;

	if (unshare(CLONE_FILES))
		_exit(1);
	tf->fd = memfd_create("thread_only", 0);
	tf->tid = syscall(SYS_gettid);
	if (tf->fd < 0 || write(tf->ready, tf, sizeof(*tf)) != sizeof(*tf))
		_exit(1);
	return sleeper(NULL);
}

/*
 * Since 6.9 a pidfd can name a thread (PIDFD_THREAD): the command then
 * reads that thread's fd table, not the leader's.
 */
TEST_F(child, a_thread_pidfd_reads_the_threads_own_fd_table)
{
	struct thread_file tf;
	int ready[2], tidfd, fd;

	if (!have_kcmp())
		SKIP(return, NO_KCMP);
	ASSERT_EQ(0, pipe(ready));
	self->pid = fork_child();
	ASSERT_GE(self->pid, 0);
	if (self->pid == 0) {
		pthread_t thread;

		close(ready[0]);
		tf.ready = ready[1];
		if (pthread_create(&thread, NULL, unshares_and_opens, &tf))
			_exit(1);
		sleeper(NULL);
	}
	close(ready[1]);
	ASSERT_EQ(sizeof(tf), read(ready[0], &tf, sizeof(tf)));
	close(ready[0]);
	self->pidfd = sys_pidfd_open(self->pid, 0);
	ASSERT_GE(self->pidfd, 0);
	tidfd = sys_pidfd_open(tf.tid, PIDFD_THREAD);
	if (tidfd < 0 && errno == EINVAL)
		SKIP(return, "pidfd_open() refuses PIDFD_THREAD (before Linux 6.9)");
	ASSERT_GE(tidfd, 0) TH_LOG("%s", strerror(errno));

	/* The thread's table has the file ... */
	fd = getfd(tidfd, tf.fd, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, sys_kcmp(getpid(), tf.tid, KCMP_FILE, fd, tf.fd));
	close(fd);
	close(tidfd);
	/* ... the leader's, which the thread left before opening it, not. */
	EXPECT_EQ(-1, getfd(self->pidfd, tf.fd, 0));
	EXPECT_EQ(EBADF, errno);
}

/* Races, bounded in time and count: only documented answers, ever */

static int race_done(double start, long ops)
{
	return ops >= RACE_MAX_OPS || now() - start > RACE_SECONDS;
}

TEST_F(child, a_target_that_dup2s_and_closes_the_fd_gives_its_file_or_ebadf)
{
	long ok = 0, ebadf = 0, ops = 0;
	double start = now();
	int file, racy = 100;

	if (!have_kcmp())
		SKIP(return, NO_KCMP);

	file = memfd_create("churn", 0);
	ASSERT_GE(file, 0);
	self->pid = fork_child();
	ASSERT_GE(self->pid, 0);
	if (self->pid == 0) {
		for (;;) {
			dup2(file, racy);
			close(racy);
		}
	}
	self->pidfd = sys_pidfd_open(self->pid, 0);
	ASSERT_GE(self->pidfd, 0);

	for (; !race_done(start, ops); ops++) {
		int fd = getfd(self->pidfd, racy, 0);

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
	EXPECT_GT(ok, 0);
	close(file);
}

TEST(a_target_that_exits_gives_its_file_or_esrch)
{
	long ok = 0, esrch = 0, ops = 0, targets = 0;
	double start = now();
	int keep;

	only_in_the_main_harness();
	keep = memfd_create("exit", 0);
	ASSERT_GE(keep, 0);
	while (!race_done(start, ops)) {
		int pidfd, fd, e;
		pid_t pid = fork_child();

		ASSERT_GE(pid, 0);
		if (pid == 0)
			_exit(0);
		targets++;
		/* Not reaped yet, so the pid is still there. */
		pidfd = sys_pidfd_open(pid, 0);
		ASSERT_GE(pidfd, 0);
		do {
			fd = getfd(pidfd, keep, 0);
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
	close(keep);
}

/*
 * Yama's ptrace_scope 3 refuses every attach until the next boot (the last
 * case sets it, when asked to): then no other case can pass.
 */
static void skip_all_under_scope_3(void)
{
	if (read_scope() == 3 && !getenv("PIDFD_GETFD_TEST_YAMA_SCOPE_3")) {
		ksft_print_header();
		ksft_exit_skip("Yama's ptrace_scope is 3 until the next boot\n");
	}
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

	only_in_the_main_harness();
	while (!race_done(start, ops)) {
		int pidfd, fd, e, keep = memfd_create("exec", MFD_CLOEXEC);
		pid_t pid;

		ASSERT_GE(keep, 0);
		pid = fork_child();
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

/*
 * Yama never lowers ptrace_scope from 3 again: this case changes the
 * machine until the next boot, so it runs only when asked to, and last.
 */
TEST_F(child, yama_scope_3_is_eperm_even_for_root)
{
	const char *why = getenv("PIDFD_GETFD_TEST_YAMA_SCOPE_3") ?
		use_scope(3) :
		"ptrace_scope 3 lasts until reboot: PIDFD_GETFD_TEST_YAMA_SCOPE_3=1 runs it";

	if (why)
		SKIP(return, "%s", why);
	self->pid = fork_child();
	ASSERT_GE(self->pid, 0);
	if (self->pid == 0)
		sleeper(NULL);
	self->pidfd = sys_pidfd_open(self->pid, 0);
	ASSERT_GE(self->pidfd, 0);
	ASSERT_EQ(3, read_scope());
	EXPECT_EQ(-1, getfd(self->pidfd, STDERR_FILENO, 0));
	EXPECT_EQ(EPERM, errno);
}

/*
 * Skip, not fail, on a kernel without the command.  With a NULL argument,
 * a kernel without it answers ENOTTY (6.1: a pidfd has no other ioctl;
 * 6.12: pidfs refuses any command with an argument with EINVAL, but looks
 * at the command when there is none), and a kernel with it EFAULT, the
 * compat path included.  Only ENOTTY means "not here": any other answer,
 * EINVAL included, is the cases' to report, so that a broken handler
 * fails instead of being skipped.
 */
static void probe_the_command(void)
{
	int pidfd;

	pidfd = sys_pidfd_open(getpid(), 0);
	if (pidfd < 0) {
		ksft_print_header();
		ksft_exit_skip("pidfd_open() of this process fails: %s\n", strerror(errno));
	}
	if (ioctl(pidfd, PIDFD_IOCTL_GETFD, NULL) < 0 && errno == ENOTTY) {
		ksft_print_header();
		ksft_exit_skip("no PIDFD_IOCTL_GETFD in this kernel: the probe got ENOTTY\n");
	}
	close(pidfd);
}

/* -l lists the cases, whatever the running kernel has. */
static bool listing(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-l") == 0)
			return true;
	return false;
}

int main(int argc, char **argv)
{
	if (!listing(argc, argv)) {
		probe_the_command();
		skip_all_under_scope_3();
	}
	return test_harness_run(argc, argv);
}
