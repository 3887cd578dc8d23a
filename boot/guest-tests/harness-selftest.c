// SPDX-License-Identifier: GPL-2.0
/*
 * Guests the harness must reject (boot/suites/selftest-*): a test that
 * fails, a test that never ends so the guest never reboots, a test that
 * passes but leaves a process behind, and a kernel warning followed by a
 * hang (the warning must reach the verdict without the final log dump).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "fail")) {
		printf("TAP version 13\n1..2\nok 1 a passing case\n");
		printf("not ok 2 a deliberately failing case\n");
		return 1;
	}
	if (argc == 2 && !strcmp(argv[1], "warn-hang")) {
		static const char msg[] =
			"<4>harness-selftest: WARNING: a kernel warning, then a hang\n";
		int fd = open("/dev/kmsg", O_WRONLY);

		if (fd < 0 || write(fd, msg, sizeof(msg) - 1) < 0) {
			perror("harness-selftest: /dev/kmsg");
			return 1;
		}
		close(fd);
		printf("TAP version 13\n1..1\n# sleeping forever\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	if (argc == 2 && !strcmp(argv[1], "hang")) {
		printf("TAP version 13\n1..1\n# sleeping forever\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	if (argc == 2 && !strcmp(argv[1], "stray")) {
		printf("TAP version 13\n1..1\nok 1 a passing case\n");
		fflush(stdout);
		if (fork() == 0) {
			setsid();
			for (;;)
				pause();
		}
		return 0;
	}
	fprintf(stderr, "usage: %s fail|hang|warn-hang|stray\n", argv[0]);
	return 2;
}
