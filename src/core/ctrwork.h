/* SPDX-License-Identifier: MIT */
/* The console's counter workers: one thread samples the local ports'
 * counters every interval (deltas, event log), another sweeps the fabric
 * on demand; both publish plain-data models the UI copies and draws. */
#ifndef IBC_CTRWORK_H
#define IBC_CTRWORK_H

#include <stdbool.h>
#include <stddef.h>
#include "counters.h"
#include "ctrsample.h"
#include "delta.h"
#include "eventlog.h"
#include "snapshot.h"

#define CTRW_MAX_PORTS 16
#define CTRW_MAX_FLAGGED 128

struct ctrw_port {
	struct ctr_target t;
	enum ctr_source source;
	bool valid;
	char mode[96];
	char why[160];
};

/* A port the fabric sweep lists: an error or congestion counter is not
 * zero, or moved since the previous sweep. */
struct ctrw_flagged {
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
	struct ctrw_port port[CTRW_MAX_PORTS];
	struct delta_port dp[CTRW_MAX_PORTS];
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
	struct ctrw_flagged flag[CTRW_MAX_FLAGGED];
};

struct ctrwork;

struct ctrwork *ctrwork_start(double interval_s, const struct snap_opts *o,
			      char *err, size_t errlen);
void ctrwork_stop(struct ctrwork *w);

/* Follows the snapshot's port list (restarts deltas when it changes). */
void ctrwork_set_targets(struct ctrwork *w, const struct snapshot *s);
void ctrwork_set_interval(struct ctrwork *w, double interval_s);

/* Copies the newest model into dst when it changed since dst's
 * generations; returns true when it did. Only the used ports are copied. */
bool ctrwork_get(struct ctrwork *w, struct ctr_model *dst);

/* Readable when a new model is published (poll() it with the keys);
 * drain with ctrwork_drain(). */
int ctrwork_fd(const struct ctrwork *w);
void ctrwork_drain(struct ctrwork *w);

/* Requests, carried out by the worker before its next publication. */
void ctrwork_ack(struct ctrwork *w);		/* acknowledge all events */
void ctrwork_mark(struct ctrwork *w);		/* restart "since mark" */
void ctrwork_clear(struct ctrwork *w, int port_index);	/* PMA reset */
void ctrwork_sweep(struct ctrwork *w);		/* start / repeat a sweep */

#endif
