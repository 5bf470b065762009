// SPDX-License-Identifier: MIT
/* Triage step 1's link quality: both ends' bit error rates over the
 * window, this end's optic beside its own alarm (the QSFP28 fixture), and
 * the cable / optic advice naming the end to start at. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/counters/counters.h"
#include "core/optics/source.h"
#include "diag/triage.h"

#define HAS(str, sub) do { if (!strstr((str), (sub))) fail_msg("\"%s\" lacks \"%s\"", (str), (sub)); } while (0)

static struct tri_evidence *ev;
static struct tri_result r;

/* A 4X HDR InfiniBand port (53.125 Gb/s a lane) and its neighbour, both
 * sampled 10 s apart with no symbol error. */
static int setup(void **s)
{
	struct port_info *p;
	struct tri_errors *e;

	(void)s;
	ev = calloc(1, sizeof(*ev));
	assert_non_null(ev);
	p = &ev->local;
	ev->local_valid = true;
	ev->gid_given = -1;
	snprintf(p->dev, sizeof(p->dev), "mlx5_0");
	p->port = 1;
	p->state = 4;
	p->phys_state = 5;
	snprintf(p->link_layer, sizeof(p->link_layer), "InfiniBand");
	p->width_active = 0x02;	/* 4X */
	p->lane_gbps = 53.125;
	snprintf(p->speed_name, sizeof(p->speed_name), "HDR");
	p->rate_gbps = 200;
	e = &ev->errors;
	e->local_valid = e->peer_valid = true;
	e->span_s = 10;
	snprintf(e->peer_label, sizeof(e->peer_label), "leaf02 port 2");
	counters_put(&e->local_prev, "SymbolErrorCounter", 7)->bits = 16;
	e->local_prev.c[0].valid = true;
	e->local_cur = e->peer_prev = e->peer_cur = e->local_prev;
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	free(ev);
	return 0;
}

static const char *line_with(const char *sub)
{
	for (int i = 0; i < r.nlines; i++)
		if (strstr(r.lines[i], sub))
			return r.lines[i];
	fail_msg("no evidence line with \"%s\"", sub);
	return "";
}

/* 60 symbol errors at the other end in 10 s: 60 / (4 x 53.125e9 x 10)
 * = 2.8e-11; the advice starts at the end that receives them. */
static void other_end_errors(void **s)
{
	(void)s;
	ev->errors.peer_cur.c[0].value = 7 + 60;
	triage_step(ev, TRI_RATE, &r);
	HAS(line_with("leaf02 port 2 bit error rate"), "2.8e-11 over 10 s (60 symbol errors over 2.12e+12 bits)");
	HAS(line_with("this end bit error rate"), "< 1.4e-12 over 10 s");
	assert_int_equal(r.state, TRI_FAIL);
	HAS(r.hint, "start with the optic / cable into leaf02 port 2");
	HAS(r.hint, "the optic at this end (its transmitter)");
	/* the errors here instead: the advice turns round */
	ev->errors.peer_cur.c[0].value = 7;
	ev->errors.local_cur.c[0].value = 7 + 60;
	triage_step(ev, TRI_RATE, &r);
	HAS(r.hint, "start with the optic / cable into this end");
	HAS(r.hint, "the optic at leaf02 port 2 (its transmitter)");
}

/* The config's levels judge the rate: with ber_watch at 1e-10 the
 * other end's 2.8e-11 names no end to start at; at its default it does. */
static void config_levels(void **s)
{
	(void)s;
	ev->errors.peer_cur.c[0].value = 7 + 60;
	ev->ber_watch = 1e-10;
	ev->ber_act = 1e-8;
	triage_step(ev, TRI_RATE, &r);
	HAS(line_with("leaf02 port 2 bit error rate"), "2.8e-11 over 10 s");
	assert_null(strstr(r.hint, "start with the optic / cable"));
	ev->ber_watch = 1e-11;
	triage_step(ev, TRI_RATE, &r);
	HAS(r.hint, "start with the optic / cable into leaf02 port 2");
}

/* No error, but this end's optic reads 1.5 dB above its low alarm. */
static void optic_near_alarm(void **s)
{
	(void)s;
	ev->local.module_asked = true;
	optics_set_dump_root(OPTICS_FIXTURES);
	optics_port_read(&ev->local.module, "qsfp28", 2.0, 1);
	optics_set_dump_root(NULL);
	assert_true(ev->local.module.readable);
	triage_step(ev, TRI_RATE, &r);
	assert_string_equal(line_with("this end's optic"),
			    "this end's optic: QSFP28 ACME OPTICS QSFP28-SR4-100G, lane 1 receives -12.5 dBm, "
			    "1.5 dB above the low receive-power alarm");
	assert_int_equal(r.state, TRI_WARN);
	HAS(r.hint, "clean both connectors of this end's optic");
	HAS(r.hint, "lane 1 receives -12.5 dBm, 1.5 dB above the low receive-power alarm");
	/* unreadable: one line why, no number */
	memset(&ev->local.module, 0, sizeof(ev->local.module));
	snprintf(ev->local.module.why, sizeof(ev->local.module.why), "ib0: the driver does not expose the module");
	triage_step(ev, TRI_RATE, &r);
	assert_string_equal(line_with("this end's optic"), "this end's optic: n/a (ib0: the driver does not expose the module)");
	assert_int_not_equal(r.state, TRI_WARN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(other_end_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(optic_near_alarm, setup, teardown),
		cmocka_unit_test_setup_teardown(config_levels, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
