// SPDX-License-Identifier: MIT
/* Unit tests for PCIe and NUMA logic: usable bandwidth per generation and
 * width, speed-string parsing across kernels, cpulists and relations. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/port/numa.h"
#include "core/port/pcie.h"
#include "diag/pcielimit.h"

static void test_usable(void **state)
{
	/* PCIe usable rate per direction after line encoding */
	static const struct { double gts; int w; double gbps; } rows[] = {
		{ 2.5, 8, 16 }, { 2.5, 16, 32 }, { 5.0, 8, 32 }, { 5.0, 16, 64 },
		{ 8.0, 8, 63.0 }, { 8.0, 16, 126.0 }, { 16.0, 8, 126.0 },
		{ 16.0, 16, 252.1 }, { 32.0, 16, 504.1 }, { 64.0, 16, 1024 },
		{ 3.0, 16, 0 }, { 8.0, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++)
		assert_float_equal(pcie_usable_gbps(rows[i].gts, rows[i].w), rows[i].gbps, 0.2);
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
	struct port_info p = { 0 };

	p.rate_gbps = 200;	/* HDR on Gen3 x8 */
	p.pcie.v.valid = true;
	p.pcie.cur_gbps = pcie_usable_gbps(8.0, 8);
	pcielimit_judge(&p);
	assert_true(p.pcie_limits);
	assert_float_equal(p.pcie_shortfall_gbps, 200 - 63.0, 0.1);

	p.pcie.cur_gbps = pcie_usable_gbps(16.0, 16);	/* Gen4 x16: enough */
	pcielimit_judge(&p);
	assert_false(p.pcie_limits);
	assert_float_equal(p.pcie_shortfall_gbps, 0, 0);

	p.pcie.v.valid = false;	/* unknown PCIe: no verdict */
	p.pcie.cur_gbps = 1;
	pcielimit_judge(&p);
	assert_false(p.pcie_limits);
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
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_cpulist),
	};

	return cmocka_run_group_tests_name("pcie", tests, NULL, NULL);
}
