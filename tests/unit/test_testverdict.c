// SPDX-License-Identifier: MIT
/* Unit tests for the test verdict rules (the reference procedure), row by row. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/agent/proto.h"
#include "diag/testverdict.h"

static enum tv_state bw(double line, double avg, double peak, bool bidir, unsigned long long size)
{
	struct tv_input in = { .kind = KIND_BW, .op = OP_WRITE, .bidir = bidir, .size = size,
			       .line_gbps = line, .bw_avg_gbps = avg, .bw_peak_gbps = peak };
	struct tv_verdict v;

	tv_eval(&in, &v);
	return v.state;
}

static void test_bw_rules(void **state)
{
	assert_int_equal(bw(200, 196, 196.5, false, 1 << 20), TV_PASS);	/* ≥ 95 % */
	assert_int_equal(bw(200, 180, 180, false, 1 << 20), TV_WARN);	/* 85..95 % */
	assert_int_equal(bw(200, 168, 168, false, 1 << 20), TV_FAIL);	/* case 1: 168 of 200 */
	assert_int_equal(bw(400, 210, 210, false, 8 << 20), TV_FAIL);	/* case 2: half */
	assert_int_equal(bw(200, 365, 366, true, 1 << 20), TV_PASS);	/* bidir ≥ 90 % of 400 */
	assert_int_equal(bw(200, 300, 300, true, 1 << 20), TV_FAIL);	/* < 80 % */
	assert_int_equal(bw(200, 196, 200, false, 1 << 20), TV_WARN);	/* peak vs avg 2 % */
	assert_int_equal(bw(0, 196, 196, false, 1 << 20), TV_NONE);	/* unknown rate */
	assert_int_equal(bw(200, 1, 1, false, 4096), TV_NONE);		/* small message */
}

static void test_lat_rate(void **state)
{
	struct tv_input in = { .kind = KIND_LAT, .lat_valid = true, .lat_p99_us = 1.5 };
	struct tv_verdict v;

	tv_eval(&in, &v);
	assert_int_equal(v.state, TV_PASS);
	assert_string_equal(v.rule, "lat-p99");
	in.lat_p99_us = 3;
	tv_eval(&in, &v);
	assert_int_equal(v.state, TV_WARN);
	in.lat_p99_us = 6;
	tv_eval(&in, &v);
	assert_int_equal(v.state, TV_FAIL);
	in = (struct tv_input){ .kind = KIND_RATE, .line_gbps = 200, .mpps = 95 };
	tv_eval(&in, &v);
	assert_int_equal(v.state, TV_PASS);
	in.mpps = 60;
	tv_eval(&in, &v);
	assert_int_equal(v.state, TV_FAIL);
	assert_non_null(strstr(v.text, "70.0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bw_rules),
		cmocka_unit_test(test_lat_rate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
