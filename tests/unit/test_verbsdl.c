// SPDX-License-Identifier: MIT
/* Unit tests for verbsdl: libibverbs loads under the configured soname
 * with every function we forward to, and the device list then answers
 * (an empty list or a kernel's errno, never "library missing"). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <infiniband/verbs.h>

#include "core/port/verbsdl.h"

static void test_load(void **state)
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_device_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
