// SPDX-License-Identifier: MIT
/* Unit tests for PCIe and NUMA logic: usable bandwidth per generation and
 * width, speed-string parsing across kernels, cpulists and relations. */
#include "config.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/port/numa.h"
#include "core/port/pcie.h"
#include "diag/pcielimit.h"

/*
 * Usable bandwidth per direction after line encoding, every generation at
 * every width, from the PCIe Base Specification: Gen1 2.5 and Gen2 5 GT/s
 * with 8b/10b, Gen3 8 / Gen4 16 / Gen5 32 GT/s with 128b/130b, Gen6 64 GT/s
 * in FLIT mode where 236 of each 256-byte flit carry TLPs.
 */
static void test_usable(void **state)
{
	static const struct { double gts, lane; } gen[] = {
		{ 2.5, 2.5 * 0.8 }, { 5.0, 5.0 * 0.8 }, { 8.0, 8.0 * 128 / 130 },
		{ 16.0, 16.0 * 128 / 130 }, { 32.0, 32.0 * 128 / 130 }, { 64.0, 64.0 * 236 / 256 },
	};
	static const int widths[] = { 1, 2, 4, 8, 16, 32 };

	for (size_t g = 0; g < sizeof(gen) / sizeof(*gen); g++)
		for (size_t w = 0; w < sizeof(widths) / sizeof(*widths); w++)
			assert_float_equal(pcie_usable_gbps(gen[g].gts, widths[w]),
					   gen[g].lane * widths[w], 1e-9);
	/* the usual table's x16 column, rounded as quoted */
	assert_float_equal(pcie_usable_gbps(2.5, 16), 32, 1e-9);
	assert_float_equal(pcie_usable_gbps(5.0, 8), 32, 1e-9);
	assert_float_equal(pcie_usable_gbps(8.0, 16), 126.0, 0.1);
	assert_float_equal(pcie_usable_gbps(16.0, 16), 252.1, 0.1);
	assert_float_equal(pcie_usable_gbps(32.0, 16), 504.1, 0.1);
	assert_float_equal(pcie_usable_gbps(3.0, 16), 0, 0);
	assert_float_equal(pcie_usable_gbps(8.0, 0), 0, 0);
}

/*
 * TLP payload efficiency: payload / (payload + per-TLP overhead). Gen1-2:
 * STP 1 + sequence 2 + 4-DW header 16 + LCRC 4 + END 1 = 24 bytes; Gen3-5:
 * STP token 4 + header 16 + LCRC 4 = 24; Gen6 FLIT: the 16-byte header.
 */
static void test_tlp(void **state)
{
	assert_float_equal(pcie_tlp_efficiency(5.0, 256), 256.0 / 280, 1e-12);
	assert_float_equal(pcie_tlp_efficiency(8.0, 128), 128.0 / 152, 1e-12);
	assert_float_equal(pcie_tlp_efficiency(32.0, 512), 512.0 / 536, 1e-12);
	assert_float_equal(pcie_tlp_efficiency(64.0, 256), 256.0 / 272, 1e-12);
	assert_float_equal(pcie_tlp_efficiency(7.0, 256), 0, 0);
	assert_float_equal(pcie_tlp_efficiency(8.0, 0), 0, 0);
}

/* Device Control MaxPayloadSize (bits 7:5 at offset 8 of the PCI Express
 * capability), found through the capability list. */
static void test_config_mps(void **state)
{
	uint8_t cfg[256] = { 0 };

	cfg[0x06] = 0x10;		/* Status: capability list */
	cfg[0x34] = 0x40;
	cfg[0x40] = 0x01;		/* power management, next 0x60 */
	cfg[0x41] = 0x60;
	cfg[0x60] = 0x10;		/* PCI Express */
	cfg[0x61] = 0x00;
	cfg[0x68] = 2 << 5;		/* 512 B */
	assert_int_equal(pcie_config_mps(cfg, sizeof(cfg)), 512);
	cfg[0x68] = 0;			/* 128 B */
	assert_int_equal(pcie_config_mps(cfg, sizeof(cfg)), 128);
	assert_int_equal(pcie_config_mps(cfg, 64), 0);	/* unprivileged read */
	cfg[0x06] = 0;
	assert_int_equal(pcie_config_mps(cfg, sizeof(cfg)), 0);
	cfg[0x06] = 0x10;
	cfg[0x41] = 0x40;		/* a loop: must end */
	assert_int_equal(pcie_config_mps(cfg, sizeof(cfg)), 0);
}

static void pcie_port(struct port_info *p, const char *addr, double gts, int w,
		      int mps, double data, int state)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->pcie.address, sizeof(p->pcie.address), "%s", addr);
	p->pcie.v.valid = true;
	p->pcie.cur_gts = gts;
	p->pcie.cur_width = w;
	p->pcie.mps = mps;
	p->pcie.usable_gbps = pcie_usable_gbps(gts, w) * pcie_tlp_efficiency(gts, mps);
	p->data_rate_gbps = data;
	p->state = state;
}

static void test_parse_speed(void **state)
{
	assert_float_equal(pcie_parse_speed("16.0 GT/s PCIe"), 16.0, 0);
	assert_float_equal(pcie_parse_speed("8 GT/s"), 8.0, 0);
	assert_float_equal(pcie_parse_speed("2.5 GT/s"), 2.5, 0);
	assert_float_equal(pcie_parse_speed("Unknown"), 0, 0);
	assert_float_equal(pcie_parse_speed(""), 0, 0);
	assert_int_equal(pcie_gen(32.0), 5);
	assert_int_equal(pcie_gen(2.5), 1);
	assert_int_equal(pcie_gen(7.0), 0);
}

static void test_judge(void **state)
{
	struct port_info p[3];

	/* QDR 4X (32 Gb/s data) on Gen2 x8 at 256 B: 32 * 256 / 280 = 29.26,
	 * 91 % of the data rate: at or above the acceptance line, not flagged */
	pcie_port(&p[0], "0000:03:00.0", 5.0, 8, 256, 32, 4);
	pcielimit_judge_ports(p, 1);
	assert_false(p[0].pcie_limits);
	assert_float_equal(p[0].pcie_shortfall_gbps, 32 - 32.0 * 256 / 280, 1e-9);
	/* at 128 B: 32 * 128 / 152 = 26.9 < 28.8: flagged */
	pcie_port(&p[0], "0000:03:00.0", 5.0, 8, 128, 32, 4);
	pcielimit_judge_ports(p, 1);
	assert_true(p[0].pcie_limits);

	/* HDR 4X (200) on Gen3 x16: 126.03 * 256 / 280 = 115.2, short 84.8 */
	pcie_port(&p[0], "0000:3b:00.0", 8.0, 16, 256, 200, 4);
	pcielimit_judge_ports(p, 1);
	assert_true(p[0].pcie_limits);
	assert_float_equal(p[0].pcie_shortfall_gbps, 200 - 16 * 8.0 * 128 / 130 * 256 / 280, 1e-9);
	assert_non_null(strstr(p[0].pcie_why, "not enough"));

	/* HDR on Gen4 x16: 252.1 * 256 / 280 = 230.5: enough */
	pcie_port(&p[0], "0000:3b:00.0", 16.0, 16, 256, 200, 4);
	pcielimit_judge_ports(p, 1);
	assert_false(p[0].pcie_limits);
	assert_float_equal(p[0].pcie_shortfall_gbps, 0, 0);

	/* two active HDR ports of one Gen4 x16 function need 400: flagged;
	 * a port of another function is judged alone */
	pcie_port(&p[0], "0000:3b:00.0", 16.0, 16, 256, 200, 4);
	pcie_port(&p[1], "0000:3b:00.0", 16.0, 16, 256, 200, 4);
	pcie_port(&p[2], "0000:af:00.0", 16.0, 16, 256, 200, 4);
	pcielimit_judge_ports(p, 3);
	assert_true(p[0].pcie_limits && p[1].pcie_limits);
	assert_int_equal(p[0].pcie_ports, 2);
	assert_float_equal(p[0].pcie_need_gbps, 400, 1e-9);
	assert_false(p[2].pcie_limits);
	assert_int_equal(p[2].pcie_ports, 1);
	/* the second port down: it needs nothing */
	p[1].state = 1;
	pcielimit_judge_ports(p, 3);
	assert_false(p[0].pcie_limits);
	assert_float_equal(p[0].pcie_need_gbps, 200, 1e-9);

	/* unknown PCIe or unknown data rate: no verdict */
	pcie_port(&p[0], "0000:3b:00.0", 8.0, 8, 256, 200, 4);
	p[0].pcie.v.valid = false;
	pcielimit_judge_ports(p, 1);
	assert_false(p[0].pcie_limits);
	assert_string_equal(p[0].pcie_why, "");
	pcie_port(&p[0], "0000:3b:00.0", 8.0, 8, 256, 0, 4);
	pcielimit_judge_ports(p, 1);
	assert_false(p[0].pcie_limits);
	assert_string_equal(p[0].pcie_why, "");
}

static void test_cpulist(void **state)
{
	cpu_set_t a, b;

	assert_true(numa_parse_cpulist("0-3,8,10-11", &a));
	assert_int_equal(CPU_COUNT(&a), 7);
	assert_true(CPU_ISSET(8, &a));
	assert_false(CPU_ISSET(9, &a));
	assert_true(numa_parse_cpulist("5\n", &a));
	assert_int_equal(CPU_COUNT(&a), 1);
	assert_false(numa_parse_cpulist("3-1", &a));
	assert_false(numa_parse_cpulist("x", &a));
	assert_false(numa_parse_cpulist("1,,", &a) && CPU_COUNT(&a) != 1);
	assert_true(numa_parse_cpulist("", &a));
	assert_int_equal(CPU_COUNT(&a), 0);

	numa_parse_cpulist("0-7", &a);
	numa_parse_cpulist("2-3", &b);
	assert_string_equal(numa_relation(&a, &b), "local");
	numa_parse_cpulist("8-9", &b);
	assert_string_equal(numa_relation(&a, &b), "remote");
	numa_parse_cpulist("6-9", &b);
	assert_string_equal(numa_relation(&a, &b), "mixed");
	CPU_ZERO(&b);
	assert_string_equal(numa_relation(&a, &b), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usable),
		cmocka_unit_test(test_parse_speed),
		cmocka_unit_test(test_tlp),
		cmocka_unit_test(test_config_mps),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_cpulist),
	};

	return cmocka_run_group_tests_name("pcie", tests, NULL, NULL);
}
