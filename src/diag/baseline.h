/* SPDX-License-Identifier: MIT */
/* Slow growth: a per-port baseline of the error counters kept in the state
 * directory, so ~10 errors an hour (an aging optic) is flagged across days
 * instead of disappearing in the 10-minute window. */
#ifndef IBC_DIAG_BASELINE_H
#define IBC_DIAG_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/counters/counters.h"
#include "rules.h"
#include "thresholds.h"

/* A baseline older than this is taken afresh (after it was judged). */
#define BASELINE_MAX_AGE_S (7 * 86400.0)

struct baseline_ctr {
	char name[CTR_NAME];
	uint64_t value;
	double t;		/* seconds since the epoch when recorded */
};

struct baseline {
	int n;
	struct baseline_ctr c[CTR_MAX];
	bool dirty;		/* changed since loaded: save it */
};

/* $XDG_STATE_HOME/ibconsole/baseline/<port> (else ~/.local/state/…);
 * port is "mlx5_0-1". NULL when neither variable is set. */
const char *baseline_path(const char *port, char *buf, size_t len);
/* 0 read, 1 no baseline yet, -1 unreadable (err says why). */
int baseline_load(struct baseline *b, const char *path, char *err, size_t errlen);
/* Written whole to a temporary file, then renamed; directories created. */
int baseline_save(const struct baseline *b, const char *path, char *err, size_t errlen);

/* A local port's baseline in the state directory, kept across runs by
 * watch, the console and the exporter alike (remote ports have none:
 * LIDs change when the SM reassigns them). */
struct baseline_port {
	struct baseline b;
	char path[512];		/* "" none */
	bool warned;
};
/* Loads dev-port's baseline; false with a line in err (once) when it
 * cannot be read: slow growth is then judged from a new one. */
bool baseline_port_open(struct baseline_port *pb, const char *dev, int port,
			char *err, size_t errlen);
/* Saves it when it changed; false with a line in err, once. */
bool baseline_port_keep(struct baseline_port *pb, char *err, size_t errlen);

/*
 * Pure: each error counter of cs against its baseline at time now (epoch
 * seconds). A counter new to the baseline, reset (lower than its base) or
 * saturated starts a new base. Growth of at least th->slow_per_hour per
 * hour over th->slow_min_s or more raises *v to watch (rule "slow-growth")
 * when *v is not already worse. Bases older than BASELINE_MAX_AGE_S are
 * renewed after being judged.
 */
void baseline_eval(struct baseline *b, const struct counter_set *cs, double now,
		   const struct thresholds *th, struct verdict *v);

struct delta_port;
struct ctr_target;
/* The console's slow growth, as watch and the exporter judge it: local
 * port slot i (target t, its newest readings in d) against its baseline,
 * opened from the state directory when the slot's port changes and saved
 * when it moved. Remote ports have none. err gets a line once when the
 * baseline cannot be read or written ("" otherwise). */
void baseline_console_eval(int i, const struct ctr_target *t, const struct delta_port *d,
			   const struct thresholds *th, struct verdict *v, char *err, size_t errlen);

#endif
