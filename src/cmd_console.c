// SPDX-License-Identifier: MIT
/* The console command: the command line's console options handed to the
 * UI (src/ui), which owns the terminal until the user quits. */
#include "config.h"
#include "cmd_console.h"

#include <stdio.h>
#include <stdlib.h>

#include "cmd_fabric.h"
#include "core/testrun/peer.h"
#include "core/port/snapshot.h"
#include "ui/ui.h"

int cmd_console(const struct cli *c, const struct snap_opts *o)
{
	struct ui_opts u = { .interval_s = c->interval, .no_color = c->no_color,
			     .config = c->config, .accept_results = c->accept_results,
			     .accept_iters = c->t.iters, .accept_duration_s = c->t.duration_s };
	struct fab_opts fo;

	if (c->t.iters && c->t.duration_s > 0) {
		fprintf(stderr, "ibconsole: the acceptance screen runs by --iters or by --duration, not both — drop one\n");
		return 2;
	}
	cmd_fabric_opts(c, &fo);
	u.fabric = &fo;
	u.rediscover_s = c->rediscover_s;
	u.source_label = getenv("IBCONSOLE_DEMO") ? "ibsim (demo)" : NULL;
	if (c->t.peer)
		peer_set_host(c->t.peer);	/* the test screen and the triage start on it */
	return ui_run(o, &u);
}
