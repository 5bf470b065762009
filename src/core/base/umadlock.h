/* SPDX-License-Identifier: MIT */
/* Serialises umad use under ibsim's umad2sim preload, which routes every
 * answer of a management class to the one descriptor that registered it
 * last and crashes when that one has closed: with the sampler, the
 * counter worker and the sweep in one process, only one may talk at a
 * time there. On real devices spans cost nothing. */
#ifndef IBC_BASE_UMADLOCK_H
#define IBC_BASE_UMADLOCK_H

#include <stdbool.h>

/* True when running under the umad2sim preload. */
bool umadlock_sim(void);
/* A span of umad use (open … queries … close); recursive; a no-op
 * outside the simulator. */
void umadlock_span_begin(void);
void umadlock_span_end(void);

#endif
