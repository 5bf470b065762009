// SPDX-License-Identifier: MIT
/* The effective bit error rate: errors over lanes x lane rate x seconds,
 * the bound when none was seen, the levels and the text. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "core/counters/counters.h"
#include "core/counters/delta.h"
#include "diag/ber.h"

static void test_rate(void **state)
{
	struct ber b;

	(void)state;
	/* 4X QDR: 4 lanes of 10 Gb/s signalling, 10 minutes = 2.4e13 bits */
	ber_compute(&b, 1000, 4, 10.0, 600);
	assert_true(b.valid);
	assert_false(b.bound);
	assert_true(fabs(b.bits - 2.4e13) < 1);
	assert_true(fabs(b.rate - 1000 / 2.4e13) < 1e-25);
	/* 4X HDR: 53.125 Gb/s a lane */
	ber_compute(&b, 1, 4, 53.125, 1);
	assert_true(fabs(b.rate - 1 / 212.5e9) < 1e-25);
}

static void test_bound(void **state)
{
	struct ber b;
	char text[64];

	(void)state;
	ber_compute(&b, 0, 4, 10.0, 600);
	assert_true(b.bound);
	/* 3 / 2.4e13 = 1.25e-13 (95 % confidence) */
	assert_true(fabs(b.rate - 2.9957 / 2.4e13) < 1e-17);
	ber_text(&b, text, sizeof(text));
	assert_string_equal(text, "< 1.2e-13 over 10 min");
	ber_judge(&b, BER_WATCH_DEFAULT, BER_ACT_DEFAULT);
	assert_int_equal(b.level, BER_OK);
	/* a short window bounds poorly but still judges nothing */
	ber_compute(&b, 0, 1, 2.5, 1);
	ber_judge(&b, BER_WATCH_DEFAULT, BER_ACT_DEFAULT);
	assert_int_equal(b.level, BER_OK);
	ber_text(&b, text, sizeof(text));
	assert_string_equal(text, "< 1.2e-09 over 1 s");
}

static void test_levels(void **state)
{
	struct ber b;
	char text[64];

	(void)state;
	ber_compute(&b, 10, 4, 10.0, 600);	/* 4.2e-13 */
	ber_judge(&b, BER_WATCH_DEFAULT, BER_ACT_DEFAULT);
	assert_int_equal(b.level, BER_OK);
	ber_compute(&b, 100, 4, 10.0, 600);	/* 4.2e-12 */
	ber_judge(&b, BER_WATCH_DEFAULT, BER_ACT_DEFAULT);
	assert_int_equal(b.level, BER_WATCH);
	ber_compute(&b, 100000, 4, 10.0, 600);	/* 4.2e-9 */
	ber_judge(&b, BER_WATCH_DEFAULT, BER_ACT_DEFAULT);
	assert_int_equal(b.level, BER_ACT);
	ber_text(&b, text, sizeof(text));
	assert_string_equal(text, "4.2e-09 over 10 min");
	/* the levels are the caller's (config keys) */
	ber_judge(&b, 1e-12, 1e-8);
	assert_int_equal(b.level, BER_WATCH);
}

static void test_invalid(void **state)
{
	struct ber b;
	char text[16];

	(void)state;
	ber_compute(&b, 5, 0, 10.0, 600);
	assert_false(b.valid);
	ber_compute(&b, 5, 4, 0, 600);
	assert_false(b.valid);
	ber_compute(&b, 5, 4, 10.0, 0);
	assert_false(b.valid);
	ber_judge(&b, BER_WATCH_DEFAULT, BER_ACT_DEFAULT);
	assert_int_equal(b.level, BER_OK);
	ber_text(&b, text, sizeof(text));
	assert_string_equal(text, "n/a");
	ber_window_text(9000, text, sizeof(text));
	assert_string_equal(text, "2.5 h");
}

/* From a port's samples: the SymbolErrorCounter total between the first
 * and the last sample, over that time. */
static void test_since_start(void **state)
{
	static struct delta_port d;
	static struct counter_set cs;
	struct ber b;

	(void)state;
	delta_init(&d, "mlx5_0/1", 1);
	assert_false(ber_since_start(&b, &d, 4, 10.0));	/* not read yet */
	cs.valid = true;
	counters_put(&cs, "SymbolErrorCounter", 5)->valid = true;
	delta_update(&d, &cs, 100.0);
	assert_true(ber_since_start(&b, &d, 4, 10.0));
	assert_false(b.valid);				/* one sample: no window */
	cs.c[0].value = 505;
	delta_update(&d, &cs, 105.0);
	cs.c[0].value = 1005;
	delta_update(&d, &cs, 110.0);
	assert_true(ber_since_start(&b, &d, 4, 10.0));
	assert_true(b.valid);
	assert_int_equal(b.errors, 1000);
	assert_true(fabs(b.seconds - 10.0) < 1e-9);
	assert_true(fabs(b.rate - 1000 / (4 * 10e9 * 10.0)) < 1e-22);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_since_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
