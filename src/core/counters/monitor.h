/* SPDX-License-Identifier: MIT */
/* The console's counter workers: one thread samples the local ports'
 * counters every interval (deltas, event log), another sweeps the fabric
 * on request; both publish plain-data models the UI copies and draws. */
#ifndef IBC_COUNTERS_MONITOR_H
#define IBC_COUNTERS_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include "core/counters/counters.h"
#include "core/counters/reader.h"
#include "core/counters/delta.h"
#include "core/counters/eventlog.h"
#include "core/counters/portcong.h"
#include "core/port/snapshot.h"

#define CTRW_MAX_PORTS 16
#define CTRW_MAX_FLAGGED 128

struct monitor_port {
	struct ctr_target t;
	enum ctr_source source;
	bool valid;
	char mode[96];
	char why[160];
	struct ctr_details det;		/* the last sample's error details */
	struct portcong cong;		/* its tick and per-priority pauses */
};

/* The neighbour of a local port (the other end of its cable), sampled
 * over the PMA through that port with the same delta rules. */
struct monitor_peer {
	bool sampled;		/* t is a target (a neighbour with a LID) */
	struct ctr_target t;
	bool valid;
	char why[160];
};

/* A port the fabric sweep lists: an error or congestion counter is not
 * zero, or moved since the previous sweep. */
struct monitor_flagged {
	char node_desc[72];
	unsigned lid;
	int port;
	bool is_switch;
	bool moved;
	struct counter_set cs;		/* now */
	struct counter_set prev;	/* previous sweep (valid false: none) */
};

struct ctr_model {
	unsigned long gen;		/* local samples published, 0 none */
	double now;			/* monotonic time of the newest */
	double interval_s;
	int n;
	struct monitor_port port[CTRW_MAX_PORTS];
	struct delta_port dp[CTRW_MAX_PORTS];
	struct monitor_peer peer[CTRW_MAX_PORTS];	/* port[i]'s neighbour */
	struct delta_port peer_dp[CTRW_MAX_PORTS];
	struct eventlog log;
	char note[200];			/* result of the last request */

	/* fabric sweep */
	unsigned long sweep_gen;	/* sweeps published, 0 none */
	bool sweep_busy;
	char sweep_err[240];
	int sweep_nodes, sweep_ports, sweep_failed;
	double sweep_s;			/* discovery + queries */
	int nflag;
	bool flag_truncated;
	struct monitor_flagged flag[CTRW_MAX_FLAGGED];
};

struct monitor;

/* Which swept ports the sweep lists (a judgement: src/diag provides it):
 * true to list cs; *moved when a counter changed since prev (NULL on the
 * first sweep). */
typedef bool (*monitor_listing_rule)(const struct counter_set *cs,
				     const struct counter_set *prev, bool *moved);

/* The fabric sweep the console runs on the monitor's sweep worker (the
 * fabric room provides it: core/fabric/sweeper.h): run() does one round
 * into m's sweep part (sweep_nodes, sweep_ports, sweep_failed, nflag,
 * flag[], flag_truncated) and returns 0 or a status with err. ctx is
 * the sweeper's, used only on the sweep worker. */
struct monitor_sweeper {
	int (*run)(void *ctx, struct ctr_model *m, char *err, size_t errlen);
	void *ctx;
};

/* sweeper NULL: monitor_sweep() says there is no fabric sweep. */
struct monitor *monitor_start(double interval_s, const struct snap_opts *o,
			      const struct monitor_sweeper *sweeper, char *err,
			      size_t errlen);
void monitor_stop(struct monitor *w);

/* Follows the snapshot's port list and each IB port's neighbour
 * (restarts deltas when either changes). */
void monitor_set_targets(struct monitor *w, const struct snapshot *s);
/* Takes effect at once: a shorter interval cuts the current wait, and
 * no port's deltas call the samples around the change a gap. */
void monitor_set_interval(struct monitor *w, double interval_s);

/* Copies the newest model into dst when it changed since dst's
 * generations; returns true when it did. Only the used ports are copied. */
bool monitor_get(struct monitor *w, struct ctr_model *dst);

/* Readable when a new model is published (poll() it with the keys);
 * drain with monitor_drain(). */
int monitor_fd(const struct monitor *w);
void monitor_drain(struct monitor *w);

/* Requests, carried out by the worker before its next publication. */
void monitor_ack(struct monitor *w);		/* acknowledge all events */
void monitor_mark(struct monitor *w);		/* restart "since mark" */
/* PMA reset of the local port dev/port (found by name when the request
 * is carried out, so a changed port list cannot redirect it). */
void monitor_clear(struct monitor *w, const char *dev, int port);
/* Starts a sweep now, then one every 10 s until monitor_sweep_stop(). */
void monitor_sweep(struct monitor *w);
/* No more timed sweeps (the sweep screen was left); one in flight ends. */
void monitor_sweep_stop(struct monitor *w);

#endif
