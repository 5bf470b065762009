/* SPDX-License-Identifier: MIT */
/* Discovery worker: runs fabric_discover on its own thread, on request and
 * on a timer, and publishes each result as an immutable, shared view. */
#ifndef IBC_FABRIC_WORKER_H
#define IBC_FABRIC_WORKER_H

#include <stdbool.h>
#include "fabric.h"
#include "counters.h"

/* One published result. Read-only once published; hold a reference while
 * reading it. Judging it is the caller's business (src/diag). */
struct fabric_view {
	int refs;			/* under the worker's lock */
	unsigned gen;			/* 1, 2, ... */
	struct fabric *fabric;		/* NULL when this discovery failed */
	const struct fabric *baseline;	/* first good discovery (owned by
					 * the worker, lives as long as it) */
	char err[320];
};

struct fabric_progress {
	bool running;
	double elapsed_s;		/* of the discovery in flight */
	double last_s;			/* duration of the previous one, 0 none */
	int last_nodes;			/* its node count, 0 none */
	unsigned gen;			/* newest published view */
	double next_in_s;		/* until the timer fires, <0 no timer */
};

struct fabric_worker;

/* Starts the thread and its first discovery. rediscover_s <= 0: only on
 * request. Returns NULL with err. The options are copied. */
struct fabric_worker *fabric_worker_start(const struct fab_opts *o,
					  double rediscover_s,
					  char *err, size_t errlen);
void fabric_worker_stop(struct fabric_worker *w);
/* Asks for a discovery now (ignored while one runs). */
void fabric_worker_request(struct fabric_worker *w);
void fabric_worker_progress(struct fabric_worker *w, struct fabric_progress *p);
/* The newest view with a reference taken, or NULL before the first one. */
struct fabric_view *fabric_worker_get(struct fabric_worker *w);
void fabric_worker_put(struct fabric_worker *w, struct fabric_view *v);

/* Live counters of one fabric port (the screen's selection), read from its
 * PMA by the worker about once a second while no discovery runs. lid 0
 * stops it. */
void fabric_worker_watch(struct fabric_worker *w, unsigned lid, int port);
/* The newest two samples of the watched port (prev->valid false when
 * there is only one); false when none matches the current watch. */
bool fabric_worker_counters(struct fabric_worker *w, struct counter_set *now,
			    struct counter_set *prev);

#endif
