// SPDX-License-Identifier: MIT
/* Triage step 1's path rule: the rate measured against what the path is
 * known to carry (a site's --line-rate, the RoCE demo's wire measured at
 * boot). A path at half its rate with the port trained at full rate fails
 * step 1 and the degraded-link fingerprint names it; a lossy path is left
 * to step 5; a single-QP limit (1 QP slow, 8 QPs fine) stays step 7's. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/triage.h"

#define HAS(str, sub) do { if (!strstr((str), (sub))) fail_msg("\"%s\" lacks \"%s\"", (str), (sub)); } while (0)

static struct tri_evidence *ev;
static struct triage t;

static void run(struct tri_traffic *x, uint32_t qps, bool bidir, double gbps)
{
	memset(x, 0, sizeof(*x));
	x->ran = x->ok = true;
	x->qps = qps;
	x->bidir = bidir;
	x->size = 65536;
	x->gbps = gbps;
	x->numa_node = -1;
	x->numa_placed = true;
}

/* Soft-RoCE as the demo has it: 1X SDR 2.5 Gb/s reported, a wire that
 * carries 0.1 Gb/s (the line), all three runs at the line. */
static int setup(void **s)
{
	struct port_info *p;

	(void)s;
	ev = calloc(1, sizeof(*ev));
	assert_non_null(ev);
	p = &ev->local;
	ev->local_valid = true;
	ev->gid_given = -1;
	snprintf(p->dev, sizeof(p->dev), "rxe0");
	p->port = 1;
	p->state = 4;
	p->phys_state = 5;
	snprintf(p->link_layer, sizeof(p->link_layer), "Ethernet");
	p->width_active = 0x01;	/* 1X */
	snprintf(p->speed_name, sizeof(p->speed_name), "SDR");
	p->rate_gbps = 2.5;
	snprintf(p->netdev, sizeof(p->netdev), "eth1");
	ev->nports = 1;
	snprintf(ev->ports[0].dev, sizeof(ev->ports[0].dev), "rxe0");
	ev->ports[0].port = 1;
	ev->ports[0].state = 4;
	ev->ports[0].phys_state = 5;
	snprintf(ev->ports[0].link_layer, sizeof(ev->ports[0].link_layer), "Ethernet");
	snprintf(ev->ports[0].netdev, sizeof(ev->ports[0].netdev), "eth1");
	ev->ports[0].under_test = true;
	ev->memlock.valid = ev->memlock.unlimited = true;
	snprintf(ev->peer, sizeof(ev->peer), "192.168.77.1");
	ev->line_gbps = 0.1;
	snprintf(ev->line_origin, sizeof(ev->line_origin), "measured at boot");
	run(&ev->bw1, 1, false, 0.1);
	run(&ev->bw8, 8, false, 0.1);
	run(&ev->load, 8, true, 0.2);
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	free(ev);
	return 0;
}

static void ctr(struct testctr *c, const char *name, uint64_t delta)
{
	snprintf(c->c[c->n].name, sizeof(c->c[c->n].name), "%s", name);
	c->c[c->n++].delta = delta;
}

static void line_passes(void **s)
{
	(void)s;
	triage_eval(ev, &t);
	assert_true(t.r[TRI_RATE].state < TRI_WARN);
	HAS(t.r[TRI_RATE].lines[t.r[TRI_RATE].nlines - 1], "100 % of the 0.1 Gb/s it carries (measured at boot)");
	assert_int_equal(t.fp.id, FP_NONE);
	assert_int_not_equal(t.c.step, TRI_RATE);
}

static void half_fails_step1(void **s)
{
	(void)s;
	ev->bw1.gbps = ev->bw8.gbps = 0.05;
	ev->load.gbps = 0.1;
	triage_eval(ev, &t);
	assert_int_equal(t.r[TRI_RATE].state, TRI_FAIL);
	assert_string_equal(t.r[TRI_RATE].reason,
			    "the port trained at 1X SDR, the path carries 50 % of its 0.1 Gb/s (below 75 %, triage.path_rate_min), with no sequence gap");
	HAS(t.r[TRI_RATE].hint, "other switch ports");
	/* the reference's "about half" fingerprint, against the line */
	assert_int_equal(t.fp.id, FP_LINK_RATE);
	if (t.c.step != TRI_RATE) fail_msg("concluded %d: %s", t.c.step, t.c.text);
	/* retries with no sequence gap (acks late behind a deep queue):
	 * nothing lost, still the path */
	ctr(&ev->bw8.local_ctr, "local_ack_timeout_err", 30);
	ctr(&ev->bw8.peer_ctr, "duplicate_request", 30);
	triage_eval(ev, &t);
	assert_int_equal(t.r[TRI_RATE].state, TRI_FAIL);
	/* just above the threshold: passes; the config key moves it */
	ev->bw8.gbps = 0.076;
	triage_eval(ev, &t);
	assert_true(t.r[TRI_RATE].state < TRI_WARN);
	ev->bw8.gbps = 0.05;
	ev->path_rate_min = 0.4;
	triage_eval(ev, &t);
	assert_true(t.r[TRI_RATE].state < TRI_WARN);
}

/* A slow path that loses packets is step 5's (steady loss) */
static void lossy_is_not_step1(void **s)
{
	(void)s;
	ev->bw1.gbps = ev->bw8.gbps = 0.02;
	ctr(&ev->bw8.local_ctr, "rcvd_seq_err", 40);
	triage_eval(ev, &t);
	assert_true(t.r[TRI_RATE].state < TRI_WARN);
	HAS(t.r[TRI_RATE].lines[t.r[TRI_RATE].nlines - 1], "loss, which step 5 judges");
}

/* One QP held to a quarter, eight carry the wire: step 7, not the path */
static void single_qp_is_step7(void **s)
{
	(void)s;
	ev->bw1.gbps = 0.025;
	ev->bw8.gbps = 0.19;
	triage_eval(ev, &t);
	assert_true(t.r[TRI_RATE].state < TRI_WARN);
	assert_int_equal(t.r[TRI_QPS].state, TRI_INFO);
	HAS(t.r[TRI_QPS].reason, "a single-QP limit");
	if (t.c.step != TRI_QPS)
		fail_msg("concluded %d: %s", t.c.step, t.c.text);
}

/* 8 QPs at 1.3x one: a single-QP limit by default, not with
 * triage.qp_gain = 2 (the RoCE demo's) */
static void qp_gain_key(void **s)
{
	(void)s;
	ev->bw1.gbps = 0.1;
	ev->bw8.gbps = 0.13;
	triage_eval(ev, &t);
	assert_int_equal(t.r[TRI_QPS].state, TRI_INFO);
	ev->qp_gain = 2;
	triage_eval(ev, &t);
	assert_int_equal(t.r[TRI_QPS].state, TRI_PASS);
	ev->bw1.gbps = 0.025;
	ev->bw8.gbps = 0.19;
	triage_eval(ev, &t);
	assert_int_equal(t.r[TRI_QPS].state, TRI_INFO);
}

/* Nothing known about the line: the rule says nothing */
static void no_line_no_rule(void **s)
{
	(void)s;
	ev->line_gbps = 0;
	ev->bw1.gbps = ev->bw8.gbps = 0.05;
	triage_eval(ev, &t);
	assert_true(t.r[TRI_RATE].state < TRI_WARN);
	for (int i = 0; i < t.r[TRI_RATE].nlines; i++)
		assert_null(strstr(t.r[TRI_RATE].lines[i], "the path"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(line_passes, setup, teardown),
		cmocka_unit_test_setup_teardown(half_fails_step1, setup, teardown),
		cmocka_unit_test_setup_teardown(lossy_is_not_step1, setup, teardown),
		cmocka_unit_test_setup_teardown(single_qp_is_step7, setup, teardown),
		cmocka_unit_test_setup_teardown(no_line_no_rule, setup, teardown),
		cmocka_unit_test_setup_teardown(qp_gain_key, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
