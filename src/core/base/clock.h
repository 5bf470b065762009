/* SPDX-License-Identifier: MIT */
/* The monotonic clock (CLOCK_MONOTONIC) in the units callers count in:
 * deadlines in ms, samples in ns, rates in s. */
#ifndef IBC_BASE_CLOCK_H
#define IBC_BASE_CLOCK_H

#include <stdint.h>

long long mono_ms(void);
uint64_t mono_ns(void);
double mono_s(void);

#endif
