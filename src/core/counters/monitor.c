// SPDX-License-Identifier: MIT
/* Counter workers for the console: local sampling every interval and a
 * fabric sweep on demand, publishing models under one mutex. */
#include "config.h"
#include "core/counters/monitor.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/fabric/sweep.h"
#include "core/base/umadlock.h"

#define SWEEP_REPEAT_S 10.0

struct monitor {
	pthread_t thread, sweeper;
	bool sweeper_started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;
	double interval_s;
	char dev[64];
	int port;

	/* requests, under lock */
	bool req_ack, req_mark, req_sweep;
	int req_clear;			/* -1 none */
	bool targets_new;
	struct ctr_target targets[CTRW_MAX_PORTS];
	int ntargets;

	struct ctr_model *work;		/* worker only */
	struct ctr_model *pub;		/* under lock */
	struct ctr_reader *smp;	/* worker only */
	int pipe_rd, pipe_wr;		/* "published" wake-ups for the UI */
};

static void poke(struct monitor *w)
{
	char c = 1;

	/* a full pipe already says "something new" */
	if (write(w->pipe_wr, &c, 1) < 0 && errno != EAGAIN)
		return;
}

static double mono(void)
{
	return counters_now();
}

static struct timespec abs_mono(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
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

static void *work_main(void *arg)
{
	struct monitor *w = arg;
	struct ctr_model *m = w->work;
	double next = mono();

	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		struct timespec ts = abs_mono(next);
		bool ack, mark, changed;
		int clear;
		double t;

		while (!w->stop && mono() < next && !w->targets_new &&
		       !w->req_ack && !w->req_mark && w->req_clear < 0)
			if (pthread_cond_timedwait(&w->cond, &w->lock, &ts) == ETIMEDOUT)
				break;
		if (w->stop)
			break;
		ack = w->req_ack;
		mark = w->req_mark;
		clear = w->req_clear;
		w->req_ack = w->req_mark = false;
		w->req_clear = -1;
		changed = w->targets_new;
		if (changed) {
			m->n = w->ntargets;
			for (int i = 0; i < m->n; i++) {
				memset(&m->port[i], 0, sizeof(m->port[i]));
				m->port[i].t = w->targets[i];
				delta_init(&m->dp[i], w->targets[i].label, w->interval_s);
			}
			w->targets_new = false;
		}
		m->interval_s = w->interval_s;
		pthread_mutex_unlock(&w->lock);

		umadlock_span_begin();
		if (clear >= 0 && clear < m->n) {
			char err[200] = "";

			if (reader_clear(w->smp, &m->port[clear].t, err, sizeof(err)))
				snprintf(m->note, sizeof(m->note), "clearing %s failed: %s",
					 m->port[clear].t.label, err);
			else
				snprintf(m->note, sizeof(m->note), "counters of %s cleared",
					 m->port[clear].t.label);
		}
		t = mono();
		/* a request alone does not sample again before its time */
		if (t >= next || changed || clear >= 0) {
			struct timespec wall;

			clock_gettime(CLOCK_REALTIME, &wall);
			for (int i = 0; i < m->n; i++) {
				struct counter_set *cs = malloc(sizeof(*cs));

				if (!cs)
					break;
				reader_read(w->smp, &m->port[i].t, cs);
				m->port[i].valid = cs->valid;
				m->port[i].source = cs->source;
				snprintf(m->port[i].mode, sizeof(m->port[i].mode), "%s", cs->mode);
				snprintf(m->port[i].why, sizeof(m->port[i].why), "%s", cs->why);
				delta_update(&m->dp[i], cs, cs->valid ? cs->t_mono : mono());
				eventlog_add_from(&m->log, &m->dp[i], &wall);
				free(cs);
			}
			m->now = mono();
			m->gen++;
			if (t >= next)
				next = t + m->interval_s;
		}
		if (umadlock_sim())
			reader_release(w->smp);
		umadlock_span_end();
		if (mark)
			for (int i = 0; i < m->n; i++)
				delta_mark(&m->dp[i], mono());
		if (ack)
			eventlog_ack(&m->log);

		pthread_mutex_lock(&w->lock);
		if (mark || ack)
			m->gen++;
		copy_local(w->pub, m);
		poke(w);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void *sweep_main(void *arg)
{
	struct monitor *w = arg;
	struct sweep_opts so = { .dev = w->dev[0] ? w->dev : NULL, .port = w->port };
	struct sweep sw = { 0 };
	struct counter_set *prev = NULL;
	struct ctr_model *m = calloc(1, sizeof(*m));
	bool have = false;

	pthread_mutex_lock(&w->lock);
	while (!w->stop && m) {
		char err[240] = "";
		double t0, next;
		int rc = 0, nf = 0, failed = 0;

		w->req_sweep = false;
		w->pub->sweep_busy = true;
		pthread_mutex_unlock(&w->lock);

		t0 = mono();
		if (!have) {
			rc = sweep_discover(&sw, &so, err, sizeof(err));
			have = rc == 0;
			if (have) {
				prev = calloc((size_t)sw.n + 1, sizeof(*prev));
				if (!prev) {
					rc = 5;
					snprintf(err, sizeof(err), "out of memory");
				}
			}
		}
		if (!rc)
			rc = sweep_query(&sw, &so, err, sizeof(err));
		m->nflag = 0;
		m->flag_truncated = false;
		if (!rc) {
			for (int i = 0; i < sw.n; i++) {
				const struct counter_set *cs = &sw.p[i].cs;
				const struct counter_set *pv = prev[i].valid ? &prev[i] : NULL;
				bool moved;

				if (!cs->valid) {
					failed++;
					continue;
				}
				if (counters_errors_listed(cs, pv, &moved)) {
					if (nf < CTRW_MAX_FLAGGED) {
						struct monitor_flagged *f = &m->flag[nf++];

						snprintf(f->node_desc, sizeof(f->node_desc), "%s", sw.p[i].node_desc);
						f->lid = sw.p[i].lid;
						f->port = sw.p[i].port;
						f->is_switch = sw.p[i].is_switch;
						f->moved = moved;
						f->cs = *cs;
						if (pv)
							f->prev = *pv;
						else
							f->prev.valid = false;
					} else {
						m->flag_truncated = true;
					}
				}
				prev[i] = *cs;
			}
		}
		m->nflag = nf;
		pthread_mutex_lock(&w->lock);
		w->pub->sweep_gen++;
		w->pub->sweep_busy = false;
		snprintf(w->pub->sweep_err, sizeof(w->pub->sweep_err), "%s", rc ? err : "");
		w->pub->sweep_nodes = sw.nodes;
		w->pub->sweep_ports = sw.n;
		w->pub->sweep_failed = failed;
		w->pub->sweep_s = mono() - t0;
		w->pub->nflag = m->nflag;
		w->pub->flag_truncated = m->flag_truncated;
		memcpy(w->pub->flag, m->flag, (size_t)m->nflag * sizeof(m->flag[0]));
		poke(w);
		next = mono() + SWEEP_REPEAT_S;
		while (!w->stop && !w->req_sweep) {
			struct timespec ts = abs_mono(next);

			if (pthread_cond_timedwait(&w->cond, &w->lock, &ts) == ETIMEDOUT)
				break;
		}
	}
	pthread_mutex_unlock(&w->lock);
	free(prev);
	free(m);
	sweep_free(&sw);
	return NULL;
}

struct monitor *monitor_start(double interval_s, const struct snap_opts *o,
			      char *err, size_t errlen)
{
	struct monitor *w = calloc(1, sizeof(*w));
	pthread_condattr_t ca;
	int fds[2];

	if (!w || !(w->work = calloc(1, sizeof(*w->work))) ||
	    !(w->pub = calloc(1, sizeof(*w->pub))) || !(w->smp = reader_open())) {
		snprintf(err, errlen, "cannot start the counter worker: out of memory");
		goto fail;
	}
	if (pipe(fds) < 0) {
		snprintf(err, errlen, "cannot start the counter worker: %s", strerror(errno));
		goto fail;
	}
	w->pipe_rd = fds[0];
	w->pipe_wr = fds[1];
	for (int i = 0; i < 2; i++) {
		fcntl(fds[i], F_SETFL, O_NONBLOCK);
		fcntl(fds[i], F_SETFD, FD_CLOEXEC);
	}
	w->interval_s = interval_s > 0 ? interval_s : 1.0;
	w->req_clear = -1;
	eventlog_init(&w->work->log);
	eventlog_init(&w->pub->log);
	if (o && o->device)
		snprintf(w->dev, sizeof(w->dev), "%s", o->device);
	w->port = o ? o->port : 0;
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&w->thread, NULL, work_main, w)) {
		snprintf(err, errlen, "cannot start the counter worker thread");
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		close(w->pipe_rd);
		close(w->pipe_wr);
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
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	if (w->sweeper_started)
		pthread_join(w->sweeper, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	close(w->pipe_rd);
	close(w->pipe_wr);
	reader_close(w->smp);
	free(w->work);
	free(w->pub);
	free(w);
}

int monitor_fd(const struct monitor *w)
{
	return w->pipe_rd;
}

void monitor_drain(struct monitor *w)
{
	char buf[64];

	while (read(w->pipe_rd, buf, sizeof(buf)) > 0)
		;
}

void monitor_set_targets(struct monitor *w, const struct snapshot *s)
{
	struct ctr_target t[CTRW_MAX_PORTS];
	int n = reader_targets_local(s, t, CTRW_MAX_PORTS);
	bool same;

	pthread_mutex_lock(&w->lock);
	same = n == w->ntargets;
	for (int i = 0; same && i < n; i++)
		same = !strcmp(t[i].label, w->targets[i].label) &&
		       t[i].lid == w->targets[i].lid;
	if (!same) {
		memcpy(w->targets, t, (size_t)n * sizeof(t[0]));
		w->ntargets = n;
		w->targets_new = true;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
}

void monitor_set_interval(struct monitor *w, double interval_s)
{
	pthread_mutex_lock(&w->lock);
	w->interval_s = interval_s;
	pthread_mutex_unlock(&w->lock);
}

bool monitor_get(struct monitor *w, struct ctr_model *dst)
{
	bool changed = false;

	pthread_mutex_lock(&w->lock);
	if (w->pub->gen != dst->gen) {
		copy_local(dst, w->pub);
		changed = true;
	}
	if (w->pub->sweep_gen != dst->sweep_gen ||
	    w->pub->sweep_busy != dst->sweep_busy) {
		copy_sweep(dst, w->pub);
		changed = true;
	}
	pthread_mutex_unlock(&w->lock);
	return changed;
}

static void request(struct monitor *w, bool *flag)
{
	pthread_mutex_lock(&w->lock);
	*flag = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void monitor_ack(struct monitor *w)
{
	request(w, &w->req_ack);
}

void monitor_mark(struct monitor *w)
{
	request(w, &w->req_mark);
}

void monitor_clear(struct monitor *w, int port_index)
{
	pthread_mutex_lock(&w->lock);
	w->req_clear = port_index;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void monitor_sweep(struct monitor *w)
{
	pthread_mutex_lock(&w->lock);
	w->req_sweep = true;
	if (!w->sweeper_started) {
		w->pub->sweep_busy = true;
		w->sweeper_started =
			pthread_create(&w->sweeper, NULL, sweep_main, w) == 0;
		if (!w->sweeper_started)
			snprintf(w->pub->sweep_err, sizeof(w->pub->sweep_err),
				 "cannot start the sweep thread");
	}
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}
