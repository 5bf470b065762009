// SPDX-License-Identifier: MIT
/* The fabric sweeper (see sweeper.h). */
#include "config.h"
#include "core/fabric/sweeper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fabric/discovery.h"
#include "core/fabric/fabric.h"

struct sweeper {
	struct sweep_history h;
	struct fabric *f;		/* keep_model: h's model */
	struct sweeper_opts o;
	char dev[64], map[512];
	double discovered_at;		/* monotonic, of the kept model */
	bool want_discovery;
	bool *answered;			/* h.sw.n: read by the last round */
	bool follow;			/* the discovery worker's model */
	unsigned view_gen;		/* its view taken last, 0 none */
	struct sweeper_stats st;
	/* the console's round */
	monitor_listing_rule listed;
	struct counter_set cs, pcs;	/* a swept port's now and before */
};

struct sweeper *sweeper_open(const struct sweeper_opts *o)
{
	struct sweeper *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->o = *o;
	if (o->so.dev) {
		snprintf(s->dev, sizeof(s->dev), "%s", o->so.dev);
		s->o.so.dev = s->dev;
	}
	if (o->so.node_name_map) {
		snprintf(s->map, sizeof(s->map), "%s", o->so.node_name_map);
		s->o.so.node_name_map = s->map;
	}
	return s;
}

void sweeper_free(struct sweeper *s)
{
	if (!s)
		return;
	sweep_history_free(&s->h);
	fabric_free(s->f);
	free(s->answered);
	free(s);
}

void sweeper_rediscover(struct sweeper *s)
{
	s->want_discovery = true;
}

void sweeper_set_rediscover_s(struct sweeper *s, double secs)
{
	s->o.rediscover_s = secs;
}

const struct sweep *sweeper_sweep(const struct sweeper *s)
{
	return &s->h.sw;
}

const struct sweep *sweeper_prev(const struct sweeper *s)
{
	return s->h.have && s->h.prev.n == s->h.sw.n ? &s->h.prev : NULL;
}

const struct fabric *sweeper_fabric(const struct sweeper *s)
{
	return s->f;
}

void sweeper_stats(const struct sweeper *s, struct sweeper_stats *st)
{
	*st = s->st;
	st->mads_sent = s->h.sw.mads_sent;
	st->mads_retried = s->h.sw.mads_retried;
}

static int by_guid_port(const void *a, const void *b)
{
	const struct sweep_port *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->port - y->port;
}

/* The previous samples of old (n ports, samples in prev) for the ports of
 * nw, found by node GUID and port: into np and its values nv. 0, or -1
 * out of memory. */
static int carry_prev(const struct sweep *prev, struct sweep *nw,
		      struct sweep *np)
{
	struct sweep_port *sorted = malloc(((size_t)prev->n + 1) * sizeof(*sorted));

	np->p = calloc((size_t)nw->n + 1, sizeof(*np->p));
	np->vals = malloc(((size_t)prev->nvals * CTR_IDX_COUNT + 1) * sizeof(*np->vals));
	if (!sorted || !np->p || !np->vals) {
		free(sorted);
		sweep_free(np);
		return -1;
	}
	np->n = nw->n;
	if (prev->n)
		memcpy(sorted, prev->p, (size_t)prev->n * sizeof(*sorted));
	qsort(sorted, (size_t)prev->n, sizeof(*sorted), by_guid_port);
	for (int i = 0; i < nw->n; i++) {
		const struct sweep_port *q = bsearch(&nw->p[i], sorted, (size_t)prev->n,
						     sizeof(*sorted), by_guid_port);
		struct sweep_port *p = &np->p[i];

		*p = nw->p[i];	/* its place in the new model */
		p->result = SWEEP_NOT_READ;
		p->vi = -1;
		if (!q || !sweep_port_valid(q))
			continue;
		p->result = q->result;
		p->has_pce = q->has_pce;
		p->cap = q->cap;
		p->cap2 = q->cap2;
		p->t_mono = q->t_mono;
		if (q->result == SWEEP_READ && q->vi >= 0 && q->vi < prev->nvals) {
			p->vi = np->nvals++;
			memcpy(np->vals + (size_t)p->vi * CTR_IDX_COUNT,
			       prev->vals + (size_t)q->vi * CTR_IDX_COUNT,
			       CTR_IDX_COUNT * sizeof(*np->vals));
		}
	}
	free(sorted);
	return 0;
}

/* Takes nw (and f, the model it came from: kept with keep_model, else
 * freed) as the new port list; the kept samples follow their ports. */
static int install(struct sweeper *s, struct sweep *nw, struct fabric *f,
		   char *err, size_t errlen)
{
	struct sweep np = { 0 };
	bool *ans = calloc((size_t)nw->n + 1, sizeof(*ans));
	int rc;

	if (!ans || (s->h.have && carry_prev(&s->h.prev, nw, &np))) {
		free(ans);
		sweep_free(nw);
		fabric_free(f);
		snprintf(err, errlen, "out of memory for %d swept ports", nw->n);
		return 5;
	}
	nw->mads_sent = s->h.sw.mads_sent;
	nw->mads_failed = s->h.sw.mads_failed;
	sweep_history_free(&s->h);
	s->h.sw = *nw;
	if (np.p) {
		s->h.prev = np;
		s->h.have = true;
	} else if ((rc = sweep_history_adopt(&s->h, err, errlen))) {
		free(ans);
		fabric_free(f);
		return rc;
	}
	free(s->answered);
	s->answered = ans;
	fabric_free(s->f);
	s->f = s->o.keep_model ? f : NULL;
	if (!s->o.keep_model)
		fabric_free(f);
	s->discovered_at = counters_now();
	s->want_discovery = false;
	s->st.discovered = true;
	s->st.discover_s = s->h.sw.discover_s;
	return 0;
}

/* Discovers the model again. */
static int discover(struct sweeper *s, char *err, size_t errlen)
{
	struct sweep nw;
	struct fabric *f = NULL;
	int rc = sweep_discover_model(&nw, &f, &s->o.so, err, errlen);

	if (!rc)
		rc = install(s, &nw, f, err, errlen);
	if (!rc)
		s->st.discoveries++;
	return rc;
}

/* discovery_shared_take()'s copy: the port list of the worker's model. */
static int take_model(void *ctx, const struct fabric *f)
{
	struct sweeper *s = ctx;
	struct sweep nw;
	char err[80];

	if (sweep_from_fabric(&nw, f, err, sizeof(err)) ||
	    install(s, &nw, NULL, err, sizeof(err)))
		return -1;
	s->st.taken++;
	return 0;
}

/* How long a first round waits for the discovery worker's first model
 * before discovering on its own: a bound on a discovery that hangs, far
 * above what one of a 4,000-node fabric takes (no source gives one). */
#define FOLLOW_WAIT_S 120.0

/* The model for this round: the discovery worker's newest where one runs
 * (follow), else a discovery of its own when none is kept or one is due. */
static int model_for_round(struct sweeper *s, char *err, size_t errlen)
{
	bool due = s->o.rediscover_s > 0 &&
		   counters_now() - s->discovered_at >= s->o.rediscover_s;

	if (s->follow) {
		int r = discovery_shared_take(&s->view_gen, take_model, s);

		if (r == 0 && !s->h.have) {
			/* the worker's first discovery is under way (the
			 * console starts it with the fabric screen's
			 * prefetch): one discovery serves both */
			int w = discovery_shared_wait(FOLLOW_WAIT_S);

			if (w < 0) {
				snprintf(err, errlen, "the fabric discovery stopped before its first model");
				return 4;
			}
			if (w > 0)
				r = discovery_shared_take(&s->view_gen, take_model, s);
		}

		/* The worker rediscovers on a timer only when the console
		 * was given one (--rediscover): else the slow timer here asks
		 * it, once a period, and the next round takes its model. */
		if (r == 0 && s->h.have && due && s->view_gen) {
			discovery_shared_request();
			s->discovered_at = counters_now();
		}
		if (r > 0 || (r == 0 && s->h.have))
			return 0;
	}
	if (!s->h.have || s->want_discovery || due)
		return discover(s, err, errlen);
	return 0;
}

/* Port i's LinkDownedCounter when it was read one by one, else -1. */
static long long link_downed(const struct sweep *sw, int i)
{
	const struct sweep_port *p = &sw->p[i];

	if (i >= sw->n || p->result != SWEEP_READ || p->vi < 0 || p->vi >= sw->nvals)
		return -1;
	return (long long)sw->vals[(size_t)p->vi * CTR_IDX_COUNT + CTR_IDX_LINK_DOWNED];
}

/* Whether this round met a port whose link or peer changed: its
 * LinkDownedCounter rose, or it answered the last round and not this. */
static bool changed(const struct sweeper *s)
{
	const struct sweep *sw = &s->h.sw;

	for (int i = 0; i < sw->n; i++) {
		long long now = link_downed(sw, i), before = link_downed(&s->h.prev, i);

		if (s->answered[i] && !sweep_port_valid(&sw->p[i]))
			return true;
		if (now >= 0 && before >= 0 && now > before)
			return true;
	}
	return false;
}

int sweeper_query(struct sweeper *s, char *err, size_t errlen)
{
	int rc;

	s->st.discovered = false;
	s->st.discover_s = 0;
	rc = model_for_round(s, err, errlen);
	if (!rc)
		rc = sweep_query(&s->h.sw, &s->o.so, err, errlen);
	if (!rc && !s->st.discovered && s->o.rediscover_on_change && changed(s)) {
		/* a followed worker discovers on its thread: the next round
		 * takes its model */
		if (s->follow && s->view_gen)
			discovery_shared_request();
		else if (!(rc = discover(s, err, errlen)))
			rc = sweep_query(&s->h.sw, &s->o.so, err, errlen);
	}
	if (rc)
		return rc;
	for (int i = 0; i < s->h.sw.n; i++)
		s->answered[i] = sweep_port_valid(&s->h.sw.p[i]);
	return 0;
}

const struct counter_set *sweeper_pair(struct sweeper *s, int i,
				       struct counter_set *cs,
				       struct counter_set *pcs)
{
	return sweep_port_pair(&s->h.sw, &s->h.prev, i, cs, pcs);
}

int sweeper_keep(struct sweeper *s)
{
	return sweep_history_keep(&s->h);
}

/* --- the console's round --- */

struct sweeper *sweeper_new(const struct snap_opts *o, monitor_listing_rule listed)
{
	struct sweeper_opts so = {
		.so = { .dev = o ? o->device : NULL, .port = o ? o->port : 0 },
		.rediscover_s = SWEEPER_REDISCOVER_S,
		.rediscover_on_change = true,
	};
	struct sweeper *s = sweeper_open(&so);

	if (s) {
		s->listed = listed;
		s->follow = true;
	}
	return s;
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

/* One round: the PMA counters of every port of the kept discovery,
 * judged against the previous round; fills m's sweep part. */
static int sweeper_round(void *ctx, struct ctr_model *m, char *err, size_t errlen)
{
	struct sweeper *s = ctx;
	const struct sweep *sw = &s->h.sw;
	int rc = sweeper_query(s, err, errlen);

	m->sweep_nodes = s->h.have ? sw->nodes : 0;
	m->sweep_ports = s->h.have ? sw->n : 0;
	if (rc)
		return rc;
	for (int i = 0; i < sw->n; i++) {
		const struct counter_set *pv;
		bool moved;

		if (!sweep_port_valid(&sw->p[i])) {
			m->sweep_failed++;
			continue;
		}
		pv = sweeper_pair(s, i, &s->cs, &s->pcs);
		if (s->listed(&s->cs, pv, &moved))
			flag_port(s, m, i, pv != NULL, moved);
	}
	/* out of memory, the next round has no previous one */
	sweeper_keep(s);
	return 0;
}

struct monitor_sweeper sweeper_for_monitor(struct sweeper *s)
{
	return (struct monitor_sweeper){ .run = sweeper_round, .ctx = s };
}
