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

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

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

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static double ns[NROWS][MAX_ROUNDS];
	double median[NROWS];
	int rounds = 5, n = 200, opt, ok[NROWS];
	char cs[64] = "?";
	FILE *f;

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
	f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
	if (f && fscanf(f, "%63s", cs) != 1)
		strcpy(cs, "?");
	if (f)
		fclose(f);
	printf("TAP version 13\n1..%zu\n# clocksource: %s\n", NROWS, cs);
	printf("# %d rounds of %d binds each, interleaved\n", rounds, n);
	for (size_t i = 0; i < NROWS; i++)
		ok[i] = 1;
	for (int r = 0; r < rounds; r++)
		for (size_t i = 0; i < NROWS; i++)
			if (ok[i] && (ns[i][r] = run(&rows[i], n)) < 0)
				ok[i] = 0;
	printf("# %-13s %-30s %7s %10s %10s %10s %7s\n", "method", "what", "calls",
	       "min ns", "median ns", "max ns", "ratio");
	for (size_t i = 0; i < NROWS; i++) {
		if (!ok[i])
			continue;
		qsort(ns[i], rounds, sizeof(double), cmp);
		median[i] = ns[i][rounds / 2];
	}
	for (size_t i = 0; i < NROWS; i++) {
		const char *name = rows[i].name;
		double ratio = ok[0] && ok[i] ? median[i] / median[0] : 0;

		if (!ok[i] && i == 1 && !has_ioctl()) {
			printf("ok %zu bind_%s # SKIP no PIDFD_IOCTL_GETFD in this kernel\n",
			       i + 1, name);
			continue;
		}
		if (!ok[i]) {
			printf("not ok %zu bind_%s: a supervised run failed\n", i + 1, name);
			continue;
		}
		printf("# bind_%-8s %-30s %7d %10.1f %10.1f %10.1f %7.2f\n", name, rows[i].what,
		       n * rounds, ns[i][0], median[i], ns[i][rounds - 1], ratio);
		printf("# csv,bind_%s,bind_continue,%d,%.1f,%.1f,%.1f,%.3f\n", name, n * rounds,
		       ns[i][0], median[i], ns[i][rounds - 1], ratio);
		printf("ok %zu bind_%s\n", i + 1, name);
	}
	return !ok[0] || (!ok[1] && has_ioctl()) || !ok[2];
}
