// SPDX-License-Identifier: MIT
/* Unit tests for the console's layout maths: column fitting, pane split,
 * scrolling, the interval ladder, number formats, word wrap and the
 * grouping of histogram rows. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ui/layout.h"

static const struct layout_col cols[] = {
	{ "A", 10, 20, 0, false },	/* grows */
	{ "B", 6, 6, 0, true },
	{ "C", 8, 8, 2, false },	/* dropped first */
	{ "D", 5, 5, 1, false },
};

static void test_columns_all_fit(void **state)
{
	int x[4], w[4];

	/* 10 + 6 + 8 + 5 + 3 gaps = 32 */
	assert_int_equal(layout_columns(cols, 4, 32, 1, x, w), 4);
	assert_int_equal(x[0], 0);
	assert_int_equal(x[1], 11);
	assert_int_equal(x[2], 18);
	assert_int_equal(x[3], 27);
	assert_int_equal(w[0], 10);
}

static void test_columns_spare_grows(void **state)
{
	int x[4], w[4];

	assert_int_equal(layout_columns(cols, 4, 37, 1, x, w), 4);
	assert_int_equal(w[0], 15);
	assert_int_equal(x[1], 16);
	/* never past max_width */
	layout_columns(cols, 4, 100, 1, x, w);
	assert_int_equal(w[0], 20);
	assert_int_equal(w[1], 6);
}

static void test_columns_drop_order(void **state)
{
	int x[4], w[4];

	/* 31: C (rank 2) goes, D stays */
	assert_int_equal(layout_columns(cols, 4, 31, 1, x, w), 3);
	assert_int_equal(w[2], 0);
	assert_int_equal(x[2], -1);
	assert_int_equal(w[3], 5);
	/* 22 needs rank-0 columns only (17) + D (6) = 23 > 22: D goes */
	assert_int_equal(layout_columns(cols, 4, 22, 1, x, w), 2);
	assert_int_equal(w[3], 0);
	/* rank 0 stays even when nothing fits */
	assert_int_equal(layout_columns(cols, 4, 5, 1, x, w), 2);
}

static void test_frame(void **state)
{
	struct layout_frame f;

	layout_frame(120, 40, 2, &f);
	assert_false(f.too_small);
	assert_int_equal(f.header_y, 0);
	assert_int_equal(f.table_y, 1);
	assert_int_equal(f.table_h, 2);
	assert_int_equal(f.detail_y, 4);
	assert_int_equal(f.footer_y, 39);
	assert_int_equal(f.detail_h, 34);
	assert_int_equal(f.detail_cols, 2);

	layout_frame(80, 24, 64, &f);
	assert_false(f.too_small);
	assert_int_equal(f.detail_cols, 1);
	/* many ports: the table keeps a third, the detail keeps room */
	assert_int_equal(f.table_h, 7);
	assert_true(f.detail_h >= 4);
	assert_int_equal(f.detail_y + 1 + f.detail_h, f.footer_y);

	layout_frame(40, 10, 64, &f);
	assert_false(f.too_small);
	assert_true(f.table_h >= 1);
	assert_true(f.detail_h >= 1);
	assert_true(f.detail_y + f.detail_h < f.footer_y);

	layout_frame(39, 24, 1, &f);
	assert_true(f.too_small);
	layout_frame(80, 9, 1, &f);
	assert_true(f.too_small);
	layout_frame(30, 8, 1, &f);
	assert_true(f.too_small);
}

static void test_scroll(void **state)
{
	assert_int_equal(layout_scroll(0, 0, 5, 20), 0);
	assert_int_equal(layout_scroll(7, 0, 5, 20), 3);
	assert_int_equal(layout_scroll(2, 3, 5, 20), 2);
	assert_int_equal(layout_scroll(19, 0, 5, 20), 15);
	/* fewer rows than the window: top stays 0 */
	assert_int_equal(layout_scroll(2, 4, 10, 3), 0);
	assert_int_equal(layout_scroll(0, 0, 0, 3), 0);
}

static void test_clamp(void **state)
{
	assert_int_equal(layout_clamp(5, 0, 3), 3);
	assert_int_equal(layout_clamp(-1, 0, 3), 0);
	assert_int_equal(layout_clamp(2, 0, 3), 2);
	/* empty range (no ports): lower bound wins */
	assert_int_equal(layout_clamp(0, 0, -1), 0);
}

static void test_interval_ladder(void **state)
{
	assert_true(layout_interval_step(1, 1) == 2);
	assert_true(layout_interval_step(1, -1) == 0.5);
	assert_true(layout_interval_step(0.5, -1) == 0.5);
	assert_true(layout_interval_step(60, 1) == 60);
	assert_true(layout_interval_step(30, 1) == 60);
	/* off the ladder: the next step in that direction */
	assert_true(layout_interval_step(4, 1) == 5);
	assert_true(layout_interval_step(4, -1) == 3);
	assert_true(layout_interval_step(100, -1) == 60);
	assert_true(layout_interval_step(0.1, 1) == 0.5);
}

static void test_formats(void **state)
{
	char b[32];

	assert_string_equal(layout_fmt_interval(1, b, sizeof(b)), "1 s");
	assert_string_equal(layout_fmt_interval(0.5, b, sizeof(b)), "0.5 s");
	assert_string_equal(layout_fmt_interval(60, b, sizeof(b)), "60 s");
	assert_string_equal(layout_fmt_gbps(10, b, sizeof(b)), "10 Gb/s");
	assert_string_equal(layout_fmt_gbps(2.5, b, sizeof(b)), "2.5 Gb/s");
	assert_string_equal(layout_fmt_gbps(56, b, sizeof(b)), "56 Gb/s");
	assert_string_equal(layout_fmt_gbps(0, b, sizeof(b)), "n/a");
	assert_string_equal(layout_fmt_gbps(-1, b, sizeof(b)), "n/a");
	assert_int_equal(layout_pcie_gen(2.5), 1);
	assert_int_equal(layout_pcie_gen(8), 3);
	assert_int_equal(layout_pcie_gen(16), 4);
	assert_int_equal(layout_pcie_gen(64), 6);
	assert_int_equal(layout_pcie_gen(0), 0);
	assert_int_equal(layout_pcie_gen(7), 0);
}

static void test_wrap(void **state)
{
	const char *t = "link trained at 1X instead of 4X";
	int n, next;

	n = layout_wrap(t, 100, &next);
	assert_int_equal(n, (int)strlen(t));
	assert_int_equal(next, (int)strlen(t));
	/* breaks at the last space that fits, skips it on the next line */
	n = layout_wrap(t, 12, &next);
	assert_int_equal(n, 12);	/* "link trained" */
	assert_int_equal(next, 13);
	n = layout_wrap(t + next, 12, &next);
	assert_int_equal(n, 5);		/* "at 1X" */
	/* a word longer than the line is cut hard */
	n = layout_wrap("0123456789abcdef", 5, &next);
	assert_int_equal(n, 5);
	assert_int_equal(next, 5);
	n = layout_wrap("", 5, &next);
	assert_int_equal(n, 0);
	assert_int_equal(next, 0);
}

/* Appends that pass the buffer are cut: the length never reaches its
 * size, the bytes after it are untouched, later appends add nothing. */
static void test_addf(void **state)
{
	struct { char buf[16]; char canary[16]; } b;
	int n = 0;

	(void)state;
	memset(&b, 'X', sizeof(b));
	n = layout_addf(b.buf, sizeof(b.buf), n, "%s", "0123456789");
	assert_int_equal(n, 10);
	n = layout_addf(b.buf, sizeof(b.buf), n, ", %s", "abcdefghij");
	assert_int_equal(n, 15);
	assert_string_equal(b.buf, "0123456789, abc");
	/* the old pattern's next call had size - n wrap round here */
	for (int i = 0; i < 3; i++)
		n = layout_addf(b.buf, sizeof(b.buf), n, "; rcv %.3f Gb/s", 1.5);
	assert_int_equal(n, 15);
	assert_string_equal(b.buf, "0123456789, abc");
	for (size_t i = 0; i < sizeof(b.canary); i++)
		assert_int_equal(b.canary[i], 'X');
	assert_int_equal(layout_addf(b.buf, sizeof(b.buf), 40, "x"), 40);
}

static void test_hist_group(void **state)
{
	unsigned c[64] = { 0 };
	int first, group;

	assert_int_equal(layout_hist_group(c, 64, 10, &first, &group), 0);
	/* buckets 17..22 occupied: 6 rows fit in 10 as they are */
	c[17] = 5;
	c[22] = 1;
	assert_int_equal(layout_hist_group(c, 64, 10, &first, &group), 6);
	assert_int_equal(first, 17);
	assert_int_equal(group, 1);
	/* 3 rows: pairs 16-17 .. 22-23 are 4, so fours: 16-19, 20-23 */
	assert_int_equal(layout_hist_group(c, 64, 3, &first, &group), 2);
	assert_int_equal(first, 16);
	assert_int_equal(group, 4);
	/* a far tail widens the groups until it fits, aligned: eights
	 * 16-23 .. 56-63 are 6 rows */
	c[60] = 1;
	assert_int_equal(layout_hist_group(c, 64, 8, &first, &group), 6);
	assert_int_equal(group, 8);
	assert_int_equal(first, 16);
	assert_int_equal(first % group, 0);
	/* one row: everything in one group */
	assert_int_equal(layout_hist_group(c, 64, 1, &first, &group), 1);
	assert_int_equal(first, 0);
	assert_int_equal(group, 64);
	assert_int_equal(layout_hist_group(c, 64, 0, &first, &group), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns_all_fit),
		cmocka_unit_test(test_columns_spare_grows),
		cmocka_unit_test(test_columns_drop_order),
		cmocka_unit_test(test_frame),
		cmocka_unit_test(test_scroll),
		cmocka_unit_test(test_clamp),
		cmocka_unit_test(test_interval_ladder),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_addf),
		cmocka_unit_test(test_hist_group),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
