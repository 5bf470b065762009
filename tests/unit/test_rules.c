// SPDX-License-Identifier: MIT
/* cmocka tests of thresholds (defaults, config overrides) and the
 * ok / watch / act verdicts, plus the event log. */
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

#include "core/counters/eventlog.h"
#include "diag/baseline.h"
#include "diag/ctrclass.h"
#include "diag/rules.h"
#include "diag/thresholds.h"

static struct delta_port dp;

static void feed(const char *name, uint64_t v, double t)
{
	struct counter_set cs;

	memset(&cs, 0, sizeof(cs));
	cs.valid = true;
	counters_put(&cs, name, v)->bits = 16;
	cs.c[0].saturates = true;
	delta_update(&dp, &cs, t);
}

static void start_ok(struct verdict *v)
{
	memset(v, 0, sizeof(*v));
}

static void test_defaults_brief(void **state)
{
	struct thresholds th;
	struct verdict v;

	thresholds_defaults(&th);
	assert_true(th.window_s == 600.0);
	delta_init(&dp, "p/1", 1.0);
	/* a history of ten minutes and more: the counts are the window's */
	feed("PortRcvErrors", 0, 0);
	feed("PortRcvErrors", 0, 600);
	feed("PortRcvErrors", 4, 660);
	rules_eval_delta(&dp, &th, 660, &v);
	assert_int_equal(v.level, VERDICT_OK);	/* < 5 in 10 min */
	feed("PortRcvErrors", 5, 720);
	rules_eval_delta(&dp, &th, 720, &v);
	assert_int_equal(v.level, VERDICT_WATCH);
	assert_string_equal(v.counter, "PortRcvErrors");
	assert_string_equal(v.rule, "errors-in-window");
	feed("PortRcvErrors", 51, 780);
	rules_eval_delta(&dp, &th, 780, &v);
	assert_int_equal(v.level, VERDICT_ACT);	/* > 50 in 10 min */
	assert_int_equal(v.count, 51);
	assert_int_equal(v.threshold, 50);
	assert_non_null(strstr(v.text, "PortRcvErrors"));
	/* eleven quiet minutes later the window has forgotten */
	feed("PortRcvErrors", 51, 780 + 660);
	rules_eval_delta(&dp, &th, 780 + 660, &v);
	assert_int_equal(v.level, VERDICT_OK);
}

static void test_config_file(void **state)
{
	char path[] = "/tmp/ibc-th-XXXXXX", err[256] = "";
	struct thresholds th;
	uint64_t w, a;
	FILE *f;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fprintf(f, "# site overrides\nerror_window_s = 300\nerror_act = 20\n"
		   "SymbolErrorCounter=100\nLinkDownedCounter.watch = 1\n"
		   "theme = dark\nagent.port = 18515\nrcvd_seq_err = 7\n");
	fclose(f);
	thresholds_defaults(&th);
	assert_int_equal(thresholds_load(&th, path, err, sizeof(err)), 0);
	assert_true(th.window_s == 300.0);
	thresholds_get(&th, "PortRcvErrors", &w, &a);
	assert_int_equal(w, 5);
	assert_int_equal(a, 20);
	assert_non_null(strstr(thresholds_get(&th, "SymbolErrorCounter", &w, &a), "config"));
	assert_int_equal(a, 100);
	thresholds_get(&th, "LinkDownedCounter", &w, &a);
	assert_int_equal(w, 1);
	thresholds_get(&th, "rcvd_seq_err", &w, &a);
	assert_int_equal(a, 7);
	/* a bad value for one of ours names the line */
	f = fopen(path, "w");
	fprintf(f, "error_act = 20\nPortRcvErrors = lots\n");
	fclose(f);
	thresholds_defaults(&th);
	assert_int_equal(thresholds_load(&th, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":2:"));
	unlink(path);
	assert_int_equal(thresholds_load(&th, path, err, sizeof(err)), 1);
}

static void test_values_rule(void **state)
{
	struct thresholds th;
	struct counter_set cs;
	struct verdict v;
	struct ctr_value *x;

	thresholds_defaults(&th);
	memset(&cs, 0, sizeof(cs));
	cs.valid = true;
	x = counters_put(&cs, "SymbolErrorCounter", 65535);
	x->bits = 16;
	x->saturates = true;
	counters_put(&cs, "PortXmitWait", 1000000)->bits = 32;
	rules_eval_values(&cs, &th, &v);
	assert_int_equal(v.level, VERDICT_ACT);
	assert_true(v.lower_bound);	/* saturated: at least */
	assert_string_equal(v.rule, "errors-since-clear");
	assert_string_equal(v.window, "since last clear");
	assert_non_null(strstr(v.text, "since last clear"));
	/* lifetime levels, not the 10-minute ones: 49 ok… */
	memset(&cs, 0, sizeof(cs));
	counters_put(&cs, "PortRcvErrors", 49)->bits = 16;
	rules_eval_values(&cs, &th, &v);
	assert_int_equal(v.level, VERDICT_OK);	/* > 5: the window rule would watch */
	cs.c[0].value = 50;			/* … 50 watch, 100 watch, 101 act */
	rules_eval_values(&cs, &th, &v);
	assert_int_equal(v.level, VERDICT_WATCH);
	cs.c[0].value = 100;
	rules_eval_values(&cs, &th, &v);
	assert_int_equal(v.level, VERDICT_WATCH);
	cs.c[0].value = 101;
	rules_eval_values(&cs, &th, &v);
	assert_int_equal(v.level, VERDICT_ACT);
	/* a saturated 16-bit counter whose levels a site raised: still watch */
	th.life_act = 100000;
	th.life_watch = 100000;
	memset(&cs, 0, sizeof(cs));
	x = counters_put(&cs, "SymbolErrorCounter", 65535);
	x->bits = 16;
	x->saturates = true;
	rules_eval_values(&cs, &th, &v);
	assert_int_equal(v.level, VERDICT_WATCH);
	assert_string_equal(v.rule, "counter-saturated");
	thresholds_defaults(&th);
	/* congestion alone is no error verdict */
	memset(&cs, 0, sizeof(cs));
	counters_put(&cs, "PortXmitWait", 1000000)->bits = 32;
	rules_eval_values(&cs, &th, &v);
	assert_int_equal(v.level, VERDICT_OK);
}

/* The live rule at its boundaries, per counter and summed per port;
 * LinkDownedCounter: any rise is watch; a saturated counter is watch. */
static void feed2(const char *a, uint64_t va, const char *b, uint64_t vb, double t)
{
	struct counter_set cs;

	memset(&cs, 0, sizeof(cs));
	cs.valid = true;
	counters_put(&cs, a, va)->bits = 16;
	counters_put(&cs, b, vb)->bits = 16;
	cs.c[0].saturates = cs.c[1].saturates = true;
	delta_update(&dp, &cs, t);
}

static void test_window_rules(void **state)
{
	struct thresholds th;
	struct verdict v;

	thresholds_defaults(&th);
	delta_init(&dp, "p/1", 1.0);
	feed2("PortRcvErrors", 0, "SymbolErrorCounter", 0, 0);
	feed2("PortRcvErrors", 0, "SymbolErrorCounter", 0, 600);
	feed2("PortRcvErrors", 3, "SymbolErrorCounter", 1, 660);	/* 4 in all */
	rules_eval_delta(&dp, &th, 660, &v);
	assert_int_equal(v.level, VERDICT_OK);
	assert_string_equal(v.window, "in 10 min");
	feed2("PortRcvErrors", 3, "SymbolErrorCounter", 2, 670);	/* 5 in all */
	rules_eval_delta(&dp, &th, 670, &v);
	assert_int_equal(v.level, VERDICT_WATCH);
	assert_string_equal(v.rule, "errors-in-window-port");
	feed2("PortRcvErrors", 25, "SymbolErrorCounter", 25, 680);	/* 25 + 25 = 50 */
	rules_eval_delta(&dp, &th, 680, &v);
	assert_int_equal(v.level, VERDICT_WATCH);	/* not > 50 */
	assert_string_equal(v.counter, "PortRcvErrors");	/* 25 >= 5 itself */
	feed2("PortRcvErrors", 26, "SymbolErrorCounter", 25, 690);	/* 26 + 25 = 51 > 50 */
	rules_eval_delta(&dp, &th, 690, &v);
	assert_int_equal(v.level, VERDICT_ACT);
	assert_string_equal(v.rule, "errors-in-window-port");
	assert_int_equal(v.count, 51);

	/* one link down in the window: watch though 1 < 5 */
	delta_init(&dp, "p/1", 1.0);
	feed2("LinkDownedCounter", 0, "PortRcvErrors", 0, 0);
	feed2("LinkDownedCounter", 0, "PortRcvErrors", 0, 610);
	rules_eval_delta(&dp, &th, 610, &v);
	assert_int_equal(v.level, VERDICT_OK);
	feed2("LinkDownedCounter", 1, "PortRcvErrors", 0, 620);
	rules_eval_delta(&dp, &th, 620, &v);
	assert_int_equal(v.level, VERDICT_WATCH);
	assert_string_equal(v.rule, "link-downed");

	/* a 16-bit counter sitting at 65535 from the first sample: its delta
	 * is 0, but the verdict must not say ok */
	delta_init(&dp, "p/1", 1.0);
	feed2("SymbolErrorCounter", 65535, "PortRcvErrors", 0, 0);
	feed2("SymbolErrorCounter", 65535, "PortRcvErrors", 0, 10);
	rules_eval_delta(&dp, &th, 10, &v);
	assert_int_equal(v.level, VERDICT_WATCH);
	assert_string_equal(v.rule, "counter-saturated");
	assert_non_null(strstr(v.text, "16-bit"));
}

/* errors --interval: the deltas between two sweeps. */
static void test_interval_rule(void **state)
{
	struct thresholds th;
	struct counter_set a, b;
	struct verdict v;

	thresholds_defaults(&th);
	memset(&a, 0, sizeof(a));
	counters_put(&a, "PortRcvErrors", 1000)->bits = 16;	/* lifetime: act */
	b = a;
	rules_eval_interval(&a, &b, &th, 10, &v);
	assert_int_equal(v.level, VERDICT_OK);	/* nothing moved */
	assert_string_equal(v.window, "in 10 s");
	b.c[0].value = 1005;
	rules_eval_interval(&a, &b, &th, 600, &v);
	assert_int_equal(v.level, VERDICT_WATCH);
	assert_int_equal(v.count, 5);
}

static void interval_of(const char *name, uint64_t n, double s, struct verdict *v)
{
	struct thresholds th;
	struct counter_set a, b;

	thresholds_defaults(&th);
	memset(&a, 0, sizeof(a));
	counters_put(&a, name, 100)->bits = 16;
	counters_put(&a, "PortRcvErrors", 0)->bits = 16;
	b = a;
	b.c[0].value = 100 + n;
	rules_eval_interval(&a, &b, &th, s, v);
}

/* Every window is judged by the count it implies per 10 minutes (the
 * reference's levels: watch from 5, act above 50 in 10 minutes); a
 * shorter window says act only when its own count reaches watch. */
static void test_rate_per_window(void **state)
{
	struct verdict v;
	struct thresholds th;

	interval_of("SymbolErrorCounter", 40, 10, &v);	/* 2,400 per 10 min */
	assert_int_equal(v.level, VERDICT_ACT);
	assert_int_equal(v.count, 40);
	assert_int_equal(v.per_window, 2400);
	assert_non_null(strstr(v.text, "40 in 10 s, 2,400 per 10 min: act"));
	assert_non_null(strstr(v.text, "optic / cable"));
	interval_of("SymbolErrorCounter", 3, 10, &v);	/* 180 per 10 min, but 3 < 5 */
	assert_int_equal(v.level, VERDICT_WATCH);
	assert_non_null(strstr(v.text, "3 in 10 s, 180 per 10 min: watch"));
	interval_of("SymbolErrorCounter", 5, 10, &v);	/* 300 per 10 min and 5 >= 5 */
	assert_int_equal(v.level, VERDICT_ACT);
	interval_of("SymbolErrorCounter", 1, 1, &v);	/* a stray error */
	assert_int_equal(v.level, VERDICT_WATCH);
	interval_of("SymbolErrorCounter", 0, 10, &v);
	assert_int_equal(v.level, VERDICT_OK);
	/* 60 s sweeps (the exporter's): 9 is 90 per 10 min */
	interval_of("SymbolErrorCounter", 9, 60, &v);
	assert_int_equal(v.level, VERDICT_ACT);
	assert_non_null(strstr(v.text, "9 in 1 min, 90 per 10 min: act"));
	interval_of("SymbolErrorCounter", 4, 60, &v);
	assert_int_equal(v.level, VERDICT_WATCH);
	/* a longer window: an hour's 40 are 7 per 10 min, 20 only 3 */
	interval_of("SymbolErrorCounter", 40, 3600, &v);
	assert_int_equal(v.level, VERDICT_WATCH);
	assert_int_equal(v.per_window, 7);
	interval_of("SymbolErrorCounter", 20, 3600, &v);
	assert_int_equal(v.level, VERDICT_OK);
	/* exactly the window: the count itself */
	interval_of("SymbolErrorCounter", 51, 600, &v);
	assert_int_equal(v.level, VERDICT_ACT);
	assert_non_null(strstr(v.text, "51 in 10 min > 50"));

	/* the live rule while its history is shorter than the window */
	thresholds_defaults(&th);
	delta_init(&dp, "p/1", 1.0);
	feed("SymbolErrorCounter", 0, 0);
	feed("SymbolErrorCounter", 0, 10);
	feed("SymbolErrorCounter", 40, 20);
	rules_eval_delta(&dp, &th, 20, &v);
	assert_int_equal(v.level, VERDICT_ACT);
	assert_non_null(strstr(v.text, "40 in 20 s, 1,200 per 10 min: act"));
}

/* Advice by counter class: the optic / cable only for the physical
 * class; discards are congestion (or a port that went down). */
static void test_advice_by_class(void **state)
{
	struct verdict v;

	interval_of("PortXmitDiscards", 200, 10, &v);
	assert_int_equal(v.level, VERDICT_ACT);
	assert_string_equal(v.counter, "PortXmitDiscards");
	assert_non_null(strstr(v.text, "congestion"));
	assert_null(strstr(v.text, "optic"));
	assert_null(strstr(v.text, "cable"));
	interval_of("VL15Dropped", 200, 10, &v);
	assert_non_null(strstr(v.text, "subnet manage"));
	assert_null(strstr(v.text, "cable"));
	interval_of("PortRcvConstraintErrors", 100, 10, &v);
	assert_non_null(strstr(v.text, "partition"));
	assert_null(strstr(v.text, "cable"));
	interval_of("ExcessiveBufferOverrunErrors", 100, 10, &v);
	assert_null(strstr(v.text, "cable"));
	for (int i = 0; i < 4; i++) {
		static const char *phys[] = { "SymbolErrorCounter", "LinkErrorRecoveryCounter",
					      "LinkDownedCounter", "LocalLinkIntegrityErrors" };

		interval_of(phys[i], 100, 10, &v);
		assert_int_equal(v.level, VERDICT_ACT);
		assert_non_null(strstr(v.text, "optic / cable"));
	}
	/* the kernel's name for the same counter: the same class */
	assert_string_equal(ctr_fault_name("port_xmit_discards"), "congestion / discards");
	assert_string_equal(ctr_fault_name("symbol_error"), "physical link");
}

/* Slow growth: ~10 errors an hour is far below 5 in 10 minutes, but
 * against a baseline kept across days it is flagged. */
static void test_slow_growth(void **state)
{
	struct thresholds th;
	struct baseline b;
	struct counter_set cs;
	struct verdict v;
	const double day0 = 1.7e9, h = 3600;

	thresholds_defaults(&th);
	memset(&b, 0, sizeof(b));
	memset(&cs, 0, sizeof(cs));
	cs.valid = true;
	counters_put(&cs, "PortRcvErrors", 100)->bits = 16;
	counters_put(&cs, "PortXmitData", 5)->bits = 64;	/* traffic: ignored */
	start_ok(&v);
	baseline_eval(&b, &cs, day0, &th, &v);
	assert_int_equal(b.n, 1);		/* the first sight is the base */
	assert_true(b.dirty);
	assert_int_equal(v.level, VERDICT_OK);

	/* 10 an hour for 59 minutes: too soon to judge */
	cs.c[0].value = 100 + 9;
	start_ok(&v);
	baseline_eval(&b, &cs, day0 + 59 * 60, &th, &v);
	assert_int_equal(v.level, VERDICT_OK);
	/* a day and a half later, 10 an hour: watch */
	cs.c[0].value = 100 + 360;
	start_ok(&v);
	baseline_eval(&b, &cs, day0 + 36 * h, &th, &v);
	assert_int_equal(v.level, VERDICT_WATCH);
	assert_string_equal(v.rule, "slow-growth");
	assert_string_equal(v.counter, "PortRcvErrors");
	assert_int_equal(v.count, 360);
	assert_non_null(strstr(v.window, "since "));
	assert_non_null(strstr(v.text, "10.0 an hour"));
	/* the reference's "about 10 an hour" is the default: 9.9 an hour is
	 * ok, 10.0 (to a tenth, as printed) watch */
	assert_true(th.slow_per_hour == 10.0);
	cs.c[0].value = 100 + 357;	/* 9.92 */
	start_ok(&v);
	baseline_eval(&b, &cs, day0 + 36 * h, &th, &v);
	assert_int_equal(v.level, VERDICT_OK);
	cs.c[0].value = 100 + 359;	/* 9.97: "10.0 an hour" */
	baseline_eval(&b, &cs, day0 + 36 * h, &th, &v);
	assert_int_equal(v.level, VERDICT_WATCH);
	assert_non_null(strstr(v.text, "aging optic"));
	/* a worse verdict is kept */
	v.level = VERDICT_ACT;
	snprintf(v.rule, sizeof(v.rule), "errors-in-window");
	baseline_eval(&b, &cs, day0 + 36 * h, &th, &v);
	assert_string_equal(v.rule, "errors-in-window");
	/* cleared (went down): a new base, nothing flagged */
	cs.c[0].value = 3;
	start_ok(&v);
	baseline_eval(&b, &cs, day0 + 40 * h, &th, &v);
	assert_int_equal(v.level, VERDICT_OK);
	assert_int_equal(b.c[0].value, 3);
	assert_true(b.c[0].t == day0 + 40 * h);
}

/* The baseline survives a restart: written and read back. */
static void test_baseline_file(void **state)
{
	char dir[] = "/tmp/ibc-bl-XXXXXX", path[512], err[256], cmd[600];
	struct baseline a, b;

	assert_non_null(mkdtemp(dir));
	setenv("XDG_STATE_HOME", dir, 1);
	assert_non_null(baseline_path("mlx5_0-1", path, sizeof(path)));
	assert_non_null(strstr(path, "/ibconsole/baseline/mlx5_0-1"));
	assert_int_equal(baseline_load(&b, path, err, sizeof(err)), 1);	/* none yet */
	memset(&a, 0, sizeof(a));
	a.n = 2;
	snprintf(a.c[0].name, sizeof(a.c[0].name), "SymbolErrorCounter");
	a.c[0].value = 12;
	a.c[0].t = 1.7e9;
	snprintf(a.c[1].name, sizeof(a.c[1].name), "PortRcvErrors");
	a.c[1].value = 40000;
	a.c[1].t = 1.7e9 + 60;
	assert_int_equal(baseline_save(&a, path, err, sizeof(err)), 0);
	assert_int_equal(baseline_load(&b, path, err, sizeof(err)), 0);
	assert_int_equal(b.n, 2);
	assert_string_equal(b.c[1].name, "PortRcvErrors");
	assert_int_equal(b.c[1].value, 40000);
	assert_true(b.c[1].t == 1.7e9 + 60);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_eventlog(void **state)
{
	static struct eventlog log;
	struct timespec now = { 1000, 0 };
	const struct event *e;

	eventlog_init(&log);
	delta_init(&dp, "Hca1/1", 1.0);
	feed("SymbolErrorCounter", 0, 1);
	assert_int_equal(eventlog_add_from(&log, &dp, &now), 0);
	feed("SymbolErrorCounter", 7, 2);
	assert_int_equal(eventlog_add_from(&log, &dp, &now), 1);
	e = eventlog_get(&log, 0);
	assert_string_equal(e->port, "Hca1/1");
	assert_string_equal(e->counter, "SymbolErrorCounter");
	assert_int_equal(e->delta, 7);
	assert_int_equal(eventlog_unacked(&log, "Hca1/1", "SymbolErrorCounter"), 1);
	eventlog_ack(&log);
	assert_int_equal(eventlog_unacked(&log, NULL, NULL), 0);
	feed("SymbolErrorCounter", 0, 3);	/* cleared: logged as a reset */
	assert_int_equal(eventlog_add_from(&log, &dp, &now), 1);
	assert_int_equal(eventlog_get(&log, 0)->state, DELTA_RESET);
	for (int i = 0; i < EVENTLOG_MAX + 10; i++) {
		feed("SymbolErrorCounter", (uint64_t)i + 1, 4 + i);
		eventlog_add_from(&log, &dp, &now);
	}
	assert_int_equal(log.n, EVENTLOG_MAX);
	assert_int_equal(eventlog_get(&log, 0)->value, EVENTLOG_MAX + 10);
	assert_null(eventlog_get(&log, EVENTLOG_MAX));
}

/* Two verdicts are the same only when every field a report shows is:
 * watch writes a verdict from the last one's text when they are. */
static void test_verdict_same(void **state)
{
	struct verdict a = { .level = VERDICT_WATCH, .counter = "SymbolErrorCounter",
			     .count = 7, .threshold = 5, .rule = "errors-in-window",
			     .window = "in 42 s", .text = "SymbolErrorCounter 7 in 42 s",
			     .cls_counter = "SymbolErrorCounter", .span_s = 42, .per_window = 100 };
	struct verdict b = a;

	(void)state;
	assert_true(verdict_same(&a, &b));
	for (int f = 0; f < 11; f++) {
		b = a;
		switch (f) {
		case 0: b.level = VERDICT_ACT; break;
		case 1: b.counter[0] = 'X'; break;
		case 2: b.count++; break;
		case 3: b.lower_bound = true; break;
		case 4: b.threshold++; break;
		case 5: b.rule[0] = 'X'; break;
		case 6: b.window[3] = '5'; break;
		case 7: b.text[20] = '8'; break;
		case 8: b.cls_counter[0] = 'X'; break;
		case 9: b.span_s = 43; break;
		default: b.per_window++;
		}
		assert_false(verdict_same(&a, &b));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_brief),
		cmocka_unit_test(test_config_file),
		cmocka_unit_test(test_values_rule),
		cmocka_unit_test(test_window_rules),
		cmocka_unit_test(test_interval_rule),
		cmocka_unit_test(test_rate_per_window),
		cmocka_unit_test(test_advice_by_class),
		cmocka_unit_test(test_slow_growth),
		cmocka_unit_test(test_baseline_file),
		cmocka_unit_test(test_eventlog),
		cmocka_unit_test(test_verdict_same),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
