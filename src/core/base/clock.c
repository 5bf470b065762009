// SPDX-License-Identifier: MIT
/* The one monotonic clock in ms, ns and s, and its sleep (see clock.h). */
#include "config.h"
#include "core/base/clock.h"

#include <errno.h>
#include <time.h>

static struct timespec now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t;
}

long long mono_ms(void)
{
	struct timespec t = now();

	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

uint64_t mono_ns(void)
{
	struct timespec t = now();

	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

double mono_s(void)
{
	struct timespec t = now();

	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void clock_sleep_until(double t, const volatile sig_atomic_t *stop)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	while (!(stop && *stop) &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}
