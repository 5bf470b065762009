// SPDX-License-Identifier: MIT
/* `ibconsole test tcp PEER`: the TCP baseline against the agent — one
 * stream over the same network path as the RDMA tests, Gb/s each second
 * and the receiver's total, as text or one JSON object. */
#include "config.h"
#include "cmd_tcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdutil.h"
#include "core/testrun/tcptest.h"
#include "core/testrun/testjob.h"
#include "core/base/json.h"

static void progress(void *arg, double t_s, double gbps, uint64_t bytes)
{
	(void)arg;
	fprintf(stderr, "\r  %6.1f s  %10.4f Gb/s  %14llu B sent   ", t_s, gbps, (unsigned long long)bytes);
}

static void write_json(FILE *f, const struct tcptest_opts *o, const struct tcptest_result *r, const char *error)
{
	struct json j;

	json_init(&j, f);
	json_obj_begin(&j, NULL);
	json_str(&j, "schema", "ibconsole/tcp/1");
	json_str(&j, "peer", o->peer);
	json_int(&j, "port", r->port);
	json_int(&j, "duration_s", o->seconds);
	json_arr_begin(&j, "per_second_gbps");
	for (int i = 0; i < r->nsec; i++)
		json_num(&j, NULL, r->sec_gbps[i]);
	json_arr_end(&j);
	json_int(&j, "sent_bytes", (long long)r->sent);
	if (error) {
		json_null(&j, "bytes");
		json_null(&j, "gbps");
		json_str(&j, "error", error);
	} else {
		json_int(&j, "bytes", (long long)r->bytes);
		json_num(&j, "seconds", r->seconds);
		json_num(&j, "gbps", r->gbps);
		json_null(&j, "error");
	}
	json_obj_end(&j);
	fputc('\n', f);
}

int cmd_test_tcp(const struct cli *c)
{
	const struct cli_test *t = &c->t;
	struct tcptest_opts o = { .peer = t->peer, .agent_port = t->tcp_port,
				  .seconds = t->duration_s > 0 ? (uint32_t)(t->duration_s + 0.5) : 10,
				  .timeout_ms = (int)((t->timeout_s > 0 ? t->timeout_s : 10) * 1000) };
	struct tcptest_result *r = calloc(1, sizeof(*r));
	char secret[256], err[400];
	int st;

	if (!r) {
		fprintf(stderr, "ibconsole: out of memory\n");
		return 5;
	}
	if (!o.peer) {
		fprintf(stderr, "ibconsole: test tcp needs the PEER running 'ibconsole serve' — e.g. ibconsole test tcp 10.0.0.2\n");
		free(r);
		return 2;
	}
	if (t->secret_file) {
		int bad = cmd_read_secret(t->secret_file, secret, sizeof(secret));

		if (bad) {
			free(r);
			return bad;
		}
		o.secret = secret;
	}
	if (!c->json && isatty(2))
		o.progress = progress;
	st = tcptest_run(&o, r, err, sizeof(err));
	if (o.progress)
		fputc('\n', stderr);
	if (st)
		fprintf(stderr, "ibconsole: %s\n", err);
	if (c->json) {
		write_json(stdout, &o, r, st ? err : NULL);
	} else if (!st) {
		printf(" TCP baseline to %s port %d, one stream, %u s\n", o.peer, r->port, o.seconds);
		for (int i = 0; i < r->nsec; i++)
			printf("   %3d s  %9.3f Gb/s\n", i + 1, r->sec_gbps[i]);
		printf(" received: %llu B in %.2f s = %.3f Gb/s\n", (unsigned long long)r->bytes, r->seconds, r->gbps);
	}
	free(r);
	if (!st && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "ibconsole: cannot write the output\n");
		return 5;
	}
	return st;
}
