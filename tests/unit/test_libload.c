// SPDX-License-Identifier: MIT
/* Unit tests for the libraries loaded on demand, not linked: each loads
 * under its configured soname with every function we forward to, and
 * answers through the forwarding functions (libibverbs' device list: an
 * empty list or a kernel's errno, never "library missing"). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <infiniband/verbs.h>
#include <numa.h>

#include "core/base/hmacdl.h"
#include "core/base/jsoncdl.h"
#include "core/base/jsonscan.h"
#include "core/port/numadl.h"
#include "core/port/verbsdl.h"
#include "ui/cursesdl.h"

static void test_verbs_load(void **state)
{
	char err[400] = "";

	(void)state;
	if (verbsdl_load(err, sizeof(err)))
		fail_msg("%s", err);
	/* the second call reports the first's outcome */
	assert_int_equal(verbsdl_load(err, sizeof(err)), 0);
}

static void test_device_list(void **state)
{
	struct ibv_device **l;
	int n = -1;

	(void)state;
	errno = 0;
	l = ibv_get_device_list(&n);
	if (!l) {
		assert_int_not_equal(errno, ELIBACC);
		return;
	}
	assert_true(n >= 0);
	for (int i = 0; i < n; i++)
		assert_non_null(ibv_get_device_name(l[i]));
	ibv_free_device_list(l);
}

static void test_numa(void **state)
{
	char err[400] = "";

	(void)state;
	if (numadl_load(err, sizeof(err)))
		fail_msg("%s", err);
	/* -1 is a machine without NUMA; with it, node 0 has memory */
	if (numa_available() >= 0) {
		assert_true(numa_max_node() >= 0);
		assert_true(numa_node_size64(0, NULL) > 0);
	}
}

static void count(void *arg, const char *path, const char *val, bool is_str)
{
	(void)path;
	(void)val;
	(void)is_str;
	(*(int *)arg)++;
}

static void test_jsonc(void **state)
{
	char err[400] = "";
	int n = 0;

	(void)state;
	if (jsoncdl_load(err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(json_scan("{\"a\": [1, \"x\", true]}", 21, count, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
}

/* RFC 4231 test case 2 */
static void test_hmac(void **state)
{
	static const uint8_t want[32] = {
		0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e, 0x6a, 0x04, 0x24, 0x26,
		0x08, 0x95, 0x75, 0xc7, 0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27, 0x39, 0x83,
		0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43,
	};
	const char *msg = "what do ya want for nothing?";
	char err[400] = "";
	uint8_t mac[32];

	(void)state;
	if (hmacdl_load(err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(hmacdl_sha256("Jefe", (const uint8_t *)msg, strlen(msg), mac), 0);
	assert_memory_equal(mac, want, sizeof(want));
}

/* loading only: the screens' tests drive the console itself */
static void test_curses(void **state)
{
	char err[400] = "";

	(void)state;
	if (cursesdl_load(err, sizeof(err)))
		fail_msg("%s", err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verbs_load),
		cmocka_unit_test(test_device_list),
		cmocka_unit_test(test_numa),
		cmocka_unit_test(test_jsonc),
		cmocka_unit_test(test_hmac),
		cmocka_unit_test(test_curses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
