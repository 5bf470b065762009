// SPDX-License-Identifier: MIT
/* The console command: the command line's console options handed to the
 * UI (src/ui), which owns the terminal until the user quits. */
#include "config.h"
#include "cmd_console.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_fabric.h"
#include "cmd_test.h"
#include "cmd_triage.h"
#include "cmdutil.h"
#include "core/capture/replay.h"
#include "core/testrun/peer.h"
#include "core/port/snapshot.h"
#include "ui/ui.h"

int cmd_console(const struct cli *c, const struct snap_opts *o)
{
	struct ui_opts u = { .interval_s = c->interval, .no_color = c->no_color,
			     .config = c->config, .accept_results = c->con.accept_results,
			     .accept_iters = c->t.iters, .accept_duration_s = c->t.duration_s };
	struct fab_opts fo;
	char label[400];

	if (c->t.iters && c->t.duration_s > 0) {
		fprintf(stderr, "ibconsole: the acceptance screen runs by --iters or by --duration, not both — drop one\n");
		return 2;
	}
	cmd_fabric_opts(c, &fo);
	u.fabric = &fo;
	u.rediscover_s = c->con.rediscover_s;
	u.source_label = getenv("IBCONSOLE_DEMO") ? "ibsim (demo)" : NULL;
	if (replay_active()) {		/* --from FILE */
		snprintf(label, sizeof(label), "capture of %s at %s", replay_host(), replay_time());
		u.source_label = label;
		u.capture = true;
		fo.load = replay_fabric;	/* the fabric screen: the captured one */
	}
	if (c->t.peer)
		peer_set_host(c->t.peer);	/* the test screen and the triage start on it */
	if (c->t.secret_file) {
		/* read once now: a bad file is one line before any screen */
		char secret[256];
		int bad = cmd_read_secret(c->t.secret_file, secret, sizeof(secret));

		memset(secret, 0, sizeof(secret));
		if (bad)
			return bad;
		peer_set_secret_file(c->t.secret_file);	/* test, acceptance and triage send it */
	}
	return ui_run(o, &u);
}

/* ---- the command line: the options of console and its entry (see cli.h) ---- */

static const struct cli_option opt_rediscover = {
	"rediscover", NULL, 0, "S",
	"console: rediscover the fabric every S seconds (5-86400; default on key r, and every 600 s while the fabric sweep runs)",
	.type = OT_NUM, .off = CLI_AT(con.rediscover_s), .lo = 5, .hi = 86400, .bad = "bad rediscovery interval", .give = "give seconds between 5 and 86400" };
static const struct cli_option opt_accept_results = {
	"accept-results", NULL, 0, "DIR",
	"console: open on the pair heat map of an accept --hosts results directory (its accept.json)",
	.type = OT_STR, .off = CLI_AT(con.accept_results) };

/* declared elsewhere: --interval (cli.c), --no-smp (cli.c), --hops
 * (cmd_fabric.c), --mad-timeout (cmd_fabric.c), --node-name-map
 * (cmd_fabric.c), --iters (cmd_test.c), --duration (cmd_test.c), --peer
 * (cmd_triage.c), --secret-file (cmd_test.c) */
static const struct cli_option *const console_opts[] = {
	&cli_opt_interval, &cli_opt_no_smp, &cli_opt_hops, &cli_opt_mad_timeout,
	&cli_opt_node_name_map, &opt_rediscover, &cli_opt_iters, &cli_opt_duration,
	&cli_opt_peer, &cli_opt_secret_file, &opt_accept_results, NULL
};

const struct cli_command cmd_console_entry = {
	"console",
	"[--interval S] [--rediscover S] [--peer HOST] [--secret-file F] [--accept-results DIR]",
	"interactive console (the default)",
	console_opts, NULL, cmd_console
};
