/* SPDX-License-Identifier: MIT */
/* Interactive console: entry point main() calls for the default mode.
 * Owns the terminal from initscr to endwin and nothing else. */
#ifndef IBC_UI_H
#define IBC_UI_H

#include <stdbool.h>
#include "core/port/snapshot.h"
#include "core/fabric/fabric.h"

struct ui_opts {
	double interval_s;		/* refresh, clamped to 0.5 … 60 s */
	bool no_color;			/* --no-color (NO_COLOR also works) */
	const char *source_label;	/* header's data source; NULL: the
					 * snapshot's sources, or "ibsim
					 * (demo)" when IBCONSOLE_DEMO=1 */
	const struct fab_opts *fabric;	/* fabric screen's discovery options */
	double rediscover_s;		/* fabric rediscovery timer, 0 off */
	const char *config;		/* --config (thresholds) */
	const char *accept_results;	/* --accept-results DIR: opens on its
					 * heat map; NULL none */
	long long accept_iters;		/* -n for the acceptance screen, 0 default */
	double accept_duration_s;	/* -D for it, 0: by iterations */
	bool capture;			/* --from FILE: no live host behind
					 * the ports; the keys that need one
					 * refuse, no counters are read */
};

/* Runs the console until the user quits or a signal (INT, TERM, HUP)
 * arrives; the terminal is restored in every case. Returns 0 on quit, 3
 * when no port could be read at start (message on stderr after endwin),
 * 5 on an internal failure, 2 on a bad thresholds file. */
int ui_run(const struct snap_opts *o, const struct ui_opts *u);

#endif
