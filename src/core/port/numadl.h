/* SPDX-License-Identifier: MIT */
/* Numadl: libnuma loaded by the commands that place memory or read a
 * node's size, not linked into every one; the numa_* functions we call
 * forward to it. */
#ifndef IBC_PORT_NUMADL_H
#define IBC_PORT_NUMADL_H

#include <stddef.h>

/* Loads libnuma (NUMA_SONAME) on the first call; later calls only
 * report the outcome. 0, or -1 with err naming the library and the
 * package. Without it numa_available() says -1, as on a machine
 * without NUMA, and NUMA placement is skipped with that note. */
int numadl_load(char *err, size_t errlen);

#endif
