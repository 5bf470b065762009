/* SPDX-License-Identifier: MIT */
/* A netdev's ethtool statistics (`ethtool -S`) through the ETHTOOL_GSTATS
 * ioctl: names and values, no privileges needed. */
#ifndef IBC_COUNTERS_ETHSTATS_H
#define IBC_COUNTERS_ETHSTATS_H

#include <stddef.h>
#include <stdint.h>

struct ethstats {
	int n;
	const char **names;	/* into the strings block below */
	uint64_t *values;
	void *strings;
};

/* Reads netdev's statistics into st (free with ethstats_free): 0, or -1
 * with why ("ethtool statistics of eth0: Operation not supported"). */
int ethstats_read(const char *netdev, struct ethstats *st, char *why, size_t whylen);
void ethstats_free(struct ethstats *st);

#endif
