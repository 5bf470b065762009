// SPDX-License-Identifier: MIT
/* ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS and ETHTOOL_GSTATS on one socket. */
#include "config.h"
#include "core/counters/ethstats.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#define ETHSTATS_MAX 8192	/* more than any driver has */

static int ethtool(int fd, struct ifreq *ifr, void *cmd)
{
	ifr->ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, ifr);
}

void ethstats_free(struct ethstats *st)
{
	free(st->names);
	free(st->values);
	free(st->strings);
	memset(st, 0, sizeof(*st));
}

int ethstats_read(const char *netdev, struct ethstats *st, char *why, size_t whylen)
{
	struct ethtool_sset_info *si = NULL;
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *sv = NULL;
	struct ifreq ifr;
	unsigned n = 0;
	int fd, rc = -1;

	memset(st, 0, sizeof(*st));
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(why, whylen, "no socket for the ethtool ioctl: %s", strerror(errno));
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", netdev);
	si = calloc(1, sizeof(*si) + sizeof(uint32_t));
	if (!si)
		goto nomem;
	si->cmd = ETHTOOL_GSSET_INFO;
	si->sset_mask = 1ULL << ETH_SS_STATS;
	if (ethtool(fd, &ifr, si) < 0)
		goto fail;
	n = si->sset_mask ? si->data[0] : 0;
	if (n > ETHSTATS_MAX)
		n = ETHSTATS_MAX;
	gs = calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN + 1);
	sv = calloc(1, sizeof(*sv) + (size_t)n * sizeof(uint64_t));
	st->names = calloc((size_t)n + 1, sizeof(*st->names));
	st->values = calloc((size_t)n + 1, sizeof(*st->values));
	if (!gs || !sv || !st->names || !st->values)
		goto nomem;
	if (n) {
		gs->cmd = ETHTOOL_GSTRINGS;
		gs->string_set = ETH_SS_STATS;
		gs->len = n;
		if (ethtool(fd, &ifr, gs) < 0)
			goto fail;
		sv->cmd = ETHTOOL_GSTATS;
		sv->n_stats = n;
		if (ethtool(fd, &ifr, sv) < 0)
			goto fail;
		if (gs->len < n)
			n = gs->len;
		if (sv->n_stats < n)
			n = sv->n_stats;
	}
	for (unsigned i = 0; i < n; i++) {
		char *nm = (char *)gs->data + (size_t)i * ETH_GSTRING_LEN;

		nm[ETH_GSTRING_LEN - 1] = '\0';
		st->names[i] = nm;
		st->values[i] = sv->data[i];
	}
	st->n = (int)n;
	st->strings = gs;
	gs = NULL;
	rc = 0;
	goto out;
fail:
	snprintf(why, whylen, "ethtool statistics of %s: %s", netdev, strerror(errno));
	goto out;
nomem:
	snprintf(why, whylen, "out of memory");
out:
	if (rc)
		ethstats_free(st);
	free(si);
	free(gs);
	free(sv);
	close(fd);
	return rc;
}
