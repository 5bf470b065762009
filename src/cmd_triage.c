// SPDX-License-Identifier: MIT
/* `ibconsole triage [--peer HOST] [--json] [--report FILE]`: gathers the
 * evidence, checks the environment before any test, runs the traffic
 * steps against the peer's agent, judges every step and writes the walk. */
#include "config.h"
#include "cmd_triage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdutil.h"
#include "cmd_test.h"
#include "core/triage/gather.h"
#include "diag/portfacts.h"
#include "diag/triage.h"
#include "diag/triage_report.h"

/* FILE gets the Markdown, FILE.json the JSON. */
static int write_report(const char *path, const struct tri_evidence *ev, const struct triage *t)
{
	char jpath[1100], msg[1300];
	FILE *m = fopen(path, "w"), *j;

	snprintf(jpath, sizeof(jpath), "%s.json", path);
	j = m ? fopen(jpath, "w") : NULL;
	if (!m || !j) {
		snprintf(msg, sizeof(msg), "cannot write the report %s: %s — give a writable path with --report",
			 m ? jpath : path, strerror(errno));
		if (m)
			fclose(m);
		cmd_fail(msg);
		return -1;
	}
	triage_write_markdown(m, ev, t);
	triage_write_json(j, ev, t);
	if (fclose(m) | fclose(j)) {
		snprintf(msg, sizeof(msg), "cannot write the report %s: %s — check the disk", path, strerror(errno));
		cmd_fail(msg);
		return -1;
	}
	return 0;
}

int cmd_triage(const struct cli *c, const struct snap_opts *so)
{
	struct tri_opts o = {
		.snap = so, .config = c->config, .peer = c->t.peer, .tcp_port = c->t.tcp_port,
		.timeout_s = c->t.timeout_s, .gid_index = c->t.gid_index,
		.duration_s = c->t.duration_s,
		.judge = portfacts_judge,
	};
	struct tri_evidence *ev = calloc(1, sizeof(*ev));
	struct triage *t = calloc(1, sizeof(*t));
	char secret[256], err[512];
	int st;

	if (!ev || !t) {
		cmd_fail("cannot start the triage: out of memory — close other programs and retry");
		free(ev);
		free(t);
		return 5;
	}
	if (c->t.secret_file) {
		int bad = cmd_read_secret(c->t.secret_file, secret, sizeof(secret));

		if (bad) {
			free(ev);
			free(t);
			return bad;
		}
		o.secret = secret;
	}
	st = tri_gather_local(ev, &o, err, sizeof(err));
	if (st) {
		cmd_fail(err);
		free(ev);
		free(t);
		return st;
	}
	/* the environment first: no test runs where memory registration
	 * would fail or the port is not up */
	if (triage_env_ok(ev)) {
		if (o.peer && !c->json)
			fprintf(stderr, "triage: running the traffic steps against %s (3 runs)...\n", o.peer);
		tri_gather_traffic(ev, &o, TRI_RUN_ALL);
	} else {
		const char *why = "not run: the environment check failed";

		snprintf(ev->bw1.err, sizeof(ev->bw1.err), "%s", why);
		snprintf(ev->bw8.err, sizeof(ev->bw8.err), "%s", why);
		snprintf(ev->load.err, sizeof(ev->load.err), "%s", why);
		if (o.peer)
			snprintf(ev->peer_why, sizeof(ev->peer_why), "%s", why);
	}
	triage_eval(ev, t);
	if (c->json)
		triage_write_json(stdout, ev, t);
	else
		triage_write_text(stdout, ev, t);
	st = t->any_fail ? 1 : 0;
	if (c->report && write_report(c->report, ev, t))
		st = 5;
	free(ev);
	free(t);
	return st;
}

/* ---- the command line: the options of triage and its entry (see cli.h) ---- */

/* also listed by console */
const struct cli_option cli_opt_peer = {
	"peer", NULL, 0, "HOST",
	"triage, console: the peer's agent (ibconsole serve) for the tests and the traffic steps",
	.type = OT_STR, .off = CLI_AT(t.peer) };
static const struct cli_option opt_report = {
	"report", NULL, 0, "FILE",
	"triage: write the walk as Markdown to FILE and as JSON to FILE.json",
	.type = OT_STR, .off = CLI_AT(report) };

/* declared elsewhere: --json (cli.c), --no-smp (cli.c), --duration
 * (cmd_test.c), --gid-index (cmd_test.c), --port (cmd_test.c),
 * --secret-file (cmd_test.c), --timeout (cmd_test.c) */
static const struct cli_option *const triage_opts[] = {
	&cli_opt_json, &cli_opt_no_smp, &cli_opt_duration, &cli_opt_gid_index, &cli_opt_port,
	&cli_opt_secret_file, &cli_opt_timeout, &cli_opt_peer, &opt_report, NULL
};

const struct cli_command cmd_triage_entry = {
	"triage",
	"[--peer HOST] [--json] [--report FILE] [-x N]",
	"the seven-step triage: environment, rate, PCIe, GID, MTU, lossless, NUMA, QPs",
	triage_opts, NULL, cmd_triage
};
