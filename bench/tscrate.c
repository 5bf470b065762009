// SPDX-License-Identifier: MIT
/* tscrate: prints "TSC NS", the cycle counter and CLOCK_MONOTONIC (ns) read
 * back to back. engine-vs-perftest.sh takes one pair at the start of the
 * bench and one at the end: their quotient is the cycle counter's rate over
 * the whole bench (minutes), which turns perftest's --report-cycles figures
 * into microseconds with one rate for every run, instead of the few-ms
 * calibration each perftest run does for itself (under emulation on a busy
 * host it scatters by several percent and now and then fails: "inf"). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

int main(void)
{
	struct timespec ts;
	unsigned long long c;

	if (clock_gettime(CLOCK_MONOTONIC, &ts)) {
		perror("tscrate: clock_gettime");
		return 1;
	}
	c = __rdtsc();
	printf("%llu %llu\n", c, (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec);
	return 0;
}
