// SPDX-License-Identifier: MIT
/* Unit tests for the test verdicts, rule by rule. Every expected number is
 * written out here from the reference procedure's tables, not taken from
 * the program's own table. */
#include "config.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/agent/proto.h"
#include "diag/testverdict.h"

#define MiB (1ull << 20)

static struct tv_verdict v;

static enum tv_state bw_op(int op, double data, double avg, double peak, bool bidir,
			   unsigned long long size, bool accept)
{
	struct tv_input in = { .kind = KIND_BW, .op = op, .bidir = bidir, .size = size,
			       .data_gbps = data, .bw_avg_gbps = avg, .bw_peak_gbps = peak,
			       .accept = accept };

	tv_eval(&in, NULL, &v);
	return v.state;
}

static enum tv_state bw(double data, double avg, bool bidir, unsigned long long size)
{
	return bw_op(OP_WRITE, data, avg, avg, bidir, size, false);
}

/* Large-message write / read: >= 95 % of the data rate healthy, < 85 % abnormal. */
static void test_bw_large(void **state)
{
	/* (on 100 Gb/s: the HDR table's absolute figures do not apply) */
	assert_int_equal(bw(100, 95.0, false, MiB), TV_PASS);	/* 95 %: just inside */
	assert_int_equal(bw(100, 94.9, false, MiB), TV_WARN);	/* just outside */
	assert_string_equal(v.rule, "bw-large");
	assert_int_equal(bw(100, 85.0, false, MiB), TV_WARN);	/* 85 %: still warn */
	assert_int_equal(bw(100, 84.9, false, MiB), TV_FAIL);	/* below 85 % */
	assert_int_equal(bw(200, 168, false, MiB), TV_FAIL);	/* case 1: 168 of 200 */
	assert_int_equal(bw(400, 210, false, 8 * MiB), TV_FAIL);	/* case 2: half */
	assert_int_equal(bw_op(OP_READ, 200, 196, 196, false, MiB, false), TV_PASS);
	/* QDR 4X: 40 Gb/s signalling, 32 of data; 31.5 is 98.4 %: healthy */
	assert_int_equal(bw(32, 31.5, false, MiB), TV_PASS);
	assert_non_null(strstr(v.text, "98.4 %"));
	/* the rule names its source and its sizes */
	assert_non_null(strstr(v.text, "generation-independent"));
	assert_non_null(strstr(v.text, "1 MiB and up"));
	/* smaller than the rule's sizes (and not 64 or 4 KiB): reported, not judged */
	assert_int_equal(bw(200, 1, false, 16384), TV_NONE);
	assert_non_null(strstr(v.text, "no rule for this size"));
	/* send has no large-message rule */
	assert_int_equal(bw_op(OP_SEND, 200, 100, 100, false, MiB, false), TV_NONE);
	/* unknown data rate */
	assert_int_equal(bw(0, 196, false, MiB), TV_NONE);
	assert_non_null(strstr(v.text, "--line-rate"));
}

/* HDR table, absolute: >= 195 healthy, < 190 check adaptive routing /
 * congestion control, < 180 inspect the link (200 Gb/s, write, 1 MiB+). */
static void test_bw_large_hdr(void **state)
{
	assert_int_equal(bw(200, 195.0, false, MiB), TV_PASS);
	assert_int_equal(bw(200, 194.9, false, MiB), TV_WARN);	/* 97 %: generic says pass */
	assert_string_equal(v.rule, "bw-large-hdr");
	assert_non_null(strstr(v.text, "HDR table"));
	assert_null(strstr(v.text, "adaptive routing / congestion control) ["));
	assert_int_equal(bw(200, 189.9, false, MiB), TV_WARN);
	assert_non_null(strstr(v.text, ": check adaptive routing / congestion control"));
	assert_int_equal(bw(200, 180.0, false, MiB), TV_WARN);
	assert_int_equal(bw(200, 179.9, false, MiB), TV_FAIL);	/* generic: 89.95 %, warn */
	assert_string_equal(v.rule, "bw-large-hdr");
	assert_non_null(strstr(v.text, ": inspect the link"));
	assert_int_equal(bw(200, 168, false, MiB), TV_FAIL);	/* case 1 */
	/* read is not in the HDR table's row: the generic rule alone */
	assert_int_equal(bw_op(OP_READ, 200, 192, 192, false, MiB, false), TV_PASS);
}

/* perftest's default run, 64 KiB: the NDR example's bands (370 .. 390 of
 * 400 Gb/s normal, below 350 investigate: 92.5 % / 87.5 %) and the
 * acceptance line 90 %. */
static void test_bw_64k(void **state)
{
	assert_int_equal(bw(400, 370.0, false, 65536), TV_PASS);
	assert_string_equal(v.rule, "bw-64k");
	assert_non_null(strstr(v.text, "NDR example"));
	assert_non_null(strstr(v.text, "= 370 Gb/s"));
	assert_non_null(strstr(v.text, "= 350 Gb/s"));
	assert_non_null(strstr(v.text, "pass line 90 % = 360 Gb/s: passed"));
	assert_true(v.healthy == 370 && v.abnormal == 350 && v.pass == 360);
	assert_int_equal(bw(400, 369.9, false, 65536), TV_WARN);
	assert_int_equal(bw(400, 359.9, false, 65536), TV_WARN);
	assert_non_null(strstr(v.text, "360 Gb/s: missed"));
	assert_int_equal(bw(400, 350.0, false, 65536), TV_WARN);
	assert_int_equal(bw(400, 349.9, false, 65536), TV_FAIL);
	assert_non_null(strstr(v.text, ": investigate"));
	/* any operation, any rate: 0.5 % of QDR's 32 is no longer "none" */
	assert_int_equal(bw_op(OP_SEND, 32, 0.16, 0.16, false, 65536, false), TV_FAIL);
	assert_int_equal(bw_op(OP_READ, 200, 185, 185, false, 65536, false), TV_PASS);
	/* bidirectional 64 KiB: no rule */
	assert_int_equal(bw(200, 1, true, 65536), TV_NONE);
}

/* Bidirectional: >= 90 % of twice the data rate healthy, < 80 % abnormal. */
static void test_bw_bidir(void **state)
{
	assert_int_equal(bw(200, 360.0, true, MiB), TV_PASS);	/* 90 % of 400 */
	assert_string_equal(v.rule, "bw-bidir");
	assert_int_equal(bw(200, 359.9, true, MiB), TV_WARN);
	assert_int_equal(bw(200, 320.0, true, MiB), TV_WARN);	/* 80 % */
	assert_int_equal(bw(200, 319.9, true, MiB), TV_FAIL);
}

/* Peak vs average within 1 %: a larger gap is an unstable link. */
static void test_bw_stability(void **state)
{
	assert_int_equal(bw_op(OP_WRITE, 200, 198, 200, false, MiB, false), TV_PASS);	/* 1 % */
	assert_int_equal(bw_op(OP_WRITE, 200, 197.9, 200, false, MiB, false), TV_WARN);
	assert_string_equal(v.rule, "bw-stability");
}

/* 4 KiB write: HDR >= 90 healthy, < 70 abnormal, scaled by the data rate. */
static void test_bw_4k(void **state)
{
	assert_int_equal(bw(200, 90.0, false, 4096), TV_PASS);
	assert_string_equal(v.rule, "bw-4k");
	assert_int_equal(bw(200, 89.9, false, 4096), TV_WARN);
	assert_int_equal(bw(200, 70.0, false, 4096), TV_WARN);
	assert_int_equal(bw(200, 69.9, false, 4096), TV_FAIL);
	/* NDR 400: 180 / 140 */
	assert_int_equal(bw(400, 180.0, false, 4096), TV_PASS);
	assert_int_equal(bw(400, 179.9, false, 4096), TV_WARN);
	assert_int_equal(bw(400, 139.9, false, 4096), TV_FAIL);
	/* QDR 32: 14.4 / 11.2 */
	assert_int_equal(bw(32, 14.4, false, 4096), TV_PASS);
	assert_int_equal(bw(32, 11.1, false, 4096), TV_FAIL);
}

/* Acceptance: pass at 90 % of the data rate, fail below; nothing between. */
static void test_accept(void **state)
{
	assert_int_equal(bw_op(OP_WRITE, 200, 180.0, 180.0, false, MiB, true), TV_PASS);
	assert_string_equal(v.rule, "accept");
	assert_int_equal(bw_op(OP_WRITE, 200, 179.9, 179.9, false, MiB, true), TV_FAIL);
	/* 87 %: the healthy/abnormal rule says warn, acceptance says fail */
	assert_int_equal(bw_op(OP_WRITE, 100, 87, 87, false, MiB, false), TV_WARN);
	assert_int_equal(bw_op(OP_WRITE, 100, 87, 87, false, MiB, true), TV_FAIL);
	/* 89 % fails acceptance too; 91 % passes even with a wobbly peak */
	assert_int_equal(bw_op(OP_WRITE, 200, 178, 178, false, MiB, true), TV_FAIL);
	assert_int_equal(bw_op(OP_WRITE, 200, 182, 190, false, MiB, true), TV_PASS);
	/* bidirectional: of twice the rate */
	assert_int_equal(bw_op(OP_WRITE, 100, 180, 180, true, MiB, true), TV_PASS);
	assert_int_equal(bw_op(OP_WRITE, 100, 179, 179, true, MiB, true), TV_FAIL);
	/* small messages are not an acceptance test */
	assert_int_equal(bw_op(OP_WRITE, 200, 190, 190, false, 4096, true), TV_NONE);
	assert_non_null(strstr(v.text, "64 KiB and up"));
	/* perftest's default 64 KiB is: the 90 % line judges it */
	assert_int_equal(bw_op(OP_SEND, 400, 360, 360, false, 65536, true), TV_PASS);
	assert_string_equal(v.rule, "accept");
	assert_true(v.pass == 360);
	assert_int_equal(bw_op(OP_WRITE, 400, 359.9, 359.9, false, 65536, true), TV_FAIL);
	assert_string_equal(v.rule, "accept");
}

static enum tv_state lat(int op, unsigned long long size, double median, double p99)
{
	struct tv_input in = { .kind = KIND_LAT, .op = op, .size = size, .data_gbps = 200,
			       .lat_valid = true, .lat_median_us = median, .lat_p99_us = p99 };

	tv_eval(&in, NULL, &v);
	return v.state;
}

/* Write / read at 2 B: <= 2 us healthy, > 5 us abnormal; write p99 (HDR
 * table): <= 2.5 us healthy, > 5 us abnormal. */
static void test_latency(void **state)
{
	assert_int_equal(lat(OP_WRITE, 2, 2.0, 2.5), TV_PASS);
	assert_int_equal(lat(OP_WRITE, 2, 2.01, 2.5), TV_WARN);
	assert_string_equal(v.rule, "lat-2b");
	assert_int_equal(lat(OP_WRITE, 2, 1.0, 2.51), TV_WARN);
	assert_string_equal(v.rule, "lat-p99");
	assert_int_equal(lat(OP_WRITE, 2, 1.0, 5.0), TV_WARN);
	assert_int_equal(lat(OP_WRITE, 2, 1.0, 5.01), TV_FAIL);
	assert_int_equal(lat(OP_READ, 2, 5.0, 9), TV_WARN);	/* read: no p99 rule */
	assert_int_equal(lat(OP_READ, 2, 5.01, 9), TV_FAIL);
	/* 1 MiB: not judged by the 2 B rule */
	assert_int_equal(lat(OP_WRITE, MiB, 80, 90), TV_NONE);
	assert_non_null(strstr(v.text, "no rule for this size"));
	/* send latency: no rule */
	assert_int_equal(lat(OP_SEND, 2, 9, 9), TV_NONE);
	/* no samples */
	struct tv_input in = { .kind = KIND_LAT, .op = OP_WRITE, .size = 2 };

	tv_eval(&in, NULL, &v);
	assert_int_equal(v.state, TV_NONE);
}

static enum tv_state rate(double data, unsigned long long size, double mpps)
{
	struct tv_input in = { .kind = KIND_RATE, .op = OP_SEND, .size = size,
			       .data_gbps = data, .mpps = mpps };

	tv_eval(&in, NULL, &v);
	return v.state;
}

/* Message rate: >= 90 / < 70 Mpps for HDR at 4 B; elsewhere no reference. */
static void test_msg_rate(void **state)
{
	assert_int_equal(rate(200, 4, 90.0), TV_PASS);
	assert_string_equal(v.rule, "msg-rate");
	assert_int_equal(rate(200, 4, 89.9), TV_WARN);
	assert_int_equal(rate(200, 4, 70.0), TV_WARN);
	assert_int_equal(rate(200, 4, 69.9), TV_FAIL);
	/* NDR: no 180 Mpps invented */
	assert_int_equal(rate(400, 4, 100), TV_NONE);
	assert_non_null(strstr(v.text, "no reference"));
	/* HDR at 64 B: no reference either */
	assert_int_equal(rate(200, 64, 10), TV_NONE);
}

/* A site's own numbers, as the config file gives them. */
static void test_overrides(void **state)
{
	struct tv_limits l;
	struct tv_input in = { .kind = KIND_BW, .op = OP_WRITE, .size = MiB,
			       .data_gbps = 100, .bw_avg_gbps = 92.5, .bw_peak_gbps = 92.5 };

	tv_limits_defaults(&l);
	tv_eval(&in, &l, &v);
	assert_int_equal(v.state, TV_WARN);
	assert_int_equal(tv_limits_set(&l, "test_bw_large_healthy_pct", "92"), 0);
	tv_eval(&in, &l, &v);
	assert_int_equal(v.state, TV_PASS);
	assert_int_equal(tv_limits_set(&l, "test_bw_large_healthy_pct", "abc"), -1);
	assert_int_equal(tv_limits_set(&l, "test_bw_large_healthy_pct", "101"), -1);
	assert_int_equal(tv_limits_set(&l, "no_such_key", "1"), 1);
	/* a message-rate reference for NDR makes the rule apply there */
	assert_int_equal(tv_limits_set(&l, "test_rate_ref_gbps", "400"), 0);
	assert_int_equal(tv_limits_set(&l, "test_rate_healthy_mpps", "150"), 0);
	in = (struct tv_input){ .kind = KIND_RATE, .op = OP_SEND, .size = 4,
				.data_gbps = 400, .mpps = 160 };
	tv_eval(&in, &l, &v);
	assert_int_equal(v.state, TV_PASS);
	assert_string_equal(v.rule, "msg-rate");
}

/* A number in text, not as part of a longer one. */
static bool has_num(const char *text, const char *num)
{
	size_t n = strlen(num);

	for (const char *p = strstr(text, num); p; p = strstr(p + 1, num)) {
		bool before = p > text && (isdigit((unsigned char)p[-1]) || p[-1] == '.');
		bool after = isdigit((unsigned char)p[n]) ||
			     (p[n] == '.' && isdigit((unsigned char)p[n + 1]));

		if (!before && !after)
			return true;
	}
	return false;
}

/* The man page's TEST VERDICT section and the rule table say the same:
 * every rule has its paragraph (and every paragraph its rule), naming its
 * source table, each config key and each key's default value. */
static void test_man_matches_table(void **state)
{
	FILE *f = fopen(MAN_PAGE_IN, "r");
	static char page[1 << 20];
	size_t len;
	char *sec, *end;
	struct tv_limits def;

	assert_non_null(f);
	len = fread(page, 1, sizeof(page) - 1, f);
	fclose(f);
	page[len] = '\0';
	sec = strstr(page, ".SH \"TEST VERDICT\"");
	assert_non_null(sec);
	end = strstr(sec, "\n.PP\n");
	assert_non_null(end);
	*end = '\0';
	/* no paragraph without its rule */
	for (char *p = strstr(sec, "\n.TP\n.B "); p; p = strstr(p + 1, "\n.TP\n.B ")) {
		char id[64], *o = id;
		const char *c = p + strlen("\n.TP\n.B ");

		while (*c && *c != '\n' && o < id + sizeof(id) - 1) {
			if (c[0] == '\\' && c[1] == '-')
				c++;
			*o++ = *c++;
		}
		*o = '\0';
		if (!tv_rule_find(id))
			fail_msg("man page rule %s is not in the rule table", id);
	}
	tv_limits_defaults(&def);
	for (int i = 0; i < tv_nrules; i++) {
		const struct tv_rule *r = &tv_rules[i];
		char head[64], *para, *next, *o = head;

		/* ".B bw\-large\n" */
		o += sprintf(o, "\n.B ");
		for (const char *c = r->id; *c; c++)
			o += *c == '-' ? sprintf(o, "\\-") : sprintf(o, "%c", *c);
		sprintf(o, "\n");
		para = strstr(sec, head);
		if (!para)
			fail_msg("rule %s has no paragraph in the man page", r->id);
		next = strstr(para + 1, "\n.TP");
		if (next)
			*next = '\0';
		/* one line: the page breaks its lines anywhere */
		for (char *c = para + 1; *c; c++)
			if (*c == '\n')
				*c = ' ';
		/* "Source: the reference procedure, HDR table" */
		{
			if (!strstr(para, "Source: the reference procedure,"))
				fail_msg("rule %s: no source in the man page", r->id);
			if (!strstr(para, r->source + strlen("reference procedure, ")))
				fail_msg("rule %s: man page does not name its source '%s'", r->id, r->source);
		}
		for (int k = 0; k < 5 && r->keys[k]; k++) {
			char key[80], num[32], sz[32];
			double val = -1;

			snprintf(key, sizeof(key), "\\fB%s\\fR", r->keys[k]);
			if (!strstr(para, key))
				fail_msg("rule %s: man page lacks its key %s", r->id, r->keys[k]);
			for (int j = 0; j < tv_nsettings; j++)
				if (!strcmp(tv_settings[j].key, r->keys[k]))
					val = *(double *)((char *)&def + tv_settings[j].offset);
			assert_true(val >= 0);	/* the key is a setting */
			if (strstr(r->keys[k], "_pct"))
				val *= 100;
			snprintf(num, sizeof(num), "%g", val);
			sz[0] = '\0';
			if (strstr(r->keys[k], "_bytes") || strstr(r->keys[k], "_size")) {
				unsigned long long b = (unsigned long long)val;

				snprintf(sz, sizeof(sz), b >= (1 << 20) ? "%llu MiB" : b >= 1024 ? "%llu KiB" : "%llu B",
					 b >= (1 << 20) ? b >> 20 : b >= 1024 ? b >> 10 : b);
			}
			if (!has_num(para, num) && !(sz[0] && strstr(para, sz)))
				fail_msg("rule %s: man page lacks %s's default %s", r->id, r->keys[k], num);
		}
		if (next)
			*next = '\n';
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bw_large),
		cmocka_unit_test(test_bw_large_hdr),
		cmocka_unit_test(test_bw_64k),
		cmocka_unit_test(test_bw_bidir),
		cmocka_unit_test(test_bw_stability),
		cmocka_unit_test(test_bw_4k),
		cmocka_unit_test(test_accept),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_msg_rate),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_man_matches_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
