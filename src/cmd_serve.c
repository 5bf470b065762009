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
		if (cmd_read_secret(t->secret_file, secret, sizeof(secret)))
			return 2;
		o.secret = secret;
	}
	if (c->hosts) {
		if (hostlist_load(&order_to, c->hosts, AGENT_DEFAULT_PORT, err, sizeof(err))) {
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
