/* SPDX-License-Identifier: MIT */
/* One lock for MAD / umad work shared by the sampler and the discovery
 * thread, taken only under ibsim's umad2sim preload (see madlock.c). */
#ifndef IBC_MADLOCK_H
#define IBC_MADLOCK_H

void madlock_acquire(void);
void madlock_release(void);

#endif
