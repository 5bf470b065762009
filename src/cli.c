// SPDX-License-Identifier: MIT
/* Command line: one table of options and one of commands (name, usage,
 * the options each takes, its function), from which parsing, the check
 * that a command takes an option, and --help come. perftest's letters
 * mean the same here. */
#include "config.h"
#include "cli.h"

#include "cmd_accept.h"
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
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/base/parse.h"

enum opt_id {
	OPT_DEVICE = 'd', OPT_PORT = 'i', OPT_HELP = 'h', OPT_VERSION = 'V',
	OPT_JSON = 256, OPT_SYSFS_ROOT, OPT_DEMO, OPT_NO_COLOR, OPT_INTERVAL,
	OPT_NO_SMP,
	/* fabric */
	OPT_PROBLEMS, OPT_SAVE, OPT_DIFF, OPT_HOPS, OPT_MAD_TIMEOUT,
	OPT_NODE_NAME_MAP, OPT_REDISCOVER,
	/* counters */
	OPT_COUNT, OPT_LID, OPT_CONFIG, OPT_INFLIGHT,
	/* test / serve; perftest's letters */
	OPT_SIZE = 's', OPT_ALL = 'a', OPT_QPS = 'q', OPT_BIDIR = 'b', OPT_ITERS = 'n',
	OPT_DURATION = 'D', OPT_GID = 'x', OPT_TXDEPTH = 't', OPT_INLINE = 'I',
	OPT_CQMOD = 'Q', OPT_CONN = 'c', OPT_TCPPORT = 'p',
	OPT_OP = 300, OPT_BIND, OPT_SECRET, OPT_COMPARE, OPT_NO_RECORD,
	OPT_TIMEOUT, OPT_MAXMEM, OPT_ONCE, OPT_LINERATE, OPT_GBITS, OPT_ACCEPT,
	/* triage */
	OPT_PEER, OPT_REPORT, OPT_PERFTEST,
	/* export */
	OPT_LISTEN, OPT_TEXTFILE, OPT_FABRIC, OPT_SWEEP_INTERVAL,
	/* accept */
	OPT_REF, OPT_HOSTS, OPT_RESULTS, OPT_ACCEPT_RESULTS,
	/* events */
	OPT_SINCE,
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
	{ "json", NULL, OPT_JSON, no_argument, NULL, "machine-readable output (snapshot, watch, errors, events, fabric, test, triage, accept)" },
	{ "interval", NULL, OPT_INTERVAL, required_argument, "S", "refresh / sample interval in seconds (0.5-60, default 1); errors: sweep twice S apart; export: local collections (default 10)" },
	{ "sysfs-root", NULL, OPT_SYSFS_ROOT, required_argument, "DIR", "read sysfs under DIR instead of / (env IBCONSOLE_SYSFS_ROOT)" },
	{ "demo", NULL, OPT_DEMO, no_argument, NULL, "run on a bundled simulated fabric (ibsim), no hardware needed; --demo roce: two Soft-RoCE VMs (qemu) with real traffic and planted faults" },
	{ "no-color", NULL, OPT_NO_COLOR, no_argument, NULL, "monochrome console (also when NO_COLOR is set)" },
	{ "no-smp", NULL, OPT_NO_SMP, no_argument, NULL, "do not send SMP queries (sysfs and verbs only)" },
	/* fabric */
	{ "problems", NULL, OPT_PROBLEMS, no_argument, NULL, "fabric: list only the flagged links and ports" },
	{ "save", NULL, OPT_SAVE, required_argument, "FILE", "fabric: save the topology (ibnetdiscover text) to FILE and JSON to FILE.json; test: the record to FILE" },
	{ "diff", NULL, OPT_DIFF, required_argument, "SAVED", "fabric: compare with a saved topology (--save or ibnetdiscover output)" },
	{ "hops", NULL, OPT_HOPS, required_argument, "N", "fabric discovery: at most N hops (1-63, default no limit)" },
	{ "mad-timeout", NULL, OPT_MAD_TIMEOUT, required_argument, "MS", "fabric discovery: per-SMP time-out in ms (default 1000; export: per SMP and PMA query, 300)" },
	{ "node-name-map", NULL, OPT_NODE_NAME_MAP, required_argument, "FILE", "node names from ibnetdiscover's node-name-map file" },
	{ "rediscover", NULL, OPT_REDISCOVER, required_argument, "S", "console: rediscover the fabric every S seconds (5-86400, default only on key r)" },
	/* counters */
	{ "count", NULL, OPT_COUNT, required_argument, "N", "watch: stop after N intervals (default: until interrupted)" },
	{ "lid", NULL, OPT_LID, required_argument, "LID[:P],...", "watch: also remote ports by LID (PMA port P, default 1)" },
	{ "config", NULL, OPT_CONFIG, required_argument, "FILE", "settings and thresholds file (env IBCONSOLE_CONFIG)" },
	{ "inflight", NULL, OPT_INFLIGHT, required_argument, "N", "errors, export: PMA queries in flight at once (1-256, default 64)" },
	/* test / serve */
	{ "op", NULL, OPT_OP, required_argument, "OP", "test, accept: write, read or send (bw/lat default write, rate and accept send)" },
	{ "size", NULL, OPT_SIZE, required_argument, "N", "test, accept: message size, 2 B..8 MiB, K/M/G suffixes (bw and accept 65536, lat 2, rate 4)" },
	{ "sweep", "all", OPT_ALL, no_argument, NULL, "test: every size 2 B..8 MiB (or up to --size)" },
	{ "qps", NULL, OPT_QPS, required_argument, "N", "test: queue pairs, 1..64 (rate 4, else 1)" },
	{ "bidir", "bidirectional", OPT_BIDIR, no_argument, NULL, "test: both directions at once (bw, rate)" },
	{ "iters", NULL, OPT_ITERS, required_argument, "N", "test, accept (and the console's acceptance screen): iterations per QP (write bw 5000, else 1000)" },
	{ "duration", NULL, OPT_DURATION, required_argument, "S", "test, accept (and the console's acceptance screen): run for S seconds instead of --iters; triage: each traffic run (2)" },
	{ "gid-index", NULL, OPT_GID, required_argument, "N", "RoCE GID index (default: the RoCE v2 IPv4 entry)" },
	{ "tx-depth", NULL, OPT_TXDEPTH, required_argument, "N", "test: WRs in flight per QP (bw 128, lat 1)" },
	{ "inline-size", NULL, OPT_INLINE, required_argument, "N", "test: inline threshold in bytes (220; read 0)" },
	{ "cq-mod", NULL, OPT_CQMOD, required_argument, "N", "test: signal one WR in N (100; 1 above 8 KiB)" },
	{ "connection", NULL, OPT_CONN, required_argument, "RC|UD", "test: transport (UD: send only)" },
	{ "port", NULL, OPT_TCPPORT, required_argument, "P", "test/serve/accept: agent TCP port (18516)" },
	{ "bind", NULL, OPT_BIND, required_argument, "ADDR", "serve: listen on ADDR only" },
	{ "secret-file", NULL, OPT_SECRET, required_argument, "F", "test/serve/accept: shared secret (first line of F)" },
	{ "compare", NULL, OPT_COMPARE, required_argument, "RECORD", "test: rerun RECORD's test and report the differences" },
	{ "perftest", NULL, OPT_PERFTEST, no_argument, NULL, "test: PEER runs a perftest server (ib_{write,read,send}_{bw,lat}), port 18515" },
	{ "no-record", NULL, OPT_NO_RECORD, no_argument, NULL, "test: do not save a record" },
	{ "timeout", NULL, OPT_TIMEOUT, required_argument, "S", "test/serve/accept: connect and handshake time-out (10)" },
	{ "max-mem", NULL, OPT_MAXMEM, required_argument, "MIB", "serve: most memory a client may lock (1024)" },
	{ "once", NULL, OPT_ONCE, no_argument, NULL, "serve: one session, then exit with its status; export: one collection, then exit" },
	{ "line-rate", NULL, OPT_LINERATE, required_argument, "GBPS", "test, accept: judge against this data rate, not the port's" },
	{ "accept", NULL, OPT_ACCEPT, no_argument, NULL, "test bw: pass / fail at 90 % of the data rate (acceptance; default size 1 MiB, 64 KiB and up judged)" },
	{ "report_gbits", NULL, OPT_GBITS, no_argument, NULL, "results are always Gb/s; with --perftest, the server's unit too" },
	/* triage */
	{ "peer", NULL, OPT_PEER, required_argument, "HOST", "triage, console: the peer's agent (ibconsole serve) for the tests and the traffic steps" },
	{ "report", NULL, OPT_REPORT, required_argument, "FILE", "triage: write the walk as Markdown to FILE and as JSON to FILE.json" },
	/* export */
	{ "listen", NULL, OPT_LISTEN, required_argument, "ADDR:PORT", "export: serve /metrics on ADDR:PORT (default :9879; [IPV6]:PORT, :PORT)" },
	{ "textfile", NULL, OPT_TEXTFILE, required_argument, "DIR", "export: write DIR/ibconsole.prom for node_exporter's textfile collector" },
	{ "fabric", NULL, OPT_FABRIC, no_argument, NULL, "export: also every switch and HCA port the fabric discovery finds" },
	{ "sweep-interval", NULL, OPT_SWEEP_INTERVAL, required_argument, "S", "export: seconds between fabric sweeps (5-86400, default 60)" },
	/* accept */
	{ "ref", NULL, OPT_REF, required_argument, "HOST", "accept: test every local device against the agent on HOST (the reference)" },
	{ "hosts", NULL, OPT_HOSTS, required_argument, "FILE", "accept: all pairs of the agents in FILE (host[:port] a line); serve: take test orders only towards them" },
	{ "results", NULL, OPT_RESULTS, required_argument, "DIR", "accept --hosts: write accept.json and pairs.csv to DIR (default ./ibconsole-accept-TIME)" },
	{ "accept-results", NULL, OPT_ACCEPT_RESULTS, required_argument, "DIR", "console: open on the pair heat map of an accept --hosts results directory (its accept.json)" },
	/* events */
	{ "since", NULL, OPT_SINCE, required_argument, "T", "events: only those since T (15m, 2h, 7d, or 2026-12-01T12:00; Z for UTC)" },
	{ "help", NULL, OPT_HELP, no_argument, NULL, "show this help" },
	{ "version", NULL, OPT_VERSION, no_argument, NULL, "show the version" },
};
#define NOPTS (int)(sizeof(options) / sizeof(*options))

/* Options every command takes. */
static const int common_opts[] = {
	OPT_DEVICE, OPT_PORT, OPT_SYSFS_ROOT, OPT_CONFIG, OPT_NO_COLOR,
	OPT_DEMO, OPT_HELP, OPT_VERSION, 0
};

static const int console_opts[] = {
	OPT_INTERVAL, OPT_NO_SMP, OPT_REDISCOVER, OPT_HOPS, OPT_MAD_TIMEOUT,
	OPT_NODE_NAME_MAP, OPT_PEER, OPT_ACCEPT_RESULTS, OPT_ITERS, OPT_DURATION, 0
};
static const int snapshot_opts[] = { OPT_JSON, OPT_NO_SMP, 0 };
static const int fabric_opts[] = {
	OPT_JSON, OPT_PROBLEMS, OPT_SAVE, OPT_DIFF, OPT_HOPS, OPT_MAD_TIMEOUT,
	OPT_NODE_NAME_MAP, 0
};
static const int watch_opts[] = {
	OPT_JSON, OPT_INTERVAL, OPT_COUNT, OPT_LID, OPT_NO_SMP, 0
};
static const int errors_opts[] = { OPT_JSON, OPT_INTERVAL, OPT_INFLIGHT, 0 };
static const int test_opts[] = {
	OPT_JSON, OPT_SAVE, OPT_OP, OPT_SIZE, OPT_ALL, OPT_QPS, OPT_BIDIR,
	OPT_ITERS, OPT_DURATION, OPT_GID, OPT_TXDEPTH, OPT_INLINE, OPT_CQMOD,
	OPT_CONN, OPT_TCPPORT, OPT_SECRET, OPT_COMPARE, OPT_NO_RECORD,
	OPT_TIMEOUT, OPT_LINERATE, OPT_ACCEPT, OPT_GBITS, OPT_PERFTEST, 0
};
static const int serve_opts[] = {
	OPT_TCPPORT, OPT_BIND, OPT_SECRET, OPT_TIMEOUT, OPT_MAXMEM, OPT_ONCE,
	OPT_GID, OPT_HOSTS, 0
};

static const int triage_opts[] = {
	OPT_JSON, OPT_PEER, OPT_REPORT, OPT_GID, OPT_TCPPORT, OPT_SECRET,
	OPT_TIMEOUT, OPT_DURATION, OPT_NO_SMP, 0
};

static const int export_opts[] = {
	OPT_LISTEN, OPT_TEXTFILE, OPT_FABRIC, OPT_SWEEP_INTERVAL, OPT_INTERVAL,
	OPT_ONCE, OPT_NODE_NAME_MAP, OPT_MAD_TIMEOUT, OPT_INFLIGHT, OPT_NO_SMP, 0
};

static const int accept_opts[] = {
	OPT_JSON, OPT_REF, OPT_HOSTS, OPT_RESULTS, OPT_OP, OPT_SIZE, OPT_ITERS, OPT_DURATION, OPT_GID,
	OPT_TCPPORT, OPT_SECRET, OPT_TIMEOUT, OPT_LINERATE, OPT_NO_SMP, 0
};

static const int events_opts[] = { OPT_JSON, OPT_SINCE, 0 };

static const struct cli_command commands[] = {
	{ "console", CMD_CONSOLE, "[--interval S] [--rediscover S] [--peer HOST] [--accept-results DIR]",
	  "interactive console (the default)", console_opts, cmd_console },
	{ "snapshot", CMD_SNAPSHOT, "[--json]",
	  "print every local port once (table, or --json)", snapshot_opts,
	  cmd_snapshot },
	{ "fabric", CMD_FABRIC, "[--json] [--problems] [--diff SAVED] [--save FILE]",
	  "discover the fabric, judge every link", fabric_opts, cmd_fabric },
	/* counters */
	{ "watch", CMD_WATCH, "[--interval S] [--count N] [--lid LID[:P],...] [--json]",
	  "per-interval counter deltas and rates", watch_opts, cmd_watch },
	{ "events", CMD_EVENTS, "[--since T] [--json]",
	  "port events kept across runs: link state changes, LinkDowned and LinkErrorRecovery increments",
	  events_opts, cmd_events },
	{ "errors", CMD_ERRORS, "[--interval S] [--json]",
	  "fabric-wide error sweep; with --interval S, deltas over S",
	  errors_opts, cmd_errors },
	{ "test", CMD_TEST, "bw|lat|rate|tcp [OPTIONS] PEER",
	  "run a test against an agent ('ibconsole serve' on PEER); tcp: the TCP baseline", test_opts,
	  cmd_test },
	{ "serve", CMD_SERVE, "[--bind ADDR] [-p P] [--secret-file F] [--hosts FILE] [--once]",
	  "the peer agent that 'test' talks to", serve_opts, cmd_serve },
	{ "triage", CMD_TRIAGE, "[--peer HOST] [--json] [--report FILE] [-x N]",
	  "the seven-step triage: environment, rate, PCIe, GID, MTU, lossless, NUMA, QPs",
	  triage_opts, cmd_triage },
	{ "export", CMD_EXPORT,
	  "[--listen ADDR:PORT] [--textfile DIR] [--fabric] [--interval S] [--sweep-interval S] [--once]",
	  "Prometheus exporter: local ports, and with --fabric every fabric port, with verdicts",
	  export_opts, cmd_export },
	{ "accept", CMD_ACCEPT,
	  "--ref HOST [-d DEV]... | --hosts FILE --secret-file F [--results DIR] [--op OP] [-s SIZE] [--line-rate GBPS] [--json]",
	  "acceptance: every local device against a reference host, or every host against every host, with the cause of each failure",
	  accept_opts, cmd_accept },
};
#define NCMDS (int)(sizeof(commands) / sizeof(*commands))

const struct cli_command *cli_command_of(const struct cli *c)
{
	for (int i = 0; i < NCMDS; i++)
		if (commands[i].cmd == c->cmd)
			return &commands[i];
	return &commands[0];
}

static bool opt_in(const int *list, int id)
{
	for (; *list; list++)
		if (*list == id)
			return true;
	return false;
}

static const struct cli_option *opt_by_id(int id)
{
	for (int i = 0; i < NOPTS; i++)
		if (options[i].id == id)
			return &options[i];
	return NULL;
}

static void usage_opt(FILE *f, const struct cli_option *o)
{
	char lhs[48];

	/* "-d, --device DEV" or "    --json": the long names line up */
	if (o->id < 256)
		snprintf(lhs, sizeof(lhs), "-%c, --%s%s%s", o->id, o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(lhs, sizeof(lhs), "    --%s%s%s", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	fprintf(f, "  %-24s %s\n", lhs, o->help);
}

static void usage_command(FILE *f, const struct cli_command *k)
{
	fprintf(f, "Usage: ibconsole %s %s\n\n%s.\n\nOptions:\n", k->name,
		k->usage, k->help);
	for (int i = 0; i < NOPTS; i++)
		if (opt_in(k->opts, options[i].id))
			usage_opt(f, &options[i]);
	fprintf(f, "\nCommon options:\n");
	for (int i = 0; i < NOPTS; i++)
		if (opt_in(common_opts, options[i].id))
			usage_opt(f, &options[i]);
}

void cli_usage(FILE *f, const struct cli *c)
{
	if (c && c->cmd_named) {
		usage_command(f, cli_command_of(c));
	} else {
		fprintf(f, "Usage: ibconsole [OPTIONS] [COMMAND]\n\n"
			   "InfiniBand / RoCE diagnostic console.\n\nCommands:\n");
		for (int i = 0; i < NCMDS; i++)
			fprintf(f, "  %-10s %s\n  %-10s   %s\n", commands[i].name,
				commands[i].help, "", commands[i].usage);
		fprintf(f, "\nOptions (ibconsole COMMAND --help: the ones it takes):\n");
		for (int i = 0; i < NOPTS; i++)
			usage_opt(f, &options[i]);
	}
	fprintf(f, "\nExit status: 0 ok, 1 a rule says act, 2 usage, 3 no device or no\n"
		   "permission, 4 peer unreachable, 5 internal error.\n");
}

/* The test and serve options; 0, or 2 with err filled. */
static int parse_test_opt(struct cli *c, int ch, char *err, size_t errlen)
{
	struct cli_test *t = &c->t;
	double d;

#define BAD(...) do { snprintf(err, errlen, __VA_ARGS__); return 2; } while (0)
	switch (ch) {
	case OPT_OP:
		if (!strcmp(optarg, "write"))
			t->op = 0;
		else if (!strcmp(optarg, "read"))
			t->op = 1;
		else if (!strcmp(optarg, "send"))
			t->op = 2;
		else
			BAD("bad --op '%s' — give write, read or send", optarg);
		break;
	case OPT_SIZE:
		if (parse_size(optarg, &t->size) || t->size < 2 || t->size > (8 << 20))
			BAD("bad --size '%s' — give 2 .. 8M bytes", optarg);
		break;
	case OPT_ALL: t->sweep = true; break;
	case OPT_BIDIR: t->bidir = true; break;
	case OPT_QPS:
		if (parse_int(optarg, 1, 64, &t->qps))
			BAD("bad --qps '%s' — give 1..64", optarg);
		break;
	case OPT_ITERS:
		if (parse_num(optarg, 5, 1e8, &d))
			BAD("bad --iters '%s' — give 5..100000000", optarg);
		t->iters = (long long)d;
		break;
	case OPT_DURATION:
		if (parse_num(optarg, 0.1, 3600, &t->duration_s))
			BAD("bad --duration '%s' — give 0.1..3600 seconds", optarg);
		break;
	case OPT_GID:
		if (parse_int(optarg, 0, 4095, &t->gid_index))
			BAD("bad --gid-index '%s' — give 0..4095", optarg);
		break;
	case OPT_TXDEPTH:
		if (parse_int(optarg, 1, 8192, &t->tx_depth))
			BAD("bad --tx-depth '%s' — give 1..8192", optarg);
		break;
	case OPT_INLINE:
		if (parse_int(optarg, 0, 1024, &t->inline_size))
			BAD("bad --inline-size '%s' — give 0..1024", optarg);
		break;
	case OPT_CQMOD:
		if (parse_int(optarg, 1, 8192, &t->cq_mod))
			BAD("bad --cq-mod '%s' — give 1..8192", optarg);
		break;
	case OPT_CONN:
		if (!strcasecmp(optarg, "RC"))
			t->conn = 0;
		else if (!strcasecmp(optarg, "UD"))
			t->conn = 1;
		else
			BAD("bad --connection '%s' — give RC or UD", optarg);
		break;
	case OPT_TCPPORT:
		if (parse_int(optarg, 1, 65535, &t->tcp_port))
			BAD("bad --port '%s' — give 1..65535", optarg);
		break;
	case OPT_BIND: t->bind = optarg; break;
	case OPT_SECRET: t->secret_file = optarg; break;
	case OPT_COMPARE: t->compare = optarg; break;
	case OPT_NO_RECORD: t->no_record = true; break;
	case OPT_PERFTEST: t->perftest = true; break;
	case OPT_TIMEOUT:
		if (parse_num(optarg, 0.5, 3600, &t->timeout_s))
			BAD("bad --timeout '%s' — give 0.5..3600 seconds", optarg);
		break;
	case OPT_MAXMEM:
		if (parse_num(optarg, 1, 1 << 20, &d))
			BAD("bad --max-mem '%s' — give MiB, 1..1048576", optarg);
		t->max_mem_mb = (long long)d;
		break;
	case OPT_ONCE:
		t->sessions = 1;
		c->once = true;
		break;
	case OPT_LINERATE:
		if (parse_num(optarg, 0.001, 100000, &t->line_rate))
			BAD("bad --line-rate '%s' — give Gb/s", optarg);
		break;
	case OPT_GBITS: t->report_gbits = true; break;
	case OPT_ACCEPT: t->accept = true; break;
	case OPT_PEER: t->peer = optarg; break;
	case OPT_REF: c->ref = optarg; break;
	case OPT_HOSTS: c->hosts = optarg; break;
	case OPT_RESULTS: c->results = optarg; break;
	case OPT_ACCEPT_RESULTS: c->accept_results = optarg; break;
	case OPT_REPORT: c->report = optarg; break;
	case OPT_LISTEN: c->listen = optarg; break;
	case OPT_TEXTFILE: c->textfile = optarg; break;
	case OPT_FABRIC: c->fabric = true; break;
	case OPT_SWEEP_INTERVAL:
		if (parse_num(optarg, 5, 86400, &c->sweep_interval))
			BAD("bad --sweep-interval '%s' — give seconds between 5 and 86400", optarg);
		break;
	default:
		return -1;
	}
	return 0;
#undef BAD
}

int cli_parse(struct cli *c, int argc, char **argv, char *err, size_t errlen)
{
	struct option longs[2 * NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	int nl = 0, ns = 0, ch, li;
	/* each option given, as spelled, for the command's check */
	struct { int id; char spelled[40]; } seen[64];
	int nseen = 0;
	const struct cli_command *cmd;

	memset(c, 0, sizeof(*c));
	c->interval = 1.0;
	c->t.op = -1;
	c->t.size = -1;
	c->t.gid_index = -1;
	c->t.tx_depth = c->t.inline_size = c->t.cq_mod = -1;
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
	while (li = -1, (ch = getopt_long(argc, argv, shorts, longs, &li)) != -1) {
		if (ch != '?' && ch != ':' && nseen < (int)(sizeof(seen) / sizeof(seen[0]))) {
			seen[nseen].id = ch;
			if (li >= 0)
				snprintf(seen[nseen].spelled, sizeof(seen[nseen].spelled), "--%s",
					 longs[li].name);
			else
				snprintf(seen[nseen].spelled, sizeof(seen[nseen].spelled), "-%c", ch);
			nseen++;
		}
		switch (ch) {
		case OPT_DEVICE:
			c->device = optarg;
			if (c->ndevices == CLI_MAX_DEVICES) {
				snprintf(err, errlen, "too many -d options — give at most %d devices", CLI_MAX_DEVICES);
				return 2;
			}
			c->devices[c->ndevices++] = optarg;
			break;
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
		case OPT_INTERVAL:
			if (parse_num(optarg, 0.5, 60, &c->interval)) {
				snprintf(err, errlen, "bad interval '%s' — give seconds between 0.5 and 60", optarg);
				return 2;
			}
			c->interval_set = true;
			break;
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
		case OPT_REDISCOVER:
			if (parse_num(optarg, 5, 86400, &c->rediscover_s)) {
				snprintf(err, errlen, "bad rediscovery interval '%s' — give seconds between 5 and 86400", optarg);
				return 2;
			}
			break;
		/* counters */
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
		case OPT_SINCE: c->since = optarg; break;
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
		default: {
			int rc = parse_test_opt(c, ch, err, errlen);

			if (rc > 0)
				return rc;
			if (rc == 0)
				break;
			snprintf(err, errlen, "unknown option %s — see ibconsole --help", argv[optind - 1]);
			return 2;
		}
		}
	}
	/* --demo roce: the word belongs to --demo, not a command */
	if (c->demo && optind < argc && !strcmp(argv[optind], "roce")) {
		c->demo_roce = true;
		optind++;
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
		c->cmd_named = true;
		/* test takes two positionals: the kind and the peer */
		if (c->cmd == CMD_TEST && !c->help) {
			const char *k = optind + 1 < argc ? argv[optind + 1] : "";

			if (!strcmp(k, "bw"))
				c->t.kind = 0;
			else if (!strcmp(k, "lat"))
				c->t.kind = 1;
			else if (!strcmp(k, "rate"))
				c->t.kind = 2;
			else if (!strcmp(k, "tcp"))
				c->t.kind = 3;	/* the TCP baseline */
			else {
				snprintf(err, errlen, "test needs a kind: bw, lat, rate or tcp — e.g. ibconsole test bw PEER");
				return 2;
			}
			c->t.peer = optind + 2 < argc ? argv[optind + 2] : NULL;
			if (!c->t.peer && !c->t.compare) {
				snprintf(err, errlen, "test needs the PEER running 'ibconsole serve' — e.g. ibconsole test %s 10.0.0.2", k);
				return 2;
			}
			optind += c->t.peer ? 2 : 1;
		}
		if (optind + 1 < argc) {
			snprintf(err, errlen, "unexpected argument '%s' — see ibconsole --help", argv[optind + 1]);
			return 2;
		}
	}
	/* an option the command does not take is a usage error, not silence */
	cmd = cli_command_of(c);
	for (int i = 0; i < nseen; i++) {
		const struct cli_option *o;

		if (opt_in(common_opts, seen[i].id) || opt_in(cmd->opts, seen[i].id))
			continue;
		o = opt_by_id(seen[i].id);
		if (seen[i].spelled[1] != '-' && o)
			snprintf(err, errlen, "%s %s: %s takes no %s (--%s) option — see ibconsole %s --help",
				 cmd->name, seen[i].spelled, cmd->name, seen[i].spelled, o->name,
				 cmd->name);
		else
			snprintf(err, errlen, "%s %s: %s takes no %s option — see ibconsole %s --help",
				 cmd->name, seen[i].spelled, cmd->name, seen[i].spelled, cmd->name);
		return 2;
	}
	if (c->sysfs_root && !*c->sysfs_root)
		c->sysfs_root = NULL;
	return 0;
}
