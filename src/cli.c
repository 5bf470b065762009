// SPDX-License-Identifier: MIT
/* Command line: one table of options and one of commands, from which
 * parsing and --help text come. perftest's letters mean the same here. */
#include "config.h"
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum opt_id {
	OPT_DEVICE = 'd', OPT_PORT = 'i', OPT_HELP = 'h', OPT_VERSION = 'V',
	OPT_JSON = 256, OPT_SYSFS_ROOT, OPT_DEMO, OPT_NO_COLOR, OPT_INTERVAL,
	OPT_NO_SMP,
	/* fabric (issue 3) */
	OPT_PROBLEMS, OPT_SAVE, OPT_DIFF, OPT_HOPS, OPT_MAD_TIMEOUT,
	OPT_NODE_NAME_MAP, OPT_REDISCOVER,
	/* issue 5: counters */
	OPT_COUNT, OPT_LID, OPT_CONFIG, OPT_INFLIGHT,
};

static const struct cli_option {
	const char *name;
	const char *alias;	/* perftest's long spelling, accepted too */
	int id;
	int has_arg;
	const char *arg, *help;
} options[] = {
	{ "device", "ib-dev", OPT_DEVICE, required_argument, "DEV", "only this RDMA device (e.g. mlx5_0)" },
	{ "ib-port", NULL, OPT_PORT, required_argument, "N", "only this port number" },
	{ "json", NULL, OPT_JSON, no_argument, NULL, "machine-readable output (snapshot, watch, errors, fabric)" },
	{ "interval", NULL, OPT_INTERVAL, required_argument, "S", "refresh / sample interval in seconds (0.5-60, default 1); errors: sweep twice S apart" },
	{ "sysfs-root", NULL, OPT_SYSFS_ROOT, required_argument, "DIR", "read sysfs under DIR instead of / (env IBCONSOLE_SYSFS_ROOT)" },
	{ "demo", NULL, OPT_DEMO, no_argument, NULL, "run on a bundled simulated fabric (ibsim), no hardware needed" },
	{ "no-color", NULL, OPT_NO_COLOR, no_argument, NULL, "monochrome console (also when NO_COLOR is set)" },
	{ "no-smp", NULL, OPT_NO_SMP, no_argument, NULL, "do not send SMP queries (sysfs and verbs only)" },
	/* fabric (issue 3) */
	{ "problems", NULL, OPT_PROBLEMS, no_argument, NULL, "fabric: list only the flagged links and ports" },
	{ "save", NULL, OPT_SAVE, required_argument, "FILE", "fabric: save the topology (ibnetdiscover text) to FILE and JSON to FILE.json" },
	{ "diff", NULL, OPT_DIFF, required_argument, "SAVED", "fabric: compare with a saved topology (--save or ibnetdiscover output)" },
	{ "hops", NULL, OPT_HOPS, required_argument, "N", "fabric discovery: at most N hops (1-63, default no limit)" },
	{ "mad-timeout", NULL, OPT_MAD_TIMEOUT, required_argument, "MS", "fabric discovery: per-SMP time-out in ms (default 1000)" },
	{ "node-name-map", NULL, OPT_NODE_NAME_MAP, required_argument, "FILE", "node names from ibnetdiscover's node-name-map file" },
	{ "rediscover", NULL, OPT_REDISCOVER, required_argument, "S", "console: rediscover the fabric every S seconds (5-86400, default only on key r)" },
	/* issue 5: counters */
	{ "count", NULL, OPT_COUNT, required_argument, "N", "watch: stop after N intervals (default: until interrupted)" },
	{ "lid", NULL, OPT_LID, required_argument, "LID[:P],...", "watch: also remote ports by LID (PMA port P, default 1)" },
	{ "config", NULL, OPT_CONFIG, required_argument, "FILE", "settings and thresholds file (env IBCONSOLE_CONFIG)" },
	{ "inflight", NULL, OPT_INFLIGHT, required_argument, "N", "errors: PMA queries in flight at once (1-256, default 64)" },
	{ "help", NULL, OPT_HELP, no_argument, NULL, "show this help" },
	{ "version", NULL, OPT_VERSION, no_argument, NULL, "show the version" },
};
#define NOPTS (int)(sizeof(options) / sizeof(*options))

static const struct cli_command {
	const char *name;
	enum cli_cmd cmd;
	const char *help;
} commands[] = {
	{ "console", CMD_CONSOLE, "interactive console (the default)" },
	{ "snapshot", CMD_SNAPSHOT, "print every local port once (table, or --json)" },
	{ "fabric", CMD_FABRIC, "discover the fabric, judge every link (--json, --problems, --save, --diff)" },
	/* issue 5: counters */
	{ "watch", CMD_WATCH, "per-interval counter deltas and rates [--interval S] [--count N] [--json]" },
	{ "errors", CMD_ERRORS, "fabric-wide error sweep [--json]; with --interval S, deltas over S" },
};
#define NCMDS (int)(sizeof(commands) / sizeof(*commands))

void cli_usage(FILE *f)
{
	fprintf(f, "Usage: ibconsole [OPTIONS] [COMMAND]\n\n"
		   "InfiniBand / RoCE diagnostic console.\n\nCommands:\n");
	for (int i = 0; i < NCMDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nOptions:\n");
	for (int i = 0; i < NOPTS; i++) {
		const struct cli_option *o = &options[i];
		char lhs[48];

		snprintf(lhs, sizeof(lhs), "%s%c%s--%s%s%s",
			 o->id < 256 ? "-" : "", o->id < 256 ? o->id : ' ',
			 o->id < 256 ? ", " : "  ", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
		fprintf(f, "  %-24s %s\n", o->id < 256 ? lhs : lhs + 2 - 2, o->help);
	}
	fprintf(f, "\nExit status: 0 ok, 1 a rule says act, 2 usage, 3 no device or no\n"
		   "permission, 4 peer unreachable, 5 internal error.\n");
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

int cli_parse(struct cli *c, int argc, char **argv, char *err, size_t errlen)
{
	struct option longs[2 * NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	int nl = 0, ns = 0, ch;

	memset(c, 0, sizeof(*c));
	c->interval = 1.0;
	c->sysfs_root = getenv("IBCONSOLE_SYSFS_ROOT");
	shorts[ns++] = ':';
	for (int i = 0; i < NOPTS; i++) {
		longs[nl++] = (struct option){ options[i].name, options[i].has_arg, NULL, options[i].id };
		if (options[i].alias)
			longs[nl++] = (struct option){ options[i].alias, options[i].has_arg, NULL, options[i].id };
		if (options[i].id < 256) {
			shorts[ns++] = (char)options[i].id;
			if (options[i].has_arg)
				shorts[ns++] = ':';
		}
	}
	longs[nl] = (struct option){ 0 };
	shorts[ns] = '\0';

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		switch (ch) {
		case OPT_DEVICE: c->device = optarg; break;
		case OPT_PORT:
			if (parse_int(optarg, 1, 254, &c->port)) {
				snprintf(err, errlen, "bad port number '%s' — give 1..254", optarg);
				return 2;
			}
			break;
		case OPT_JSON: c->json = true; break;
		case OPT_SYSFS_ROOT: c->sysfs_root = optarg; break;
		case OPT_DEMO: c->demo = true; break;
		case OPT_NO_COLOR: c->no_color = true; break;
		case OPT_NO_SMP: c->no_smp = true; break;
		case OPT_INTERVAL: {
			char *end;

			c->interval = strtod(optarg, &end);
			if (end == optarg || *end || c->interval < 0.5 || c->interval > 60) {
				snprintf(err, errlen, "bad interval '%s' — give seconds between 0.5 and 60", optarg);
				return 2;
			}
			c->interval_set = true;
			break;
		}
		case OPT_PROBLEMS: c->problems = true; break;
		case OPT_SAVE: c->save = optarg; break;
		case OPT_DIFF: c->diff = optarg; break;
		case OPT_NODE_NAME_MAP: c->node_name_map = optarg; break;
		case OPT_HOPS:
			if (parse_int(optarg, 1, 63, &c->hops)) {
				snprintf(err, errlen, "bad hop limit '%s' — give 1..63", optarg);
				return 2;
			}
			break;
		case OPT_MAD_TIMEOUT:
			if (parse_int(optarg, 1, 60000, &c->mad_timeout_ms)) {
				snprintf(err, errlen, "bad time-out '%s' — give milliseconds, 1..60000", optarg);
				return 2;
			}
			break;
		case OPT_REDISCOVER: {
			char *end;

			c->rediscover_s = strtod(optarg, &end);
			if (end == optarg || *end || c->rediscover_s < 5 || c->rediscover_s > 86400) {
				snprintf(err, errlen, "bad rediscovery interval '%s' — give seconds between 5 and 86400", optarg);
				return 2;
			}
			break;
		}
		/* issue 5: counters */
		case OPT_COUNT: {
			int v;

			if (parse_int(optarg, 0, 100000000, &v)) {
				snprintf(err, errlen, "bad count '%s' — give a number of intervals (0 = until interrupted)", optarg);
				return 2;
			}
			c->count = v;
			break;
		}
		case OPT_LID: c->lids = optarg; break;
		case OPT_CONFIG: c->config = optarg; break;
		case OPT_INFLIGHT:
			if (parse_int(optarg, 1, 256, &c->inflight)) {
				snprintf(err, errlen, "bad --inflight '%s' — give 1..256", optarg);
				return 2;
			}
			break;
		case OPT_HELP: c->help = true; break;
		case OPT_VERSION: c->version = true; break;
		case ':':
			snprintf(err, errlen, "option %s needs a value — see ibconsole --help", argv[optind - 1]);
			return 2;
		default:
			snprintf(err, errlen, "unknown option %s — see ibconsole --help", argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		int i;

		for (i = 0; i < NCMDS; i++)
			if (!strcmp(argv[optind], commands[i].name))
				break;
		if (i == NCMDS) {
			snprintf(err, errlen, "unknown command '%s' — see ibconsole --help", argv[optind]);
			return 2;
		}
		c->cmd = commands[i].cmd;
		if (optind + 1 < argc) {
			snprintf(err, errlen, "unexpected argument '%s' — see ibconsole --help", argv[optind + 1]);
			return 2;
		}
	}
	if (c->sysfs_root && !*c->sysfs_root)
		c->sysfs_root = NULL;
	return 0;
}
