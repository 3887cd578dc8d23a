/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmarks of make bench share (bind-bench.c, notif-rtt.c): the
 * clock, the guest's clocksource, and a row of the tables that
 * boot/bench/tables.awk reads (the "# csv," line).
 */
#ifndef BENCH_ROWS_H
#define BENCH_ROWS_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int cmp_ns(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* "# clocksource: NAME", the rounds of @n @what, and the table's header. */
static inline void print_table_head(int rounds, int n, const char *what)
{
	char cs[64] = "?";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");

	if (f && fscanf(f, "%63s", cs) != 1)
		snprintf(cs, sizeof(cs), "?");
	if (f)
		fclose(f);
	printf("# clocksource: %s\n# %d rounds of %d %s each, interleaved\n", cs, rounds, n, what);
	printf("# %-13s %-30s %7s %10s %10s %10s %7s\n", "method", "what", "calls",
	       "min ns", "median ns", "max ns", "ratio");
}

/*
 * A row from @rounds figures (sorted here), its median's @ratio to its
 * @base row's; returns the median.
 */
static inline double print_row(const char *name, const char *base, const char *what,
			       int calls, double *ns, int rounds, double base_median)
{
	double median;

	qsort(ns, rounds, sizeof(double), cmp_ns);
	median = ns[rounds / 2];
	if (base_median <= 0)
		base_median = median;
	printf("# %-13s %-30s %7d %10.1f %10.1f %10.1f %7.2f\n", name, what, calls,
	       ns[0], median, ns[rounds - 1], median / base_median);
	printf("# csv,%s,%s,%d,%.1f,%.1f,%.1f,%.3f\n", name, base, calls, ns[0], median,
	       ns[rounds - 1], median / base_median);
	return median;
}

#endif
