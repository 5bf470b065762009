/* SPDX-License-Identifier: MIT */
/* Error-counter thresholds: the reference procedure's defaults (watch at 5, act above 50
 * errors in 10 minutes), overridable per counter from the config file. */
#ifndef IBC_THRESHOLDS_H
#define IBC_THRESHOLDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/counters/counters.h"
#include "testverdict.h"

#define THRESH_DEFAULT_WINDOW_S 600.0
#define THRESH_DEFAULT_WATCH 5
#define THRESH_DEFAULT_ACT 50
#define THRESH_MAX 64
#define THRESH_LINE_MAX 511	/* bytes per config line, newline excluded */
/* Values since the last clear cover an unknown time, so the 10-minute
 * levels do not apply: ibconsole's own defaults are watch at 50 (a whole
 * bad window's worth) and act above 100 (twice that); a site sets its own. */
#define THRESH_LIFETIME_WATCH 50
#define THRESH_LIFETIME_ACT 100
/* Slow growth against the per-port baseline: errors per hour, judged once
 * the baseline is at least an hour old. The reference procedure: about 10
 * more an hour can announce an aging optic. */
#define THRESH_SLOW_PER_HOUR 10.0
#define THRESH_SLOW_MIN_S 3600.0

struct threshold {
	char counter[CTR_NAME];
	uint64_t watch, act;	/* watch: >= watch; act: > act */
	char origin[80];	/* "default (reference procedure)", "config:12" */
};

struct thresholds {
	double window_s;
	uint64_t watch, act;	/* for counters without their own row */
	char origin[80];
	uint64_t life_watch, life_act;	/* values since the last clear */
	double slow_per_hour;		/* slow growth: watch at this rate */
	double slow_min_s;		/* … over at least this long */
	/* bit error rate levels (ber_watch, ber_act; see diag/ber.h) and how
	 * close to its low receive alarm an optic's lane is flagged
	 * (optic_rx_near_db) */
	double ber_watch, ber_act;
	double optic_near_db;
	double optic_read_s;	/* the console reads modules this often */
	int n;
	struct threshold t[THRESH_MAX];
	char file[256];		/* config file read, "" none */
	struct tv_limits tv;	/* test verdicts' numbers (test_* keys) */
};

void thresholds_defaults(struct thresholds *th);

/* Reads `key = value` lines from path: error_window_s, error_watch,
 * error_act, and per counter `Name = ACT` (infiniband-diags'
 * error_thresholds style, spaces optional), `Name.watch = N`,
 * `Name.act = N`; a counter may be named by any of its names (the PMA's
 * or the kernel's counters/ file), rows are kept under the PMA name.
 * Other keys belong to other settings and are skipped. Returns 0, 1 when
 * the file does not exist (defaults kept), -1 with a one-line error naming
 * the line (a bad value, a line over THRESH_LINE_MAX bytes, a watch level
 * above its act level), -2 when the file exists but cannot be read (not
 * a regular file, no permission). */
int thresholds_load(struct thresholds *th, const char *path, char *err,
		    size_t errlen);

/* True when the path comes from neither an explicit option nor
 * $IBCONSOLE_CONFIG: the user did not ask for that file. */
bool thresholds_config_is_default(const char *explicit_path);

/* The config path: explicit, else $IBCONSOLE_CONFIG, else
 * $XDG_CONFIG_HOME/ibconsole/config, else ~/.config/ibconsole/config. */
const char *thresholds_config_path(const char *explicit_path, char *buf,
				   size_t len);

/* Watch / act levels for one counter, with where they came from. */
const char *thresholds_get(const struct thresholds *th, const char *counter,
			   uint64_t *watch, uint64_t *act);

#endif
