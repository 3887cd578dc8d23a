// SPDX-License-Identifier: GPL-2.0
/*
 * tty-inject run PROGRAM [ARG...]: run PROGRAM in a new session whose
 * controlling terminal is a new pty, as a root shell runs bind-supervisor
 * from its terminal; when it has exited, read the terminal as that shell
 * would. Exits 1 if anything was pushed into the terminal's input.
 *
 * tty-inject push: what a hostile supervised program does: TIOCSTI a
 * command line into its standard input's terminal and into /dev/tty.
 *
 * tty-inject read: exits 1 if one of fds 0-2 is a terminal, which the
 * program could read the invoker's keystrokes from, 0 if none is.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINE "echo INJECTED-AS-ROOT\n"

static void push(const char *what, int fd)
{
	int err = 0;

	for (const char *c = LINE; *c && !err; c++)
		if (ioctl(fd, TIOCSTI, c))
			err = errno;
	printf("tty-inject: TIOCSTI into %s: %s\n", what, err ? strerror(err) : "done");
}

static int run(char **argv)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY), slave, status, n;
	char buf[512];
	pid_t pid;

	if (master < 0 || grantpt(master) || unlockpt(master)) {
		perror("tty-inject: pty");
		return 2;
	}
	pid = fork();
	if (pid == 0) {
		setsid();
		slave = open(ptsname(master), O_RDWR);
		if (slave < 0 || ioctl(slave, TIOCSCTTY, 0)) {
			perror("tty-inject: controlling tty");
			_exit(2);
		}
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	/* The shell's end: the slave, read once the program is gone. */
	slave = open(ptsname(master), O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (pid < 0 || slave < 0)
		return 2;
	/* Relay the program's output until it has exited. */
	for (;;) {
		struct pollfd pfd = { .fd = master, .events = POLLIN };
		int done = waitpid(pid, &status, WNOHANG) == pid;

		while (poll(&pfd, 1, done ? 0 : 100) > 0 &&
		       (n = read(master, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, n, stdout);
		if (done)
			break;
	}
	printf("tty-inject: the program exited with status %d\n", WEXITSTATUS(status));
	n = read(slave, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = 0;
		printf("tty-inject: the terminal's reader got: %s", buf);
		return 1;
	}
	printf("tty-inject: nothing was pushed into the terminal's input\n");
	return 0;
}

int main(int argc, char **argv)
{
	int tty;

	if (argc > 2 && !strcmp(argv[1], "run"))
		return run(&argv[2]);
	if (argc == 2 && !strcmp(argv[1], "read")) {
		for (int fd = 0; fd < 3; fd++)
			if (isatty(fd)) {
				fprintf(stderr, "tty-inject: fd %d is the terminal\n", fd);
				return 1;
			}
		return 0;
	}
	if (argc != 2 || strcmp(argv[1], "push")) {
		fprintf(stderr, "usage: tty-inject run PROGRAM [ARG...] | tty-inject push|read\n");
		return 2;
	}
	push("standard input", 0);
	tty = open("/dev/tty", O_RDWR);
	if (tty < 0)
		printf("tty-inject: /dev/tty: %s\n", strerror(errno));
	else
		push("/dev/tty", tty);
	return 0;
}
