// SPDX-License-Identifier: GPL-2.0
/*
 * Print the host's TSC rate in kHz (boot/run.sh passes it to the x86_64
 * guest as tsc_early_khz=): under QEMU's TCG, a guest's RDTSC reads the
 * host's TSC.  Three 100 ms samples against CLOCK_MONOTONIC_RAW; their
 * median, or an error if they disagree by more than 0.1%.
 */
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static double sample_khz(void)
{
	struct timespec t0, t1, nap = { 0, 100 * 1000 * 1000 };
	unsigned long long c0, c1;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t0);
	c0 = __rdtsc();
	nanosleep(&nap, NULL);
	clock_gettime(CLOCK_MONOTONIC_RAW, &t1);
	c1 = __rdtsc();
	return (c1 - c0) / ((t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
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
