// SPDX-License-Identifier: MIT
/* Counter workers for the console: local sampling every interval and a
 * fabric sweep on demand (the fabric room's sweeper, handed in), each on
 * its own worker, waking the UI through one shared descriptor. */
#include "config.h"
#include "core/counters/monitor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/worker.h"
#include "core/base/umadlock.h"
#include "core/port/events.h"
#include "core/port/asyncev.h"

#define SWEEP_REPEAT_S 10.0

struct monitor {
	/* local sampling: its lock guards the requests, the targets, the
	 * interval and pub's local part */
	struct worker local;
	double interval_s;
	bool interval_new;
	bool req_ack, req_mark;
	bool req_clear;
	char clear_dev[64];
	int clear_port;
	bool targets_new;
	struct ctr_target targets[CTRW_MAX_PORTS];
	struct monitor_peer peers[CTRW_MAX_PORTS];
	double lanes[CTRW_MAX_PORTS];	/* targets' lane data rates */
	int ntargets;

	/* the sweep: its lock guards req_sweep, sweep_on and pub's sweep
	 * part; the thread starts on the first request */
	struct worker sweeper;
	bool req_sweep, sweep_on;
	struct monitor_sweeper sweep;	/* run NULL: none */

	/* port events (local worker only): each port's polled state, the
	 * events file, whether its trouble was said */
	struct port_track track[CTRW_MAX_PORTS];
	char events_file[512];
	bool events_warned;
	bool no_smp;
	struct asyncev *verbs;		/* NULL: no verbs device */

	struct ctr_model *work;		/* local worker only */
	struct ctr_model *pub;
	struct ctr_reader *smp;		/* local worker only */
};

/* Records a port event: in the events file (said once in the note when
 * it cannot be written) and in the console's event log. Counter events
 * need no log entry: the log has the counter's delta already. */
static void port_event(struct monitor *w, struct ctr_model *m, const struct port_event *e,
		       bool append)
{
	char err[700];

	if (append && w->events_file[0] && events_append(w->events_file, e, err, sizeof(err)) &&
	    !w->events_warned) {
		snprintf(m->note, sizeof(m->note), "port events are not kept: %.150s", err);
		w->events_warned = true;
	}
	if (strcmp(e->source, "counter")) {
		struct timespec ts = { .tv_sec = (time_t)e->t,
				       .tv_nsec = (long)((e->t - (double)(time_t)e->t) * 1e9) };
		char text[128];

		if (e->from[0] || e->to[0])
			snprintf(text, sizeof(text), "%s -> %s (%s)", e->from, e->to, e->source);
		else
			snprintf(text, sizeof(text), "(%s)", e->source);
		eventlog_add_text(&m->log, e->port, !strcmp(e->kind, "state") ? "link state" : e->kind,
				  text, &ts);
	}
}

/* This sample's port events of local port i: its state against the
 * previous poll, LinkDowned / LinkErrorRecovery increments. */
static void port_events(struct monitor *w, struct ctr_model *m, int i,
			const struct timespec *wall)
{
	static const char *const ctrs[] = { "LinkDownedCounter", "LinkErrorRecoveryCounter" };
	const struct ctr_target *t = &m->port[i].t;
	double now = (double)wall->tv_sec + wall->tv_nsec / 1e9;
	struct port_event e;
	int state, phys;

	if (t->remote || !t->dev[0])
		return;
	if (!events_poll_state(t->dev, t->port, w->no_smp, &state, &phys) &&
	    events_track(&w->track[i], t->label, state, phys, now, &e))
		port_event(w, m, &e, true);
	for (int k = 0; k < 2; k++) {
		const struct delta_ctr *c = delta_find(&m->dp[i], ctrs[k]);

		if (c && c->have && c->state == DELTA_OK &&
		    events_from_counter(t->label, ctrs[k], c->delta, now, &e))
			port_event(w, m, &e, true);
	}
}

/* Copies the local part of src (used ports only) into dst. */
static void copy_local(struct ctr_model *dst, const struct ctr_model *src)
{
	dst->gen = src->gen;
	dst->now = src->now;
	dst->interval_s = src->interval_s;
	dst->n = src->n;
	memcpy(dst->port, src->port, (size_t)src->n * sizeof(src->port[0]));
	memcpy(dst->dp, src->dp, (size_t)src->n * sizeof(src->dp[0]));
	memcpy(dst->peer, src->peer, (size_t)src->n * sizeof(src->peer[0]));
	for (int i = 0; i < src->n; i++)
		if (src->peer[i].sampled)
			dst->peer_dp[i] = src->peer_dp[i];
	dst->log = src->log;
	memcpy(dst->note, src->note, sizeof(dst->note));
}

static void copy_sweep(struct ctr_model *dst, const struct ctr_model *src)
{
	dst->sweep_gen = src->sweep_gen;
	dst->sweep_busy = src->sweep_busy;
	memcpy(dst->sweep_err, src->sweep_err, sizeof(dst->sweep_err));
	dst->sweep_nodes = src->sweep_nodes;
	dst->sweep_ports = src->sweep_ports;
	dst->sweep_failed = src->sweep_failed;
	dst->sweep_s = src->sweep_s;
	dst->nflag = src->nflag;
	dst->flag_truncated = src->flag_truncated;
	memcpy(dst->flag, src->flag, (size_t)src->nflag * sizeof(src->flag[0]));
}

/* Clears the counters of the port named dev/port, wherever it now sits
 * in the list; the note says what happened. */
static void clear_port_counters(struct monitor *w, struct ctr_model *m,
				const char *dev, int port)
{
	char err[200] = "";

	for (int i = 0; i < m->n; i++) {
		const struct ctr_target *t = &m->port[i].t;

		if (strcmp(t->dev, dev) || t->port != port)
			continue;
		if (reader_clear(w->smp, t, err, sizeof(err)))
			snprintf(m->note, sizeof(m->note), "clearing %s failed: %s",
				 t->label, err);
		else
			snprintf(m->note, sizeof(m->note), "counters of %s cleared",
				 t->label);
		return;
	}
	snprintf(m->note, sizeof(m->note),
		 "clearing %.31s/%d: the port is no longer in the list", dev, port);
}

static bool local_has_request(const struct monitor *w)
{
	return w->targets_new || w->interval_new || w->req_ack || w->req_mark ||
	       w->req_clear;
}

/* A new target list into m (under the local worker's lock): each port
 * keeps its last polled state, deltas start again. */
static void apply_targets(struct monitor *w, struct ctr_model *m)
{
	/* a port keeps its last state across a new target list (the
	 * snapshot's neighbour changes when the link goes down): else that
	 * change is lost */
	struct port_track keep[CTRW_MAX_PORTS];

	memcpy(keep, w->track, sizeof(keep));
	memset(w->track, 0, sizeof(w->track));
	for (int i = 0; i < w->ntargets; i++)
		for (int k = 0; k < CTRW_MAX_PORTS; k++)
			if (keep[k].state &&
			    !strcmp(keep[k].port, w->targets[i].label)) {
				w->track[i] = keep[k];
				break;
			}
	m->n = w->ntargets;
	for (int i = 0; i < m->n; i++) {
		memset(&m->port[i], 0, sizeof(m->port[i]));
		m->port[i].t = w->targets[i];
		m->port[i].cong.link_lane_gbps = w->lanes[i];
		delta_init(&m->dp[i], w->targets[i].label, w->interval_s);
		m->peer[i] = w->peers[i];
		delta_init(&m->peer_dp[i], w->peers[i].t.label, w->interval_s);
	}
	w->targets_new = false;
}

/* Local port i's sample (and its neighbour's) into m's deltas, the
 * event log and the port events. */
static void sample_port(struct monitor *w, struct ctr_model *m, int i,
			struct counter_set *cs, const struct timespec *wall)
{
	reader_read(w->smp, &m->port[i].t, cs);
	m->port[i].valid = cs->valid;
	m->port[i].source = cs->source;
	snprintf(m->port[i].mode, sizeof(m->port[i].mode), "%s", cs->mode);
	snprintf(m->port[i].why, sizeof(m->port[i].why), "%s", cs->why);
	m->port[i].det = cs->det;
	portcong_tick(&m->port[i].cong, &m->port[i].t);
	delta_update(&m->dp[i], cs, cs->valid ? cs->t_mono : worker_now());
	eventlog_add_from(&m->log, &m->dp[i], wall);
	port_events(w, m, i, wall);
	if (!m->peer[i].sampled)
		return;
	reader_read(w->smp, &m->peer[i].t, cs);
	m->peer[i].valid = cs->valid;
	snprintf(m->peer[i].why, sizeof(m->peer[i].why), "%s", cs->why);
	delta_update(&m->peer_dp[i], cs, cs->valid ? cs->t_mono : worker_now());
	eventlog_add_from(&m->log, &m->peer_dp[i], wall);
}

/* One sample of every local port, then the verbs events since the last
 * one (the thread wrote them to the file as they came). */
static void sample_all(struct monitor *w, struct ctr_model *m)
{
	struct timespec wall;

	clock_gettime(CLOCK_REALTIME, &wall);
	for (int i = 0; i < m->n; i++) {
		struct counter_set *cs = malloc(sizeof(*cs));

		if (!cs)
			break;
		sample_port(w, m, i, cs, &wall);
		free(cs);
	}
	for (;;) {
		struct port_event ve[8];
		int nv = asyncev_take(w->verbs, ve, 8);

		for (int k = 0; k < nv; k++)
			port_event(w, m, &ve[k], false);
		if (nv < 8)
			break;
	}
}

/* The requests the local worker carries out this turn, taken under its
 * lock. */
struct local_req {
	bool ack, mark, changed, clear;
	char clear_dev[64];
	int clear_port;
};

/* Takes the requests (under the lock) and applies a new target list or
 * interval to m; *next moves with a new interval. */
static void take_requests(struct monitor *w, struct ctr_model *m,
			  struct local_req *r, double last, double *next)
{
	r->ack = w->req_ack;
	r->mark = w->req_mark;
	r->clear = w->req_clear;
	memcpy(r->clear_dev, w->clear_dev, sizeof(r->clear_dev));
	r->clear_port = w->clear_port;
	w->req_ack = w->req_mark = w->req_clear = false;
	r->changed = w->targets_new;
	if (r->changed)
		apply_targets(w, m);
	if (w->interval_new) {
		/* The new interval counts from the last sample: a shorter
		 * one is due now, and no port calls the samples around the
		 * change a gap. */
		for (int i = 0; i < m->n; i++) {
			delta_set_interval(&m->dp[i], w->interval_s);
			delta_set_interval(&m->peer_dp[i], w->interval_s);
		}
		if (last >= 0)
			*next = last + w->interval_s;
		w->interval_new = false;
	}
	m->interval_s = w->interval_s;
}

static void local_main(struct worker *wk, void *arg)
{
	struct monitor *w = arg;
	struct ctr_model *m = w->work;
	double next = worker_now(), last = -1;

	worker_lock(wk);
	while (!worker_stopping(wk)) {
		struct local_req r;
		double t;

		while (!worker_stopping(wk) && worker_now() < next &&
		       !local_has_request(w))
			worker_wait(wk, next);
		if (worker_stopping(wk))
			break;
		take_requests(w, m, &r, last, &next);
		worker_unlock(wk);

		umadlock_span_begin();
		/* a new port's tick: a MAD, so outside the lock */
		for (int i = 0; r.changed && i < m->n; i++)
			portcong_open(&m->port[i].cong, &m->port[i].t, m->port[i].cong.link_lane_gbps,
				      w->smp);
		if (r.clear)
			clear_port_counters(w, m, r.clear_dev, r.clear_port);
		t = worker_now();
		/* a request alone does not sample again before its time */
		if (t >= next || r.changed || r.clear) {
			sample_all(w, m);
			m->now = worker_now();
			m->gen++;
			last = t;
			if (t >= next)
				next = t + m->interval_s;
		}
		if (umadlock_sim())
			reader_release(w->smp);
		umadlock_span_end();
		if (r.mark)
			for (int i = 0; i < m->n; i++) {
				delta_mark(&m->dp[i], worker_now());
				delta_mark(&m->peer_dp[i], worker_now());
			}
		if (r.ack)
			eventlog_ack(&m->log);

		worker_lock(wk);
		if (r.mark || r.ack)
			m->gen++;
		copy_local(w->pub, m);
		worker_notify(wk);
	}
	worker_unlock(wk);
}

static void sweep_main(struct worker *wk, void *arg)
{
	struct monitor *w = arg;
	struct ctr_model *m = calloc(1, sizeof(*m));

	worker_batch();
	worker_lock(wk);
	while (!worker_stopping(wk) && m) {
		char err[240] = "";
		double t0, next;
		int rc;

		w->req_sweep = false;
		w->pub->sweep_busy = true;
		worker_unlock(wk);

		t0 = worker_now();
		m->nflag = 0;
		m->flag_truncated = false;
		m->sweep_failed = 0;
		rc = w->sweep.run(w->sweep.ctx, m, err, sizeof(err));

		worker_lock(wk);
		w->pub->sweep_gen++;
		w->pub->sweep_busy = false;
		snprintf(w->pub->sweep_err, sizeof(w->pub->sweep_err), "%s", rc ? err : "");
		w->pub->sweep_nodes = m->sweep_nodes;
		w->pub->sweep_ports = m->sweep_ports;
		w->pub->sweep_failed = m->sweep_failed;
		w->pub->sweep_s = worker_now() - t0;
		w->pub->nflag = m->nflag;
		w->pub->flag_truncated = m->flag_truncated;
		memcpy(w->pub->flag, m->flag, (size_t)m->nflag * sizeof(m->flag[0]));
		worker_notify(wk);
		/* again in SWEEP_REPEAT_S while the sweep is wanted, at once
		 * on a request; stopped, it waits for the next request */
		next = worker_now() + SWEEP_REPEAT_S;
		while (!worker_stopping(wk) && !w->req_sweep &&
		       (!w->sweep_on || worker_now() < next))
			worker_wait(wk, w->sweep_on ? next : -1);
	}
	worker_unlock(wk);
	free(m);
}

struct monitor *monitor_start(double interval_s, const struct snap_opts *o,
			      const struct monitor_sweeper *sweeper, char *err,
			      size_t errlen)
{
	struct monitor *w = calloc(1, sizeof(*w));

	if (!w || !(w->work = calloc(1, sizeof(*w->work))) ||
	    !(w->pub = calloc(1, sizeof(*w->pub))) || !(w->smp = reader_open())) {
		snprintf(err, errlen, "cannot start the counter worker: out of memory");
		goto fail;
	}
	w->interval_s = interval_s > 0 ? interval_s : 1.0;
	if (sweeper)
		w->sweep = *sweeper;
	eventlog_init(&w->work->log);
	eventlog_init(&w->pub->log);
	w->no_smp = o && o->no_smp;
	if (!events_path(w->events_file, sizeof(w->events_file)))
		w->events_file[0] = '\0';
	if (worker_init(&w->local, NULL, "counter", err, errlen))
		goto fail;
	if (worker_init(&w->sweeper, &w->local, "sweep", err, errlen)) {
		worker_stop(&w->local);
		goto fail;
	}
	{
		char why[200];

		/* none (ibsim, no rdma-core provider): polling still sees
		 * state changes, only not those between two polls */
		w->verbs = asyncev_start(o ? o->device : NULL,
					 w->events_file[0] ? w->events_file : NULL,
					 why, sizeof(why));
	}
	if (worker_start(&w->local, local_main, w, "counter", err, errlen)) {
		asyncev_stop(w->verbs);
		worker_stop(&w->sweeper);
		worker_stop(&w->local);
		goto fail;
	}
	return w;
fail:
	if (w) {
		reader_close(w->smp);
		free(w->work);
		free(w->pub);
		free(w);
	}
	return NULL;
}

void monitor_stop(struct monitor *w)
{
	if (!w)
		return;
	/* the sweeper borrows the local worker's descriptor: stop it first */
	worker_stop(&w->sweeper);
	worker_stop(&w->local);
	asyncev_stop(w->verbs);
	reader_close(w->smp);
	free(w->work);
	free(w->pub);
	free(w);
}

int monitor_fd(const struct monitor *w)
{
	return worker_fd(&w->local);
}

void monitor_drain(struct monitor *w)
{
	worker_drain(&w->local);
}

void monitor_set_targets(struct monitor *w, const struct snapshot *s)
{
	struct ctr_target t[CTRW_MAX_PORTS];
	struct monitor_peer pe[CTRW_MAX_PORTS];
	int n = reader_targets_local(s, t, CTRW_MAX_PORTS);
	bool same;

	memset(pe, 0, sizeof(pe));
	for (int i = 0; i < n; i++)
		pe[i].sampled = !reader_target_peer(&s->ports[i], &pe[i].t);
	worker_lock(&w->local);
	same = n == w->ntargets;
	for (int i = 0; same && i < n; i++)
		same = !strcmp(t[i].label, w->targets[i].label) &&
		       t[i].lid == w->targets[i].lid &&
		       pe[i].sampled == w->peers[i].sampled &&
		       !strcmp(pe[i].t.label, w->peers[i].t.label) &&
		       pe[i].t.lid == w->peers[i].t.lid;
	if (!same) {
		for (int i = 0; i < n; i++)
			w->lanes[i] = reader_target_lane_gbps(s, &t[i]);
		memcpy(w->targets, t, (size_t)n * sizeof(t[0]));
		memcpy(w->peers, pe, (size_t)n * sizeof(pe[0]));
		w->ntargets = n;
		w->targets_new = true;
		worker_kick(&w->local);
	}
	worker_unlock(&w->local);
}

void monitor_set_interval(struct monitor *w, double interval_s)
{
	if (!(interval_s > 0))
		return;
	worker_lock(&w->local);
	if (interval_s != w->interval_s) {
		w->interval_s = interval_s;
		w->interval_new = true;
		worker_kick(&w->local);
	}
	worker_unlock(&w->local);
}

bool monitor_get(struct monitor *w, struct ctr_model *dst)
{
	bool changed = false;

	worker_lock(&w->local);
	if (w->pub->gen != dst->gen) {
		copy_local(dst, w->pub);
		changed = true;
	}
	worker_unlock(&w->local);
	worker_lock(&w->sweeper);
	if (w->pub->sweep_gen != dst->sweep_gen ||
	    w->pub->sweep_busy != dst->sweep_busy) {
		copy_sweep(dst, w->pub);
		changed = true;
	}
	worker_unlock(&w->sweeper);
	return changed;
}

static void local_request(struct monitor *w, bool *flag)
{
	worker_lock(&w->local);
	*flag = true;
	worker_kick(&w->local);
	worker_unlock(&w->local);
}

void monitor_ack(struct monitor *w)
{
	local_request(w, &w->req_ack);
}

void monitor_mark(struct monitor *w)
{
	local_request(w, &w->req_mark);
}

void monitor_clear(struct monitor *w, const char *dev, int port)
{
	worker_lock(&w->local);
	snprintf(w->clear_dev, sizeof(w->clear_dev), "%s", dev);
	w->clear_port = port;
	w->req_clear = true;
	worker_kick(&w->local);
	worker_unlock(&w->local);
}

void monitor_sweep(struct monitor *w)
{
	char err[200];

	worker_lock(&w->sweeper);
	if (!w->sweep.run) {
		snprintf(w->pub->sweep_err, sizeof(w->pub->sweep_err), "no fabric sweep in this console");
		worker_notify(&w->sweeper);
		worker_unlock(&w->sweeper);
		return;
	}
	w->req_sweep = true;
	w->sweep_on = true;
	if (!w->sweeper.running) {
		w->pub->sweep_busy = true;
		if (worker_start(&w->sweeper, sweep_main, w, "sweep", err, sizeof(err))) {
			w->pub->sweep_busy = false;
			snprintf(w->pub->sweep_err, sizeof(w->pub->sweep_err), "%s", err);
		}
	}
	worker_kick(&w->sweeper);
	worker_unlock(&w->sweeper);
}

void monitor_sweep_stop(struct monitor *w)
{
	worker_lock(&w->sweeper);
	w->sweep_on = false;
	w->req_sweep = false;
	worker_kick(&w->sweeper);
	worker_unlock(&w->sweeper);
}
