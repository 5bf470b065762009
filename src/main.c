// SPDX-License-Identifier: MIT
/* ibconsole's entry: parse the command line, then hand over to the console,
 * the demo wrapper or a scriptable command. The only place that exits. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_fabric.h"
#include "cmd_counters.h"
#include "cmd_test.h"
#include "demo.h"
#include "core/base/sigexit.h"
#include "core/port/snapshot.h"
#include "ui/ui.h"

static void fail(const char *msg)
{
	fprintf(stderr, "ibconsole: %s\n", msg);
}

static int run_snapshot(const struct cli *c, const struct snap_opts *o)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	char err[320];
	enum snap_status st;

	if (!s) {
		fail("out of memory");
		return 5;
	}
	st = snapshot_collect(s, o, err, sizeof(err));
	if (st != SNAP_OK) {
		fail(err);
		snapshot_release(s);
		free(s);
		return st;
	}
	if (c->json) {
		st = cmd_snapshot_json(s, err, sizeof(err));	/* with counters */
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

static int run(int argc, char **argv)
{
	struct cli c;
	struct snap_opts o = { 0 };
	char err[256];
	int rc;

	rc = cli_parse(&c, argc, argv, err, sizeof(err));
	if (rc) {
		fail(err);
		return rc;
	}
	if (c.help) {
		cli_usage(stdout);
		return 0;
	}
	if (c.version) {
		printf("ibconsole %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (c.demo)
		return demo_run("/proc/self/exe", argc, argv);

	o.sysfs_root = c.sysfs_root ? c.sysfs_root : "/";
	o.device = c.device;
	o.port = c.port;
	o.no_smp = c.no_smp;

	switch (c.cmd) {
	case CMD_SNAPSHOT:
		return run_snapshot(&c, &o);
	case CMD_FABRIC:		/* fabric */
		return cmd_fabric(&c);
	case CMD_WATCH:		/* counters */
	case CMD_ERRORS: {
		char cerr[400] = "";

		rc = c.cmd == CMD_WATCH ? cmd_watch(&c, &o, cerr, sizeof(cerr)) :
					  cmd_errors(&c, &o, cerr, sizeof(cerr));
		if (rc > 1)
			fail(cerr);
		return rc;
	}
	case CMD_TEST:
		return cmd_test(&c);
	case CMD_SERVE:
		return cmd_serve(&c);
	case CMD_CONSOLE:
	default: {
		struct ui_opts u = { .interval_s = c.interval, .no_color = c.no_color,
				     .config = c.config };
		struct fab_opts fo;

		cmd_fabric_opts(&c, &fo);
		u.fabric = &fo;
		u.rediscover_s = c.rediscover_s;

		u.source_label = getenv("IBCONSOLE_DEMO") ? "ibsim (demo)" : NULL;
		return ui_run(&o, &u);
	}
	}
}

int main(int argc, char **argv)
{
	int rc = run(argc, argv);

	/* stopped by a signal: everything is released, now die of it */
	sigexit_reraise();
	return rc;
}
