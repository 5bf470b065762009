// SPDX-License-Identifier: MIT
/* Unit tests for the acceptance judgements: the card verdict and its
 * cause, the round-robin schedule's property (every pair once, disjoint
 * within a round), the fleet-relative pair rules and localisation, the
 * console's card order, the heat map's bands and accept.json read back. Every
 * number is written out here. */
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

#include "core/agent/proto.h"
#include "core/accept/acceptres.h"
#include "core/base/numfmt.h"
#include "diag/accept.h"
#include "diag/testverdict.h"

static struct acc_evidence healthy(void)
{
	struct acc_evidence e;

	memset(&e, 0, sizeof(e));
	strcpy(e.numa_relation, "local");
	e.numa_node = 0;
	strcpy(e.gid_type, "RoCE v2");
	e.roce = true;
	e.mtu_active = e.peer_mtu = 4096;
	return e;
}

static void test_card_line(void **state)
{
	struct acc_evidence e = healthy();
	struct acc_card c;
	/* HDR 4X: 200 Gb/s data rate; the line is 180 */
	struct acc_card_in in = { .have_result = true, .gbps = 180.0, .data_gbps = 200, .ev = &e };

	(void)state;
	acc_card_judge(&in, NULL, &c);
	assert_true(c.pass);
	assert_true(c.pct > 89.99 && c.pct < 90.01);
	assert_true(c.line_gbps > 179.99 && c.line_gbps < 180.01);
	assert_string_equal(c.cause, "");
	in.gbps = 179.5;
	acc_card_judge(&in, NULL, &c);
	assert_false(c.pass);
	assert_string_equal(c.cause, "the card looks healthy: check the switch port and cable");
	/* a site line of 80 % passes it */
	{
		struct acc_limits l = { .accept = 0.80, .fleet_bw = 0.93, .fleet_lat = 2.1 };

		acc_card_judge(&in, &l, &c);
		assert_true(c.pass);
	}
}

static void test_card_missing(void **state)
{
	struct acc_card c;
	struct acc_card_in in = { .have_result = false, .err = "cannot reach the agent at ref port 18516",
				  .data_gbps = 100 };

	(void)state;
	acc_card_judge(&in, NULL, &c);
	assert_false(c.pass);
	assert_true(c.pct < 0);
	assert_string_equal(c.cause, "no result: cannot reach the agent at ref port 18516");
	{
		/* the card's own facts still speak: the slot that cannot carry it */
		struct acc_evidence e = { .numa_node = -1, .pcie_limits = true, .pcie_gts = 8,
					  .pcie_lanes = 8, .pcie_usable_gbps = 57.6,
					  .pcie_need_gbps = 200 };

		in.ev = &e;
		acc_card_judge(&in, NULL, &c);
		assert_false(c.pass);
		assert_non_null(strstr(c.cause, "no result: cannot reach the agent at ref port 18516; and PCIe: 8 GT/s x8 (Gen3) carries 57.6 Gb/s usable"));
		in.ev = NULL;
	}
	/* an unknown data rate is not a silent pass either */
	in.have_result = true;
	in.gbps = 50;
	in.data_gbps = 0;
	acc_card_judge(&in, NULL, &c);
	assert_false(c.pass);
	assert_non_null(strstr(c.cause, "--line-rate"));
}

static void test_card_causes(void **state)
{
	struct acc_evidence e = healthy();
	struct acc_card c;
	struct acc_card_in in = { .have_result = true, .gbps = 90, .data_gbps = 200, .ev = &e };

	(void)state;
	e.below_capability = true;
	strcpy(e.below_why, "width 2X of 4X");
	acc_card_judge(&in, NULL, &c);
	assert_false(c.pass);
	assert_string_equal(c.cause, "link trained below capability: width 2X of 4X");

	e = healthy();
	e.pcie_limits = true;
	strcpy(e.pcie_why, "PCIe 8 GT/s x8 carries 50.1 Gb/s, 200 needed");
	acc_card_judge(&in, NULL, &c);
	assert_string_equal(c.cause, "PCIe short: PCIe 8 GT/s x8 carries 50.1 Gb/s, 200 needed");
	/* with the link's figures: named with GT/s, lanes and usable Gb/s
	 * against the 90 % line (200 * 0.9 = 180) */
	e.pcie_gts = 8;
	e.pcie_lanes = 8;
	e.pcie_usable_gbps = 50.4;
	e.pcie_need_gbps = 200;
	acc_card_judge(&in, NULL, &c);
	assert_false(c.pass);
	assert_non_null(strstr(c.cause, "PCIe: 8 GT/s x8 (Gen3) carries 50.4 Gb/s usable of the 200 Gb/s data rate, below the 90 % line (180.0 Gb/s)"));
	assert_null(strstr(c.cause, "card looks healthy"));

	e = healthy();
	strcpy(e.numa_relation, "remote");
	e.numa_node = 1;
	acc_card_judge(&in, NULL, &c);
	assert_string_equal(c.cause, "NUMA: this process runs remote to the card (node 1) — pin with numactl -N 1");

	e = healthy();
	strcpy(e.gid_type, "IB/RoCE v1");
	acc_card_judge(&in, NULL, &c);
	assert_string_equal(c.cause, "GID type IB/RoCE v1, not RoCE v2 — give -x with the RoCE v2 entry");

	e = healthy();
	e.mtu_active = 1024;
	acc_card_judge(&in, NULL, &c);
	assert_string_equal(c.cause, "MTU mismatch: active MTU 1024 here, 4096 at the other end — set the same netdev MTU on both");
	/* an unknown end is no mismatch */
	e.peer_mtu = 0;
	acc_card_judge(&in, NULL, &c);
	assert_string_equal(c.cause, "the card looks healthy: check the switch port and cable");
	e.peer_mtu = 4096;

	/* two causes at once, in order */
	e.below_capability = true;
	strcpy(e.below_why, "speed HDR of NDR");
	acc_card_judge(&in, NULL, &c);
	assert_string_equal(c.cause, "link trained below capability: speed HDR of NDR; MTU mismatch: active MTU 1024 here, 4096 at the other end — set the same netdev MTU on both");

	/* evidence is not a verdict: a passing card names no cause */
	in.gbps = 190;
	acc_card_judge(&in, NULL, &c);
	assert_true(c.pass);
	assert_string_equal(c.cause, "");
}

/* every pair exactly once, no host twice in a round, n-1 rounds (n even) */
static void check_schedule(int n)
{
	static int pairs[ACC_MAX_HOSTS * ACC_MAX_HOSTS / 2][2];
	int per_round;
	static int seen[ACC_MAX_HOSTS][ACC_MAX_HOSTS];
	int rounds = acc_schedule(n, pairs, (int)(sizeof(pairs) / sizeof(pairs[0])), &per_round);

	assert_int_equal(rounds, n % 2 ? n : n - 1);
	assert_int_equal(per_round, n / 2);
	memset(seen, 0, sizeof(seen));
	for (int r = 0; r < rounds; r++) {
		int used[ACC_MAX_HOSTS] = { 0 };

		for (int k = 0; k < per_round; k++) {
			int a = pairs[r * per_round + k][0], b = pairs[r * per_round + k][1];

			assert_true(a >= 0 && a < b && b < n);
			assert_int_equal(used[a]++, 0);
			assert_int_equal(used[b]++, 0);
			seen[a][b]++;
		}
	}
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			assert_int_equal(seen[a][b], 1);
}

static void test_schedule(void **state)
{
	int pairs[8][2], per_round;

	(void)state;
	for (int n = 2; n <= 17; n++)
		check_schedule(n);
	check_schedule(64);
	check_schedule(255);
	assert_int_equal(acc_schedule(1, pairs, 8, &per_round), -1);
	/* 6 hosts: 15 pairs do not fit in 8 */
	assert_int_equal(acc_schedule(6, pairs, 8, &per_round), -1);
	/* 4 hosts: 3 rounds of 2 */
	assert_int_equal(acc_schedule(4, pairs, 8, &per_round), 3);
}

/* 4 hosts, six pairs; bandwidth per pair given, latency 2 us */
static void fill4(struct acc_pair *p, const double bw[6])
{
	static const int ab[6][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 }, { 2, 3 } };

	for (int i = 0; i < 6; i++)
		p[i] = (struct acc_pair){ .a = ab[i][0], .b = ab[i][1], .ok = true, .bw_gbps = bw[i],
					  .lat_us = 2.0, .data_gbps = 100 };
}

static void test_pairs_and_host(void **state)
{
	/* host 2 slow with everyone: 0-2, 1-2, 2-3 at 60 */
	const double bw[6] = { 97, 60, 96, 60, 97, 60 };
	struct acc_pair p[6];
	bool host_bad[4];
	int paths[6], np;

	(void)state;
	fill4(p, bw);
	assert_int_equal(acc_pairs_judge(p, 6, NULL), 3);
	assert_true(p[1].bad && p[3].bad && p[5].bad);
	assert_false(p[0].bad || p[2].bad || p[4].bad);
	assert_int_equal(acc_localise(4, p, 6, host_bad, paths, &np), 1);
	assert_true(host_bad[2]);
	assert_false(host_bad[0] || host_bad[1] || host_bad[3]);
	assert_int_equal(np, 0);
}

static void test_pairs_and_path(void **state)
{
	/* only 1-3 slow, and only relative to the fleet: 90.1 is above the
	 * absolute line (90 % of 100) and below 93 % of the best, 97 (90.21) */
	const double bw[6] = { 97, 96, 96.5, 97, 90.1, 96 };
	struct acc_pair p[6];
	bool host_bad[4];
	int paths[6], np;

	(void)state;
	fill4(p, bw);
	assert_int_equal(acc_pairs_judge(p, 6, NULL), 1);
	assert_true(p[4].bad);
	assert_non_null(strstr(p[4].why, "90.1 Gb/s is 92.9 % of the best pair's 97 Gb/s"));
	assert_int_equal(acc_localise(4, p, 6, host_bad, paths, &np), 0);
	assert_int_equal(np, 1);
	assert_int_equal(paths[0], 4);
	/* 90.3 is above 0.93 x 97 = 90.21: nothing bad */
	p[4].bw_gbps = 90.3;
	assert_int_equal(acc_pairs_judge(p, 6, NULL), 0);
}

static void test_pairs_latency_and_missing(void **state)
{
	const double bw[6] = { 97, 97, 97, 97, 97, 97 };
	struct acc_pair p[6];
	bool host_bad[4];
	int paths[6], np;

	(void)state;
	fill4(p, bw);
	p[0].lat_us = 4.2;	/* exactly 2.1 x 2.0: not above */
	assert_int_equal(acc_pairs_judge(p, 6, NULL), 0);
	p[0].lat_us = 4.3;
	assert_int_equal(acc_pairs_judge(p, 6, NULL), 1);
	assert_non_null(strstr(p[0].why, "2.15x"));
	/* a pair with no result is bad, never a silent 0 */
	p[0].lat_us = 2;
	p[5].ok = false;
	assert_int_equal(acc_pairs_judge(p, 6, NULL), 1);
	assert_string_equal(p[5].why, "no result");
	assert_int_equal(acc_localise(4, p, 6, host_bad, paths, &np), 0);
	assert_int_equal(np, 1);
	/* two hosts: one bad pair is a path, not a host */
	p[0].bad = true;
	assert_int_equal(acc_localise(2, p, 1, host_bad, paths, &np), 0);
	assert_int_equal(np, 1);
}

/* accept --hosts judges with the config's limits (tv_limits, read from the
 * file over these defaults), not with acc_limits_defaults: with no config
 * file the 93 % and 2.1x rules (and the 90 % line) hold there too. */
static void test_config_defaults_judge(void **state)
{
	const double bw[6] = { 97, 96, 96.5, 97, 90.1, 96 };
	struct tv_limits tv;
	struct acc_limits l;
	struct acc_pair p[6];

	(void)state;
	tv_limits_defaults(&tv);
	acc_limits_defaults(&l);
	l.accept = tv.accept;
	l.fleet_bw = tv.accept_fleet_bw;
	l.fleet_lat = tv.accept_fleet_lat;
	fill4(p, bw);
	assert_int_equal(acc_pairs_judge(p, 6, &l), 1);
	assert_true(p[4].bad);
	assert_non_null(strstr(p[4].why, "(line 93 %)"));
	p[4].bw_gbps = 90.3;
	assert_int_equal(acc_pairs_judge(p, 6, &l), 0);
	/* the absolute line: 89.9 of a 100 Gb/s data rate, in a fleet that slow */
	for (int i = 0; i < 6; i++)
		p[i].bw_gbps = 89.9;
	assert_int_equal(acc_pairs_judge(p, 6, &l), 6);
	fill4(p, (const double[6]){ 97, 97, 97, 97, 97, 97 });
	p[0].lat_us = 4.2;
	assert_int_equal(acc_pairs_judge(p, 6, &l), 0);
	p[0].lat_us = 4.3;
	assert_int_equal(acc_pairs_judge(p, 6, &l), 1);
	assert_non_null(strstr(p[0].why, "(line 2.1x)"));
}

/* The rule as the man page states it: more than half of a host's pairs
 * and at least two. Four hosts: 2 of 3 names the host; three hosts: both
 * of 2 does, 1 of 2 is a path. */
static void test_localise_counts(void **state)
{
	struct acc_pair p[6];
	bool host_bad[4];
	int paths[6], np;
	const double bw[6] = { 97, 97, 97, 97, 97, 97 };

	(void)state;
	fill4(p, bw);
	p[1].bad = p[3].bad = true;	/* 0-2 and 1-2: host 2 with 2 of 3 */
	assert_int_equal(acc_localise(4, p, 6, host_bad, paths, &np), 1);
	assert_true(host_bad[2]);
	assert_int_equal(np, 0);
	/* three hosts 0, 1, 2: pairs 0-1, 0-2, 1-2 (p[0], p[1], p[3]) */
	p[0] = (struct acc_pair){ .a = 0, .b = 1 };
	p[1] = (struct acc_pair){ .a = 0, .b = 2, .bad = true };
	p[2] = (struct acc_pair){ .a = 1, .b = 2, .bad = true };
	assert_int_equal(acc_localise(3, p, 3, host_bad, paths, &np), 1);
	assert_true(host_bad[2] && !host_bad[0] && !host_bad[1]);
	assert_int_equal(np, 0);
	p[2].bad = false;
	assert_int_equal(acc_localise(3, p, 3, host_bad, paths, &np), 0);
	assert_int_equal(np, 1);
	assert_int_equal(paths[0], 1);
}

/* A bad host's evidence from its agent's facts. */
static void test_host_evidence(void **state)
{
	struct proto_facts f;
	char out[900];

	(void)state;
	memset(&f, 0, sizeof(f));
	f.numa_node = -1;
	acc_host_evidence(&f, 4096, out, sizeof(out));
	assert_string_equal(out, "no facts from its agent");

	snprintf(f.host, sizeof(f.host), "node07");
	snprintf(f.device, sizeof(f.device), "mlx5_0");
	snprintf(f.driver, sizeof(f.driver), "mlx5_core");
	snprintf(f.fw_ver, sizeof(f.fw_ver), "20.31.1014");
	snprintf(f.pcie, sizeof(f.pcie), "16 GT/s x16 of 16 GT/s x16");
	snprintf(f.cpu_governor, sizeof(f.cpu_governor), "performance");
	f.rate_mbps = 200000;
	f.mtu = 4096;
	f.numa_node = 1;
	acc_host_evidence(&f, 4096, out, sizeof(out));
	/* healthy: only the facts that identify it */
	assert_string_equal(out, "node07 mlx5_0 (mlx5_core), fw 20.31.1014, data rate 200 Gb/s, MTU 4096, PCIe 16 GT/s x16 of 16 GT/s x16, NUMA node 1");

	snprintf(f.pcie, sizeof(f.pcie), "16 GT/s x8 of 16 GT/s x16");
	snprintf(f.cpu_governor, sizeof(f.cpu_governor), "powersave");
	f.mtu = 2048;
	acc_host_evidence(&f, 4096, out, sizeof(out));
	assert_non_null(strstr(out, "PCIe trained below its capability: 16 GT/s x8 of 16 GT/s x16; "));
	assert_non_null(strstr(out, "CPU governor powersave, not performance; "));
	assert_non_null(strstr(out, "active MTU 2048, the other hosts 4096; node07 mlx5_0"));
	/* fleet MTU unknown: no MTU verdict */
	acc_host_evidence(&f, 0, out, sizeof(out));
	assert_null(strstr(out, "the other hosts"));
	/* rxe's 1X SDR: 2 Gb/s of data, not "2.00" */
	f.rate_mbps = 2000;
	acc_host_evidence(&f, 0, out, sizeof(out));
	assert_non_null(strstr(out, ", data rate 2 Gb/s, MTU"));
}

/* The figures of the acceptance's text: significant digits in plain
 * decimal, so an emulated wire's rates keep their digits. */
static void test_numbers(void **state)
{
	char b[48];
	const double bw[6] = { 0.0791, 0.0788, 0.0034, 0.0786, 0.0790, 0.0789 };
	struct acc_pair p[6];

	(void)state;
	assert_string_equal(numfmt_sig(196, 4, b, sizeof(b)), "196");
	assert_string_equal(numfmt_sig(196.04, 4, b, sizeof(b)), "196");
	assert_string_equal(numfmt_sig(2.5, 4, b, sizeof(b)), "2.5");
	assert_string_equal(numfmt_sig(2.0, 4, b, sizeof(b)), "2");
	assert_string_equal(numfmt_sig(0.07912345, 4, b, sizeof(b)), "0.07912");
	assert_string_equal(numfmt_sig(0.00004, 4, b, sizeof(b)), "0.00004");	/* %.4g: 4e-05 */
	assert_string_equal(numfmt_sig(0.0005, 4, b, sizeof(b)), "0.0005");	/* %.3f: 0.001 */
	assert_string_equal(numfmt_sig(123456, 4, b, sizeof(b)), "123456");	/* %.4g: 1.235e+05 */
	assert_string_equal(numfmt_sig(9.99996, 4, b, sizeof(b)), "10");	/* the carry */
	assert_string_equal(numfmt_sig(-1.25, 4, b, sizeof(b)), "-1.25");
	assert_string_equal(numfmt_sig(-0.00000001, 1, b, sizeof(b)), "-0.00000001");
	assert_string_equal(numfmt_sig(0, 4, b, sizeof(b)), "0");
	assert_string_equal(numfmt_sig(1.0 / 0.0, 4, b, sizeof(b)), "n/a");
	assert_string_equal(numfmt_sig(0.123456, 2, b, sizeof(b)), "0.12");
	assert_string_equal(numfmt_unit(0.0034, "Gb/s", b, sizeof(b)), "0.0034 Gb/s");
	assert_string_equal(numfmt_unit(400, "Gb/s", b, sizeof(b)), "400 Gb/s");
	/* a short buffer is cut, never overrun */
	assert_string_equal(numfmt_sig(0.07912345, 4, b, 4), "0.0");
	/* a pair on an emulated wire: its why keeps the digits (was "0.00 Gb/s
	 * is 0.2 % of the 2.00 Gb/s data rate") */
	fill4(p, bw);
	for (int i = 0; i < 6; i++)
		p[i].data_gbps = 0.05;
	assert_int_equal(acc_pairs_judge(p, 6, NULL), 1);
	assert_string_equal(p[2].why, "0.0034 Gb/s is 6.8 % of the 0.05 Gb/s data rate (line 90 %)");
}

/* The console's table: failing first (no result, then the lowest share),
 * then passing (lowest share first); ties keep the test order. */
static void test_order(void **state)
{
	struct acc_card c[6];
	int order[6];
	const int want[6] = { 3, 5, 1, 4, 0, 2 };

	(void)state;
	memset(c, 0, sizeof(c));
	c[0] = (struct acc_card){ .pass = true, .pct = 95.0 };
	c[1] = (struct acc_card){ .pass = false, .pct = 60.2 };
	c[2] = (struct acc_card){ .pass = true, .pct = 99.1 };
	c[3] = (struct acc_card){ .pass = false, .pct = -1 };	/* no result */
	c[4] = (struct acc_card){ .pass = true, .pct = 91.0 };
	c[5] = (struct acc_card){ .pass = false, .pct = 48.0 };
	acc_order(c, 6, order);
	assert_memory_equal(order, want, sizeof(want));
	/* equal cards keep their order */
	c[1].pct = c[5].pct = 50;
	acc_order(c, 6, order);
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 5);
	acc_order(c, 0, order);
}

/* A card of core/agent/accept judged as `accept --ref` judges it. */
static void test_card_verdict(void **state)
{
	struct accept_card k;
	struct acc_card v;

	(void)state;
	memset(&k, 0, sizeof(k));
	k.found = true;
	k.ran = true;
	k.gbps = 170;
	k.data_gbps = 200;
	k.ev = healthy();
	k.ev.below_capability = true;
	snprintf(k.ev.below_why, sizeof(k.ev.below_why), "4X at 25 Gb/s a lane, 4X HDR enabled");
	acc_card_verdict(&k, NULL, &v);
	assert_false(v.pass);
	assert_true(v.pct > 84.99 && v.pct < 85.01);
	assert_non_null(strstr(v.cause, "4X at 25 Gb/s a lane"));
	/* a card not found: no result, its error the cause */
	memset(&k, 0, sizeof(k));
	snprintf(k.err, sizeof(k.err), "no such RDMA device here");
	acc_card_verdict(&k, NULL, &v);
	assert_false(v.pass);
	assert_true(v.pct < 0);
	assert_string_equal(v.cause, "no result: no such RDMA device here");
}

/* Heat-map bands: the fleet line 93 %, the top band from halfway to 100 %
 * (96.5 %); no result and the bad verdict win over the number. */
static void test_heat_band(void **state)
{
	(void)state;
	assert_true(acc_band_floor(ACC_BAND_TOP, 93) > 96.49 && acc_band_floor(ACC_BAND_TOP, 93) < 96.51);
	assert_true(acc_band_floor(ACC_BAND_MID, 93) == 93);
	assert_true(acc_band_floor(ACC_BAND_BAD, 93) < 0);
	assert_int_equal(acc_heat_band(true, false, 100, 93), ACC_BAND_TOP);
	assert_int_equal(acc_heat_band(true, false, 96.5, 93), ACC_BAND_TOP);
	assert_int_equal(acc_heat_band(true, false, 96.4, 93), ACC_BAND_MID);
	assert_int_equal(acc_heat_band(true, false, 93.0, 93), ACC_BAND_MID);
	assert_int_equal(acc_heat_band(true, false, 92.9, 93), ACC_BAND_LOW);
	assert_int_equal(acc_heat_band(true, true, 99, 93), ACC_BAND_BAD);
	assert_int_equal(acc_heat_band(false, true, 99, 93), ACC_BAND_NONE);
	assert_int_equal(acc_heat_band(true, false, -1, 93), ACC_BAND_NONE);
	/* a site line of 80 %: the top band from 90 % */
	assert_int_equal(acc_heat_band(true, false, 90, 80), ACC_BAND_TOP);
	assert_int_equal(acc_heat_band(true, false, 85, 80), ACC_BAND_MID);
}

/* accept.json read back: hosts, pairs (either order), nulls, errors. */
static void test_results_file(void **state)
{
	char dir[] = "/tmp/ibc-acceptres-XXXXXX", path[64], err[600];
	struct acceptres *r;
	const struct acceptres_pair *p;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/accept.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"schema\": \"ibconsole/accept/1\", \"time\": \"2026-12-01T10:00:00Z\", \"mode\": \"hosts\", "
	      "\"bw_op\": \"send\", \"bw_size_bytes\": 65536, \"accept_pct\": 90, \"fleet_bw_pct\": 93, "
	      "\"hosts\": [{\"host\": \"a:1\", \"bad\": false, \"evidence\": null}, "
	      "{\"host\": \"b:1\", \"bad\": true, \"evidence\": \"PCIe\\nx8\"}, {\"host\": \"c:1\", \"bad\": false}], "
	      "\"pairs\": [{\"a\": \"a:1\", \"b\": \"b:1\", \"verdict\": \"bad\", \"why\": \"slow\", \"bw_gbps\": 50.5, "
	      "\"lat_p99_us\": 2.5, \"error\": null, \"retested\": true}, "
	      "{\"a\": \"a:1\", \"b\": \"c:1\", \"verdict\": \"good\", \"why\": null, \"bw_gbps\": 98, \"lat_p99_us\": 2, "
	      "\"error\": null, \"retested\": false}, "
	      "{\"a\": \"b:1\", \"b\": \"c:1\", \"verdict\": \"bad\", \"why\": null, \"bw_gbps\": null, "
	      "\"lat_p99_us\": null, \"error\": \"cannot reach the agent\", \"retested\": true}]}\n", f);
	fclose(f);
	r = acceptres_load(dir, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(r->nhosts, 3);
	assert_int_equal(r->npairs, 3);
	assert_string_equal(r->host[1], "b:1");
	assert_true(r->host_bad[1] && !r->host_bad[0]);
	assert_string_equal(r->host_why[1], "PCIe?x8");	/* no newline reaches the screen */
	assert_true(r->fleet_bw_pct == 93);
	assert_int_equal((int)r->bw_size, 65536);
	p = acceptres_pair_of(r, 1, 0);
	assert_non_null(p);
	assert_true(p->ok && p->bad && p->retested && p->bw_gbps == 50.5);
	assert_string_equal(p->why, "slow");
	p = acceptres_pair_of(r, 2, 1);
	assert_true(!p->ok && p->bad);
	assert_string_equal(p->why, "cannot reach the agent");
	assert_null(acceptres_pair_of(r, 1, 1));
	assert_true(acceptres_best_gbps(r) == 98);
	acceptres_free(r);
	/* not a results file; a missing one: one line with the remedy */
	f = fopen(path, "w");
	fputs("{\"schema\": \"ibconsole/accept/1\", \"mode\": \"ref\", \"cards\": []}\n", f);
	fclose(f);
	assert_null(acceptres_load(path, err, sizeof(err)));
	assert_non_null(strstr(err, "not the results of accept --hosts"));
	assert_non_null(strstr(err, " — give the results directory"));
	unlink(path);
	assert_null(acceptres_load(dir, err, sizeof(err)));
	assert_non_null(strstr(err, "No such file"));
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_card_line),
		cmocka_unit_test(test_card_missing),
		cmocka_unit_test(test_card_causes),
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_pairs_and_host),
		cmocka_unit_test(test_pairs_and_path),
		cmocka_unit_test(test_config_defaults_judge),
		cmocka_unit_test(test_pairs_latency_and_missing),
		cmocka_unit_test(test_localise_counts),
		cmocka_unit_test(test_host_evidence),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_card_verdict),
		cmocka_unit_test(test_heat_band),
		cmocka_unit_test(test_results_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
