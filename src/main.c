// SPDX-License-Identifier: MIT
/* ibconsole's entry: parse the command line, then run the command it
 * names (its entry, declared in its cmd_<name>.c and listed in cli.c),
 * the console by default, or the demo wrapper. The only place that
 * exits. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "demo/demo.h"
#include "core/base/sigexit.h"
#include "core/base/sysfs.h"
#include "core/optics/source.h"
#include "core/port/snapshot.h"

static int run(int argc, char **argv)
{
	struct cli c;
	struct snap_opts o = { 0 };
	char err[256];
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

	/* once, before any worker thread reads sysfs */
	sysfs_set_root(c.sysfs_root ? c.sysfs_root : "/");
	/* saved module pages instead of the kernel, as --sysfs-root for sysfs */
	optics_set_dump_root(getenv("IBCONSOLE_MODULE_ROOT"));
	o.device = c.device;
	o.port = c.port;
	o.no_smp = c.no_smp;
	return cli_command_of(&c)->run(&c, &o);
}

int main(int argc, char **argv)
{
	int rc = run(argc, argv);

	/* stopped by a signal: everything is released, now die of it */
	sigexit_reraise();
	return rc;
}
