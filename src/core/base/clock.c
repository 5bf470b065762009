// SPDX-License-Identifier: MIT
/* The monotonic clock in ms, ns and s. */
#include "config.h"
#include "core/base/clock.h"

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
