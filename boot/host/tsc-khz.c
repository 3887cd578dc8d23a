// SPDX-License-Identifier: GPL-2.0
/*
 * Print the host's TSC rate in kHz (boot/run.sh passes it to the x86_64
 * guest as tsc_early_khz=): under QEMU's TCG, a guest's RDTSC reads the
 * host's TSC.  Three 100 ms samples against CLOCK_MONOTONIC_RAW; their
 * median, or an error if they disagree by more than 0.1%.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static double ns(const struct timespec *t)
{
	return t->tv_sec * 1e9 + t->tv_nsec;
}

/*
 * A TSC reading and the time it was taken at, between two clock reads:
 * a reading that was preempted (the two clock reads 10 us apart or more)
 * is taken again, so that one interrupted read cannot spoil a sample.
 */
static void stamp(unsigned long long *tsc, double *when)
{
	struct timespec a, b;

	for (int try = 0; try < 1000; try++) {
		clock_gettime(CLOCK_MONOTONIC_RAW, &a);
		*tsc = __rdtsc();
		clock_gettime(CLOCK_MONOTONIC_RAW, &b);
		if (ns(&b) - ns(&a) < 10000) {
			*when = (ns(&a) + ns(&b)) / 2;
			return;
		}
	}
	fprintf(stderr, "tsc-khz: every clock read took 10 us or more\n");
	exit(1);
}

static double sample_khz(void)
{
	struct timespec nap = { 0, 100 * 1000 * 1000 };
	unsigned long long c0, c1;
	double t0, t1;

	stamp(&c0, &t0);
	nanosleep(&nap, NULL);
	stamp(&c1, &t1);
	return (c1 - c0) / ((t1 - t0) / 1e6);
}

int main(void)
{
	double s[3], t;

	for (int i = 0; i < 3; i++)
		s[i] = sample_khz();
	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			if (s[j] < s[i]) {
				t = s[i];
				s[i] = s[j];
				s[j] = t;
			}
	if (s[2] - s[0] > s[1] / 1000) {
		fprintf(stderr, "tsc-khz: samples disagree: %.0f %.0f %.0f kHz\n", s[0], s[1], s[2]);
		return 1;
	}
	if (s[1] < 100000) {
		fprintf(stderr, "tsc-khz: %.0f kHz is no TSC rate\n", s[1]);
		return 1;
	}
	printf("%.0f\n", s[1]);
	return 0;
}
