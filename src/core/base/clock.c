// SPDX-License-Identifier: MIT
/* The one monotonic clock (see clock.h). */
#include "config.h"
#include "core/base/clock.h"

#include <errno.h>
#include <time.h>

double clock_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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
