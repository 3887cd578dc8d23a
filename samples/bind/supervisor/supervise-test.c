// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of bind-supervisor's main loop (supervise.c), as TAP: the
 * orders of events a kernel may deliver, made deterministic. A pipe stands
 * in for the seccomp listener: closing its write end is the hang-up.
 * Since 6.11 the listener hangs up before the program is reaped.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "supervise.h"

static int sigfd, failed, n;

static void on_term(int sig)
{
	(void)sig;
	_exit(42);
}

/*
 * Run supervise() on a program that sleeps @program_ms then exits 7 (its
 * SIGTERM handler exits 42), with a listener
 * that hangs up after @hangup_ms; with @wait_for_term, SIGTERM ourselves.
 */
static void check(const char *name, int program_ms, int hangup_ms, int wait_for_term,
		  int want)
{
	int pipefd[2], pidfd, got;
	pid_t pid;
	sigset_t none;

	sigemptyset(&none);

	if (pipe(pipefd))
		exit(1);
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		signal(SIGTERM, on_term);
		sigprocmask(SIG_SETMASK, &none, NULL);
		usleep(program_ms * 1000);
		_exit(7);
	}
	/* The last user of the filter: holds the write end, then hangs up. */
	if (fork() == 0) {
		close(pipefd[0]);
		usleep(hangup_ms * 1000);
		_exit(0);
	}
	close(pipefd[1]);
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (wait_for_term) {
		usleep(100 * 1000);	/* the program has its handler */
		kill(getpid(), SIGTERM);
	}
	got = supervise(pipefd[0], sigfd, pidfd, pid);
	close(pipefd[0]);
	close(pidfd);
	n++;
	if (got != want)
		failed = 1;
	printf("%sok %d %s (status %d, want %d)\n", got == want ? "" : "not ", n, name, got,
	       want);
}

int main(void)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sigfd < 0 || prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
		return 1;
	printf("TAP version 13\n1..3\n");
	check("the listener hangs up before the program exits (6.11+): its status is kept",
	      300, 0, 0, 7);
	check("the program exits, then the listener hangs up (6.1): its status is kept",
	      0, 300, 0, 7);
	check("a SIGTERM to the supervisor reaches the program", 5000, 0, 1, 42);
	return failed;
}
