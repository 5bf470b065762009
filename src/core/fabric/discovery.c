// SPDX-License-Identifier: MIT
/* Discovery worker thread: libibnetdisc blocks for seconds on a big
 * fabric, so it runs here and the UI only swaps in the published view. */
#include "config.h"
#include "core/fabric/discovery.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/umadlock.h"
#include "core/base/worker.h"
#include "core/counters/reader.h"

#include <infiniband/umad.h>

#define WATCH_PERIOD_S 1.0

/* The running worker whose views others may take (discovery_shared_take):
 * the last one started; its stop clears it under this lock, so a take in
 * progress ends before the worker goes. */
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static struct discovery *shared;

struct discovery {
	struct worker w;		/* its lock guards everything below */
	struct fab_opts opts;
	char ca[64], map[512];
	double rediscover_s;
	bool requested, running;
	double started, last_s, next_at;
	int last_nodes;
	unsigned gen;
	struct fabric_view *cur;
	struct fabric *baseline;
	struct fabric_view *base_view;
	/* live counters of the watched port and its link's other end */
	unsigned watch_lid[2];
	int watch_port[2];
	double watch_next;
	int watch_turn;			/* the end read next */
	struct counter_set *cnow[2], *cprev[2];
	/* raised by each change of the watch; a sample counts for the watch
	 * it was read for. The worker frees the samples (from its own
	 * allocations): a free() on the UI thread could wait on the
	 * allocator's lock the worker holds */
	unsigned watch_gen[2], cnow_gen[2], cprev_gen[2];
	struct ctr_reader *cs;
};

static void view_free(struct fabric_view *v)
{
	if (!v)
		return;
	fabric_free(v->fabric);
	free(v);
}

/* Called with the lock held: drops a reference and returns the view when
 * that was its last, for the caller to free after letting the lock go —
 * freeing a 4,000-node fabric takes long enough to hold up the UI
 * thread, which takes this lock on every turn. */
static struct fabric_view *view_unref(struct fabric_view *v)
{
	return v && --v->refs == 0 ? v : NULL;
}

/* The local port PMA queries leave from: discovery's, else the first. */
static void watch_source(const struct discovery *w, struct ctr_target *t)
{
	char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];

	if (w->opts.ca)
		snprintf(t->dev, sizeof(t->dev), "%s", w->opts.ca);
	else if (umad_get_cas_names(names, UMAD_MAX_DEVICES) > 0)
		snprintf(t->dev, sizeof(t->dev), "%s", names[0]);
	t->port = w->opts.ca_port;
}

/* Reads one end's counters (without the lock; the caller releases the
 * reader): a new set, NULL out of memory. */
static struct counter_set *watch_read(struct discovery *w, unsigned lid, int port)
{
	struct ctr_target t = { 0 };
	struct counter_set *cs = malloc(sizeof(*cs));

	if (!cs)
		return NULL;
	t.lid = lid;
	t.pma_port = port;
	t.remote = true;
	snprintf(t.label, sizeof(t.label), "lid %u port %d", lid, port);
	watch_source(w, &t);
	if (!w->cs)
		w->cs = reader_open();
	if (w->cs) {
		reader_read(w->cs, &t, cs);
	} else {
		memset(cs, 0, sizeof(*cs));
		snprintf(cs->why, sizeof(cs->why), "out of memory");
	}
	cs->lid = lid;
	cs->port = port;
	return cs;
}

/* Called with the lock held; samples without it. One end a period, in
 * turn when the other end is watched too: one PMA read a span, as many
 * MADs a second as for one port (under umad2sim an answer that comes
 * after its descriptor closed crashes the process; fewer MADs, fewer
 * late answers). */
static void watch_sample(struct discovery *w)
{
	int e = w->watch_lid[1] ? w->watch_turn : 0;
	unsigned lid = w->watch_lid[e];
	int port = w->watch_port[e];
	unsigned gen = w->watch_gen[e];
	struct counter_set *cs;

	w->watch_turn = !e;
	w->watch_next = worker_now() + WATCH_PERIOD_S;
	worker_unlock(&w->w);
	umadlock_span_begin();
	cs = watch_read(w, lid, port);
	if (w->cs)
		reader_release(w->cs);	/* umad2sim: no PMA agent kept open */
	umadlock_span_end();
	if (w->opts.load)
		lid = 0;	/* a saved fabric's ports are not live */
	worker_lock(&w->w);
	if (!cs)
		return;
	if (lid != w->watch_lid[e] || port != w->watch_port[e] || gen != w->watch_gen[e]) {
		free(cs);	/* the selection moved meanwhile */
		return;
	}
	free(w->cprev[e]);
	w->cprev[e] = w->cnow[e];
	w->cprev_gen[e] = w->cnow_gen[e];
	w->cnow[e] = cs;
	w->cnow_gen[e] = gen;
	worker_notify(&w->w);
}

static void discovery_main(struct worker *wk, void *arg)
{
	struct discovery *w = arg;

	worker_batch();
	worker_lock(wk);
	while (!worker_stopping(wk)) {
		struct fabric_view *v;
		struct fabric *f;
		char err[320];
		double t;
		bool same;
		struct fabric_view *dead;

		while (!worker_stopping(wk) && !w->requested &&
		       !(w->rediscover_s > 0 && worker_now() >= w->next_at)) {
			double at = w->rediscover_s > 0 ? w->next_at : -1;

			if (w->watch_lid[0] && worker_now() >= w->watch_next) {
				watch_sample(w);	/* drops and retakes the lock */
				continue;
			}
			if (w->watch_lid[0] && (at < 0 || w->watch_next < at))
				at = w->watch_next;
			worker_wait(wk, at);
		}
		if (worker_stopping(wk))
			break;
		w->requested = false;
		w->running = true;
		w->started = worker_now();
		worker_unlock(wk);

		err[0] = '\0';
		/* umad2sim: one umad user at a time (see umadlock.h) */
		umadlock_span_begin();
		f = w->opts.load ? w->opts.load(err, sizeof(err)) :
		    fabric_discover(&w->opts, err, sizeof(err));
		umadlock_span_end();
		v = calloc(1, sizeof(*v));
		t = worker_now();
		/* compared here, not on the UI thread: only this thread
		 * replaces cur, so it is read without the lock */
		same = v && f && w->cur && fabric_same(w->cur->fabric, f);

		worker_lock(wk);
		w->running = false;
		w->next_at = t + w->rediscover_s;
		if (!v) {
			worker_unlock(wk);
			fabric_free(f);
			worker_lock(wk);
			continue;
		}
		v->refs = 1;
		v->gen = ++w->gen;
		v->model_gen = same ? w->cur->model_gen : v->gen;
		v->fabric = f;
		snprintf(v->err, sizeof(v->err), "%s", err);
		if (f) {
			w->last_s = f->discover_s;
			w->last_nodes = f->nnodes;
			if (!w->baseline) {
				/* the first good view is pinned: it holds the baseline */
				w->baseline = f;
				w->base_view = v;
				v->refs++;
			}
		}
		v->baseline = w->baseline;
		dead = view_unref(w->cur);
		w->cur = v;
		worker_notify(wk);
		if (dead) {
			worker_unlock(wk);
			view_free(dead);
			worker_lock(wk);
		}
	}
	worker_unlock(wk);
}

struct discovery *discovery_start(const struct fab_opts *o,
					  double rediscover_s,
					  char *err, size_t errlen)
{
	struct discovery *w = calloc(1, sizeof(*w));
	char why[200];

	if (!w) {
		snprintf(err, errlen, "starting fabric discovery: out of memory");
		return NULL;
	}
	w->opts = *o;
	if (o->ca) {
		snprintf(w->ca, sizeof(w->ca), "%s", o->ca);
		w->opts.ca = w->ca;
	}
	if (o->node_name_map) {
		snprintf(w->map, sizeof(w->map), "%s", o->node_name_map);
		w->opts.node_name_map = w->map;
	}
	w->rediscover_s = rediscover_s;
	w->requested = true;
	if (worker_init(&w->w, NULL, "discovery", why, sizeof(why))) {
		snprintf(err, errlen, "starting fabric discovery: %s", why);
		free(w);
		return NULL;
	}
	if (worker_start(&w->w, discovery_main, w, "discovery", why, sizeof(why))) {
		snprintf(err, errlen, "starting fabric discovery: %s", why);
		worker_stop(&w->w);
		free(w);
		return NULL;
	}
	pthread_mutex_lock(&shared_lock);
	shared = w;
	pthread_mutex_unlock(&shared_lock);
	return w;
}

void discovery_stop(struct discovery *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&shared_lock);
	if (shared == w)
		shared = NULL;
	pthread_mutex_unlock(&shared_lock);
	/* A discovery in flight finishes first: libibnetdisc cannot be
	 * interrupted; its per-MAD time-out bounds the wait. */
	worker_stop(&w->w);
	view_free(view_unref(w->cur));
	view_free(view_unref(w->base_view));
	for (int e = 0; e < 2; e++) {
		free(w->cnow[e]);
		free(w->cprev[e]);
	}
	if (w->cs)
		reader_close(w->cs);
	free(w);
}

int discovery_fd(const struct discovery *w)
{
	return worker_fd(&w->w);
}

void discovery_drain(struct discovery *w)
{
	worker_drain(&w->w);
}
void discovery_request(struct discovery *w)
{
	worker_lock(&w->w);
	if (!w->running) {
		w->requested = true;
		worker_kick(&w->w);
	}
	worker_unlock(&w->w);
}

void discovery_progress(struct discovery *w, struct fabric_progress *p)
{
	double now = worker_now();

	worker_lock(&w->w);
	p->running = w->running || w->requested;
	p->elapsed_s = w->running ? now - w->started : 0;
	p->last_s = w->last_s;
	p->last_nodes = w->last_nodes;
	p->gen = w->gen;
	p->next_in_s = w->rediscover_s > 0 && !p->running ? w->next_at - now : -1;
	worker_unlock(&w->w);
}

struct fabric_view *discovery_get(struct discovery *w)
{
	struct fabric_view *v;

	worker_lock(&w->w);
	v = w->cur;
	if (v)
		v->refs++;
	worker_unlock(&w->w);
	return v;
}

void discovery_put(struct discovery *w, struct fabric_view *v)
{
	struct fabric_view *dead;

	worker_lock(&w->w);
	dead = view_unref(v);
	worker_unlock(&w->w);
	view_free(dead);
}

int discovery_shared_take(unsigned *gen,
			  int (*take)(void *ctx, const struct fabric *f), void *ctx)
{
	struct fabric_view *v;
	int rc = -1;

	pthread_mutex_lock(&shared_lock);
	v = shared ? discovery_get(shared) : NULL;
	if (v && v->fabric && v->gen != *gen) {
		rc = take(ctx, v->fabric);
		if (!rc)
			*gen = v->gen;
		rc = rc ? -1 : 1;
	} else if (shared) {
		rc = 0;
	}
	if (v)
		discovery_put(shared, v);
	pthread_mutex_unlock(&shared_lock);
	return rc;
}

int discovery_shared_wait(double max_s)
{
	double until = worker_now() + max_s;

	for (;;) {
		int rc = -1;

		pthread_mutex_lock(&shared_lock);
		if (shared) {
			worker_lock(&shared->w);
			rc = shared->cur ? 1 : shared->requested || shared->running ? 2 : 0;
			worker_unlock(&shared->w);
		}
		pthread_mutex_unlock(&shared_lock);
		if (rc != 2)
			return rc;
		if (worker_now() >= until)
			return 0;
		poll(NULL, 0, 50);
	}
}

void discovery_shared_request(void)
{
	pthread_mutex_lock(&shared_lock);
	if (shared)
		discovery_request(shared);
	pthread_mutex_unlock(&shared_lock);
}

void discovery_watch(struct discovery *w, unsigned lid, int port, unsigned peer_lid,
		     int peer_port)
{
	unsigned l[2];
	int p[2];

	if (w->opts.load)
		lid = 0;	/* a saved fabric's ports are not live */
	l[0] = lid;
	l[1] = lid ? peer_lid : 0;
	p[0] = port;
	p[1] = lid && peer_lid ? peer_port : 0;
	worker_lock(&w->w);
	for (int e = 0; e < 2; e++) {
		if (l[e] == w->watch_lid[e] && p[e] == w->watch_port[e])
			continue;
		w->watch_lid[e] = l[e];
		w->watch_port[e] = p[e];
		w->watch_next = 0;	/* now */
		w->watch_turn = 0;	/* the selected end first */
		w->watch_gen[e]++;	/* the samples so far are the old watch's */
		worker_kick(&w->w);
	}
	worker_unlock(&w->w);
}

bool discovery_counters(struct discovery *w, int end, struct counter_set *now,
			struct counter_set *prev)
{
	bool have;

	if (end < 0 || end > 1)
		return false;
	worker_lock(&w->w);
	have = w->cnow[end] && w->cnow_gen[end] == w->watch_gen[end];
	if (have) {
		*now = *w->cnow[end];
		if (w->cprev[end] && w->cprev_gen[end] == w->watch_gen[end])
			*prev = *w->cprev[end];
		else
			prev->valid = false;
	}
	worker_unlock(&w->w);
	return have;
}
