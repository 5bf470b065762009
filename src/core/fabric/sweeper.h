/* SPDX-License-Identifier: MIT */
/* The fabric sweeper, the one sweep loop of `errors`, the exporter and
 * the console: a discovery's model and port list, kept from sweep to
 * sweep; every port's PMA counters each round (sweep.c); each port
 * paired with its previous round's sample for the caller's judgement;
 * then this round kept as the next one's previous.
 *
 * A kept model is discovered again on request (the console's `r`), on a
 * slow timer, and, when asked, as soon as a round meets a port whose
 * link or peer changed: its LinkDownedCounter rose, or a port that
 * answered the previous round no longer does. Previous samples follow
 * their ports (node GUID and port number) into the new model.
 *
 * For the console it runs on the counter monitor's sweep worker
 * (monitor_sweeper), so the counters room needs nothing of this one. */
#ifndef IBC_FABRIC_SWEEPER_H
#define IBC_FABRIC_SWEEPER_H

#include "core/counters/monitor.h"
#include "core/fabric/sweep.h"
#include "core/port/snapshot.h"

struct sweeper;
struct fabric;

/* How often a kept model is discovered again when nothing asks sooner:
 * ibconsole's own choice (no source gives a number), the exporter's
 * config key fabric_rediscover_s. */
#define SWEEPER_REDISCOVER_S 600.0

struct sweeper_opts {
	struct sweep_opts so;	/* strings are copied */
	/* Discover again after this many seconds, <= 0: never on time. */
	double rediscover_s;
	/* Discover again in the round that meets a changed port. */
	bool rediscover_on_change;
	/* Keep the fabric model itself (links, names) for sweeper_fabric(). */
	bool keep_model;
};

/* NULL out of memory. */
struct sweeper *sweeper_open(const struct sweeper_opts *o);
void sweeper_free(struct sweeper *s);
/* The next round discovers first. */
void sweeper_rediscover(struct sweeper *s);
/* The slow timer (sweeper_opts.rediscover_s), before the sweeper runs. */
void sweeper_set_rediscover_s(struct sweeper *s, double secs);

/* One round's counters: a discovery when none is kept or one is due,
 * then every port's PMA counters; where they show a changed port (and
 * rediscover_on_change), a discovery and the counters again. 0, or a
 * status (sweep.h) with err. */
int sweeper_query(struct sweeper *s, char *err, size_t errlen);
/* This round's ports (valid after a good sweeper_query()). */
const struct sweep *sweeper_sweep(const struct sweeper *s);
/* The kept model (keep_model), NULL before the first discovery. */
const struct fabric *sweeper_fabric(const struct sweeper *s);
/* The previous round's samples, by port as in sweeper_sweep() (a port
 * this round could not read keeps its last one); NULL while there is
 * none. */
const struct sweep *sweeper_prev(const struct sweeper *s);
/* Port i's counters into cs and its previous round's sample into pcs:
 * pcs, or NULL when there is none to judge against. */
const struct counter_set *sweeper_pair(struct sweeper *s, int i,
				       struct counter_set *cs,
				       struct counter_set *pcs);
/* This round becomes the previous one (a port it could not read keeps
 * its last sample). 0, or -1 out of memory: the next round has none. */
int sweeper_keep(struct sweeper *s);

/* What the sweeper did so far. */
struct sweeper_stats {
	unsigned long discoveries;	/* models discovered */
	unsigned long taken;		/* models taken from the worker */
	bool discovered;		/* by the last sweeper_query() */
	double discover_s;		/* that discovery's time, 0: reused */
	unsigned long mads_sent;	/* PMA queries, all rounds */
	unsigned long mads_retried;	/* of those, asked again after a time-out */
};
void sweeper_stats(const struct sweeper *s, struct sweeper_stats *st);

/* The console's sweeper of the device and port in o (NULL: the first);
 * listed says which swept ports it lists. It takes the model of the
 * running discovery worker (the fabric screen's, discovery.h) whenever
 * that has a newer one, so `r` there and its --rediscover timer reach the
 * sweep, and asks it to discover again when a round meets a changed
 * port or its own slow timer (SWEEPER_REDISCOVER_S) runs out. A first
 * round that meets the worker's first discovery under way waits for its
 * model; only while no worker runs, or its discovery failed, does the
 * sweeper discover on its own. NULL out of memory. */
struct sweeper *sweeper_new(const struct snap_opts *o, monitor_listing_rule listed);
/* For monitor_start(): the console's round as a monitor_sweeper. */
struct monitor_sweeper sweeper_for_monitor(struct sweeper *s);

#endif
