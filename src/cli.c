// SPDX-License-Identifier: MIT
/* Command line: the common option rows and the list of command entries;
 * each command's options and entry (name, usage, the rows it takes, what
 * reads its words, its function) live in its cmd_<name>.c. From them
 * come parsing, the check that a command takes an option, and --help.
 * perftest's letters mean the same here. */
#include "config.h"
#include "cli.h"

#include "cmd_accept.h"
#include "cmd_capture.h"
#include "cmd_console.h"
#include "cmd_errors.h"
#include "cmd_events.h"
#include "cmd_export.h"
#include "cmd_fabric.h"
#include "cmd_snapshot.h"
#include "cmd_serve.h"
#include "cmd_test.h"
#include "cmd_watch.h"
#include "cmd_triage.h"

#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/base/parse.h"

static int opt_device_fn(struct cli *c, const char *v, char *err, size_t errlen);

/* Options every command takes, in --help order. */
static const struct cli_option opt_device = {
	"device", "ib-dev", 'd', "DEV",
	"only this RDMA device (e.g. mlx5_0)",
	.type = OT_FN, .fn = opt_device_fn };
static const struct cli_option opt_ib_port = {
	"ib-port", NULL, 'i', "N",
	"only this port number",
	.type = OT_INT, .off = CLI_AT(port), .lo = 1, .hi = 254, .bad = "bad port number", .give = "give 1..254" };
static const struct cli_option opt_sysfs_root = {
	"sysfs-root", NULL, 0, "DIR",
	"read sysfs under DIR instead of / (env IBCONSOLE_SYSFS_ROOT)",
	.type = OT_STR, .off = CLI_AT(sysfs_root) };
static const struct cli_option opt_from = {
	"from", NULL, 0, "FILE",
	"run the console (no command), snapshot, fabric, errors or triage on a capture (ibconsole capture) instead of this host",
	.type = OT_STR, .off = CLI_AT(from) };
static const struct cli_option opt_demo = {
	"demo", NULL, 0, NULL,
	"run on a bundled simulated fabric (ibsim), no hardware needed; --demo roce: two Soft-RoCE VMs (qemu) with real traffic and planted faults",
	.type = OT_FLAG, .off = CLI_AT(demo) };
static const struct cli_option opt_no_color = {
	"no-color", NULL, 0, NULL,
	"monochrome console (also when NO_COLOR is set)",
	.type = OT_FLAG, .off = CLI_AT(no_color) };
static const struct cli_option opt_config = {
	"config", NULL, 0, "FILE",
	"settings and thresholds file (env IBCONSOLE_CONFIG)",
	.type = OT_STR, .off = CLI_AT(config) };
static const struct cli_option opt_help = {
	"help", NULL, 'h', NULL,
	"show this help",
	.type = OT_FLAG, .off = CLI_AT(help) };
static const struct cli_option opt_version = {
	"version", NULL, 'V', NULL,
	"show the version",
	.type = OT_FLAG, .off = CLI_AT(version) };

static const struct cli_option *const common_opts[] = {
	&opt_device, &opt_ib_port, &opt_sysfs_root, &opt_from, &opt_demo, &opt_no_color,
	&opt_config, &opt_help, &opt_version, NULL
};

/* Options several commands take; each command lists those it does. */
const struct cli_option cli_opt_json = {
	"json", NULL, 0, NULL,
	"machine-readable output (snapshot, watch, errors, events, fabric, test, triage, accept)",
	.type = OT_FLAG, .off = CLI_AT(json) };
const struct cli_option cli_opt_interval = {
	"interval", NULL, 0, "S",
	"refresh / sample interval in seconds (0.5-60, default 1); errors: sweep twice S apart; export: local collections (default 10)",
	.type = OT_NUM, .off = CLI_AT(interval), .lo = 0.5, .hi = 60, .bad = "bad interval", .give = "give seconds between 0.5 and 60", .set = CLI_AT(interval_set) };
const struct cli_option cli_opt_no_smp = {
	"no-smp", NULL, 0, NULL,
	"do not send SMP queries (sysfs and verbs only)",
	.type = OT_FLAG, .off = CLI_AT(no_smp) };

/* The commands, in --help order; each entry is its cmd_<name>.c's. */
static const struct cli_command *const commands[] = {
	&cmd_console_entry, &cmd_snapshot_entry, &cmd_fabric_entry,
	&cmd_watch_entry, &cmd_events_entry, &cmd_errors_entry,
	&cmd_test_entry, &cmd_serve_entry, &cmd_triage_entry,
	&cmd_export_entry, &cmd_accept_entry, &cmd_capture_entry,
};
#define NCMDS (int)(sizeof(commands) / sizeof(*commands))

const struct cli_command *cli_command_of(const struct cli *c)
{
	return c->command ? c->command : commands[0];
}

static bool opt_in(const struct cli_option *const *list, const struct cli_option *o)
{
	for (; *list; list++)
		if (*list == o)
			return true;
	return false;
}

/* Every row once: the commands' in command order, then the common ones.
 * getopt_long knows them all, so an option of another command is named
 * as such, not as unknown. Returns how many, or -1 with err when two
 * rows share a spelling or there are too many (mistakes in the tables). */
#define MAX_OPTS 96
static int all_options(const struct cli_option **all, char *err, size_t errlen)
{
	int n = 0;

	for (int k = 0; k <= NCMDS; k++) {
		const struct cli_option *const *list = k < NCMDS ? commands[k]->opts : common_opts;

		for (; *list; list++) {
			const struct cli_option *o = *list;
			int i;

			for (i = 0; i < n && all[i] != o; i++)
				if (!strcmp(all[i]->name, o->name) || (o->letter && all[i]->letter == o->letter)) {
					snprintf(err, errlen, "internal error: option --%s declared twice — report this bug",
						 o->name);
					return -1;
				}
			if (i == n && n == MAX_OPTS) {
				snprintf(err, errlen, "internal error: more than %d options in the tables — report this bug",
					 MAX_OPTS);
				return -1;
			}
			if (i == n)
				all[n++] = o;
		}
	}
	return n;
}

static void usage_opt(FILE *f, const struct cli_option *o)
{
	char lhs[48];

	/* "-d, --device DEV" or "    --json": the long names line up */
	if (o->letter)
		snprintf(lhs, sizeof(lhs), "-%c, --%s%s%s", o->letter, o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(lhs, sizeof(lhs), "    --%s%s%s", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	fprintf(f, "  %-24s %s\n", lhs, o->help);
}

static void usage_list(FILE *f, const struct cli_option *const *list)
{
	for (; *list; list++)
		usage_opt(f, *list);
}

void cli_usage(FILE *f, const struct cli *c)
{
	if (c && c->command) {
		const struct cli_command *k = cli_command_of(c);

		fprintf(f, "Usage: ibconsole %s %s\n\n%s.\n\nOptions:\n", k->name,
			k->usage, k->help);
		usage_list(f, k->opts);
	} else {
		const struct cli_option *all[MAX_OPTS + 1];
		char err[120];
		int n = all_options(all, err, sizeof(err));

		fprintf(f, "Usage: ibconsole [OPTIONS] [COMMAND]\n\n"
			   "InfiniBand / RoCE diagnostic console.\n\nCommands:\n");
		for (int i = 0; i < NCMDS; i++)
			fprintf(f, "  %-10s %s\n  %-10s   %s\n", commands[i]->name,
				commands[i]->help, "", commands[i]->usage);
		fprintf(f, "\nOptions (ibconsole COMMAND --help: the ones it takes):\n");
		for (int i = 0; i < n; i++)
			if (!opt_in(common_opts, all[i]))
				usage_opt(f, all[i]);
	}
	fprintf(f, "\nCommon options:\n");
	usage_list(f, common_opts);
	fprintf(f, "\nExit status: 0 ok, 1 a rule says act, 2 usage, 3 no device or no\n"
		   "permission, 4 peer unreachable, 5 internal error.\n");
}

static int opt_device_fn(struct cli *c, const char *v, char *err, size_t errlen)
{
	c->device = v;
	if (c->ndevices == CLI_MAX_DEVICES) {
		snprintf(err, errlen, "too many -d options — give at most %d devices", CLI_MAX_DEVICES);
		return 2;
	}
	c->devices[c->ndevices++] = v;
	return 0;
}

/* Option o with value v (NULL for a flag) into *c, by its row: 0, or 2
 * with err filled. */
static int opt_apply(struct cli *c, const struct cli_option *o, const char *v,
		     char *err, size_t errlen)
{
	char *at = (char *)c + o->off;
	double d;
	int n, bad = 0;

	switch (o->type) {
	case OT_FLAG: *(bool *)at = true; break;
	case OT_STR: *(const char **)at = v; break;
	case OT_INT: bad = parse_int(v, (int)o->lo, (int)o->hi, (int *)at); break;
	case OT_LONG:
		bad = parse_int(v, (int)o->lo, (int)o->hi, &n);
		if (!bad)
			*(long *)at = n;
		break;
	case OT_NUM: bad = parse_num(v, o->lo, o->hi, (double *)at); break;
	case OT_NUM_LL:
		bad = parse_num(v, o->lo, o->hi, &d);
		if (!bad)
			*(long long *)at = (long long)d;
		break;
	case OT_SIZE:
		bad = parse_size(v, (long long *)at) || *(long long *)at < (long long)o->lo ||
		      *(long long *)at > (long long)o->hi;
		break;
	case OT_CHOICE:
		bad = 1;
		for (int i = 0; o->choices[i]; i++)
			if (!(o->nocase ? strcasecmp(v, o->choices[i]) : strcmp(v, o->choices[i]))) {
				*(int *)at = i;
				bad = 0;
			}
		break;
	case OT_FN: return o->fn(c, v, err, errlen);
	}
	if (bad) {
		snprintf(err, errlen, "%s '%s' — %s", o->bad, v, o->give);
		return 2;
	}
	if (o->set)
		*(bool *)((char *)c + o->set) = true;
	return 0;
}

/* getopt_long's tables from the rows (aliases too): a long option
 * returns 256 + its index in all, a letter itself. */
static void getopt_tables(const struct cli_option **all, int n, struct option *longs, char *shorts)
{
	int nl = 0, ns = 0;

	shorts[ns++] = ':';
	for (int i = 0; i < n; i++) {
		int has = all[i]->arg ? required_argument : no_argument;

		longs[nl++] = (struct option){ all[i]->name, has, NULL, 256 + i };
		if (all[i]->alias)
			longs[nl++] = (struct option){ all[i]->alias, has, NULL, 256 + i };
		if (all[i]->letter) {
			shorts[ns++] = all[i]->letter;
			if (all[i]->arg)
				shorts[ns++] = ':';
		}
	}
	longs[nl] = (struct option){ 0 };
	shorts[ns] = '\0';
}

/* The row getopt_long's answer ch names, or NULL. */
static const struct cli_option *opt_of(const struct cli_option **all, int n, int ch)
{
	if (ch >= 256 && ch < 256 + n)
		return all[ch - 256];
	for (int i = 0; i < n; i++)
		if (ch == all[i]->letter)
			return all[i];
	return NULL;
}

/* The command word and what follows it. 0, or 2 with err. */
static int parse_command(struct cli *c, int argc, char **argv, char *err,
			 size_t errlen)
{
	const struct cli_command *k = NULL;

	/* --demo roce: the word belongs to --demo, not a command */
	if (c->demo && optind < argc && !strcmp(argv[optind], "roce")) {
		c->demo_roce = true;
		optind++;
	}
	if (optind >= argc)
		return 0;
	for (int i = 0; i < NCMDS && !k; i++)
		if (!strcmp(argv[optind], commands[i]->name))
			k = commands[i];
	if (!k) {
		snprintf(err, errlen, "unknown command '%s' — see ibconsole --help", argv[optind]);
		return 2;
	}
	c->command = k;
	if (k->words && !c->help) {
		int took = k->words(c, argc - optind - 1, argv + optind + 1, err, errlen);

		if (took < 0)
			return 2;
		optind += took;
	}
	if (optind + 1 < argc) {
		snprintf(err, errlen, "unexpected argument '%s' — see ibconsole --help", argv[optind + 1]);
		return 2;
	}
	return 0;
}

/* Each option given, as spelled, for the command's check. */
struct seen {
	const struct cli_option *o;
	char spelled[40];
};

/* An option the command does not take is a usage error, not silence:
 * 0, or 2 with err. */
static int check_taken(const struct cli *c, const struct seen *seen, int nseen,
		       char *err, size_t errlen)
{
	const struct cli_command *cmd = cli_command_of(c);

	for (int i = 0; i < nseen; i++) {
		const struct cli_option *o = seen[i].o;

		if (opt_in(common_opts, o) || opt_in(cmd->opts, o))
			continue;
		if (seen[i].spelled[1] != '-')
			snprintf(err, errlen, "%s %s: %s takes no %s (--%s) option — see ibconsole %s --help",
				 cmd->name, seen[i].spelled, cmd->name, seen[i].spelled, o->name,
				 cmd->name);
		else
			snprintf(err, errlen, "%s %s: %s takes no %s option — see ibconsole %s --help",
				 cmd->name, seen[i].spelled, cmd->name, seen[i].spelled, cmd->name);
		return 2;
	}
	return 0;
}

static void cli_defaults(struct cli *c)
{
	memset(c, 0, sizeof(*c));
	c->interval = 1.0;
	c->t.op = -1;
	c->t.size = -1;
	c->t.gid_index = -1;
	c->t.tx_depth = c->t.inline_size = c->t.cq_mod = -1;
	c->sysfs_root = getenv("IBCONSOLE_SYSFS_ROOT");
}

int cli_parse(struct cli *c, int argc, char **argv, char *err, size_t errlen)
{
	const struct cli_option *all[MAX_OPTS + 1];
	struct option longs[2 * MAX_OPTS + 1];
	char shorts[2 * MAX_OPTS + 2];
	int ch, li, rc, n;
	struct seen seen[64];
	int nseen = 0;

	cli_defaults(c);
	n = all_options(all, err, errlen);
	if (n < 0)
		return 5;
	getopt_tables(all, n, longs, shorts);

	optind = 1;
	opterr = 0;
	while (li = -1, (ch = getopt_long(argc, argv, shorts, longs, &li)) != -1) {
		const struct cli_option *o = ch == '?' || ch == ':' ? NULL : opt_of(all, n, ch);

		if (ch == ':') {
			snprintf(err, errlen, "option %s needs a value — see ibconsole --help", argv[optind - 1]);
			return 2;
		}
		if (!o) {
			snprintf(err, errlen, "unknown option %s — see ibconsole --help", argv[optind - 1]);
			return 2;
		}
		if (nseen < (int)(sizeof(seen) / sizeof(seen[0]))) {
			seen[nseen].o = o;
			if (li >= 0)
				snprintf(seen[nseen].spelled, sizeof(seen[nseen].spelled), "--%s",
					 longs[li].name);
			else
				snprintf(seen[nseen].spelled, sizeof(seen[nseen].spelled), "-%c", ch);
			nseen++;
		}
		rc = opt_apply(c, o, optarg, err, errlen);
		if (rc)
			return rc;
	}
	rc = parse_command(c, argc, argv, err, errlen);
	if (!rc)
		rc = check_taken(c, seen, nseen, err, errlen);
	if (rc)
		return rc;
	if (c->sysfs_root && !*c->sysfs_root)
		c->sysfs_root = NULL;
	return 0;
}
