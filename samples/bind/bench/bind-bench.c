// SPDX-License-Identifier: GPL-2.0
/*
 * bind-bench [-r ROUNDS] [-n BINDS]: what a privileged bind() costs through
 * bind-supervisor, as TAP with the table and CSV rows of make bench.
 * Run as root from the directory that holds bind-supervisor. Each round
 * runs, in turn, a supervised program that does BINDS times socket(),
 * bind(), close():
 *   continue   bind() to an unprivileged port: trapped, and answered at
 *              once with SECCOMP_USER_NOTIF_FLAG_CONTINUE (the floor)
 *   ioctl      bind() to an allowed privileged port, fetched with
 *              PIDFD_IOCTL_GETFD (skipped where the kernel has none)
 *   syscall    the same, fetched with pidfd_getfd(2)
 * A row is the median over rounds of the time per bind; its ratio is to
 * the floor.
 *
 * bind-bench --inner PORT BINDS: the supervised program; prints ns/bind.
 */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bench-rows.h"

#define MAX_ROUNDS 100
#define PRIV_PORT 80
#define UNPRIV_PORT 40080

static const struct row {
	const char *name, *fetch, *what;
	int port;
} rows[] = {
	{ "continue", "auto", "trapped, answered CONTINUE", UNPRIV_PORT },
	{ "ioctl", "ioctl", "supervised, PIDFD_IOCTL_GETFD", PRIV_PORT },
	{ "syscall", "syscall", "supervised, pidfd_getfd(2)", PRIV_PORT },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

static int inner(int port, int n)
{
	struct sockaddr_in in = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	double start = now_ns();
	int one = 1;

	for (int i = 0; i < n; i++) {
		int s = socket(AF_INET, SOCK_STREAM, 0);

		setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(s, (struct sockaddr *)&in, sizeof(in))) {
			perror("bind-bench: bind");
			return 1;
		}
		close(s);
	}
	printf("%.1f\n", (now_ns() - start) / n);
	return 0;
}

/* One supervised run; ns per bind, or -1 if it did not run. */
static double run(const struct row *r, int n)
{
	char cmd[256];
	double ns = -1;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "./bind-supervisor --user 1000 --fetch %s --allow tcp:%d -- ./bind-bench --inner %d %d",
		 r->fetch, PRIV_PORT, r->port, n);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (fscanf(p, "%lf", &ns) != 1)
		ns = -1;
	return pclose(p) ? -1 : ns;
}

/* Does bind-supervisor find PIDFD_IOCTL_GETFD in this kernel? */
static int has_ioctl(void)
{
	return !system("./bind-supervisor --fetch ioctl --user 1000 -- true 2>/dev/null");
}

int main(int argc, char **argv)
{
	static double ns[NROWS][MAX_ROUNDS];
	double floor_ns = 0;
	int rounds = 5, n = 200, opt, ok[NROWS];
	char name[32];

	if (argc == 4 && !strcmp(argv[1], "--inner"))
		return inner(atoi(argv[2]), atoi(argv[3]));
	while ((opt = getopt(argc, argv, "r:n:")) != -1) {
		if (opt == 'r')
			rounds = atoi(optarg);
		else if (opt == 'n')
			n = atoi(optarg);
		else
			return 2;
	}
	if (rounds < 1 || rounds > MAX_ROUNDS || n < 1) {
		fprintf(stderr, "usage: bind-bench [-r 1-%d] [-n BINDS]\n", MAX_ROUNDS);
		return 2;
	}
	printf("TAP version 13\n1..%zu\n", NROWS);
	print_table_head(rounds, n, "binds");
	for (size_t i = 0; i < NROWS; i++)
		ok[i] = 1;
	for (int r = 0; r < rounds; r++)
		for (size_t i = 0; i < NROWS; i++)
			if (ok[i] && (ns[i][r] = run(&rows[i], n)) < 0)
				ok[i] = 0;
	for (size_t i = 0; i < NROWS; i++) {
		snprintf(name, sizeof(name), "bind_%s", rows[i].name);
		if (!ok[i] && i == 1 && !has_ioctl()) {
			printf("ok %zu %s # SKIP no PIDFD_IOCTL_GETFD in this kernel\n", i + 1, name);
			continue;
		}
		if (!ok[i] || !ok[0]) {
			printf("not ok %zu %s: a supervised run failed\n", i + 1, name);
			continue;
		}
		if (i == 0)
			floor_ns = print_row(name, name, rows[i].what, n * rounds, ns[i], rounds, 0);
		else
			print_row(name, "bind_continue", rows[i].what, n * rounds, ns[i], rounds, floor_ns);
		printf("ok %zu %s\n", i + 1, name);
	}
	return !ok[0] || (!ok[1] && has_ioctl()) || !ok[2];
}
