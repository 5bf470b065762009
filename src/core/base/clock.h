/* SPDX-License-Identifier: MIT */
/* The one monotonic clock: CLOCK_MONOTONIC seconds (not set back when
 * the wall clock is), and a sleep until such a time that a stop flag
 * (set by a signal handler) cuts short. */
#ifndef IBC_BASE_CLOCK_H
#define IBC_BASE_CLOCK_H

#include <signal.h>

/* CLOCK_MONOTONIC, in seconds. */
double clock_mono(void);
/* Sleeps until clock_mono() reaches t; returns early once *stop is set
 * (checked after each signal). stop may be NULL. */
void clock_sleep_until(double t, const volatile sig_atomic_t *stop);

#endif
