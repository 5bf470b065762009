// SPDX-License-Identifier: MIT
/* `ibconsole serve`: the command-line face of the peer agent — it serves
 * test sessions (and, with --hosts and a secret, test orders) until
 * interrupted or, with --once, after one session. */
#include "config.h"
#include "cmd_serve.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "cmdutil.h"
#include "cmd_accept.h"
#include "cmd_test.h"
#include "core/agent/agent.h"
#include "core/accept/hostlist.h"
#include "core/base/sigexit.h"
#include "core/engine/engine.h"


static void log_line(void *arg, const char *line)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];

	(void)arg;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
	fprintf(stderr, "ibconsole serve %s: %s\n", stamp, line);
}

int cmd_serve(const struct cli *c, const struct snap_opts *unused)
{
	const struct cli_test *t = &c->t;
	struct agent_opts o = { .bind = t->bind, .port = t->tcp_port, .device = c->device,
				.ib_port = c->port, .gid_index = t->gid_index,
				.timeout_ms = (int)((t->timeout_s > 0 ? t->timeout_s : 10) * 1000),
				.max_mem = (uint64_t)(t->max_mem_mb ? t->max_mem_mb : 1024) << 20,
				.sessions = t->sessions, .stop = &sigexit_stop, .log = log_line };
	char secret[256], err[ENG_ERR];
	int rc;

	static struct hostlist order_to;	/* large: not on the stack */

	if (t->secret_file) {
		int bad = cmd_read_secret(t->secret_file, secret, sizeof(secret));

		if (bad)
			return bad;
		o.secret = secret;
	}
	if (c->a.hosts) {
		if (hostlist_load(&order_to, c->a.hosts, AGENT_DEFAULT_PORT, err, sizeof(err))) {
			cmd_fail(err);
			return 2;
		}
		if (!o.secret) {
			cmd_fail("serve --hosts limits test orders, which need a shared secret — give --secret-file too");
			return 2;
		}
		o.order_to = &order_to;
	}
	sigexit_catch(NULL, NULL);
	signal(SIGPIPE, SIG_IGN);
	rc = agent_serve(&o, err, sizeof(err));
	if (rc)
		cmd_fail(err);
	sigexit_note(sigexit_stop);	/* main dies of it: 130 / 143 */
	return rc;
}

/* ---- the command line: the options of serve and its entry (see cli.h) ---- */

/* --once: serve one session; export: one collection. */
static int opt_once_fn(struct cli *c, const char *v, char *err, size_t errlen)
{
	c->t.sessions = 1;
	c->once = true;
	return 0;
}

static const struct cli_option opt_bind = {
	"bind", NULL, 0, "ADDR",
	"serve: listen on ADDR only",
	.type = OT_STR, .off = CLI_AT(t.bind) };
static const struct cli_option opt_max_mem = {
	"max-mem", NULL, 0, "MIB",
	"serve: most memory a client may lock (1024)",
	.type = OT_NUM_LL, .off = CLI_AT(t.max_mem_mb), .lo = 1, .hi = 1 << 20, .bad = "bad --max-mem", .give = "give MiB, 1..1048576" };
/* also listed by export */
const struct cli_option cli_opt_once = {
	"once", NULL, 0, NULL,
	"serve: one session, then exit with its status; export: one collection, then exit",
	.type = OT_FN, .fn = opt_once_fn };

/* declared elsewhere: --gid-index (cmd_test.c), --port (cmd_test.c),
 * --secret-file (cmd_test.c), --timeout (cmd_test.c), --hosts
 * (cmd_accept.c) */
static const struct cli_option *const serve_opts[] = {
	&cli_opt_gid_index, &cli_opt_port, &opt_bind, &cli_opt_secret_file, &cli_opt_timeout,
	&opt_max_mem, &cli_opt_once, &cli_opt_hosts, NULL
};

const struct cli_command cmd_serve_entry = {
	"serve",
	"[--bind ADDR] [-p P] [--secret-file F] [--hosts FILE] [--once]",
	"the peer agent that 'test' talks to",
	serve_opts, NULL, cmd_serve
};
