// SPDX-License-Identifier: MIT
/* `ibconsole test`: the command-line face of the
 * test engine against a peer agent (tables, JSON, records, verdicts). */
#include "config.h"
#include "cmd_test.h"
#include "cmd_tcp.h"
#include "cmdutil.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cmd_fabric.h"
#include "core/agent/agent.h"
#include "core/accept/hostlist.h"
#include "core/base/parse.h"
#include "core/base/sigexit.h"
#include "core/testrun/record.h"
#include "core/agent/client.h"
#include "core/testrun/testjob.h"
#include "core/testrun/perftest_client.h"
#include "core/base/jsoncdl.h"
#include "diag/testverdict.h"
#include "diag/thresholds.h"


/* ---- test ---- */

static void params_from_cli(const struct cli_test *t, struct proto_params *p)
{
	struct tj_choice ch = { .kind = t->kind, .op = t->op, .conn = t->conn, .size = t->size,
				.sweep = t->sweep, .bidir = t->bidir, .qps = t->qps, .iters = t->iters,
				.duration_s = t->duration_s, .tx_depth = t->tx_depth,
				.inline_size = t->inline_size, .cq_mod = t->cq_mod,
				.accept = t->accept };

	testjob_params(&ch, p);
}

static void progress(void *arg, const struct eng_progress *p)
{
	(void)arg;
	fprintf(stderr, "\r  %6.1f s  %10llu B  %10.4f Gb/s  %10.6f Mpps   ",
		p->t_s, (unsigned long long)p->size, p->interval_gbps, p->interval_mpps);
}

static const char *title(const struct proto_params *p)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "%s %s Test",
		 p->op == OP_WRITE ? "RDMA_Write" : p->op == OP_READ ? "RDMA_Read" : "Send",
		 p->kind == KIND_LAT ? "Latency" : p->kind == KIND_RATE ? "Message Rate" : "BW");
	return buf;
}

static void print_counters(const char *what, const struct testctr *t)
{
	int shown = 0;

	printf(" %s:", what);
	for (uint32_t i = 0; i < t->n; i++)
		if (t->c[i].delta) {
			printf("%s %s +%llu", shown++ ? "," : "", t->c[i].name, (unsigned long long)t->c[i].delta);
		}
	printf("%s\n", shown ? "" : " no change");
}

static void print_table(const struct client_opts *o, const struct client_result *r,
			const struct record_verdict *v, const struct record_diff *d)
{
	const struct proto_params *p = &o->p;
	const char *line = "---------------------------------------------------------------------------------------";

	printf("%s\n                    %s\n", line, title(p));
	printf(" Dual-port       : OFF\t\tDevice         : %s\n", r->info.device);
	printf(" Number of qps   : %u\t\tTransport type : %s\n", p->qps,
	       !strcmp(r->info.link_layer, "Ethernet") ? "IB (RoCE)" : "IB");
	printf(" Connection type : %s\t\tUsing SRQ      : OFF\n", p->conn == CONN_UD ? "UD" : "RC");
	printf(" TX depth        : %u\t\tCQ Moderation  : %u\n", p->tx_depth, p->cq_mod);
	printf(" Mtu             : %u[B]\tLink type      : %s\n", r->info.mtu, r->info.link_layer);
	if (r->info.gid_index >= 0)
		printf(" GID index       : %d (%s)\tGID : %s\n", r->info.gid_index,
		       r->info.gid_auto ? "RoCE v2 IPv4, automatic" : "given", r->info.gid);
	printf(" Max inline data : %u[B]\tBidirectional  : %s\n", p->inline_size,
	       p->flags & PARAM_BIDIR ? "ON" : "OFF");
	printf(" NUMA            : %s\n", r->info.numa_note);
	printf(" Peer            : %s (%s, %s, fw %s)\n", o->peer, r->peer.host, r->peer.device,
	       r->peer.fw_ver[0] ? r->peer.fw_ver : "?");
	printf("%s\n", line);
	if (p->kind == KIND_LAT) {
		printf(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99%% percentile[usec]   99.9%% percentile[usec]\n");
		for (int i = 0; i < r->nphases; i++) {
			const struct eng_result *e = &r->ph[i].local;

			if (!e->lat_valid) {
				printf(" %-7llu %-10llu  (too few samples)\n", (unsigned long long)e->size,
				       (unsigned long long)e->msgs);
				continue;
			}
			printf(" %-7llu %-10llu     %-7.2f        %-7.2f      %-7.2f            %-7.2f        %-7.2f          %-7.2f                %-7.2f\n",
			       (unsigned long long)e->size, (unsigned long long)e->msgs, e->lat_min, e->lat_max,
			       e->lat_median, e->lat_avg, e->lat_stdev, e->lat_p99, e->lat_p999);
		}
		printf("%s\n", line);
		printf(" latency: %s\n", r->nphases && r->ph[0].local.lat_halved ?
		       "half the round trip (ping-pong), as perftest reports send and write" :
		       "the full round trip, as perftest reports read");
	} else {
		printf(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n");
		for (int i = 0; i < r->nphases; i++) {
			const struct client_phase *ph = &r->ph[i];

			printf(" %-10llu %-10llu     %-14.4f     %-14.4f       %-.6f\n",
			       (unsigned long long)ph->local.size, (unsigned long long)ph->local.msgs,
			       ph->total_peak_gbps, ph->total_avg_gbps, ph->total_mpps);
		}
		printf("%s\n", line);
		if (p->flags & PARAM_BIDIR)
			printf(" bidirectional: both directions summed, as perftest\n");
	}
	print_counters("local counters", &r->local_ctr);
	print_counters("peer counters ", &r->peer_ctr);
	if (d) {
		printf(" compared with %s:\n", d->path);
		for (int i = 0; i < d->n; i++)
			printf("   %-9llu %-14s %12.4f -> %12.4f  (%+.1f %%)\n", (unsigned long long)d->c[i].size,
			       d->c[i].metric, d->c[i].before, d->c[i].after, d->c[i].change_pct);
		if (!d->n)
			printf("   no common sizes to compare\n");
	}
	printf(" verdict: %s%s%s%s — %s\n", v->state, v->rule[0] ? " (rule " : "", v->rule,
	       v->rule[0] ? ")" : "", v->text);
}

/* Where a record goes: --save, else $IBCONSOLE_RECORD_DIR or
 * $XDG_STATE_HOME/ibconsole/records (~/.local/state/…), as the console. */
static int record_path(const struct cli *c, const struct proto_params *p, char *out, size_t len)
{
	if (c->save) {
		snprintf(out, len, "%s", c->save);
		return 0;
	}
	return testjob_record_path(p->kind, p->op, out, len);
}

/* --compare's record: read whole (parse_slurp, at most 4 MiB) and parsed;
 * 0, or -1 with the message printed. */
static int load_record(const char *path, struct record_saved *s)
{
	char why[200], msg[600];
	size_t n = 0;
	char *buf = parse_slurp(path, 4 << 20, &n, why, sizeof(why));
	int rc = -1;

	if (!buf) {
		snprintf(msg, sizeof(msg), "cannot read the record %s: %s — give the path of a saved record",
			 path, why);
		cmd_fail(msg);
		return -1;
	}
	rc = record_parse(buf, n, s, why, sizeof(why));
	if (rc) {
		snprintf(msg, sizeof(msg), "cannot use the record %s: %s — give a file written by 'ibconsole test'", path, why);
		cmd_fail(msg);
	}
	free(buf);
	return rc;
}

/* The thresholds of --config (or the default file): 0, or -1 with err. */
static int test_thresholds(const struct cli *c, struct thresholds *th,
			   char *err, size_t errlen)
{
	char cbuf[512];
	const char *cpath = thresholds_config_path(c->config, cbuf, sizeof(cbuf));

	thresholds_defaults(th);
	if (thresholds_load(th, cpath, err, errlen) < 0 ||
	    (c->config && !th->file[0])) {
		if (c->config && !th->file[0])
			snprintf(err, errlen, "config file %s not found — check the path given to --config",
				 c->config);
		return -1;
	}
	return 0;
}

/* The test's verdict (the last phase; a latency test's smallest size)
 * into v and the record's rv. */
static void test_judge(const struct cli_test *t, const struct client_opts *o,
		       const struct client_result *r, const struct thresholds *th,
		       struct tv_verdict *v, struct record_verdict *rv)
{
	const struct client_phase *ph = &r->ph[r->nphases - 1];
	struct tv_input in = {
		.kind = o->p.kind, .op = o->p.op, .bidir = o->p.flags & PARAM_BIDIR,
		.size = ph->local.size,
		.data_gbps = t->line_rate > 0 ? t->line_rate : r->local.rate_mbps / 1000.0,
		.bw_avg_gbps = ph->total_avg_gbps, .bw_peak_gbps = ph->total_peak_gbps,
		.mpps = ph->total_mpps, .accept = t->accept,
	};

	if (o->p.kind == KIND_LAT) {	/* the smallest size is the latency one */
		in.lat_valid = r->ph[0].local.lat_valid;
		in.lat_median_us = r->ph[0].local.lat_median;
		in.lat_p99_us = r->ph[0].local.lat_p99;
		in.size = r->ph[0].local.size;
	}
	tv_eval(&in, &th->tv, v);
	rv->state = tv_state_name(v->state);
	rv->rule = v->rule;
	rv->text = v->text;
	rv->line_gbps = in.data_gbps;
	rv->source = v->source;
	rv->healthy = v->healthy;
	rv->abnormal = v->abnormal;
	rv->pass = v->pass;
	rv->unit = v->unit;
}

/* Writes the record (--save FILE or the records directory); a failure
 * is said on stderr and does not change the exit status. */
static void test_save(const struct cli *c, const struct client_opts *o,
		      const struct client_result *r, const struct record_verdict *rv,
		      const struct record_diff *diff)
{
	char path[512] = "";
	FILE *f = record_path(c, &o->p, path, sizeof(path)) ? NULL : fopen(path, "w");

	if (f) {
		record_write(f, o, r, rv, diff, NULL);
		if (fclose(f))
			f = NULL;
	}
	if (!f) {
		char msg[700];

		snprintf(msg, sizeof(msg), "cannot save the record%s%s: %s — give --save FILE or --no-record",
			 path[0] ? " to " : "", path, path[0] ? strerror(errno) : "no HOME");
		cmd_fail(msg);
	} else if (!c->json) {
		printf(" record: %s\n", path);
	}
}

/* --compare FILE: the record read back, the test set to repeat it.
 * 0, 2 (an unreadable record, said on stderr), 3 (json-c, its reader,
 * cannot be loaded) or 5 out of memory. */
static int test_compare(const char *path, struct client_opts *o,
			struct record_saved **savedp, struct record_diff **diffp)
{
	struct record_saved *saved;
	struct record_diff *diff;
	char err[400];

	if (jsoncdl_load(err, sizeof(err))) {
		cmd_fail(err);
		return 3;
	}
	saved = calloc(1, sizeof(*saved));
	diff = calloc(1, sizeof(*diff));
	if (!saved || !diff || load_record(path, saved)) {
		free(saved);
		free(diff);
		return saved && diff ? 2 : 5;
	}
	/* the same test as the record, against the given peer or its own */
	o->p = saved->p;
	if (!o->peer)
		o->peer = saved->peer;
	/* against the same kind of peer, on its port unless given */
	if (saved->perftest)
		o->perftest = true;
	if (!o->tcp_port)
		o->tcp_port = saved->tcp_port;
	diff->path = path;
	*savedp = saved;
	*diffp = diff;
	return 0;
}

int cmd_test(const struct cli *c, const struct snap_opts *unused)
{
	const struct cli_test *t = &c->t;
	struct client_opts o = { .peer = t->peer, .tcp_port = t->tcp_port, .device = c->device,
				  .ib_port = c->port, .gid_index = t->gid_index,
				  .timeout_ms = (int)((t->timeout_s > 0 ? t->timeout_s : 10) * 1000),
				  .stall_ms = 5000, .report_gbits = t->report_gbits,
				  .perftest = t->perftest };
	struct client_result *r = calloc(1, sizeof(*r));
	struct record_saved *saved = NULL;
	struct record_diff *diff = NULL;
	struct record_verdict rv = { .state = "none", .rule = "", .text = "" };
	struct tv_verdict v = { 0 };
	struct thresholds th;
	char secret[256], err[ENG_ERR];
	int st, rc;

	if (t->kind == 3) {
		free(r);
		return cmd_test_tcp(c);
	}
	if (!r) {
		cmd_fail("out of memory");
		return 5;
	}
	params_from_cli(t, &o.p);
	if (c->save && !t->no_record && parse_out_path(c->save, err, sizeof(err))) {
		char msg[700];

		snprintf(msg, sizeof(msg), "cannot save the record to %s: %s — give a file name in an existing directory",
			 c->save, err);
		cmd_fail(msg);
		free(r);
		return 2;
	}
	if (t->compare) {
		rc = test_compare(t->compare, &o, &saved, &diff);
		if (rc) {
			free(r);
			return rc;
		}
	}
	if (testjob_check(&o.p, err, sizeof(err))) {
		cmd_fail(err);
		rc = 2;
		goto done;
	}
	if (test_thresholds(c, &th, err, sizeof(err))) {
		cmd_fail(err);
		rc = 2;
		goto done;
	}
	if (t->accept && o.p.kind != KIND_BW) {
		cmd_fail("--accept judges bandwidth — use it with test bw");
		rc = 2;
		goto done;
	}
	if (t->secret_file) {
		rc = cmd_read_secret(t->secret_file, secret, sizeof(secret));
		if (rc)
			goto done;
		o.secret = secret;
	}
	if (!c->json && isatty(2)) {
		o.progress = progress;
	}
	st = o.perftest ? ptclient_run(&o, r, err, sizeof(err)) : client_run(&o, r, err, sizeof(err));
	if (o.progress)
		fputc('\n', stderr);
	if (st) {
		cmd_fail(err);
		if (c->json)	/* still one JSON object, with the error */
			record_write(stdout, &o, r, &rv, NULL, err);
		rc = st;
		goto done;
	}
	test_judge(t, &o, r, &th, &v, &rv);
	if (diff)
		record_compare(saved, r, diff);
	if (c->json)
		record_write(stdout, &o, r, &rv, diff, NULL);
	else
		print_table(&o, r, &rv, diff);
	if (!t->no_record)
		test_save(c, &o, r, &rv, diff);
	rc = v.state == TV_FAIL ? 1 : 0;
	if (fflush(stdout) || ferror(stdout)) {
		cmd_fail("cannot write the output");
		rc = 5;
	}
done:
	free(saved);
	free(diff);
	free(r);
	return rc;
}

/* ---- the command line: the options of test and its entry (see cli.h) ---- */

static const char *const ops[] = { "write", "read", "send", NULL };
static const char *const conns[] = { "RC", "UD", NULL };

/* test's words: the kind, then the peer (none with --compare, which
 * names it in the record). How many it took, or -1 with err. */
static int test_words(struct cli *c, int argc, char **argv, char *err, size_t errlen)
{
	static const char *const kinds[] = { "bw", "lat", "rate", "tcp", NULL };
	const char *k = argc > 0 ? argv[0] : "";
	int i;

	for (i = 0; kinds[i] && strcmp(k, kinds[i]); i++)
		;
	if (!kinds[i]) {
		snprintf(err, errlen, "test needs a kind: bw, lat, rate or tcp — e.g. ibconsole test bw PEER");
		return -1;
	}
	c->t.kind = i;	/* 3: the TCP baseline */
	c->t.peer = argc > 1 ? argv[1] : NULL;
	if (!c->t.peer && !c->t.compare) {
		snprintf(err, errlen, "test needs the PEER running 'ibconsole serve' — e.g. ibconsole test %s 10.0.0.2", k);
		return -1;
	}
	return c->t.peer ? 2 : 1;
}

/* also listed by accept */
const struct cli_option cli_opt_op = {
	"op", NULL, 0, "OP",
	"test, accept: write, read or send (bw/lat default write, rate and accept send)",
	.type = OT_CHOICE, .off = CLI_AT(t.op), .choices = ops, .bad = "bad --op", .give = "give write, read or send" };
/* also listed by accept */
const struct cli_option cli_opt_size = {
	"size", NULL, 's', "N",
	"test, accept: message size, 2 B..8 MiB, K/M/G suffixes (bw and accept 65536, lat 2, rate 4)",
	.type = OT_SIZE, .off = CLI_AT(t.size), .lo = 2, .hi = 8 << 20, .bad = "bad --size", .give = "give 2 .. 8M bytes" };
static const struct cli_option opt_sweep = {
	"sweep", "all", 'a', NULL,
	"test: every size 2 B..8 MiB (or up to --size)",
	.type = OT_FLAG, .off = CLI_AT(t.sweep) };
static const struct cli_option opt_qps = {
	"qps", NULL, 'q', "N",
	"test: queue pairs, 1..64 (rate 4, else 1)",
	.type = OT_INT, .off = CLI_AT(t.qps), .lo = 1, .hi = 64, .bad = "bad --qps", .give = "give 1..64" };
static const struct cli_option opt_bidir = {
	"bidir", "bidirectional", 'b', NULL,
	"test: both directions at once (bw, rate)",
	.type = OT_FLAG, .off = CLI_AT(t.bidir) };
/* also listed by console, accept */
const struct cli_option cli_opt_iters = {
	"iters", NULL, 'n', "N",
	"test, accept (and the console's acceptance screen): iterations per QP (write bw 5000, else 1000)",
	.type = OT_NUM_LL, .off = CLI_AT(t.iters), .lo = 5, .hi = 1e8, .bad = "bad --iters", .give = "give 5..100000000" };
/* also listed by console, triage, accept */
const struct cli_option cli_opt_duration = {
	"duration", NULL, 'D', "S",
	"test, accept (and the console's acceptance screen): run for S seconds instead of --iters; triage: each traffic run (2)",
	.type = OT_NUM, .off = CLI_AT(t.duration_s), .lo = 0.1, .hi = 3600, .bad = "bad --duration", .give = "give 0.1..3600 seconds" };
/* also listed by serve, triage, accept */
const struct cli_option cli_opt_gid_index = {
	"gid-index", NULL, 'x', "N",
	"RoCE GID index (default: the RoCE v2 IPv4 entry)",
	.type = OT_INT, .off = CLI_AT(t.gid_index), .lo = 0, .hi = 4095, .bad = "bad --gid-index", .give = "give 0..4095" };
static const struct cli_option opt_tx_depth = {
	"tx-depth", NULL, 't', "N",
	"test: WRs in flight per QP (bw 128, lat 1)",
	.type = OT_INT, .off = CLI_AT(t.tx_depth), .lo = 1, .hi = 8192, .bad = "bad --tx-depth", .give = "give 1..8192" };
static const struct cli_option opt_inline_size = {
	"inline-size", NULL, 'I', "N",
	"test: inline threshold in bytes (220; read 0)",
	.type = OT_INT, .off = CLI_AT(t.inline_size), .lo = 0, .hi = 1024, .bad = "bad --inline-size", .give = "give 0..1024" };
static const struct cli_option opt_cq_mod = {
	"cq-mod", NULL, 'Q', "N",
	"test: signal one WR in N (100; 1 above 8 KiB)",
	.type = OT_INT, .off = CLI_AT(t.cq_mod), .lo = 1, .hi = 8192, .bad = "bad --cq-mod", .give = "give 1..8192" };
static const struct cli_option opt_connection = {
	"connection", NULL, 'c', "RC|UD",
	"test: transport (UD: send only)",
	.type = OT_CHOICE, .off = CLI_AT(t.conn), .choices = conns, .nocase = true, .bad = "bad --connection", .give = "give RC or UD" };
/* also listed by serve, triage, accept */
const struct cli_option cli_opt_port = {
	"port", NULL, 'p', "P",
	"test/serve/accept: agent TCP port (18516)",
	.type = OT_INT, .off = CLI_AT(t.tcp_port), .lo = 1, .hi = 65535, .bad = "bad --port", .give = "give 1..65535" };
/* also listed by serve, triage, accept */
const struct cli_option cli_opt_secret_file = {
	"secret-file", NULL, 0, "F",
	"test/serve/accept/triage/console: the agents' shared secret (first line of F)",
	.type = OT_STR, .off = CLI_AT(t.secret_file) };
static const struct cli_option opt_compare = {
	"compare", NULL, 0, "RECORD",
	"test: rerun RECORD's test and report the differences",
	.type = OT_STR, .off = CLI_AT(t.compare) };
static const struct cli_option opt_perftest = {
	"perftest", NULL, 0, NULL,
	"test: PEER runs a perftest server (ib_{write,read,send}_{bw,lat}), port 18515",
	.type = OT_FLAG, .off = CLI_AT(t.perftest) };
static const struct cli_option opt_no_record = {
	"no-record", NULL, 0, NULL,
	"test: do not save a record",
	.type = OT_FLAG, .off = CLI_AT(t.no_record) };
/* also listed by serve, triage, accept */
const struct cli_option cli_opt_timeout = {
	"timeout", NULL, 0, "S",
	"test/serve/accept: connect and handshake time-out (10)",
	.type = OT_NUM, .off = CLI_AT(t.timeout_s), .lo = 0.5, .hi = 3600, .bad = "bad --timeout", .give = "give 0.5..3600 seconds" };
/* also listed by accept */
const struct cli_option cli_opt_line_rate = {
	"line-rate", NULL, 0, "GBPS",
	"test, accept: judge against this data rate, not the port's",
	.type = OT_NUM, .off = CLI_AT(t.line_rate), .lo = 0.001, .hi = 100000, .bad = "bad --line-rate", .give = "give Gb/s" };
static const struct cli_option opt_accept = {
	"accept", NULL, 0, NULL,
	"test bw: pass / fail at 90 % of the data rate (acceptance; default size 1 MiB, 64 KiB and up judged)",
	.type = OT_FLAG, .off = CLI_AT(t.accept) };
static const struct cli_option opt_report_gbits = {
	"report_gbits", NULL, 0, NULL,
	"results are always Gb/s; with --perftest, the server's unit too",
	.type = OT_FLAG, .off = CLI_AT(t.report_gbits) };

/* declared elsewhere: --json (cli.c), --save (cmd_fabric.c) */
static const struct cli_option *const test_opts[] = {
	&cli_opt_json, &cli_opt_save, &cli_opt_op, &cli_opt_size, &opt_sweep, &opt_qps,
	&opt_bidir, &cli_opt_iters, &cli_opt_duration, &cli_opt_gid_index, &opt_tx_depth,
	&opt_inline_size, &opt_cq_mod, &opt_connection, &cli_opt_port, &cli_opt_secret_file,
	&opt_compare, &opt_perftest, &opt_no_record, &cli_opt_timeout, &cli_opt_line_rate,
	&opt_accept, &opt_report_gbits, NULL
};

const struct cli_command cmd_test_entry = {
	"test",
	"bw|lat|rate|tcp [OPTIONS] PEER",
	"run a test against an agent ('ibconsole serve' on PEER); tcp: the TCP baseline",
	test_opts, test_words, cmd_test
};
