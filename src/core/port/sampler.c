// SPDX-License-Identifier: MIT
/* Sampler: collects a snapshot every interval on its own thread and
 * publishes it under the worker's lock with a generation counter. */
#include "config.h"
#include "core/port/sampler.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/base/worker.h"

struct sampler {
	struct worker w;		/* lock guards interval, pub, state */
	struct snap_opts opts;
	char *device;			/* owned copy behind opts */
	double interval_s;
	double module_every_s;		/* under lock; <= 0: every time */
	double module_next;		/* under lock; 0: now */

	struct snapshot *work;		/* worker only, no lock */
	struct snapshot *pub;		/* newest good one, under lock */
	struct sampler_state state;	/* under lock */
};

static double sampler_clamp(double v)
{
	if (!(v >= SAMPLER_MIN_INTERVAL))	/* also catches NaN */
		return SAMPLER_MIN_INTERVAL;
	if (v > SAMPLER_MAX_INTERVAL)
		return SAMPLER_MAX_INTERVAL;
	return v;
}

/* Each port of s->work takes its module reading from the same port of
 * the last good snapshot (the worker's own, read without the lock). */
static void keep_modules(struct sampler *s)
{
	for (int i = 0; i < s->work->nports; i++) {
		struct port_info *p = &s->work->ports[i];

		for (int k = 0; k < s->pub->nports; k++) {
			const struct port_info *q = &s->pub->ports[k];

			if (q->port == p->port && !strcmp(q->dev, p->dev)) {
				p->module_asked = q->module_asked;
				p->module = q->module;
				break;
			}
		}
	}
}

/* Called with the lock held: whether this collection reads the modules. */
static bool modules_due(struct sampler *s, double now)
{
	if (!s->opts.modules)
		return false;
	if (s->module_every_s > 0 && now < s->module_next)
		return false;
	s->module_next = now + s->module_every_s;
	return true;
}

static void sampler_main(struct worker *w, void *arg)
{
	struct sampler *s = arg;
	char err[256];

	worker_lock(w);
	while (!worker_stopping(w)) {
		double t0, t1;
		enum snap_status st;
		struct snap_opts o = s->opts;

		t0 = worker_now();
		o.modules = modules_due(s, t0);
		worker_unlock(w);
		err[0] = '\0';
		st = snapshot_collect(s->work, &o, err, sizeof(err));
		if (st == SNAP_OK && s->opts.modules && !o.modules)
			keep_modules(s);
		t1 = worker_now();
		if (st == SNAP_OK && s->work->nports == 0) {
			st = SNAP_NODEV;
			if (!err[0])
				snprintf(err, sizeof(err),
					 "no port matched the selection");
		}
		worker_lock(w);

		s->state.gen++;
		s->state.status = st;
		s->state.collect_s = t1 - t0;
		if (o.modules)
			s->state.module_reads++;
		if (st == SNAP_OK) {
			struct snapshot *tmp = s->pub;

			s->pub = s->work;
			s->work = tmp;
			s->state.good_gen = s->state.gen;
			s->state.err[0] = '\0';
		} else {
			snprintf(s->state.err, sizeof(s->state.err), "%s",
				 err[0] ? err : "snapshot failed");
		}
		worker_kick(w);		/* sampler_wait() callers */
		worker_notify(w);

		/* Sleep until t0 + interval; a new interval (a kick) is
		 * measured from t0 again, so shortening it cuts the wait. */
		while (!worker_stopping(w) && worker_now() < t0 + s->interval_s &&
		       !(s->opts.modules && s->module_next == 0))
			worker_wait(w, t0 + s->interval_s);
	}
	worker_unlock(w);
}

static void sampler_free(struct sampler *s)
{
	if (s->work)
		snapshot_release(s->work);
	if (s->pub)
		snapshot_release(s->pub);
	free(s->work);
	free(s->pub);
	free(s->device);
	free(s);
}

struct sampler *sampler_start(const struct snap_opts *o, double interval_s,
			      char *err, size_t errlen)
{
	struct sampler *s;

	s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	s->work = calloc(1, sizeof(*s->work));
	s->pub = calloc(1, sizeof(*s->pub));
	if (!s->work || !s->pub)
		goto nomem;
	s->opts = *o;
	if (o->device) {
		s->device = strdup(o->device);
		if (!s->device)
			goto nomem;
		s->opts.device = s->device;
	}
	s->interval_s = sampler_clamp(interval_s);
	s->state.status = SNAP_OK;

	if (worker_init(&s->w, NULL, "sampler", err, errlen))
		goto fail;
	if (worker_start(&s->w, sampler_main, s, "sampler", err, errlen)) {
		worker_stop(&s->w);
		goto fail;
	}
	return s;

nomem:
	snprintf(err, errlen, "cannot allocate the sampler: out of memory");
fail:
	if (s)
		sampler_free(s);
	return NULL;
}

bool sampler_get(struct sampler *s, struct snapshot *dst,
		 struct sampler_state *st)
{
	unsigned long seen = st->gen, have = st->good_gen;
	bool changed;

	worker_lock(&s->w);
	changed = s->state.gen != seen;
	/* out of memory: dst has no ports, and the next call tries again */
	if (s->state.good_gen && s->state.good_gen != have)
		(void)snapshot_copy(dst, s->pub);
	*st = s->state;
	worker_unlock(&s->w);
	return changed;
}

bool sampler_wait(struct sampler *s, unsigned long gen, int timeout_ms)
{
	double deadline = timeout_ms < 0 ? -1 : worker_now() + timeout_ms / 1000.0;
	bool got;

	worker_lock(&s->w);
	while (s->state.gen <= gen && worker_wait(&s->w, deadline))
		;
	got = s->state.gen > gen;
	worker_unlock(&s->w);
	return got;
}

int sampler_fd(const struct sampler *s)
{
	return worker_fd(&s->w);
}

void sampler_drain(struct sampler *s)
{
	worker_drain(&s->w);
}

double sampler_set_interval(struct sampler *s, double interval_s)
{
	double v = sampler_clamp(interval_s);

	worker_lock(&s->w);
	s->interval_s = v;
	worker_kick(&s->w);
	worker_unlock(&s->w);
	return v;
}

double sampler_interval(struct sampler *s)
{
	double v;

	worker_lock(&s->w);
	v = s->interval_s;
	worker_unlock(&s->w);
	return v;
}

void sampler_set_module_every(struct sampler *s, double every_s)
{
	worker_lock(&s->w);
	if (every_s > 0 && s->module_next > 0)
		s->module_next += every_s - s->module_every_s;
	s->module_every_s = every_s;
	worker_unlock(&s->w);
}

void sampler_read_modules(struct sampler *s)
{
	worker_lock(&s->w);
	s->module_next = 0;
	worker_kick(&s->w);
	worker_unlock(&s->w);
}

void sampler_stop(struct sampler *s)
{
	if (!s)
		return;
	worker_stop(&s->w);
	sampler_free(s);
}
