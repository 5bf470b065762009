// SPDX-License-Identifier: MIT
/* Worker: one background thread with a stop flag, a mutex and a
 * CLOCK_MONOTONIC condition variable, and a wake descriptor the UI polls. */
#include "config.h"
#include "core/base/worker.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

double worker_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int worker_init(struct worker *w, const struct worker *share_fd,
		const char *what, char *err, size_t errlen)
{
	pthread_condattr_t ca;
	int rc;

	memset(w, 0, sizeof(*w));
	if (share_fd) {
		w->wake_fd = share_fd->wake_fd;
	} else {
		w->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (w->wake_fd < 0) {
			snprintf(err, errlen, "cannot create the %s wake-up descriptor: %s",
				 what, strerror(errno));
			return -1;
		}
		w->own_fd = true;
	}
	rc = pthread_condattr_init(&ca);
	if (!rc)
		rc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!rc)
		rc = pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (!rc) {
		rc = pthread_mutex_init(&w->lock, NULL);
		if (rc)
			pthread_cond_destroy(&w->cond);
	}
	if (rc) {
		snprintf(err, errlen, "cannot set up the %s thread's lock: %s",
			 what, strerror(rc));
		if (w->own_fd)
			close(w->wake_fd);
		w->wake_fd = -1;
		return -1;
	}
	return 0;
}

static void *worker_trampoline(void *arg)
{
	struct worker *w = arg;

	w->main(w, w->arg);
	return NULL;
}

int worker_start(struct worker *w, void (*fn)(struct worker *w, void *arg),
		 void *arg, const char *what, char *err, size_t errlen)
{
	sigset_t all, old;
	int rc;

	w->main = fn;
	w->arg = arg;
	/* The new thread inherits this mask: signals stay with the UI. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&w->thread, NULL, worker_trampoline, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		/* pthread_create reports its error as the return value */
		snprintf(err, errlen, "cannot start the %s thread: %s", what,
			 strerror(rc));
		return -1;
	}
	w->running = true;
	return 0;
}

void worker_stop(struct worker *w)
{
	if (!w)
		return;
	if (w->running) {
		pthread_mutex_lock(&w->lock);
		w->stop = true;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
		w->running = false;
	}
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	if (w->own_fd && w->wake_fd >= 0)
		close(w->wake_fd);
	w->wake_fd = -1;
	w->own_fd = false;
}

bool worker_take_view(struct worker *w, void *dst, const void *pub, size_t size)
{
	bool changed;

	worker_lock(w);
	changed = *(const unsigned long *)dst != *(const unsigned long *)pub;
	if (changed)
		memcpy(dst, pub, size);
	worker_unlock(w);
	return changed;
}

void worker_batch(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	(void)pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp);
}

void worker_lock(struct worker *w)
{
	pthread_mutex_lock(&w->lock);
}

void worker_unlock(struct worker *w)
{
	pthread_mutex_unlock(&w->lock);
}

void worker_kick(struct worker *w)
{
	pthread_cond_broadcast(&w->cond);
}

bool worker_stopping(const struct worker *w)
{
	return w->stop;
}

bool worker_wait(struct worker *w, double deadline)
{
	struct timespec ts;
	double whole;

	if (deadline < 0) {
		pthread_cond_wait(&w->cond, &w->lock);
		return true;
	}
	if (worker_now() >= deadline)
		return false;
	whole = (double)(time_t)deadline;
	ts.tv_sec = (time_t)deadline;
	ts.tv_nsec = (long)((deadline - whole) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return pthread_cond_timedwait(&w->cond, &w->lock, &ts) != ETIMEDOUT;
}

void worker_notify(struct worker *w)
{
	uint64_t one = 1;

	/* EAGAIN: the counter is full, which already says "something new" */
	if (write(w->wake_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		return;
}

int worker_fd(const struct worker *w)
{
	return w->wake_fd;
}

void worker_drain(struct worker *w)
{
	uint64_t n;

	/* one read empties an eventfd; non-blocking, so EAGAIN when empty */
	if (read(w->wake_fd, &n, sizeof(n)) < 0)
		return;
}
