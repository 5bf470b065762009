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
#include <stddef.h>
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

/* How an option's value is read: a flag (true), a string, a number in
 * [lo, hi] (int, long, double, a double kept as long long, a size with
 * K/M/G suffixes), one word of choices (its index), or a function. */
enum opt_type { OT_FLAG, OT_STR, OT_INT, OT_LONG, OT_NUM, OT_NUM_LL, OT_SIZE,
		OT_CHOICE, OT_FN };

static int opt_device(struct cli *c, const char *v, char *err, size_t errlen);
static int opt_once(struct cli *c, const char *v, char *err, size_t errlen);
static const char *const ops[] = { "write", "read", "send", NULL };
static const char *const conns[] = { "RC", "UD", NULL };

/* One option: its spellings, its help, and where its value goes (off in
 * struct cli, set: a bool there made true too); a bad value is
 * "BAD 'VALUE' — GIVE". */
static const struct cli_option {
	const char *name;
	const char *alias;	/* perftest's long spelling, accepted too */
	int id;
	int has_arg;
	const char *arg, *help;
	enum opt_type type;
	size_t off, set;
	double lo, hi;
	const char *bad, *give;
	const char *const *choices;
	bool nocase;
	int (*fn)(struct cli *c, const char *v, char *err, size_t errlen);
} options[] = {
	{ "device", "ib-dev", OPT_DEVICE, required_argument, "DEV", "only this RDMA device (e.g. mlx5_0)",
	  .type = OT_FN, .fn = opt_device },
	{ "ib-port", NULL, OPT_PORT, required_argument, "N", "only this port number",
	  .type = OT_INT, .off = offsetof(struct cli, port), .lo = 1, .hi = 254, .bad = "bad port number", .give = "give 1..254" },
	{ "json", NULL, OPT_JSON, no_argument, NULL, "machine-readable output (snapshot, watch, errors, events, fabric, test, triage, accept)",
	  .type = OT_FLAG, .off = offsetof(struct cli, json) },
	{ "interval", NULL, OPT_INTERVAL, required_argument, "S", "refresh / sample interval in seconds (0.5-60, default 1); errors: sweep twice S apart; export: local collections (default 10)",
	  .type = OT_NUM, .off = offsetof(struct cli, interval), .lo = 0.5, .hi = 60, .bad = "bad interval", .give = "give seconds between 0.5 and 60", .set = offsetof(struct cli, interval_set) },
	{ "sysfs-root", NULL, OPT_SYSFS_ROOT, required_argument, "DIR", "read sysfs under DIR instead of / (env IBCONSOLE_SYSFS_ROOT)",
	  .type = OT_STR, .off = offsetof(struct cli, sysfs_root) },
	{ "demo", NULL, OPT_DEMO, no_argument, NULL, "run on a bundled simulated fabric (ibsim), no hardware needed; --demo roce: two Soft-RoCE VMs (qemu) with real traffic and planted faults",
	  .type = OT_FLAG, .off = offsetof(struct cli, demo) },
	{ "no-color", NULL, OPT_NO_COLOR, no_argument, NULL, "monochrome console (also when NO_COLOR is set)",
	  .type = OT_FLAG, .off = offsetof(struct cli, no_color) },
	{ "no-smp", NULL, OPT_NO_SMP, no_argument, NULL, "do not send SMP queries (sysfs and verbs only)",
	  .type = OT_FLAG, .off = offsetof(struct cli, no_smp) },
	/* fabric */
	{ "problems", NULL, OPT_PROBLEMS, no_argument, NULL, "fabric: list only the flagged links and ports",
	  .type = OT_FLAG, .off = offsetof(struct cli, problems) },
	{ "save", NULL, OPT_SAVE, required_argument, "FILE", "fabric: save the topology (ibnetdiscover text) to FILE and JSON to FILE.json; test: the record to FILE",
	  .type = OT_STR, .off = offsetof(struct cli, save) },
	{ "diff", NULL, OPT_DIFF, required_argument, "SAVED", "fabric: compare with a saved topology (--save or ibnetdiscover output)",
	  .type = OT_STR, .off = offsetof(struct cli, diff) },
	{ "hops", NULL, OPT_HOPS, required_argument, "N", "fabric discovery: at most N hops (1-63, default no limit)",
	  .type = OT_INT, .off = offsetof(struct cli, hops), .lo = 1, .hi = 63, .bad = "bad hop limit", .give = "give 1..63" },
	{ "mad-timeout", NULL, OPT_MAD_TIMEOUT, required_argument, "MS", "fabric discovery: per-SMP time-out in ms (default 1000; export: per SMP and PMA query, 300)",
	  .type = OT_INT, .off = offsetof(struct cli, mad_timeout_ms), .lo = 1, .hi = 60000, .bad = "bad time-out", .give = "give milliseconds, 1..60000" },
	{ "node-name-map", NULL, OPT_NODE_NAME_MAP, required_argument, "FILE", "node names from ibnetdiscover's node-name-map file",
	  .type = OT_STR, .off = offsetof(struct cli, node_name_map) },
	{ "rediscover", NULL, OPT_REDISCOVER, required_argument, "S", "console: rediscover the fabric every S seconds (5-86400, default only on key r)",
	  .type = OT_NUM, .off = offsetof(struct cli, rediscover_s), .lo = 5, .hi = 86400, .bad = "bad rediscovery interval", .give = "give seconds between 5 and 86400" },
	/* counters */
	{ "count", NULL, OPT_COUNT, required_argument, "N", "watch: stop after N intervals (default: until interrupted)",
	  .type = OT_LONG, .off = offsetof(struct cli, count), .lo = 0, .hi = 100000000, .bad = "bad count", .give = "give a number of intervals (0 = until interrupted)" },
	{ "lid", NULL, OPT_LID, required_argument, "LID[:P],...", "watch: also remote ports by LID (PMA port P, default 1)",
	  .type = OT_STR, .off = offsetof(struct cli, lids) },
	{ "config", NULL, OPT_CONFIG, required_argument, "FILE", "settings and thresholds file (env IBCONSOLE_CONFIG)",
	  .type = OT_STR, .off = offsetof(struct cli, config) },
	{ "inflight", NULL, OPT_INFLIGHT, required_argument, "N", "errors, export: PMA queries in flight at once (1-256, default 64)",
	  .type = OT_INT, .off = offsetof(struct cli, inflight), .lo = 1, .hi = 256, .bad = "bad --inflight", .give = "give 1..256" },
	/* test / serve */
	{ "op", NULL, OPT_OP, required_argument, "OP", "test, accept: write, read or send (bw/lat default write, rate and accept send)",
	  .type = OT_CHOICE, .off = offsetof(struct cli, t.op), .choices = ops, .bad = "bad --op", .give = "give write, read or send" },
	{ "size", NULL, OPT_SIZE, required_argument, "N", "test, accept: message size, 2 B..8 MiB, K/M/G suffixes (bw and accept 65536, lat 2, rate 4)",
	  .type = OT_SIZE, .off = offsetof(struct cli, t.size), .lo = 2, .hi = 8 << 20, .bad = "bad --size", .give = "give 2 .. 8M bytes" },
	{ "sweep", "all", OPT_ALL, no_argument, NULL, "test: every size 2 B..8 MiB (or up to --size)",
	  .type = OT_FLAG, .off = offsetof(struct cli, t.sweep) },
	{ "qps", NULL, OPT_QPS, required_argument, "N", "test: queue pairs, 1..64 (rate 4, else 1)",
	  .type = OT_INT, .off = offsetof(struct cli, t.qps), .lo = 1, .hi = 64, .bad = "bad --qps", .give = "give 1..64" },
	{ "bidir", "bidirectional", OPT_BIDIR, no_argument, NULL, "test: both directions at once (bw, rate)",
	  .type = OT_FLAG, .off = offsetof(struct cli, t.bidir) },
	{ "iters", NULL, OPT_ITERS, required_argument, "N", "test, accept (and the console's acceptance screen): iterations per QP (write bw 5000, else 1000)",
	  .type = OT_NUM_LL, .off = offsetof(struct cli, t.iters), .lo = 5, .hi = 1e8, .bad = "bad --iters", .give = "give 5..100000000" },
	{ "duration", NULL, OPT_DURATION, required_argument, "S", "test, accept (and the console's acceptance screen): run for S seconds instead of --iters; triage: each traffic run (2)",
	  .type = OT_NUM, .off = offsetof(struct cli, t.duration_s), .lo = 0.1, .hi = 3600, .bad = "bad --duration", .give = "give 0.1..3600 seconds" },
	{ "gid-index", NULL, OPT_GID, required_argument, "N", "RoCE GID index (default: the RoCE v2 IPv4 entry)",
	  .type = OT_INT, .off = offsetof(struct cli, t.gid_index), .lo = 0, .hi = 4095, .bad = "bad --gid-index", .give = "give 0..4095" },
	{ "tx-depth", NULL, OPT_TXDEPTH, required_argument, "N", "test: WRs in flight per QP (bw 128, lat 1)",
	  .type = OT_INT, .off = offsetof(struct cli, t.tx_depth), .lo = 1, .hi = 8192, .bad = "bad --tx-depth", .give = "give 1..8192" },
	{ "inline-size", NULL, OPT_INLINE, required_argument, "N", "test: inline threshold in bytes (220; read 0)",
	  .type = OT_INT, .off = offsetof(struct cli, t.inline_size), .lo = 0, .hi = 1024, .bad = "bad --inline-size", .give = "give 0..1024" },
	{ "cq-mod", NULL, OPT_CQMOD, required_argument, "N", "test: signal one WR in N (100; 1 above 8 KiB)",
	  .type = OT_INT, .off = offsetof(struct cli, t.cq_mod), .lo = 1, .hi = 8192, .bad = "bad --cq-mod", .give = "give 1..8192" },
	{ "connection", NULL, OPT_CONN, required_argument, "RC|UD", "test: transport (UD: send only)",
	  .type = OT_CHOICE, .off = offsetof(struct cli, t.conn), .choices = conns, .nocase = true, .bad = "bad --connection", .give = "give RC or UD" },
	{ "port", NULL, OPT_TCPPORT, required_argument, "P", "test/serve/accept: agent TCP port (18516)",
	  .type = OT_INT, .off = offsetof(struct cli, t.tcp_port), .lo = 1, .hi = 65535, .bad = "bad --port", .give = "give 1..65535" },
	{ "bind", NULL, OPT_BIND, required_argument, "ADDR", "serve: listen on ADDR only",
	  .type = OT_STR, .off = offsetof(struct cli, t.bind) },
	{ "secret-file", NULL, OPT_SECRET, required_argument, "F", "test/serve/accept: shared secret (first line of F)",
	  .type = OT_STR, .off = offsetof(struct cli, t.secret_file) },
	{ "compare", NULL, OPT_COMPARE, required_argument, "RECORD", "test: rerun RECORD's test and report the differences",
	  .type = OT_STR, .off = offsetof(struct cli, t.compare) },
	{ "perftest", NULL, OPT_PERFTEST, no_argument, NULL, "test: PEER runs a perftest server (ib_{write,read,send}_{bw,lat}), port 18515",
	  .type = OT_FLAG, .off = offsetof(struct cli, t.perftest) },
	{ "no-record", NULL, OPT_NO_RECORD, no_argument, NULL, "test: do not save a record",
	  .type = OT_FLAG, .off = offsetof(struct cli, t.no_record) },
	{ "timeout", NULL, OPT_TIMEOUT, required_argument, "S", "test/serve/accept: connect and handshake time-out (10)",
	  .type = OT_NUM, .off = offsetof(struct cli, t.timeout_s), .lo = 0.5, .hi = 3600, .bad = "bad --timeout", .give = "give 0.5..3600 seconds" },
	{ "max-mem", NULL, OPT_MAXMEM, required_argument, "MIB", "serve: most memory a client may lock (1024)",
	  .type = OT_NUM_LL, .off = offsetof(struct cli, t.max_mem_mb), .lo = 1, .hi = 1 << 20, .bad = "bad --max-mem", .give = "give MiB, 1..1048576" },
	{ "once", NULL, OPT_ONCE, no_argument, NULL, "serve: one session, then exit with its status; export: one collection, then exit",
	  .type = OT_FN, .fn = opt_once },
	{ "line-rate", NULL, OPT_LINERATE, required_argument, "GBPS", "test, accept: judge against this data rate, not the port's",
	  .type = OT_NUM, .off = offsetof(struct cli, t.line_rate), .lo = 0.001, .hi = 100000, .bad = "bad --line-rate", .give = "give Gb/s" },
	{ "accept", NULL, OPT_ACCEPT, no_argument, NULL, "test bw: pass / fail at 90 % of the data rate (acceptance; default size 1 MiB, 64 KiB and up judged)",
	  .type = OT_FLAG, .off = offsetof(struct cli, t.accept) },
	{ "report_gbits", NULL, OPT_GBITS, no_argument, NULL, "results are always Gb/s; with --perftest, the server's unit too",
	  .type = OT_FLAG, .off = offsetof(struct cli, t.report_gbits) },
	/* triage */
	{ "peer", NULL, OPT_PEER, required_argument, "HOST", "triage, console: the peer's agent (ibconsole serve) for the tests and the traffic steps",
	  .type = OT_STR, .off = offsetof(struct cli, t.peer) },
	{ "report", NULL, OPT_REPORT, required_argument, "FILE", "triage: write the walk as Markdown to FILE and as JSON to FILE.json",
	  .type = OT_STR, .off = offsetof(struct cli, report) },
	/* export */
	{ "listen", NULL, OPT_LISTEN, required_argument, "ADDR:PORT", "export: serve /metrics on ADDR:PORT (default :9879; [IPV6]:PORT, :PORT)",
	  .type = OT_STR, .off = offsetof(struct cli, listen) },
	{ "textfile", NULL, OPT_TEXTFILE, required_argument, "DIR", "export: write DIR/ibconsole.prom for node_exporter's textfile collector",
	  .type = OT_STR, .off = offsetof(struct cli, textfile) },
	{ "fabric", NULL, OPT_FABRIC, no_argument, NULL, "export: also every switch and HCA port the fabric discovery finds",
	  .type = OT_FLAG, .off = offsetof(struct cli, fabric) },
	{ "sweep-interval", NULL, OPT_SWEEP_INTERVAL, required_argument, "S", "export: seconds between fabric sweeps (5-86400, default 60)",
	  .type = OT_NUM, .off = offsetof(struct cli, sweep_interval), .lo = 5, .hi = 86400, .bad = "bad --sweep-interval", .give = "give seconds between 5 and 86400" },
	/* accept */
	{ "ref", NULL, OPT_REF, required_argument, "HOST", "accept: test every local device against the agent on HOST (the reference)",
	  .type = OT_STR, .off = offsetof(struct cli, ref) },
	{ "hosts", NULL, OPT_HOSTS, required_argument, "FILE", "accept: all pairs of the agents in FILE (host[:port] a line); serve: take test orders only towards them",
	  .type = OT_STR, .off = offsetof(struct cli, hosts) },
	{ "results", NULL, OPT_RESULTS, required_argument, "DIR", "accept --hosts: write accept.json and pairs.csv to DIR (default ./ibconsole-accept-TIME)",
	  .type = OT_STR, .off = offsetof(struct cli, results) },
	{ "accept-results", NULL, OPT_ACCEPT_RESULTS, required_argument, "DIR", "console: open on the pair heat map of an accept --hosts results directory (its accept.json)",
	  .type = OT_STR, .off = offsetof(struct cli, accept_results) },
	/* events */
	{ "since", NULL, OPT_SINCE, required_argument, "T", "events: only those since T (15m, 2h, 7d, or 2026-12-01T12:00; Z for UTC)",
	  .type = OT_STR, .off = offsetof(struct cli, since) },
	{ "help", NULL, OPT_HELP, no_argument, NULL, "show this help",
	  .type = OT_FLAG, .off = offsetof(struct cli, help) },
	{ "version", NULL, OPT_VERSION, no_argument, NULL, "show the version",
	  .type = OT_FLAG, .off = offsetof(struct cli, version) },
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

static int opt_device(struct cli *c, const char *v, char *err, size_t errlen)
{
	c->device = v;
	if (c->ndevices == CLI_MAX_DEVICES) {
		snprintf(err, errlen, "too many -d options — give at most %d devices", CLI_MAX_DEVICES);
		return 2;
	}
	c->devices[c->ndevices++] = v;
	return 0;
}

static int opt_once(struct cli *c, const char *v, char *err, size_t errlen)
{
	c->t.sessions = 1;
	c->once = true;
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

/* getopt_long's tables from the option rows (aliases too). */
static void getopt_tables(struct option *longs, char *shorts)
{
	int nl = 0, ns = 0;

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
}

/* test's positionals: the kind and the peer. 0, or 2 with err. */
static int parse_test_words(struct cli *c, int argc, char **argv, char *err,
			    size_t errlen)
{
	static const char *const kinds[] = { "bw", "lat", "rate", "tcp", NULL };
	const char *k = optind + 1 < argc ? argv[optind + 1] : "";
	int i;

	for (i = 0; kinds[i] && strcmp(k, kinds[i]); i++)
		;
	if (!kinds[i]) {
		snprintf(err, errlen, "test needs a kind: bw, lat, rate or tcp — e.g. ibconsole test bw PEER");
		return 2;
	}
	c->t.kind = i;	/* 3: the TCP baseline */
	c->t.peer = optind + 2 < argc ? argv[optind + 2] : NULL;
	if (!c->t.peer && !c->t.compare) {
		snprintf(err, errlen, "test needs the PEER running 'ibconsole serve' — e.g. ibconsole test %s 10.0.0.2", k);
		return 2;
	}
	optind += c->t.peer ? 2 : 1;
	return 0;
}

/* The command word and what follows it. 0, or 2 with err. */
static int parse_command(struct cli *c, int argc, char **argv, char *err,
			 size_t errlen)
{
	int i;

	/* --demo roce: the word belongs to --demo, not a command */
	if (c->demo && optind < argc && !strcmp(argv[optind], "roce")) {
		c->demo_roce = true;
		optind++;
	}
	if (optind >= argc)
		return 0;
	for (i = 0; i < NCMDS; i++)
		if (!strcmp(argv[optind], commands[i].name))
			break;
	if (i == NCMDS) {
		snprintf(err, errlen, "unknown command '%s' — see ibconsole --help", argv[optind]);
		return 2;
	}
	c->cmd = commands[i].cmd;
	c->cmd_named = true;
	if (c->cmd == CMD_TEST && !c->help && parse_test_words(c, argc, argv, err, errlen))
		return 2;
	if (optind + 1 < argc) {
		snprintf(err, errlen, "unexpected argument '%s' — see ibconsole --help", argv[optind + 1]);
		return 2;
	}
	return 0;
}

/* Each option given, as spelled, for the command's check. */
struct seen {
	int id;
	char spelled[40];
};

/* An option the command does not take is a usage error, not silence:
 * 0, or 2 with err. */
static int check_taken(const struct cli *c, const struct seen *seen, int nseen,
		       char *err, size_t errlen)
{
	const struct cli_command *cmd = cli_command_of(c);

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
	return 0;
}

int cli_parse(struct cli *c, int argc, char **argv, char *err, size_t errlen)
{
	struct option longs[2 * NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	int ch, li, rc;
	struct seen seen[64];
	int nseen = 0;

	memset(c, 0, sizeof(*c));
	c->interval = 1.0;
	c->t.op = -1;
	c->t.size = -1;
	c->t.gid_index = -1;
	c->t.tx_depth = c->t.inline_size = c->t.cq_mod = -1;
	c->sysfs_root = getenv("IBCONSOLE_SYSFS_ROOT");
	getopt_tables(longs, shorts);

	optind = 1;
	opterr = 0;
	while (li = -1, (ch = getopt_long(argc, argv, shorts, longs, &li)) != -1) {
		const struct cli_option *o = ch == '?' || ch == ':' ? NULL : opt_by_id(ch);

		if (ch != '?' && ch != ':' && nseen < (int)(sizeof(seen) / sizeof(seen[0]))) {
			seen[nseen].id = ch;
			if (li >= 0)
				snprintf(seen[nseen].spelled, sizeof(seen[nseen].spelled), "--%s",
					 longs[li].name);
			else
				snprintf(seen[nseen].spelled, sizeof(seen[nseen].spelled), "-%c", ch);
			nseen++;
		}
		if (ch == ':') {
			snprintf(err, errlen, "option %s needs a value — see ibconsole --help", argv[optind - 1]);
			return 2;
		}
		if (!o) {
			snprintf(err, errlen, "unknown option %s — see ibconsole --help", argv[optind - 1]);
			return 2;
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
