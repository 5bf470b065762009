/* SPDX-License-Identifier: MIT */
/* NUMA placement of an HCA: its node, its local CPUs, and whether this
 * process runs local to it, remote from it, or on both sides. */
#ifndef IBC_PORT_NUMA_H
#define IBC_PORT_NUMA_H

#include <stdbool.h>
#include <sched.h>
#include "core/port/port.h"

/* Parses a kernel cpulist ("0-3,8,10-11") into set; false on bad input. */
bool numa_parse_cpulist(const char *s, cpu_set_t *set);
/* "local" / "remote" / "mixed" for where may-run CPUs fall. */
const char *numa_relation(const cpu_set_t *hca_local, const cpu_set_t *allowed);
void numa_read(struct numa_info *n, const char *dev);

#endif
