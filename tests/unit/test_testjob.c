// SPDX-License-Identifier: MIT
/* Unit tests for the console's test-run helpers: perftest's defaults and
 * the parameter checks (one rule for the command line and the form), the
 * peer's host name from a node description, the recent-peer list, and
 * the agents' secret the console's test, acceptance and triage share. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/testrun/peer.h"
#include "core/testrun/testjob.h"

static struct proto_params params(int kind, int op, long long size, bool sweep, int conn)
{
	struct tj_choice c = { .kind = kind, .op = op, .conn = conn, .size = size, .sweep = sweep,
			       .tx_depth = -1, .inline_size = -1, .cq_mod = -1 };
	struct proto_params p;

	testjob_params(&c, &p);
	return p;
}

static void test_defaults(void **state)
{
	struct proto_params p;

	(void)state;
	p = params(KIND_BW, -1, -1, false, CONN_RC);	/* ib_write_bw */
	assert_int_equal(p.op, OP_WRITE);
	assert_int_equal(p.size, 65536);
	assert_int_equal(p.iters, 5000);
	assert_int_equal(p.qps, 1);
	assert_int_equal(p.tx_depth, 128);
	assert_int_equal(p.cq_mod, 1);		/* above 8 KiB: every WR signalled */
	assert_int_equal(p.inline_size, 220);
	p = params(KIND_BW, OP_READ, -1, false, CONN_RC);	/* ib_read_bw */
	assert_int_equal(p.iters, 1000);
	assert_int_equal(p.inline_size, 0);
	p = params(KIND_LAT, -1, -1, false, CONN_RC);	/* ib_write_lat */
	assert_int_equal(p.size, 2);
	assert_int_equal(p.tx_depth, 1);
	assert_int_equal(p.cq_mod, 1);
	p = params(KIND_RATE, -1, -1, false, CONN_RC);	/* message rate: send, 4 B, 4 QPs */
	assert_int_equal(p.op, OP_SEND);
	assert_int_equal(p.size, 4);
	assert_int_equal(p.qps, 4);
	assert_int_equal(p.cq_mod, 100);
	p = params(KIND_BW, -1, -1, true, CONN_RC);	/* sweep: up to 8 MiB, moderated */
	assert_int_equal(p.size, 8u << 20);
	assert_int_equal(p.flags & PARAM_SWEEP, PARAM_SWEEP);
	assert_int_equal(p.cq_mod, 100);
	assert_int_equal(p.counter_ms, 1000);
}

static void test_checks(void **state)
{
	struct proto_params p;
	char err[ENG_ERR];

	(void)state;
	p = params(KIND_BW, -1, -1, false, CONN_RC);
	assert_int_equal(testjob_check(&p, err, sizeof(err)), 0);
	p = params(KIND_BW, OP_WRITE, -1, false, CONN_UD);
	assert_int_equal(testjob_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "UD carries send only"));
	assert_non_null(strstr(err, " \xe2\x80\x94 "));		/* what to do follows */
	p = params(KIND_LAT, -1, -1, false, CONN_RC);
	p.qps = 2;
	assert_int_equal(testjob_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "one QP"));
	p = params(KIND_BW, -1, 1ll << 30, false, CONN_RC);	/* above 8 MiB */
	assert_int_equal(testjob_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bad test parameters"));
}

static void test_peer_host(void **state)
{
	char h[16];

	(void)state;
	testjob_peer_host("node12 mlx5_0", h, sizeof(h));
	assert_string_equal(h, "node12");
	testjob_peer_host("  node7\tHCA-1", h, sizeof(h));
	assert_string_equal(h, "node7");
	testjob_peer_host("", h, sizeof(h));
	assert_string_equal(h, "");
	testjob_peer_host("averyveryverylonghostname x", h, sizeof(h));
	assert_int_equal(strlen(h), sizeof(h) - 1);	/* clipped, terminated */
}

static void test_recent_peers(void **state)
{
	char dir[] = "/tmp/ibc-testjob.XXXXXX", peers[TJ_MAX_PEERS][128], cmd[300];
	int n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("XDG_STATE_HOME", dir, 1);
	assert_int_equal(testjob_peers_load(peers, TJ_MAX_PEERS), 0);
	assert_int_equal(testjob_peers_remember("a"), 0);
	assert_int_equal(testjob_peers_remember("b"), 0);
	assert_int_equal(testjob_peers_remember("a"), 0);	/* back to the front, once */
	n = testjob_peers_load(peers, TJ_MAX_PEERS);
	assert_int_equal(n, 2);
	assert_string_equal(peers[0], "a");
	assert_string_equal(peers[1], "b");
	for (int i = 0; i < 20; i++) {
		char name[8];

		snprintf(name, sizeof(name), "h%d", i);
		assert_int_equal(testjob_peers_remember(name), 0);
	}
	n = testjob_peers_load(peers, TJ_MAX_PEERS);
	assert_int_equal(n, TJ_MAX_PEERS);		/* the oldest fall off */
	assert_string_equal(peers[0], "h19");
	assert_int_equal(testjob_peers_remember(""), -1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* One secret for the console's screens: none set is none (0), a file is
 * read when asked (its first line), a bad one is an error with the fix;
 * marking another peer keeps it. */
static void test_peer_secret(void **state)
{
	char dir[] = "/tmp/ibc-secret.XXXXXX", path[64], buf[64], err[300], cmd[100];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	peer_set_secret_file(NULL);
	assert_int_equal(peer_secret(buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "");
	snprintf(path, sizeof(path), "%s/s", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("s3cret\nsecond line\n", f);
	fclose(f);
	peer_set_secret_file(path);
	peer_set_host("node12");
	assert_int_equal(peer_secret(buf, sizeof(buf), err, sizeof(err)), 1);
	assert_string_equal(buf, "s3cret");
	peer_secret_file(buf, sizeof(buf));
	assert_string_equal(buf, path);
	/* read when asked: the file's newest first line */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("other\n", f);
	fclose(f);
	assert_int_equal(peer_secret(buf, sizeof(buf), err, sizeof(err)), 1);
	assert_string_equal(buf, "other");
	unlink(path);
	assert_int_equal(peer_secret(buf, sizeof(buf), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read the secret file"));
	assert_non_null(strstr(err, " — give a readable file"));
	peer_set_secret_file("");
	assert_int_equal(peer_secret(buf, sizeof(buf), err, sizeof(err)), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_peer_host),
		cmocka_unit_test(test_recent_peers),
		cmocka_unit_test(test_peer_secret),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
