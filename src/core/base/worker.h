/* SPDX-License-Identifier: MIT */
/* Worker: one background thread with a stop flag, a mutex and a
 * CLOCK_MONOTONIC condition variable, and a wake descriptor the UI polls. */
#ifndef IBC_BASE_WORKER_H
#define IBC_BASE_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* CLOCK_MONOTONIC */
	bool stop;			/* under lock */
	bool running;			/* the thread was created */
	int wake_fd;			/* eventfd: readable when published */
	bool own_fd;			/* false: borrowed from another worker */
	void (*main)(struct worker *w, void *arg);
	void *arg;
};

/* CLOCK_MONOTONIC seconds, the clock every wait uses. */
double worker_now(void);

/* Lock, condition variable and wake descriptor; share_fd (another
 * worker's, may be NULL) makes both wake the same descriptor. Returns 0,
 * or -1 with "<what>: <why>" in err. */
int worker_init(struct worker *w, const struct worker *share_fd,
		const char *what, char *err, size_t errlen);
/* Starts fn(w, arg) on a thread that has every signal blocked, so Ctrl-C
 * and SIGWINCH always reach the UI thread. Returns 0, or -1 with
 * "cannot start the <what> thread: <strerror of pthread_create's code>". */
int worker_start(struct worker *w, void (*fn)(struct worker *w, void *arg),
		 void *arg, const char *what, char *err, size_t errlen);
/* Sets the stop flag, wakes the thread, joins it (a no-op when it never
 * started), then frees the lock, condition and descriptor. NULL-safe. */
void worker_stop(struct worker *w);

/* On a worker's own thread, for one that spends a discovery or a sweep
 * waking on every MAD answer: marks it a CPU-bound batch job for the
 * scheduler (Linux SCHED_BATCH: the same nice and the same share of the
 * CPU), so those wake-ups do not preempt the UI thread while it reads a
 * key or draws. Best effort; a refusal changes nothing else. */
void worker_batch(void);

void worker_lock(struct worker *w);
void worker_unlock(struct worker *w);
/* With the lock held: wakes every waiter (a request, a new interval). */
void worker_kick(struct worker *w);
/* With the lock held: sleeps until the monotonic time deadline (< 0:
 * forever) or a kick. Returns false on time-out, true when woken early;
 * callers re-check their conditions either way. */
bool worker_wait(struct worker *w, double deadline);
/* With the lock held: true once worker_stop() was called. */
bool worker_stopping(const struct worker *w);

/* A view a worker publishes (its first member `unsigned long gen`,
 * raised at each publication) copied out under the lock when dst's gen
 * differs from pub's; true then. size: the view's. */
bool worker_take_view(struct worker *w, void *dst, const void *pub, size_t size);

/* Makes the wake descriptor readable (any thread, lock or not). */
void worker_notify(struct worker *w);
int worker_fd(const struct worker *w);
/* Empties the wake descriptor; call after poll() said readable. */
void worker_drain(struct worker *w);

#endif
