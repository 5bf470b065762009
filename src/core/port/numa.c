// SPDX-License-Identifier: MIT
/* NUMA placement of an HCA: its node, its local CPUs, and whether this
 * process runs local to it, remote from it, or on both sides. */
#include "config.h"
#include "core/port/numa.h"

#include <ctype.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/sysfs.h"

bool numa_parse_cpulist(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	while (*s && !isspace((unsigned char)*s)) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			return false;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return false;
		}
		if (b >= CPU_SETSIZE)
			return false;
		for (long c = a; c <= b; c++)
			CPU_SET((int)c, set);
		s = end;
		if (*s == ',')
			s++;
		else if (*s && !isspace((unsigned char)*s))
			return false;
	}
	return true;
}

const char *numa_relation(const cpu_set_t *hca_local, const cpu_set_t *allowed)
{
	cpu_set_t both;
	int n_allowed = CPU_COUNT(allowed), n_both;

	CPU_AND(&both, hca_local, allowed);
	n_both = CPU_COUNT(&both);
	if (!n_allowed)
		return "unknown";
	if (n_both == n_allowed)
		return "local";
	return n_both ? "mixed" : "remote";
}

void numa_read(struct numa_info *n, const char *dev)
{
	cpu_set_t local, allowed;
	long node;
	int rc;

	memset(n, 0, sizeof(*n));
	n->node = -1;
	n->node_mem_mb = -1;
	snprintf(n->relation, sizeof(n->relation), "unknown");
	rc = sysfs_read_long(&node, "/sys/class/infiniband/%s/device/numa_node", dev);
	if (rc) {
		snprintf(n->v.why, sizeof(n->v.why), "no NUMA information for %s (%s)",
			 dev, rc == -2 ? "no PCI device" : strerror(-rc));
		return;
	}
	if (node < 0) {
		snprintf(n->v.why, sizeof(n->v.why),
			 "%s reports no NUMA node (-1): single node or firmware did not say", dev);
		return;
	}
	n->v.valid = true;
	n->node = (int)node;
	if (!sysfs_read(n->local_cpus, sizeof(n->local_cpus),
			"/sys/class/infiniband/%s/device/local_cpulist", dev) &&
	    numa_parse_cpulist(n->local_cpus, &local) &&
	    !sched_getaffinity(0, sizeof(allowed), &allowed))
		snprintf(n->relation, sizeof(n->relation), "%s",
			 numa_relation(&local, &allowed));
	/* libnuma knows the real machine only, not a fixture tree */
	if (sysfs_is_real_root() && numa_available() >= 0 && node <= numa_max_node()) {
		long long sz = numa_node_size64((int)node, NULL);

		if (sz > 0)
			n->node_mem_mb = sz >> 20;
	}
}
