// SPDX-License-Identifier: MIT
/* Sampler: collects a snapshot every interval on its own thread and
 * publishes it under a mutex with a generation counter and a wake pipe. */
#include "config.h"
#include "core/port/sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct sampler {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* wakes the worker and waiters */
	struct snap_opts opts;
	char *sysfs_root, *device;	/* owned copies behind opts */
	double interval_s;
	bool stop;

	struct snapshot *work;		/* worker only, no lock */
	struct snapshot *pub;		/* newest good one, under lock */
	struct sampler_state state;	/* under lock */
	int pipe_rd, pipe_wr;
};

static double sampler_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct timespec sampler_abstime(double t)
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

static double sampler_clamp(double v)
{
	if (!(v >= SAMPLER_MIN_INTERVAL))	/* also catches NaN */
		return SAMPLER_MIN_INTERVAL;
	if (v > SAMPLER_MAX_INTERVAL)
		return SAMPLER_MAX_INTERVAL;
	return v;
}

static void sampler_poke(struct sampler *s)
{
	char c = 1;

	/* A full pipe already says "something new": EAGAIN is fine. */
	if (write(s->pipe_wr, &c, 1) < 0 && errno != EAGAIN)
		return;
}

static void *sampler_main(void *arg)
{
	struct sampler *s = arg;
	char err[256];

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		double t0, t1, next;
		enum snap_status st;

		pthread_mutex_unlock(&s->lock);
		err[0] = '\0';
		t0 = sampler_now();
		st = snapshot_collect(s->work, &s->opts, err, sizeof(err));
		t1 = sampler_now();
		if (st == SNAP_OK && s->work->nports == 0) {
			st = SNAP_NODEV;
			if (!err[0])
				snprintf(err, sizeof(err),
					 "no port matched the selection");
		}
		pthread_mutex_lock(&s->lock);

		s->state.gen++;
		s->state.status = st;
		s->state.collect_s = t1 - t0;
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
		pthread_cond_broadcast(&s->cond);
		sampler_poke(s);

		/* Sleep until t0 + interval; an interval change restarts
		 * the wait with the new length. */
		for (;;) {
			struct timespec ts;
			double before = s->interval_s;
			int rc;

			next = t0 + before;
			if (s->stop || sampler_now() >= next)
				break;
			ts = sampler_abstime(next);
			rc = pthread_cond_timedwait(&s->cond, &s->lock, &ts);

			if (rc == ETIMEDOUT && s->interval_s == before)
				break;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

struct sampler *sampler_start(const struct snap_opts *o, double interval_s,
			      char *err, size_t errlen)
{
	struct sampler *s;
	pthread_condattr_t ca;
	int fds[2], rc;

	s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	s->work = calloc(1, sizeof(*s->work));
	s->pub = calloc(1, sizeof(*s->pub));
	if (!s->work || !s->pub)
		goto nomem;
	s->opts = *o;
	if (o->sysfs_root) {
		s->sysfs_root = strdup(o->sysfs_root);
		if (!s->sysfs_root)
			goto nomem;
		s->opts.sysfs_root = s->sysfs_root;
	}
	if (o->device) {
		s->device = strdup(o->device);
		if (!s->device)
			goto nomem;
		s->opts.device = s->device;
	}
	s->interval_s = sampler_clamp(interval_s);
	s->state.status = SNAP_OK;

	if (pipe(fds) < 0) {
		snprintf(err, errlen, "cannot create the sampler pipe: %s",
			 strerror(errno));
		goto fail;
	}
	s->pipe_rd = fds[0];
	s->pipe_wr = fds[1];
	fcntl(s->pipe_rd, F_SETFL, O_NONBLOCK);
	fcntl(s->pipe_wr, F_SETFL, O_NONBLOCK);
	fcntl(s->pipe_rd, F_SETFD, FD_CLOEXEC);
	fcntl(s->pipe_wr, F_SETFD, FD_CLOEXEC);

	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);

	rc = pthread_create(&s->thread, NULL, sampler_main, s);
	if (rc) {
		snprintf(err, errlen, "cannot start the sampler thread: %s",
			 strerror(rc));
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
		close(s->pipe_rd);
		close(s->pipe_wr);
		goto fail;
	}
	return s;

nomem:
	snprintf(err, errlen, "cannot allocate the sampler: out of memory");
fail:
	if (s) {
		if (s->work)
			snapshot_release(s->work);
		if (s->pub)
			snapshot_release(s->pub);
		free(s->work);
		free(s->pub);
		free(s->sysfs_root);
		free(s->device);
		free(s);
	}
	return NULL;
}

bool sampler_get(struct sampler *s, struct snapshot *dst,
		 struct sampler_state *st)
{
	unsigned long seen = st->gen, have = st->good_gen;
	bool changed;

	pthread_mutex_lock(&s->lock);
	changed = s->state.gen != seen;
	/* out of memory: dst has no ports, and the next call tries again */
	if (s->state.good_gen && s->state.good_gen != have)
		(void)snapshot_copy(dst, s->pub);
	*st = s->state;
	pthread_mutex_unlock(&s->lock);
	return changed;
}

bool sampler_wait(struct sampler *s, unsigned long gen, int timeout_ms)
{
	struct timespec ts;
	bool got;

	ts = sampler_abstime(sampler_now() + timeout_ms / 1000.0);
	pthread_mutex_lock(&s->lock);
	while (s->state.gen <= gen) {
		if (timeout_ms < 0) {
			pthread_cond_wait(&s->cond, &s->lock);
		} else if (pthread_cond_timedwait(&s->cond, &s->lock, &ts) ==
			   ETIMEDOUT) {
			break;
		}
	}
	got = s->state.gen > gen;
	pthread_mutex_unlock(&s->lock);
	return got;
}

int sampler_fd(const struct sampler *s)
{
	return s->pipe_rd;
}

void sampler_drain(struct sampler *s)
{
	char buf[64];

	while (read(s->pipe_rd, buf, sizeof(buf)) > 0)
		;
}

double sampler_set_interval(struct sampler *s, double interval_s)
{
	double v = sampler_clamp(interval_s);

	pthread_mutex_lock(&s->lock);
	s->interval_s = v;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return v;
}

double sampler_interval(struct sampler *s)
{
	double v;

	pthread_mutex_lock(&s->lock);
	v = s->interval_s;
	pthread_mutex_unlock(&s->lock);
	return v;
}

void sampler_stop(struct sampler *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	close(s->pipe_rd);
	close(s->pipe_wr);
	snapshot_release(s->work);
	snapshot_release(s->pub);
	free(s->work);
	free(s->pub);
	free(s->sysfs_root);
	free(s->device);
	free(s);
}
