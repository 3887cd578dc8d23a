// SPDX-License-Identifier: GPL-2.0
/*
 * The PIDFD_IOCTL_GETFD client (fetch.h): a socket taken out of the
 * program that trapped, through a pidfd of it, by the ioctl where the
 * kernel has it, else by pidfd_getfd(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/pidfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bind-cli.h"
#include "fetch.h"

#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif
/* 6.9's pidfd_open() flag: Debian 12's headers are 6.1's. */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

/* Set once pidfd_open() says EINVAL to PIDFD_THREAD: a kernel before 6.9. */
static int no_thread_pidfd;
enum fetch_method fetch_method;

int set_fetch(const char *method)
{
	if (!strcmp(method, "ioctl"))
		fetch_method = FETCH_IOCTL;
	else if (!strcmp(method, "syscall"))
		fetch_method = FETCH_SYSCALL;
	else if (strcmp(method, "auto"))
		return -1;
	return 0;
}

int fetch(int pidfd, int fd)
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
void probe_fetch(const char *prog)
{
	int pidfd = syscall(__NR_pidfd_open, getpid(), 0), fd = -1;
	int want = fetch_method;

	if (pidfd < 0) {
		fprintf(stderr, "%s: pidfd_open: %s\n", prog, strerror(errno));
		exit(1);
	}
	if (want != FETCH_SYSCALL) {
		fetch_method = FETCH_IOCTL;
		fd = fetch(pidfd, pidfd);
		if (fd < 0 && ((errno != ENOTTY && errno != EINVAL) ||
			       want == FETCH_IOCTL)) {
			fprintf(stderr, "%s: PIDFD_IOCTL_GETFD: %s\n", prog, strerror(errno));
			exit(1);
		}
	}
	if (fd < 0) {
		fetch_method = FETCH_SYSCALL;
		fd = fetch(pidfd, pidfd);
		if (fd < 0) {
			fprintf(stderr, "%s: pidfd_getfd(2): %s\n", prog, strerror(errno));
			exit(1);
		}
	}
	close(fd);
	close(pidfd);
	if (verbose)
		fprintf(stderr, "%s: fetch method: %s\n", prog, fetch_method == FETCH_IOCTL ?
			"PIDFD_IOCTL_GETFD" : "pidfd_getfd(2) (no PIDFD_IOCTL_GETFD here)");
}

/*
 * A notification names the thread that trapped. From 6.9 a pidfd may name
 * that thread (PIDFD_THREAD), and a fetch through it searches the thread's
 * own fd table: *thread is set. Before, pidfd_open() wants a thread-group
 * leader (6.1 says EINVAL for another thread, later kernels ENOENT), so
 * look up its leader.
 */
int open_process(pid_t tid, int want_thread, int *thread)
{
	char path[64], line[128];
	int pidfd;
	FILE *f;

	*thread = 0;
	if (want_thread && !__atomic_load_n(&no_thread_pidfd, __ATOMIC_RELAXED)) {
		pidfd = syscall(__NR_pidfd_open, tid, PIDFD_THREAD);
		if (pidfd >= 0 || errno != EINVAL)
			return *thread = pidfd >= 0, pidfd;
		__atomic_store_n(&no_thread_pidfd, 1, __ATOMIC_RELAXED);
	}
	pidfd = syscall(__NR_pidfd_open, tid, 0);
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
