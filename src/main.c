// SPDX-License-Identifier: MIT
/* ibconsole's entry: parse the command line, then run the command it
 * names (its entry, declared in its cmd_<name>.c and listed in cli.c),
 * the console by default, or the demo wrapper. The only place that
 * exits. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "demo/demo.h"
#include "core/base/sigexit.h"
#include "core/base/sysfs.h"
#include "core/optics/source.h"
#include "core/capture/replay.h"
#include "core/port/snapshot.h"

/* --from FILE: the views that read no live host run on the capture,
 * its sysfs tree as the root; the others refuse. 0, or the exit status. */
static int open_capture(struct cli *c, char *root, size_t len)
{
	static const char *const views[] = { "console", "snapshot", "fabric", "errors", "triage", NULL };
	const char *name = c->command ? cli_command_of(c)->name : "console";
	char err[700];
	int i, rc;

	for (i = 0; views[i] && strcmp(views[i], name); i++)
		;
	if (c->sysfs_root) {
		fprintf(stderr, "ibconsole: --from %s: --sysfs-root (or IBCONSOLE_SYSFS_ROOT) given too — give one of them\n",
			c->from);
		return 2;
	}
	if (!views[i] || c->t.peer) {
		fprintf(stderr, "ibconsole: --from %s: %s%s needs a live host — a capture serves the console, snapshot, fabric, errors and triage without --peer; run it on the host itself\n",
			c->from, name, c->t.peer ? " --peer" : "");
		return 2;
	}
	rc = replay_open(c->from, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "ibconsole: %s\n", err);
		return rc;
	}
	c->sysfs_root = replay_path(CAPTURE_SYSFS, root, len);
	/* the console says it in its header */
	if (!c->json && strcmp(name, "console"))
		printf("capture of %s at %s\n", replay_host(), replay_time());
	return 0;
}

static int run(int argc, char **argv)
{
	struct cli c;
	struct snap_opts o = { 0 };
	char err[256], root[4200];
	int rc;

	rc = cli_parse(&c, argc, argv, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "ibconsole: %s\n", err);
		return rc;
	}
	if (c.help) {
		cli_usage(stdout, &c);
		return 0;
	}
	if (c.version) {
		printf("ibconsole %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (c.demo_roce)
		return demo_roce_run();
	if (c.demo)
		return demo_run("/proc/self/exe", argc, argv);

	if (c.from && (rc = open_capture(&c, root, sizeof(root))))
		return rc;
	/* once, before any worker thread reads sysfs */
	sysfs_set_root(c.sysfs_root ? c.sysfs_root : "/");
	if (c.from)	/* said as the capture, not as its temporary folder */
		sysfs_set_root_label(c.from);
	/* saved module pages instead of the kernel, as --sysfs-root for sysfs */
	optics_set_dump_root(getenv("IBCONSOLE_MODULE_ROOT"));
	o.device = c.device;
	o.port = c.port;
	o.no_smp = c.no_smp;
	rc = cli_command_of(&c)->run(&c, &o);
	replay_close();
	return rc;
}

int main(int argc, char **argv)
{
	int rc = run(argc, argv);

	/* stopped by a signal: everything is released, now die of it */
	sigexit_reraise();
	return rc;
}
