// SPDX-License-Identifier: MIT
/* The console's fabric sweeper (see sweeper.h). */
#include "config.h"
#include "core/fabric/sweeper.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/fabric/sweep.h"

struct sweeper {
	struct sweep_history h;
	char dev[64];
	int port;
	monitor_listing_rule listed;
	struct counter_set cs, pcs;	/* a swept port's now and before */
};

struct sweeper *sweeper_new(const struct snap_opts *o, monitor_listing_rule listed)
{
	struct sweeper *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->listed = listed;
	if (o && o->device)
		snprintf(s->dev, sizeof(s->dev), "%s", o->device);
	s->port = o ? o->port : 0;
	return s;
}

void sweeper_free(struct sweeper *s)
{
	if (!s)
		return;
	sweep_history_free(&s->h);
	free(s);
}

/* Lists swept port i in m when the rule says so (up to the model's
 * room; past it, flag_truncated). */
static void flag_port(struct sweeper *s, struct ctr_model *m, int i, bool had,
		      bool moved)
{
	const struct sweep_port *p = &s->h.sw.p[i];
	struct monitor_flagged *f;

	if (m->nflag >= CTRW_MAX_FLAGGED) {
		m->flag_truncated = true;
		return;
	}
	f = &m->flag[m->nflag++];
	snprintf(f->node_desc, sizeof(f->node_desc), "%s", p->node_desc);
	f->lid = p->lid;
	f->port = p->port;
	f->is_switch = p->is_switch;
	f->moved = moved;
	f->cs = s->cs;
	if (had)
		f->prev = s->pcs;
	else
		f->prev.valid = false;
}

/* One round: the PMA counters of every port of the current discovery,
 * judged against the previous round; fills m's sweep part. */
static int sweeper_round(void *ctx, struct ctr_model *m, char *err, size_t errlen)
{
	struct sweeper *s = ctx;
	struct sweep_history *h = &s->h;
	struct sweep_opts so = { .dev = s->dev[0] ? s->dev : NULL, .port = s->port };
	int rc = 0;

	if (!h->have)
		rc = sweep_history_discover(h, &so, err, errlen);
	if (!rc)
		rc = sweep_query(&h->sw, &so, err, errlen);
	m->sweep_nodes = h->have ? h->sw.nodes : 0;
	m->sweep_ports = h->have ? h->sw.n : 0;
	if (rc)
		return rc;
	for (int i = 0; i < h->sw.n; i++) {
		const struct counter_set *pv;
		bool moved;

		if (!sweep_port_valid(&h->sw.p[i])) {
			m->sweep_failed++;
			continue;
		}
		pv = sweep_port_pair(&h->sw, &h->prev, i, &s->cs, &s->pcs);
		if (s->listed(&s->cs, pv, &moved))
			flag_port(s, m, i, pv != NULL, moved);
	}
	/* this round is the next one's previous (a port it could not read
	 * keeps its last sample); out of memory, the next round has none */
	sweep_history_keep(h);
	return 0;
}

struct monitor_sweeper sweeper_for_monitor(struct sweeper *s)
{
	return (struct monitor_sweeper){ .run = sweeper_round, .ctx = s };
}
