// SPDX-License-Identifier: MIT
/* `ibconsole snapshot`: every local port once — the table, or JSON with
 * each port's counters read once. */
#include "config.h"
#include "cmd_snapshot.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/base/json.h"
#include "core/counters/counters_json.h"
#include "core/counters/reader.h"
#include "core/port/snapshot.h"
#include "diag/portfacts.h"
#include "diag/pcielimit.h"
#include "diag/thresholds.h"
#include "cmdutil.h"

static void fail(const char *msg)
{
	fprintf(stderr, "ibconsole: %s\n", msg);
}

struct snap_extra {
	struct ctr_reader *smp;
	struct ctr_target t[CTRS_MAX_TARGETS];
	int n;
};

static void snap_port_counters(struct json *j, int i, void *arg)
{
	struct snap_extra *x = arg;
	struct counter_set *cs;

	if (i >= x->n)
		return;
	cs = calloc(1, sizeof(*cs));
	if (!cs) {
		json_null(j, "counters");
		json_str(j, "counters_error", "out of memory");
		return;
	}
	reader_read(x->smp, &x->t[i], cs);
	counters_json_set(j, cs);
	free(cs);
}

static int snapshot_json(const struct snapshot *s, char *err, size_t errlen)
{
	struct snap_extra *x = calloc(1, sizeof(*x));

	if (!x || !(x->smp = reader_open())) {
		free(x);
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	x->n = reader_targets_local(s, x->t, CTRS_MAX_TARGETS);
	snapshot_write_json_extra(stdout, s, snap_port_counters, x);
	reader_close(x->smp);
	free(x);
	return 0;
}

int cmd_snapshot(const struct cli *c, const struct snap_opts *o)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	char err[320];
	enum snap_status st;
	struct snap_opts so;

	if (!s) {
		fail("out of memory");
		return 5;
	}
	so = *o;
	so.modules = c->json;	/* the module object of snapshot --json */
	if (so.modules) {
		struct thresholds th;
		int rc = cmd_load_thresholds(c, &th, err, sizeof(err));

		if (rc) {
			fail(err);
			snapshot_release(s);
			free(s);
			return rc;
		}
		so.module_near_db = th.optic_near_db;
	}
	st = snapshot_collect(s, &so, err, sizeof(err));
	if (st != SNAP_OK) {
		fail(err);
		snapshot_release(s);
		free(s);
		return st;
	}
	portfacts_judge(s);
	if (c->json) {
		st = snapshot_json(s, err, sizeof(err));	/* with counters */
		if (st) {
			fail(err);
			snapshot_release(s);
			free(s);
			return st;
		}
	} else
		snapshot_write_table(stdout, s);
	snapshot_release(s);
	free(s);
	if (fflush(stdout) || ferror(stdout)) {
		fail("cannot write the output");
		return 5;
	}
	return 0;
}

/* ---- the command line: the entry of snapshot (see cli.h) ---- */

/* declared elsewhere: --json (cli.c), --no-smp (cli.c) */
static const struct cli_option *const snapshot_opts[] = {
	&cli_opt_json, &cli_opt_no_smp, NULL
};

const struct cli_command cmd_snapshot_entry = {
	"snapshot",
	"[--json]",
	"print every local port once (table, or --json)",
	snapshot_opts, NULL, cmd_snapshot
};
