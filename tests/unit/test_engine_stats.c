// SPDX-License-Identifier: MIT
/* Unit tests for the engine's pure maths: perftest's latency report
 * (tail drop, median, percentiles, halving), BW peak, memlock decision,
 * and the live latency buckets and their percentiles. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/engine/engine.h"

static void test_lat_perftest(void **state)
{
	/* 1000 iterations → 999 gaps of 1000..1998 ns in reverse order, plus
	 * the two largest replaced by outliers that perftest drops */
	static uint64_t g[999];
	struct eng_result r;

	for (int i = 0; i < 999; i++)
		g[i] = 1000 + (uint64_t)(998 - i) * 1;
	g[0] = 1000000;
	g[1] = 900000;
	memset(&r, 0, sizeof(r));
	eng_lat_stats(g, 999, false, &r);
	assert_true(r.lat_valid);
	assert_int_equal(r.lat_samples, 997);	/* iters − 3 */
	assert_float_equal(r.lat_min, 1.0, 1e-9);
	/* N = 997 sorted 1000..1996; max is sorted[N], the smaller of the
	 * two dropped outliers (perftest's own quirk, kept for comparability) */
	assert_float_equal(r.lat_max, 900.0, 1e-9);
	assert_float_equal(r.lat_median, 1.498, 1e-9);	/* odd N: sorted[N/2] */
	assert_float_equal(r.lat_p99, (1000 + 988) / 1000.0, 1e-9);	/* ceil(0.99·997) = 988 */
	assert_float_equal(r.lat_p999, 900.0, 1e-9);	/* ceil(0.999·997) = 997 = N: equals max */
	assert_float_equal(r.lat_avg, 1.498, 1e-9);
	assert_false(r.lat_halved);

	/* halving for ping-pong; even N takes the mean of the middle two */
	uint64_t h[6] = { 4000, 2000, 6000, 8000, 99999, 99999 };

	eng_lat_stats(h, 6, true, &r);
	assert_true(r.lat_halved);
	assert_int_equal(r.lat_samples, 4);
	assert_float_equal(r.lat_min, 1.0, 1e-9);
	assert_float_equal(r.lat_median, 2.5, 1e-9);	/* (4000+6000)/2 ns, halved */
	assert_float_equal(r.lat_avg, 2.5, 1e-9);
	uint64_t tot = 0;

	for (int i = 0; i < ENG_HIST; i++)
		tot += r.hist[i];
	assert_int_equal(tot, 4);

	eng_lat_stats(h, 2, true, &r);
	assert_false(r.lat_valid);
}

static void test_peak(void **state)
{
	/* 4 messages of 1000 B; the best window is the 2nd→3rd at 100 ns each */
	uint64_t tp[4] = { 0, 1000, 1100, 5000 }, tc[4] = { 1000, 1200, 1300, 6000 };
	double peak = eng_bw_peak_gbps(tp, tc, 4, 1000);

	/* windows: i=1,j=2: (1300−1000)/2 = 150 ns; i=2,j=2: 200; i=1,j=1: 200 → 150 */
	assert_float_equal(peak, 1000 * 8.0 / 150.0, 1e-9);
	assert_float_equal(eng_bw_peak_gbps(tp, tc, 0, 1000), 0, 1e-12);
}

static void test_memlock(void **state)
{
	struct proto_params p = { .qps = 1, .tx_depth = 128, .size = 65536 };
	char err[400];
	uint64_t need = eng_mem_need(&p);

	assert_true(need > 2 * 65536);
	assert_int_equal(eng_memlock_check(need, 0, true, false, err, sizeof(err)), 0);
	assert_int_equal(eng_memlock_check(need, 64 << 10, false, true, err, sizeof(err)), 0);
	assert_int_equal(eng_memlock_check(need, need, false, false, err, sizeof(err)), 0);
	assert_int_equal(eng_memlock_check(need, 64 << 10, false, false, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "ulimit -l unlimited"));
	assert_non_null(strstr(err, "64 KiB"));
}

static void test_lat_buckets(void **state)
{
	/* 8 buckets per power of two from 128 ns; below 128 in the first,
	 * beyond 128·2^24 ns in the last */
	assert_int_equal(eng_lat_bucket(0), 0);
	assert_int_equal(eng_lat_bucket(127), 0);
	assert_int_equal(eng_lat_bucket(128), 0);
	assert_int_equal(eng_lat_bucket(143), 0);
	assert_int_equal(eng_lat_bucket(144), 1);	/* 128 · 9/8 */
	assert_int_equal(eng_lat_bucket(255), 7);
	assert_int_equal(eng_lat_bucket(256), 8);
	assert_int_equal(eng_lat_bucket(1000), 2 * 8 + 7);	/* [960, 1024) */
	assert_int_equal(eng_lat_bucket(1024), 3 * 8);
	assert_int_equal(eng_lat_bucket(UINT64_MAX), ENG_LAT_BUCKETS - 1);
	assert_int_equal(eng_lat_bucket(128ull << ENG_HIST), ENG_LAT_BUCKETS - 1);
	assert_int_equal(eng_lat_bucket((128ull << ENG_HIST) - 1), ENG_LAT_BUCKETS - 1);
	/* every bucket starts where its lower bound says, and the one before
	 * ends there */
	for (int b = 1; b < ENG_LAT_BUCKETS; b++) {
		uint64_t lo = (uint64_t)eng_lat_bucket_lo_ns(b);

		assert_int_equal(eng_lat_bucket(lo), b);
		assert_int_equal(eng_lat_bucket(lo - 1), b - 1);
	}
	assert_float_equal(eng_lat_bucket_lo_ns(3 * 8 + 4), 1536.0, 1e-9);
}

static void test_lat_live_quantiles(void **state)
{
	static struct eng_lat_live h;
	uint64_t gaps[1000];
	struct eng_result r;

	memset(&h, 0, sizeof(h));
	assert_float_equal(eng_lat_live_quantile_us(&h, 0.5), 0, 1e-12);	/* empty */
	/* 1000 samples 1000..1999 ns: the exact quantiles are known */
	for (int i = 0; i < 1000; i++)
		eng_lat_live_add(&h, 1000 + (uint64_t)((i * 7) % 1000));
	assert_int_equal(h.n, 1000);
	assert_int_equal(h.min_ns, 1000);
	assert_int_equal(h.max_ns, 1999);
	/* rank ceil(q·n): p50 is the 500th = 1499 ns, p99 the 990th = 1989,
	 * p99.9 the 999th = 1998; the buckets there are 128 ns wide */
	assert_float_equal(eng_lat_live_quantile_us(&h, 0.50), 1.499, 0.128);
	assert_float_equal(eng_lat_live_quantile_us(&h, 0.99), 1.989, 0.128);
	assert_float_equal(eng_lat_live_quantile_us(&h, 0.999), 1.998, 0.128);
	/* never beyond the samples */
	assert_true(eng_lat_live_quantile_us(&h, 1.0) <= 1.999);
	assert_true(eng_lat_live_quantile_us(&h, 0.001) >= 1.0);
	/* monotonic in q */
	assert_true(eng_lat_live_quantile_us(&h, 0.5) <= eng_lat_live_quantile_us(&h, 0.99));
	assert_true(eng_lat_live_quantile_us(&h, 0.99) <= eng_lat_live_quantile_us(&h, 0.999));

	/* a long tail: 990 samples at 2 us, 10 at 50 us: p50 stays near 2,
	 * p99.9 lands in the tail, p99 at the last of the 2 us samples */
	memset(&h, 0, sizeof(h));
	for (int i = 0; i < 990; i++)
		eng_lat_live_add(&h, 2000);
	for (int i = 0; i < 10; i++)
		eng_lat_live_add(&h, 50000);
	assert_float_equal(eng_lat_live_quantile_us(&h, 0.50), 2.0, 0.256);
	assert_float_equal(eng_lat_live_quantile_us(&h, 0.99), 2.0, 0.256);
	assert_float_equal(eng_lat_live_quantile_us(&h, 0.999), 50.0, 50.0 / 8);

	/* against perftest's exact figures on the same samples */
	memset(&h, 0, sizeof(h));
	for (int i = 0; i < 1000; i++) {
		gaps[i] = 3000 + (uint64_t)((i * 37) % 1000) * 5;	/* 3..8 us */
		eng_lat_live_add(&h, gaps[i]);
	}
	memset(&r, 0, sizeof(r));
	eng_lat_stats(gaps, 1000, false, &r);
	assert_float_equal(eng_lat_live_quantile_us(&h, 0.5), r.lat_median, r.lat_median / 8);
	assert_float_equal(eng_lat_live_quantile_us(&h, 0.99), r.lat_p99, r.lat_p99 / 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_perftest),
		cmocka_unit_test(test_peak),
		cmocka_unit_test(test_memlock),
		cmocka_unit_test(test_lat_buckets),
		cmocka_unit_test(test_lat_live_quantiles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
