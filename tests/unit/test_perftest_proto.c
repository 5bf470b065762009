// SPDX-License-Identifier: MIT
/* Unit tests for perftest's handshake codec, against byte strings written
 * out as perftest 6.06 (Debian 12's perftest 4.5-0.17) formats them:
 * KEY_PRINT_FMT / KEY_PRINT_FMT_GID, the MTU string, network-order ints
 * and byte-swapped doubles, and the 6.28+ negotiation block layout. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/testrun/perftest_proto.h"

/* an ib_write_bw 6.06 server's line on rxe without a GID (IB form) */
static const char key_plain[PT_KEY_LEN] =
	"0000:0010:000011:6b8f2c:00001e3a:00007f5a1c2e1000:00000000";
/* … and with a GID (RoCE, ::ffff:10.0.2.15) */
static const char key_gid[PT_KEY_GID_LEN] =
	"0000:0010:000012:abcdef:00001f00:00005612a0b01000:"
	"00:00:00:00:00:00:00:00:00:00:ff:ff:0a:00:02:0f:00000000:";

static void t_key_plain(void **st)
{
	struct pt_key k;
	uint8_t out[PT_KEY_GID_LEN];
	char why[200];

	(void)st;
	assert_int_equal(strlen(key_plain), PT_KEY_LEN - 1);
	assert_int_equal(pt_key_decode((const uint8_t *)key_plain, PT_KEY_LEN, false, &k, why, sizeof(why)), 0);
	assert_int_equal(k.lid, 0);
	assert_int_equal(k.out_reads, 16);
	assert_int_equal(k.qpn, 0x11);
	assert_int_equal(k.psn, 0x6b8f2c);
	assert_int_equal(k.rkey, 0x1e3a);
	assert_true(k.vaddr == 0x7f5a1c2e1000ull);
	assert_int_equal(pt_key_encode(&k, false, out, sizeof(out)), PT_KEY_LEN);
	assert_memory_equal(out, key_plain, PT_KEY_LEN);
	/* the GID form of the same bytes is refused (length) */
	assert_int_equal(pt_key_decode((const uint8_t *)key_plain, PT_KEY_LEN, true, &k, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "108"));
}

static void t_key_gid(void **st)
{
	static const uint8_t gid[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 2, 15 };
	struct pt_key k;
	uint8_t out[PT_KEY_GID_LEN];
	char why[200];

	(void)st;
	assert_int_equal(strlen(key_gid), PT_KEY_GID_LEN - 1);
	assert_int_equal(pt_key_decode((const uint8_t *)key_gid, PT_KEY_GID_LEN, true, &k, why, sizeof(why)), 0);
	assert_memory_equal(k.gid, gid, 16);
	assert_int_equal(k.qpn, 0x12);
	assert_true(k.vaddr == 0x5612a0b01000ull);
	assert_int_equal(pt_key_encode(&k, true, out, sizeof(out)), PT_KEY_GID_LEN);
	assert_memory_equal(out, key_gid, PT_KEY_GID_LEN);
}

static void t_key_bad(void **st)
{
	char b[PT_KEY_LEN];
	struct pt_key k = { .qpn = 0x1000000 };
	uint8_t out[PT_KEY_GID_LEN];
	char why[200];

	(void)st;
	memcpy(b, key_plain, sizeof(b));
	b[4] = '-';		/* separator */
	assert_int_equal(pt_key_decode((uint8_t *)b, sizeof(b), false, &k, why, sizeof(why)), -1);
	memcpy(b, key_plain, sizeof(b));
	b[12] = 'g';		/* not hex */
	assert_int_equal(pt_key_decode((uint8_t *)b, sizeof(b), false, &k, why, sizeof(why)), -1);
	memcpy(b, key_plain, sizeof(b));
	b[PT_KEY_LEN - 1] = 'x';	/* no NUL */
	assert_int_equal(pt_key_decode((uint8_t *)b, sizeof(b), false, &k, why, sizeof(why)), -1);
	k.qpn = 0x1000000;	/* QPNs are 24 bits */
	assert_int_equal(pt_key_encode(&k, false, out, sizeof(out)), -1);
}

static void t_version(void **st)
{
	uint8_t v[PT_VERSION_LEN];
	char s[16], why[200];

	(void)st;
	pt_version_encode("6.06", v);
	assert_memory_equal(v, "6.06\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	assert_int_equal(pt_version_decode(v, s, sizeof(s), why, sizeof(why)), 606);
	assert_string_equal(s, "6.06");
	pt_version_encode("6.28", v);
	assert_int_equal(pt_version_decode(v, s, sizeof(s), why, sizeof(why)), 628);
	pt_version_encode("5.7", v);	/* atof: 5.7 = 5.70 */
	assert_int_equal(pt_version_decode(v, s, sizeof(s), why, sizeof(why)), 570);
	memcpy(v, "IBCT\x01\x01\0\0\0\0\0\0\0\0\0\0", 16);	/* our agent's frame */
	assert_int_equal(pt_version_decode(v, s, sizeof(s), why, sizeof(why)), -1);
	memset(v, '6', 16);	/* unterminated */
	assert_int_equal(pt_version_decode(v, s, sizeof(s), why, sizeof(why)), -1);
}

static void t_numbers(void **st)
{
	uint8_t b[8];
	/* 5000.0 as a little-endian host double, byte-swapped: 40 b3 88 00 … */
	static const uint8_t d5000[8] = { 0x40, 0xb3, 0x88, 0, 0, 0, 0, 0 };
	char why[200];

	(void)st;
	pt_u32_encode(4096, b);
	assert_memory_equal(b, "\0\0\x10\0", 4);
	assert_int_equal(pt_u32_decode(b), 4096);
	pt_u64_encode(65536, b);
	assert_memory_equal(b, "\0\0\0\0\0\x01\0\0", 8);
	assert_true(pt_u64_decode(b) == 65536);
	pt_double_encode(5000.0, b);
	assert_memory_equal(b, d5000, 8);
	assert_true(pt_double_decode(d5000) == 5000.0);
	assert_int_equal(pt_mtu_encode(3, b), 2);
	assert_memory_equal(b, "3\0", 2);
	assert_int_equal(pt_mtu_decode((const uint8_t *)"5\0", why, sizeof(why)), 5);
	assert_int_equal(pt_mtu_decode((const uint8_t *)"6\0", why, sizeof(why)), -1);
	assert_int_equal(pt_mtu_decode((const uint8_t *)"10", why, sizeof(why)), -1);
	assert_int_equal(pt_mtu_encode(0, b), -1);
}

static struct pt_negotiate neg(void)
{
	struct pt_negotiate n = { .test_method = PT_RUN_REGULAR, .connection_type = PT_RC,
				  .verb = PT_WRITE, .tst = PT_BW, .report_fmt = 1,
				  .size = 65536, .iters = 5000, .num_of_qps = 1 };

	memcpy(n.attr, "0.0.0", 5);
	return n;
}

static void t_negotiate(void **st)
{
	struct pt_negotiate a = neg(), b;
	uint8_t out[PT_NEG_LEN_MLX5];
	char why[300];

	(void)st;
	assert_int_equal(pt_negotiate_encode(&a, out, sizeof(out)), PT_NEG_LEN);
	/* verb WRITE = 2 at offset 8, size at 32, iters at 40, qps at 52 */
	assert_memory_equal(out + 8, "\0\0\0\x02", 4);
	assert_memory_equal(out + 32, "\0\0\0\0\0\x01\0\0", 8);
	assert_memory_equal(out + 40, "\0\0\0\0\0\0\x13\x88", 8);
	assert_memory_equal(out + 52, "\0\0\0\x01", 4);
	assert_memory_equal(out + 80, "0.0.0", 5);
	assert_int_equal(pt_negotiate_decode(out, PT_NEG_LEN, &b, why, sizeof(why)), 0);
	assert_int_equal(pt_negotiate_compare(&a, &b, why, sizeof(why)), 0);
	a.has_mlx5 = true;
	a.mlx5_comp_mask = 0x10;
	assert_int_equal(pt_negotiate_encode(&a, out, sizeof(out)), PT_NEG_LEN_MLX5);
	assert_int_equal(pt_negotiate_decode(out, PT_NEG_LEN_MLX5, &b, why, sizeof(why)), 0);
	assert_true(b.has_mlx5 && b.mlx5_comp_mask == 0x10);
	assert_int_equal(pt_negotiate_decode(out, 300, &b, why, sizeof(why)), -1);
}

static void t_negotiate_mismatch(void **st)
{
	struct pt_negotiate a = neg(), b = neg();
	char why[300];

	(void)st;
	b.size = 4096;
	assert_int_equal(pt_negotiate_compare(&a, &b, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "-s (size)"));
	assert_non_null(strstr(why, "65536"));
	assert_non_null(strstr(why, "4096"));
	b = neg();
	b.test_method = PT_RUN_ALL;	/* -a on one side only */
	assert_int_equal(pt_negotiate_compare(&a, &b, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "-a"));
	b = neg();
	b.num_of_qps = 4;
	assert_int_equal(pt_negotiate_compare(&a, &b, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "-q"));
	b = neg();
	b.verb = PT_READ;
	assert_int_equal(pt_negotiate_compare(&a, &b, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "read"));
	b = neg();
	b.test_type = 1;
	b.duration = 5;
	assert_int_equal(pt_negotiate_compare(&a, &b, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "-D"));
}

/* Each test's exchange as ib_<verb>_<bw|lat>.c of perftest 4.5-0.17 (6.06)
 * orders it; a row per test. */
static void t_script(void **st)
{
	static const struct {
		int verb;
		bool lat, all, duplex, duration;
		/* lead, after connect, after keys, before run, after run,
		 * report each, report first, report end, close, answer first */
		bool f[10];
	} rows[] = {
		{ PT_WRITE, false, false, false, false, { 0, 0, 1, 0, 0, 0, 0, 1, 1, 0 } },
		{ PT_READ, false, true, false, false, { 0, 0, 1, 0, 0, 0, 0, 1, 1, 0 } },
		{ PT_WRITE, false, false, true, false, { 0, 0, 1, 1, 0, 1, 0, 0, 1, 0 } },
		{ PT_READ, false, true, true, false, { 0, 0, 1, 1, 1, 1, 0, 0, 1, 0 } },
		{ PT_SEND, false, false, false, false, { 0, 1, 0, 1, 0, 0, 1, 0, 1, 0 } },
		{ PT_SEND, false, true, false, false, { 0, 1, 0, 1, 1, 0, 1, 0, 1, 0 } },
		{ PT_SEND, false, false, true, false, { 0, 1, 0, 1, 0, 1, 1, 0, 1, 0 } },
		{ PT_SEND, false, false, true, true, { 0, 1, 0, 1, 0, 0, 1, 0, 1, 0 } },
		{ PT_WRITE, true, false, false, false, { 1, 0, 1, 0, 0, 0, 0, 0, 0, 1 } },
		{ PT_READ, true, true, false, false, { 1, 0, 1, 0, 0, 0, 0, 0, 1, 0 } },
		{ PT_SEND, true, false, false, false, { 0, 1, 0, 1, 0, 0, 0, 0, 1, 0 } },
	};
	struct pt_script s;
	char why[200];

	(void)st;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		bool got[10];

		assert_int_equal(pt_script_for(rows[i].verb, rows[i].lat, rows[i].all, rows[i].duplex,
					       rows[i].duration, &s, why, sizeof(why)), 0);
		got[0] = s.lead_sync; got[1] = s.sync_after_connect; got[2] = s.sync_after_keys;
		got[3] = s.sync_before_run; got[4] = s.sync_after_run; got[5] = s.report_each;
		got[6] = s.report_first; got[7] = s.report_end; got[8] = s.close; got[9] = s.answer_first;
		for (int k = 0; k < 10; k++)
			if (got[k] != rows[i].f[k])
				fail_msg("row %zu flag %d: %d, want %d", i, k, got[k], rows[i].f[k]);
		assert_int_equal(s.max_pow, 23);
	}
	assert_int_equal(pt_script_for(PT_WRITE, true, false, true, false, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "-b"));
	assert_int_equal(pt_script_for(PT_ATOMIC, false, false, false, false, &s, why, sizeof(why)), -1);
}

/* xchg_bw_reports as a 6.06 peer writes it: u64 size, u64 iterations
 * (u32 before 5.33), then three byte-swapped doubles. */
static void t_report(void **st)
{
	static const uint8_t wire[PT_REPORT_MSGS][8] = {
		{ 0, 0, 0, 0, 0, 1, 0, 0 },			/* 65536 */
		{ 0, 0, 0, 0, 0, 0, 0x13, 0x88 },		/* 5000 */
		{ 0x40, 0x59, 0, 0, 0, 0, 0, 0 },		/* 100.0 */
		{ 0x40, 0x58, 0xc0, 0, 0, 0, 0, 0 },		/* 99.0 */
		{ 0x3f, 0xc9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a },	/* 0.2 */
	};
	struct pt_report r = { .size = 65536, .iters = 5000, .bw_peak = 100.0, .bw_avg = 99.0,
			       .msg_rate_mpps = 0.2 }, back;
	uint8_t out[PT_REPORT_MSGS][8];
	size_t len[PT_REPORT_MSGS];

	(void)st;
	pt_report_encode(&r, 606, out, len);
	for (int i = 0; i < PT_REPORT_MSGS; i++) {
		assert_int_equal(len[i], 8);
		assert_memory_equal(out[i], wire[i], 8);
	}
	pt_report_decode(wire, 606, &back);
	assert_true(back.size == 65536 && back.iters == 5000);
	assert_true(back.bw_peak == 100.0 && back.bw_avg == 99.0 && back.msg_rate_mpps == 0.2);
	/* a 5.32 peer: iterations as a u32 */
	pt_report_encode(&r, 532, out, len);
	assert_int_equal(len[1], 4);
	assert_memory_equal(out[1], "\0\0\x13\x88", 4);
	pt_report_decode(out, 532, &back);
	assert_true(back.iters == 5000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_key_plain),
		cmocka_unit_test(t_key_gid),
		cmocka_unit_test(t_key_bad),
		cmocka_unit_test(t_version),
		cmocka_unit_test(t_numbers),
		cmocka_unit_test(t_negotiate),
		cmocka_unit_test(t_negotiate_mismatch),
		cmocka_unit_test(t_script),
		cmocka_unit_test(t_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
