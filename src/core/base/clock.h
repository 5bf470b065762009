/* SPDX-License-Identifier: MIT */
/* The one monotonic clock (CLOCK_MONOTONIC: not set back when the wall
 * clock is) in the units callers count in — deadlines in ms, samples in
 * ns, rates in s — and a sleep until such a time that a stop flag (set by
 * a signal handler) cuts short. */
#ifndef IBC_BASE_CLOCK_H
#define IBC_BASE_CLOCK_H

#include <signal.h>
#include <stdint.h>

long long mono_ms(void);
uint64_t mono_ns(void);
double mono_s(void);
/* Sleeps until mono_s() reaches t; returns early once *stop is set
 * (checked after each signal). stop may be NULL. */
void clock_sleep_until(double t, const volatile sig_atomic_t *stop);

#endif
