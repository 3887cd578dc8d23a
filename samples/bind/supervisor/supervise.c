// SPDX-License-Identifier: GPL-2.0
/* bind-supervisor's main loop: see supervise.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "supervise.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

static int exit_status(const siginfo_t *si)
{
	return si->si_code == CLD_EXITED ? si->si_status : 128 + si->si_status;
}

/* Reap the program (through its pidfd) and any orphan; set *status. */
static void reap(int pidfd, pid_t pid, int *status)
{
	siginfo_t si = { 0 };

	if (*status < 0 && !waitid(P_PIDFD, pidfd, &si, WEXITED | WNOHANG) &&
	    si.si_pid == pid)
		*status = exit_status(&si);
	for (;;) {
		si.si_pid = 0;
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG) || !si.si_pid)
			break;
		/* It exited between the two calls: still ours, not reused. */
		if (si.si_pid == pid && *status < 0)
			*status = exit_status(&si);
	}
}

int supervise(int listener, int sigfd, int pidfd, pid_t pid)
{
	int status = -1, hung_up = 0;

	/*
	 * Since 6.11 the listener can hang up before SIGCHLD is seen (the
	 * filter's users drop at exit, not at reaping): keep waiting for both.
	 */
	while (status < 0 || !hung_up) {
		struct pollfd pfd[2] = {
			{ .fd = hung_up ? -1 : listener, .events = 0 },
			{ .fd = sigfd, .events = POLLIN },
		};
		struct signalfd_siginfo si;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("bind-supervisor: poll");
			return -1;
		}
		if (pfd[0].revents & (POLLHUP | POLLERR))
			hung_up = 1;
		if (!(pfd[1].revents & POLLIN))
			continue;
		while (read(sigfd, &si, sizeof(si)) == sizeof(si))
			if (si.ssi_signo != SIGCHLD &&
			    syscall(__NR_pidfd_send_signal, pidfd, si.ssi_signo, NULL, 0) &&
			    errno != ESRCH)
				perror("bind-supervisor: pidfd_send_signal");
		reap(pidfd, pid, &status);
	}
	return status;
}
