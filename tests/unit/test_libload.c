// SPDX-License-Identifier: MIT
/* Unit tests for the libraries loaded on demand, not linked: each loads
 * under its configured soname with every function we forward to, and
 * answers through the forwarding functions (libibverbs' device list: an
 * empty list or a kernel's errno, never "library missing"). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <infiniband/verbs.h>
#include <numa.h>

#include "core/port/numadl.h"
#include "core/port/verbsdl.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verbs_load),
		cmocka_unit_test(test_device_list),
		cmocka_unit_test(test_numa),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
