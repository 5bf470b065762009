// SPDX-License-Identifier: MIT
/* Unit tests for the engine's pure maths: perftest's latency report
 * (tail drop, median, percentiles, halving), BW peak, memlock decision. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_perftest),
		cmocka_unit_test(test_peak),
		cmocka_unit_test(test_memlock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
