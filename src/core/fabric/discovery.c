// SPDX-License-Identifier: MIT
/* Discovery worker thread: libibnetdisc blocks for seconds on a big
 * fabric, so it runs here and the UI only swaps in the published view. */
#include "config.h"
#include "core/fabric/discovery.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/counters/reader.h"
#include "core/base/umadlock.h"

#include <infiniband/umad.h>

#define WATCH_PERIOD_S 1.0

struct discovery {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct fab_opts opts;
	char ca[64], map[512];
	double rediscover_s;
	bool stop, requested, running;
	double started, last_s, next_at;
	int last_nodes;
	unsigned gen;
	struct fabric_view *cur;
	struct fabric *baseline;
	struct fabric_view *base_view;
	/* live counters of the watched port */
	unsigned watch_lid;
	int watch_port;
	double watch_next;
	struct counter_set *cnow, *cprev;
	struct ctr_reader *cs;
};

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void view_free(struct fabric_view *v)
{
	if (!v)
		return;
	fabric_free(v->fabric);
	free(v);
}

/* Called with the lock held. */
static void view_unref(struct fabric_view *v)
{
	if (v && --v->refs == 0)
		view_free(v);
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

/* Called with the lock held; samples without it. */
static void watch_sample(struct discovery *w)
{
	struct ctr_target t = { 0 };
	struct counter_set *cs = malloc(sizeof(*cs));
	unsigned lid = w->watch_lid;
	int port = w->watch_port;

	w->watch_next = mono() + WATCH_PERIOD_S;
	if (!cs)
		return;
	pthread_mutex_unlock(&w->lock);
	t.lid = lid;
	t.pma_port = port;
	t.remote = true;
	snprintf(t.label, sizeof(t.label), "lid %u port %d", lid, port);
	umadlock_span_begin();
	watch_source(w, &t);
	if (!w->cs)
		w->cs = reader_open();
	if (w->cs) {
		reader_read(w->cs, &t, cs);
		reader_release(w->cs);	/* umad2sim: no PMA agent kept open */
	} else {
		memset(cs, 0, sizeof(*cs));
		snprintf(cs->why, sizeof(cs->why), "out of memory");
	}
	umadlock_span_end();
	cs->lid = lid;
	cs->port = port;
	pthread_mutex_lock(&w->lock);
	if (lid != w->watch_lid || port != w->watch_port) {
		free(cs);	/* the selection moved meanwhile */
		return;
	}
	free(w->cprev);
	w->cprev = w->cnow;
	w->cnow = cs;
}

static void *worker_main(void *arg)
{
	struct discovery *w = arg;

	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		struct fabric_view *v;
		struct fabric *f;
		char err[320];
		double t;

		while (!w->stop && !w->requested &&
		       !(w->rediscover_s > 0 && mono() >= w->next_at)) {
			if (w->watch_lid && mono() >= w->watch_next) {
				watch_sample(w);	/* drops and retakes the lock */
				continue;
			}
			if (w->rediscover_s > 0 || w->watch_lid) {
				struct timespec ts;
				double at = w->rediscover_s > 0 ? w->next_at : 1e18;

				if (w->watch_lid && w->watch_next < at)
					at = w->watch_next;
				at -= mono();

				clock_gettime(CLOCK_REALTIME, &ts);
				at += ts.tv_sec + ts.tv_nsec / 1e9;
				ts.tv_sec = (time_t)at;
				ts.tv_nsec = (long)((at - (double)ts.tv_sec) * 1e9);
				pthread_cond_timedwait(&w->cond, &w->lock, &ts);
			} else {
				pthread_cond_wait(&w->cond, &w->lock);
			}
		}
		if (w->stop)
			break;
		w->requested = false;
		w->running = true;
		w->started = mono();
		pthread_mutex_unlock(&w->lock);

		err[0] = '\0';
		/* umad2sim: one umad user at a time (see umadlock.h) */
		umadlock_span_begin();
		f = fabric_discover(&w->opts, err, sizeof(err));
		umadlock_span_end();
		v = calloc(1, sizeof(*v));
		t = mono();

		pthread_mutex_lock(&w->lock);
		w->running = false;
		w->next_at = t + w->rediscover_s;
		if (!v) {
			fabric_free(f);
			continue;
		}
		v->refs = 1;
		v->gen = ++w->gen;
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
		view_unref(w->cur);
		w->cur = v;
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct discovery *discovery_start(const struct fab_opts *o,
					  double rediscover_s,
					  char *err, size_t errlen)
{
	struct discovery *w = calloc(1, sizeof(*w));

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
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	if (pthread_create(&w->thread, NULL, worker_main, w)) {
		snprintf(err, errlen, "starting fabric discovery: cannot create a thread: %s",
			 strerror(errno));
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		free(w);
		return NULL;
	}
	return w;
}

void discovery_stop(struct discovery *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	/* A discovery in flight finishes first: libibnetdisc cannot be
	 * interrupted; its per-MAD time-out bounds the wait. */
	pthread_join(w->thread, NULL);
	view_unref(w->cur);
	view_unref(w->base_view);
	free(w->cnow);
	free(w->cprev);
	if (w->cs)
		reader_close(w->cs);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}

void discovery_request(struct discovery *w)
{
	pthread_mutex_lock(&w->lock);
	if (!w->running) {
		w->requested = true;
		pthread_cond_signal(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
}

void discovery_progress(struct discovery *w, struct fabric_progress *p)
{
	double now = mono();

	pthread_mutex_lock(&w->lock);
	p->running = w->running || w->requested;
	p->elapsed_s = w->running ? now - w->started : 0;
	p->last_s = w->last_s;
	p->last_nodes = w->last_nodes;
	p->gen = w->gen;
	p->next_in_s = w->rediscover_s > 0 && !p->running ? w->next_at - now : -1;
	pthread_mutex_unlock(&w->lock);
}

struct fabric_view *discovery_get(struct discovery *w)
{
	struct fabric_view *v;

	pthread_mutex_lock(&w->lock);
	v = w->cur;
	if (v)
		v->refs++;
	pthread_mutex_unlock(&w->lock);
	return v;
}

void discovery_put(struct discovery *w, struct fabric_view *v)
{
	pthread_mutex_lock(&w->lock);
	view_unref(v);
	pthread_mutex_unlock(&w->lock);
}

void discovery_watch(struct discovery *w, unsigned lid, int port)
{
	pthread_mutex_lock(&w->lock);
	if (lid != w->watch_lid || port != w->watch_port) {
		w->watch_lid = lid;
		w->watch_port = port;
		w->watch_next = 0;	/* now */
		free(w->cnow);
		free(w->cprev);
		w->cnow = w->cprev = NULL;
		pthread_cond_signal(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
}

bool discovery_counters(struct discovery *w, struct counter_set *now,
			    struct counter_set *prev)
{
	bool have;

	pthread_mutex_lock(&w->lock);
	have = w->cnow != NULL;
	if (have) {
		*now = *w->cnow;
		if (w->cprev)
			*prev = *w->cprev;
		else
			prev->valid = false;
	}
	pthread_mutex_unlock(&w->lock);
	return have;
}
