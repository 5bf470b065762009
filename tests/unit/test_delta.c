// SPDX-License-Identifier: MIT
/* cmocka tests of the delta engine's edge cases: first sample, word
 * factor, saturation, reset, 64-bit wrap, missed intervals, clock jumps,
 * windows and totals. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/counters/delta.h"

static struct counter_set cs;
static struct delta_port dp;

static void put(const char *name, uint64_t v, unsigned bits, bool sat)
{
	struct ctr_value *c = counters_put(&cs, name, v);

	assert_non_null(c);
	c->bits = (uint8_t)bits;
	c->saturates = sat;
}

static void sample1(const char *name, uint64_t v, unsigned bits, bool sat,
		    double t)
{
	memset(&cs, 0, sizeof(cs));
	cs.valid = true;
	put(name, v, bits, sat);
	delta_update(&dp, &cs, t);
}

static const struct delta_ctr *get(const char *name)
{
	const struct delta_ctr *c = delta_find(&dp, name);

	assert_non_null(c);
	return c;
}

static void test_first_sample(void **state)
{
	delta_init(&dp, "t", 1.0);
	sample1("SymbolErrorCounter", 42, 16, true, 100.0);
	assert_int_equal(get("SymbolErrorCounter")->state, DELTA_FIRST);
	assert_int_equal(get("SymbolErrorCounter")->delta, 0);
	assert_false(get("SymbolErrorCounter")->rate_valid);
	assert_int_equal(get("SymbolErrorCounter")->total, 0);
	/* a pre-existing value is not an increment */
	assert_int_equal(delta_errors_window(&dp, 100.0, DELTA_WIN_10MIN), 0);
}

static void test_rate_and_word_factor(void **state)
{
	const struct delta_ctr *c;

	delta_init(&dp, "t", 1.0);
	sample1("PortXmitData", 1000, 64, true, 10.0);
	sample1("PortXmitData", 1000 + 250000000ULL, 64, true, 11.0);
	c = get("PortXmitData");
	assert_int_equal(c->state, DELTA_OK);
	assert_int_equal(c->delta, 250000000ULL);
	assert_true(c->rate_valid);
	/* 250 M words/s = 1 GB/s = 8 Gb/s: ×4 octets, never ×1 or ×16 */
	assert_true(delta_gbps(c) > 7.999 && delta_gbps(c) < 8.001);
	assert_int_equal(delta_bytes(c, c->delta), 1000000000ULL);

	sample1("PortRcvPkts", 10, 64, true, 12.0);
	sample1("PortRcvPkts", 510, 64, true, 14.0);
	c = get("PortRcvPkts");
	assert_true(c->rate > 249.9 && c->rate < 250.1);
	assert_true(delta_gbps(c) < 0);	/* packets are no data rate */
}

static void test_saturation(void **state)
{
	const struct delta_ctr *c;

	delta_init(&dp, "t", 1.0);
	sample1("SymbolErrorCounter", 65000, 16, true, 1.0);
	sample1("SymbolErrorCounter", 65535, 16, true, 2.0);
	c = get("SymbolErrorCounter");
	assert_int_equal(c->state, DELTA_SATURATED);
	assert_int_equal(c->delta, 535);
	assert_true(c->lower_bound);
	assert_false(c->rate_valid);
	/* stuck at the maximum: saturated again, no delta, no rate */
	sample1("SymbolErrorCounter", 65535, 16, true, 3.0);
	c = get("SymbolErrorCounter");
	assert_int_equal(c->state, DELTA_SATURATED);
	assert_int_equal(c->delta, 0);
	assert_false(c->rate_valid);
	assert_int_equal(c->saturations, 1);
	assert_true(c->total_lb);
	/* first sample already at max is marked saturated too */
	delta_init(&dp, "t", 1.0);
	sample1("LinkDownedCounter", 255, 8, true, 1.0);
	assert_int_equal(get("LinkDownedCounter")->state, DELTA_SATURATED);
	/* 4-bit counters saturate at 15 */
	delta_init(&dp, "t", 1.0);
	sample1("LocalLinkIntegrityErrors", 3, 4, true, 1.0);
	sample1("LocalLinkIntegrityErrors", 15, 4, true, 2.0);
	assert_int_equal(get("LocalLinkIntegrityErrors")->state, DELTA_SATURATED);
	assert_int_equal(get("LocalLinkIntegrityErrors")->delta, 12);
}

static void test_reset(void **state)
{
	const struct delta_ctr *c;

	delta_init(&dp, "t", 1.0);
	sample1("PortRcvErrors", 100, 16, true, 1.0);
	sample1("PortRcvErrors", 3, 16, true, 2.0);
	c = get("PortRcvErrors");
	assert_int_equal(c->state, DELTA_RESET);
	assert_int_equal(c->delta, 3);	/* counted since the clear */
	assert_true(c->lower_bound);
	assert_false(c->rate_valid);
	assert_int_equal(c->resets, 1);
	/* saturated then cleared to 0 */
	sample1("PortRcvErrors", 65535, 16, true, 3.0);
	sample1("PortRcvErrors", 0, 16, true, 4.0);
	c = get("PortRcvErrors");
	assert_int_equal(c->state, DELTA_RESET);
	assert_int_equal(c->delta, 0);
	assert_false(c->rate_valid);
	/* then counting normally again */
	sample1("PortRcvErrors", 7, 16, true, 5.0);
	assert_int_equal(get("PortRcvErrors")->state, DELTA_OK);
	assert_int_equal(get("PortRcvErrors")->delta, 7);
	/* a 64-bit saturating counter going down is a reset, not a wrap */
	delta_init(&dp, "t", 1.0);
	sample1("PortXmitData", UINT64_MAX - 5, 64, true, 1.0);
	sample1("PortXmitData", 10, 64, true, 2.0);
	assert_int_equal(get("PortXmitData")->state, DELTA_RESET);
}

static void test_wrap64(void **state)
{
	const struct delta_ctr *c;

	/* driver hw_counters are plain u64: they wrap */
	delta_init(&dp, "t", 1.0);
	sample1("rcvd_pkts", UINT64_MAX - 9, 64, false, 1.0);
	sample1("rcvd_pkts", 5, 64, false, 2.0);
	c = get("rcvd_pkts");
	assert_int_equal(c->state, DELTA_WRAPPED);
	assert_int_equal(c->delta, 15);
	assert_true(c->rate_valid);
	assert_true(c->rate > 14.9 && c->rate < 15.1);
	/* small value after small value going down is a reset */
	sample1("rcvd_pkts", 2, 64, false, 3.0);
	assert_int_equal(get("rcvd_pkts")->state, DELTA_RESET);
	/* a saturating 64-bit counter at all-ones is saturated */
	delta_init(&dp, "t", 1.0);
	sample1("PortRcvData", UINT64_MAX - 1, 64, true, 1.0);
	sample1("PortRcvData", UINT64_MAX, 64, true, 2.0);
	assert_int_equal(get("PortRcvData")->state, DELTA_SATURATED);
	assert_false(get("PortRcvData")->rate_valid);
}

static void test_missed_intervals(void **state)
{
	const struct delta_ctr *c;
	struct counter_set bad = { .valid = false };

	delta_init(&dp, "t", 1.0);
	sample1("PortXmitPkts", 0, 64, true, 1.0);
	sample1("PortXmitPkts", 100, 64, true, 2.0);
	delta_update(&dp, &bad, 3.0);	/* query failed */
	/* the last interval's delta is not shown again */
	assert_int_equal(get("PortXmitPkts")->state, DELTA_MISSING);
	assert_int_equal(get("PortXmitPkts")->delta, 0);
	assert_false(get("PortXmitPkts")->rate_valid);
	delta_update(&dp, &bad, 4.0);
	sample1("PortXmitPkts", 400, 64, true, 5.0);
	c = get("PortXmitPkts");
	assert_int_equal(c->state, DELTA_GAP);
	assert_int_equal(c->delta, 300);
	assert_true(c->rate_valid);
	/* the average over the 3 s gap, not 300/s */
	assert_true(c->rate > 99.9 && c->rate < 100.1);
	assert_true(dp.dt > 2.9 && dp.dt < 3.1);
	assert_int_equal(c->total, 400);
	/* a counter absent from one sample is missing, not zero */
	memset(&cs, 0, sizeof(cs));
	cs.valid = true;
	put("PortRcvPkts", 1, 64, true);
	delta_update(&dp, &cs, 6.0);
	assert_int_equal(get("PortXmitPkts")->state, DELTA_MISSING);
	assert_int_equal(get("PortXmitPkts")->value, 400);
	sample1("PortXmitPkts", 450, 64, true, 7.0);
	assert_int_equal(get("PortXmitPkts")->delta, 50);
}

static void test_clock_jumps(void **state)
{
	const struct delta_ctr *c;

	delta_init(&dp, "t", 1.0);
	sample1("PortRcvErrors", 0, 16, true, 100.0);
	sample1("PortRcvErrors", 4, 16, true, 99.0);	/* time went back */
	c = get("PortRcvErrors");
	assert_int_equal(c->state, DELTA_CLOCK);
	assert_int_equal(c->delta, 4);	/* the events are real */
	assert_false(c->rate_valid);	/* the rate is not */
	sample1("PortRcvErrors", 6, 16, true, 99.0);	/* no time passed */
	assert_int_equal(get("PortRcvErrors")->state, DELTA_CLOCK);
	sample1("PortRcvErrors", 8, 16, true, 100.0);	/* back to normal */
	c = get("PortRcvErrors");
	assert_int_equal(c->state, DELTA_OK);
	assert_true(c->rate > 1.99 && c->rate < 2.01);
	assert_int_equal(delta_window(c, 100.0, DELTA_WIN_MINUTE), 8);
	/* a forward jump of an hour: a gap, and the old window is gone */
	sample1("PortRcvErrors", 9, 16, true, 3700.0);
	c = get("PortRcvErrors");
	assert_int_equal(c->state, DELTA_GAP);
	assert_int_equal(delta_window(c, 3700.0, DELTA_WIN_10MIN), 1);
}

static void test_windows_and_totals(void **state)
{
	const struct delta_ctr *c;
	uint64_t m, w10;
	int t;

	delta_init(&dp, "t", 1.0);
	/* one error per second for 700 s */
	for (t = 0; t <= 700; t++)
		sample1("SymbolErrorCounter", (uint64_t)t, 16, true, (double)t);
	c = get("SymbolErrorCounter");
	assert_int_equal(delta_window(c, 700.0, DELTA_WIN_INTERVAL), 1);
	m = delta_window(c, 700.0, DELTA_WIN_MINUTE);
	w10 = delta_window(c, 700.0, DELTA_WIN_10MIN);
	/* exact to one 5-second bucket at the window's old end */
	assert_true(m >= 55 && m <= 60);
	assert_true(w10 >= 595 && w10 <= 600);
	assert_int_equal(c->total, 700);
	delta_mark(&dp, 700.0);
	sample1("SymbolErrorCounter", 710, 16, true, 701.0);
	c = get("SymbolErrorCounter");
	assert_int_equal(c->total, 710);
	assert_int_equal(c->total_mark, 10);
	/* quiet for 10 minutes: the window empties */
	sample1("SymbolErrorCounter", 710, 16, true, 1400.0);
	assert_int_equal(delta_window(get("SymbolErrorCounter"), 1400.0, DELTA_WIN_10MIN), 0);
	assert_int_equal(delta_errors_window(&dp, 1400.0, DELTA_WIN_10MIN), 0);
}

/* An interval change mid-run: 1 s -> 3 s -> 1 s, samples on the new
 * schedule from the change on. None of them is a gap. */
static void test_interval_change(void **state)
{
	double t = 10.0;
	uint64_t v = 0;

	delta_init(&dp, "t", 1.0);
	for (int i = 0; i < 3; i++, t += 1.0)
		sample1("PortRcvErrors", v += 2, 16, true, t);
	/* slower: the next samples arrive 3 s apart */
	delta_set_interval(&dp, 3.0);
	for (int i = 0; i < 3; i++) {
		t += 3.0 - (i ? 0 : 1.0);
		sample1("PortRcvErrors", v += 2, 16, true, t);
		assert_int_equal(get("PortRcvErrors")->state, DELTA_OK);
	}
	/* faster again: the first sample comes one old interval after the
	 * last at worst, then 1 s apart */
	delta_set_interval(&dp, 1.0);
	t += 3.0;
	sample1("PortRcvErrors", v += 2, 16, true, t);
	assert_int_equal(get("PortRcvErrors")->state, DELTA_OK);
	for (int i = 0; i < 3; i++) {
		t += 1.0;
		sample1("PortRcvErrors", v += 2, 16, true, t);
		assert_int_equal(get("PortRcvErrors")->state, DELTA_OK);
	}
	/* a real miss after the change is still a gap */
	t += 5.0;
	sample1("PortRcvErrors", v += 2, 16, true, t);
	assert_int_equal(get("PortRcvErrors")->state, DELTA_GAP);
}

/* The fabric pane's rate between two samples goes through delta_pair:
 * a saturated classic data counter has no rate (never 0 Gb/s). */
static void test_pair_gbps(void **state)
{
	static struct counter_set a, b;
	enum delta_state st;
	struct ctr_value *x;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.valid = b.valid = true;
	a.t_mono = 1.0;
	b.t_mono = 2.0;
	x = counters_put(&a, "PortXmitData", 1000);
	x->bits = 32;
	x->saturates = true;
	x = counters_put(&b, "PortXmitData", 1000 + 31250000);	/* 1 Gb/s */
	x->bits = 32;
	x->saturates = true;
	assert_float_equal(delta_pair_gbps(&a, &b, "PortXmitData", &st), 1.0, 1e-9);
	assert_int_equal(st, DELTA_OK);
	b.c[0].value = UINT32_MAX;
	assert_true(delta_pair_gbps(&a, &b, "PortXmitData", &st) < 0);
	assert_int_equal(st, DELTA_SATURATED);
	a.c[0].value = UINT32_MAX;	/* stuck at the top: still no rate */
	assert_true(delta_pair_gbps(&a, &b, "PortXmitData", &st) < 0);
	assert_int_equal(st, DELTA_SATURATED);
	b.c[0].value = 5;		/* cleared */
	assert_true(delta_pair_gbps(&a, &b, "PortXmitData", &st) < 0);
	assert_int_equal(st, DELTA_RESET);
	assert_true(delta_pair_gbps(&a, &b, "PortRcvData", &st) < 0);
	assert_int_equal(st, DELTA_MISSING);
}

/* The windows kept as running sums equal a plain re-sum of the buckets
 * they cover, for every window length and "now", over random samples
 * with gaps (buckets skipped, the whole ring left behind) and a 64-bit
 * counter whose deltas make the sum wrap. */
static uint64_t resum(const struct delta_ctr *c, double now, double win)
{
	long long first, b;
	double q = (now - win) / DELTA_BUCKET_S;
	uint64_t sum = 0;

	if (win <= 0)
		return c->delta;
	b = (long long)q;
	if ((double)b > q)
		b--;
	first = b + 1;
	if (first <= c->bucket_id - DELTA_NBUCKETS)
		first = c->bucket_id - DELTA_NBUCKETS + 1;
	for (long long id = first; id <= c->bucket_id; id++)
		sum += c->bucket[((id % DELTA_NBUCKETS) + DELTA_NBUCKETS) % DELTA_NBUCKETS];
	return sum;
}

static void test_window_running_sums(void **state)
{
	static const double wins[] = { 0, 1, 4.9, 5, 30, 60, 299, 300, 301,
		599, 600, 601, 900, 1e6 };
	uint64_t v[3] = { 0, 0, 0 };
	double t = 1000.0;

	(void)state;
	delta_init(&dp, "w", 1.0);
	srand(5);
	for (int step = 0; step < 3000; step++) {
		const struct delta_ctr *c;

		t += rand() % 50 == 0 ? (double)(rand() % 900) : 0.5 + rand() % 4;
		v[0] += (uint64_t)(rand() % 1000);
		v[1] += UINT64_C(0x4000000000000000) + (uint64_t)rand();
		memset(&cs, 0, sizeof(cs));
		cs.valid = true;
		put("PortRcvErrors", v[0], 64, false);
		put("PortXmitData", v[1], 64, false);
		/* a counter that moves now and then: quiet windows, a ring
		 * left alone while nothing is in it */
		v[2] += rand() % 60 == 0 ? 1 + (uint64_t)(rand() % 5) : 0;
		put("SymbolErrorCounter", v[2], 64, false);
		delta_update(&dp, &cs, t);
		for (int k = 0; k < 3; k++) {
			c = &dp.c[k];
			for (size_t w = 0; w < sizeof(wins) / sizeof(wins[0]); w++)
				for (double later = 0; later < 700; later += 37)
					assert_true(delta_window(c, t + later, wins[w]) ==
						    resum(c, t + later, wins[w]));
		}
	}
}

/* The history is as long as the longest window the man page and the
 * thresholds promise (10 minutes, error_window_s up to 600 s), written
 * here as seconds, not as the engine's own constant. */
static void test_history_holds_ten_minutes(void **state)
{
	uint64_t w;

	(void)state;
	assert_true(DELTA_HISTORY_S >= 600);
	delta_init(&dp, "t", 1.0);
	for (int t = 0; t <= 1300; t++)
		sample1("PortRcvErrors", (uint64_t)t, 64, false, (double)t);
	w = delta_window(get("PortRcvErrors"), 1300.0, 600.0);
	assert_true(w >= 595 && w <= 600);
}

/* delta_init clears the port, not its counter slots: a slot is cleared
 * when its counter appears. On memory full of old bytes the deltas,
 * windows and totals are those of a port that started zeroed. */
static void test_slots_cleared_as_they_appear(void **state)
{
	static struct delta_port dirty, clean;
	static const char *const names[] = { "SymbolErrorCounter", "PortXmitData", "LinkDownedCounter" };

	(void)state;
	memset(&dirty, 0xa5, sizeof(dirty));
	memset(&clean, 0, sizeof(clean));
	delta_init(&dirty, "d", 1.0);
	delta_init(&clean, "d", 1.0);
	for (int t = 0; t < 90; t++) {
		memset(&cs, 0, sizeof(cs));
		cs.valid = true;
		for (int k = 0; k < 3; k++)
			put(names[k], (uint64_t)(t * (k + 1)), 32, false);
		delta_update(&dirty, &cs, 100.0 + t);
		delta_update(&clean, &cs, 100.0 + t);
	}
	assert_int_equal(dirty.n, 3);
	assert_int_equal(clean.n, 3);
	for (int k = 0; k < 3; k++) {
		const struct delta_ctr *a = &dirty.c[k], *b = &clean.c[k];

		assert_string_equal(a->name, b->name);
		assert_int_equal(a->delta, b->delta);
		assert_int_equal(a->total, b->total);
		assert_int_equal(a->resets + a->saturations, 0);
		assert_int_equal(delta_window(a, 189.0, DELTA_WIN_MINUTE),
				 delta_window(b, 189.0, DELTA_WIN_MINUTE));
		assert_int_equal(delta_window(a, 189.0, DELTA_WIN_10MIN),
				 delta_window(b, 189.0, DELTA_WIN_10MIN));
		assert_int_equal(delta_window(a, 189.0, DELTA_WIN_10MIN), 89 * (k + 1));
		assert_int_equal(a->hist_n, b->hist_n);
		assert_memory_equal(a->hist, b->hist, sizeof(a->hist));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_sample),
		cmocka_unit_test(test_rate_and_word_factor),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_wrap64),
		cmocka_unit_test(test_missed_intervals),
		cmocka_unit_test(test_clock_jumps),
		cmocka_unit_test(test_windows_and_totals),
		cmocka_unit_test(test_interval_change),
		cmocka_unit_test(test_pair_gbps),
		cmocka_unit_test(test_window_running_sums),
		cmocka_unit_test(test_history_holds_ten_minutes),
		cmocka_unit_test(test_slots_cleared_as_they_appear),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
