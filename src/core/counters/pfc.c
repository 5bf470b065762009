// SPDX-License-Identifier: MIT
/* Per-priority pause statistics through the ethtool ioctl. */
#include "config.h"
#include "core/counters/pfc.h"

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

#include "core/base/sysfs.h"

int pfc_parse_name(const char *name, int *prio, bool *tx, bool *duration)
{
	static const struct { const char *fmt; bool tx, dur; } pats[] = {
		{ "rx_prio%d_pause_duration", false, true },
		{ "tx_prio%d_pause_duration", true, true },
		{ "rx_prio%d_pause", false, false },
		{ "tx_prio%d_pause", true, false },
		{ "rx_pfc_ena_frames_pri%d", false, false },
		{ "tx_pfc_ena_frames_pri%d", true, false },
		{ "rx_priority_%d_xoff", false, false },
		{ "tx_priority_%d_xoff", true, false },
	};

	/* each name is exactly prefix, one digit 0-7, suffix, and
	 * optionally ".nic" (ice) */
	for (size_t i = 0; i < sizeof(pats) / sizeof(*pats); i++) {
		const char *d = strstr(pats[i].fmt, "%d"), *rest;
		size_t pre = (size_t)(d - pats[i].fmt);

		if (strncmp(name, pats[i].fmt, pre) || name[pre] < '0' || name[pre] > '7')
			continue;
		rest = name + pre + 1;
		if (strncmp(rest, d + 2, strlen(d + 2)))
			continue;
		rest += strlen(d + 2);
		if (*rest && strcmp(rest, ".nic"))
			continue;
		*prio = name[pre] - '0';
		*tx = pats[i].tx;
		*duration = pats[i].dur;
		return 0;
	}
	return -1;
}

void pfc_from_stats(struct pfc_sample *s, const char *const *names,
		    const uint64_t *values, int n)
{
	memset(s, 0, sizeof(*s));
	s->read = true;
	for (int i = 0; i < n; i++) {
		int p;
		bool tx, dur;

		if (pfc_parse_name(names[i], &p, &tx, &dur))
			continue;
		s->per_prio = true;
		s->has[p] = true;
		if (dur) {
			s->have_dur = true;
			*(tx ? &s->tx_dur[p] : &s->rx_dur[p]) = values[i];
		} else {
			*(tx ? &s->tx[p] : &s->rx[p]) = values[i];
		}
	}
}

int pfc_read(const char *netdev, struct pfc_sample *s)
{
	struct ethtool_sset_info *si = NULL;
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	const char **names = NULL;
	uint64_t *vals = NULL;
	struct ifreq ifr;
	unsigned n = 0;
	int fd, rc = -1;

	memset(s, 0, sizeof(*s));
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(s->why, sizeof(s->why), "no socket for the ethtool ioctl: %s", strerror(errno));
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", netdev);
	si = calloc(1, sizeof(*si) + sizeof(uint32_t));
	if (!si)
		goto out;
	si->cmd = ETHTOOL_GSSET_INFO;
	si->sset_mask = 1ULL << ETH_SS_STATS;
	ifr.ifr_data = (void *)si;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0) {
		snprintf(s->why, sizeof(s->why), "ethtool statistics of %s: %s", netdev, strerror(errno));
		goto out;
	}
	n = si->sset_mask ? si->data[0] : 0;
	if (n > 8192)
		n = 8192;
	gs = calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN + 1);
	st = calloc(1, sizeof(*st) + (size_t)n * sizeof(uint64_t));
	names = calloc((size_t)n + 1, sizeof(*names));
	vals = calloc((size_t)n + 1, sizeof(*vals));
	if (!gs || !st || !names || !vals)
		goto out;
	if (n) {
		gs->cmd = ETHTOOL_GSTRINGS;
		gs->string_set = ETH_SS_STATS;
		gs->len = n;
		ifr.ifr_data = (void *)gs;
		if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
			goto fail;
		st->cmd = ETHTOOL_GSTATS;
		st->n_stats = n;
		ifr.ifr_data = (void *)st;
		if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
			goto fail;
		if (gs->len < n)
			n = gs->len;
		if (st->n_stats < n)
			n = st->n_stats;
		for (unsigned i = 0; i < n; i++) {
			char *nm = (char *)gs->data + (size_t)i * ETH_GSTRING_LEN;

			nm[ETH_GSTRING_LEN - 1] = '\0';
			names[i] = nm;
			vals[i] = st->data[i];
		}
	}
	pfc_from_stats(s, names, vals, (int)n);
	rc = 0;
	goto out;
fail:
	snprintf(s->why, sizeof(s->why), "ethtool statistics of %s: %s", netdev, strerror(errno));
out:
	if (rc && !s->why[0])
		snprintf(s->why, sizeof(s->why), "out of memory");
	free(names);
	free(vals);
	free(si);
	free(gs);
	free(st);
	close(fd);
	return rc;
}

int pfc_priority_of_tclass_text(const char *text, int *tclass)
{
	const char *p = strstr(text, "tclass=");
	char *end;
	long v;

	if (!p)
		return -1;
	errno = 0;
	v = strtol(p + 7, &end, 10);
	if (errno || end == p + 7 || v < 0 || v > 255)
		return -1;
	*tclass = (int)v;
	/* ToS byte: DSCP in its upper six bits; the default DSCP-to-
	 * priority map is DSCP / 8 */
	return (int)(v >> 2) >> 3;
}

int pfc_roce_priority(const char *dev, int port, char *how, size_t howlen)
{
	char buf[128];
	int tclass, prio;

	how[0] = '\0';
	if (sysfs_read(buf, sizeof(buf), "/sys/class/infiniband/%s/tc/%d/traffic_class", dev, port))
		return -1;
	prio = pfc_priority_of_tclass_text(buf, &tclass);
	if (prio < 0)
		return -1;
	snprintf(how, howlen, "traffic class %d, default DSCP-to-priority map", tclass);
	return prio;
}
