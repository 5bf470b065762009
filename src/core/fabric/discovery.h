/* SPDX-License-Identifier: MIT */
/* Discovery worker: runs fabric_discover on its own thread, on request and
 * on a timer, and publishes each result as an immutable, shared view. */
#ifndef IBC_FABRIC_DISCOVERY_H
#define IBC_FABRIC_DISCOVERY_H

#include <stdbool.h>
#include "core/fabric/fabric.h"
#include "core/counters/counters.h"

/* One published result. Read-only once published; hold a reference while
 * reading it. Judging it is the caller's business (src/diag). */
struct fabric_view {
	int refs;			/* under the worker's lock */
	unsigned gen;			/* 1, 2, ... */
	/* The gen of the first of the views in a row before it that hold
	 * the same model (fabric_same): two views with the same model_gen
	 * judge and lay out alike. A failed discovery starts a new one. */
	unsigned model_gen;
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

struct discovery;

/* Starts the thread and its first discovery. rediscover_s <= 0: only on
 * request. Returns NULL with err. The options are copied. */
struct discovery *discovery_start(const struct fab_opts *o,
					  double rediscover_s,
					  char *err, size_t errlen);
void discovery_stop(struct discovery *w);
/* Readable when a new view or a new watched sample is published (poll()
 * it with the keys); drain with discovery_drain(). */
int discovery_fd(const struct discovery *w);
void discovery_drain(struct discovery *w);
/* Asks for a discovery now (ignored while one runs). */
void discovery_request(struct discovery *w);
void discovery_progress(struct discovery *w, struct fabric_progress *p);
/* The newest view with a reference taken, or NULL before the first one. */
struct fabric_view *discovery_get(struct discovery *w);
void discovery_put(struct discovery *w, struct fabric_view *v);

/* The newest view of the running worker (the last one started and not
 * stopped), for a sweep that wants its model rather than a discovery of
 * its own: when it holds a model newer than *gen, take() copies what it
 * needs (the model is valid only during the call; 0 ok) and *gen moves
 * on. 1 taken, 0 nothing newer (or no model yet), -1 no worker runs or
 * take() failed. */
int discovery_shared_take(unsigned *gen,
			  int (*take)(void *ctx, const struct fabric *f), void *ctx);
/* Asks the running worker, if any, for a discovery now. */
void discovery_shared_request(void);
/* Waits (at most max_s, looking every 50 ms) while the running worker
 * has published no view yet and its first discovery is asked for or
 * under way, so a sweep that starts meanwhile takes that model instead
 * of discovering the fabric a second time. 1 a view is published (its
 * model may be NULL: that discovery failed), 0 none and none under way
 * or the time ran out, -1 no worker runs (or it stopped meanwhile). */
int discovery_shared_wait(double max_s);

/* Live counters of one fabric port (the screen's selection) and of its
 * link's other end (peer_lid 0: none), read from their PMAs by the worker
 * while no discovery runs: one read a second, the two ends in turn. lid 0 stops it: call it
 * when the fabric screen is left. */
void discovery_watch(struct discovery *w, unsigned lid, int port, unsigned peer_lid,
		     int peer_port);
/* The newest two samples of the watched port (end 0) or its other end
 * (end 1): prev->valid false when there is only one; false when none
 * matches the current watch. */
bool discovery_counters(struct discovery *w, int end, struct counter_set *now,
			struct counter_set *prev);

#endif
