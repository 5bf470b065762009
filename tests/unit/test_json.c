// SPDX-License-Identifier: MIT
/* The JSON writer against a plain reference: every string escaped byte
 * by byte as RFC 8259 asks (with invalid UTF-8 as U+FFFD), every number
 * as printf writes it, so the buffered writer's output is the same. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/json.h"

/* The reference: one byte at a time, the writer's rules spelt out. */
static int ref_utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	int n;
	unsigned lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

static int ref_string(FILE *f, const char *s)
{
	int bad = 0;

	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		int n = c < 0x80 ? 1 : ref_utf8_len((const unsigned char *)s);

		if (n > 1) {
			fwrite(s, 1, (size_t)n, f);
			s += n - 1;
		} else if (!n) {
			fputs("\xef\xbf\xbd", f);
			bad++;
		} else if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else {
			fputc(c, f);
		}
	}
	fputc('"', f);
	return bad;
}

/* json_str(NULL key) of s inside an array, and the reference's text. */
static void both(const char *s, char **got, char **want, int *bad)
{
	size_t n;
	FILE *f = open_memstream(got, &n);
	struct json j;

	assert_non_null(f);
	json_init(&j, f);
	j.compact = true;
	json_arr_begin(&j, NULL);
	json_str(&j, NULL, s);
	json_arr_end(&j);
	fclose(f);
	*bad = j.utf8_replaced;

	f = open_memstream(want, &n);
	assert_non_null(f);
	fputc('[', f);
	ref_string(f, s);
	fputs("]\n", f);
	fclose(f);
}

static void check(const char *s)
{
	char *got, *want;
	int bad;

	both(s, &got, &want, &bad);
	assert_string_equal(got, want);
	assert_int_equal(bad, json_utf8_invalid(s));
	free(got);
	free(want);
}

static void test_escapes(void **state)
{
	(void)state;
	check("");
	check("plain Hca2 port 1");
	check("quote \" backslash \\ slash /");
	/* short ones, each with one kind of escape only: the writer's
	 * one-call path for short plain text must not take them */
	check("\"");
	check("say \"hi\"");
	check("a\\b");
	check("tab\there");
	check("nl\ntab\tcr\rbell\a esc\x1b del\x7f x\x01y\x1f");
	check("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");		/* valid */
	check("latin-1 caf\xe9, lone \x80, overlong \xc0\xaf, cut \xe2\x82");
	check("surrogate \xed\xa0\x80 above \xf4\x90\x80\x80 end \xf0");
}

/* Strings longer than the writer's buffer, with escapes and multi-byte
 * sequences across its edges, and random bytes. */
static void test_long_and_random(void **state)
{
	static const char *pieces[] = { "a", "\"", "\\", "\n", "\x01", "\x7f",
		"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xe9", "\xed\xa0\x80" };
	char s[6001];

	(void)state;
	for (int off = 0; off < 12; off++) {
		size_t n = 0;

		for (int i = 0; n < sizeof(s) - 8; i++) {
			const char *p = pieces[(i * 7 + off) % 11];

			memcpy(s + n, p, strlen(p));
			n += strlen(p);
		}
		s[n] = '\0';
		check(s);
	}
	srand(14);
	for (int round = 0; round < 300; round++) {
		size_t n = (size_t)(rand() % 3000);

		for (size_t i = 0; i < n; i++)
			s[i] = (char)(1 + rand() % 255);
		s[n] = '\0';
		check(s);
	}
}

/* A keyed invalid string says how many bytes it replaced beside it. */
static void test_replaced_sibling(void **state)
{
	char *got;
	size_t n;
	FILE *f = open_memstream(&got, &n);
	struct json j;

	(void)state;
	json_init(&j, f);
	json_obj_begin(&j, NULL);
	json_str(&j, "name", "H\xe9\xe9");
	json_obj_end(&j);
	fclose(f);
	assert_string_equal(got, "{\n  \"name\": \"H\xef\xbf\xbd\xef\xbf\xbd\",\n  \"name_utf8_replaced\": 2\n}\n");
	assert_int_equal(j.utf8_replaced, 2);
	free(got);
}

static void num_case(double v)
{
	char *got, want[64];
	size_t n;
	FILE *f = open_memstream(&got, &n);
	struct json j;

	json_init(&j, f);
	j.compact = true;
	json_arr_begin(&j, NULL);
	json_num(&j, NULL, v);
	json_arr_end(&j);
	fclose(f);
	if (isfinite(v))
		snprintf(want, sizeof(want), "[%.10g]\n", v);
	else
		snprintf(want, sizeof(want), "[null]\n");
	assert_string_equal(got, want);
	free(got);
}

static void test_numbers(void **state)
{
	static const double nums[] = { 0.0, -0.0, 1, -1, 7, 42.5, 1e9,
		9999999999.0, 1e10, -9999999999.0, -1e10, 12345678901.0, 0.1,
		-3.25, 1e-7, 4294967295.0, 1e300, NAN, INFINITY, -INFINITY };
	char *got;
	size_t n;
	FILE *f;
	struct json j;

	(void)state;
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		num_case(nums[i]);
	srand(8);
	for (int i = 0; i < 2000; i++)
		num_case((double)(rand() % 2000001 - 1000000) / (1 + rand() % 4));

	f = open_memstream(&got, &n);
	json_init(&j, f);
	j.compact = true;
	json_arr_begin(&j, NULL);
	json_u64(&j, NULL, 0);
	json_u64(&j, NULL, UINT64_MAX);
	json_int(&j, NULL, LLONG_MIN);
	json_int(&j, NULL, LLONG_MAX);
	json_int(&j, NULL, -1);
	json_int_or_null(&j, NULL, false, 5);
	json_int_or_null(&j, NULL, true, 0);
	json_arr_end(&j);
	fclose(f);
	assert_string_equal(got, "[0,18446744073709551615,-9223372036854775808,9223372036854775807,-1,null,0]\n");
	free(got);
}

/* json_num_text against snprintf("%.10g") directly: the text of
 * fractions is made without printf, so every path of it is compared
 * with printf's, many values each. */
static void text_case(double v)
{
	char got[JSON_NUM_MAX], want[64];
	size_t n = json_num_text(got, v);

	if (isfinite(v))
		snprintf(want, sizeof(want), "%.10g", v);
	else
		snprintf(want, sizeof(want), "null");
	if (strcmp(got, want) || n != strlen(want))
		fail_msg("%a: json_num_text wrote \"%s\" (%zu), printf \"%s\"", v, got, n, want);
}

static uint64_t rnd64(void)
{
	return (uint64_t)rand() << 62 ^ (uint64_t)rand() << 31 ^ (uint64_t)rand();
}

static void test_number_text(void **state)
{
	/* ties at the tenth digit (exact in binary, to even), the style's
	 * edges (1e-4, 1e10, 9.9999999995 rounding up a decade), the ends
	 * of the exact range and past them */
	static const double edge[] = { 12345678905.0, 12345678915.0, 0.5, 1.5, 2.5,
		9999999999.5, 9999999999.4, 99999999995.0, 99999999985.0, 1e10 + 0.5,
		0.0001, 0.00009999999999, 0.000099999999995, 0.00010000000005,
		9.9999999995e-5, 1e-5, 123456.78905, 1.0000000005, 1.00000000049,
		0.3, 2.0 / 3, 1e-13, 1e-14, 1.5e-13, 9.99999999e37, 1e38, 3e38, 1e300,
		5e-324, 2.2250738585072014e-308, 1e22, 1e23, 4503599627370495.5,
		9007199254740993.0, 1.8446744073709552e19, 29.99979423, 6.911952591e-05,
		123471053.6, 0.999871, -0.999871, -12345678905.0, -9.9999999995e-5 };

	(void)state;
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		text_case(edge[i]);
		text_case(nextafter(edge[i], 0));
		text_case(nextafter(edge[i], INFINITY));
	}
	srand(26);
	/* any bit pattern, so every exponent */
	for (int i = 0; i < 200000; i++) {
		uint64_t b = rnd64();
		double v;

		memcpy(&v, &b, sizeof(v));
		text_case(v);
	}
	/* the magnitudes rates have, uniformly in their exponent */
	for (int i = 0; i < 200000; i++)
		text_case(ldexp((double)(rnd64() >> 11), rand() % 160 - 120));
	/* ten digits and a 5 after them, near a decimal tie, in every decade */
	for (int i = 0; i < 100000; i++) {
		double v = (double)(1000000000 + rand() % 1000000000) * 10 + 5;

		text_case(v * pow(10, rand() % 40 - 25));
		text_case((double)(rand() % 100000) / (1 << (rand() % 20)));
	}
}

/* A piece written again is what the writer writes, in the state it was
 * made in (first member or not, compact or indented, any depth), and is
 * refused in another; the writer's state after it is the same too. */
static void piece_fn(struct json *j, const void *arg)
{
	json_str(j, "a", arg);
	json_obj_begin(j, "o");
	json_int(j, "x", 1);
	json_arr_begin(j, "e");
	json_arr_end(j);
	json_obj_end(j);
	json_bool(j, "b", true);
}

static char *piece_doc(bool compact, int depth, bool lead, struct json_piece *p,
		       const char *val, bool *put)
{
	char *got = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&got, &n);
	struct json j;

	json_init(&j, f);
	j.compact = compact;
	json_obj_begin(&j, NULL);
	for (int k = 1; k < depth; k++)
		json_obj_begin(&j, "in");
	if (lead)
		json_int(&j, "before", 0);
	*put = false;
	if (!p)
		piece_fn(&j, val);
	else if (!(*put = json_piece_put(&j, p)))
		json_piece_make(&j, p, piece_fn, val);
	json_int(&j, "after", 2);
	for (int k = 0; k < depth; k++)
		json_obj_end(&j);
	fclose(f);
	return got;
}

static void test_piece(void **state)
{
	struct json_piece p;
	bool put;

	(void)state;
	memset(&p, 0, sizeof(p));
	for (int compact = 0; compact < 2; compact++)
		for (int depth = 1; depth < 4; depth++)
			for (int lead = 0; lead < 2; lead++) {
				char *want = piece_doc(compact, depth, lead, NULL, "v\xff", &put);
				char *made = piece_doc(compact, depth, lead, &p, "v\xff", &put);
				char *again;

				assert_false(put);	/* another state: made anew */
				again = piece_doc(compact, depth, lead, &p, "v\xff", &put);
				assert_true(put);
				assert_string_equal(made, want);
				assert_string_equal(again, want);
				free(want);
				free(made);
				free(again);
			}
	json_piece_free(&p);
}

/* Nesting deeper than the indentation table still closes correctly. */
static void test_indent(void **state)
{
	char *got;
	size_t n;
	FILE *f = open_memstream(&got, &n);
	struct json j;

	(void)state;
	json_init(&j, f);
	json_obj_begin(&j, NULL);
	json_arr_begin(&j, "a");
	json_obj_begin(&j, NULL);
	json_int(&j, "x", 1);
	json_obj_end(&j);
	json_arr_end(&j);
	json_arr_begin(&j, "e");
	json_arr_end(&j);
	json_obj_end(&j);
	fclose(f);
	assert_string_equal(got, "{\n  \"a\": [\n    {\n      \"x\": 1\n    }\n  ],\n  \"e\": []\n}\n");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_long_and_random),
		cmocka_unit_test(test_replaced_sibling),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_number_text),
		cmocka_unit_test(test_piece),
		cmocka_unit_test(test_indent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
