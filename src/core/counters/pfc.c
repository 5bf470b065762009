// SPDX-License-Identifier: MIT
/* Per-priority pause statistics through the ethtool ioctl. */
#include "config.h"
#include "core/counters/pfc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/sysfs.h"
#include "core/counters/ethstats.h"

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
	struct ethstats st;

	memset(s, 0, sizeof(*s));
	if (ethstats_read(netdev, &st, s->why, sizeof(s->why)))
		return -1;
	pfc_from_stats(s, st.names, st.values, st.n);
	ethstats_free(&st);
	return 0;
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
