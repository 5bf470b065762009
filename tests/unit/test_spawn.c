// SPDX-License-Identifier: MIT
/* cmocka tests of spawn: output and exit status come back, a signal
 * reads as 128 + its number, a child past its time-out is killed and
 * says so, a missing program fails to exec with the reason. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <poll.h>
#include <cmocka.h>

#include "core/base/spawn.h"
#include "core/base/worker.h"

/* Polls as the console's loop does, until the child ended. */
static int run(struct spawn *s, const char *script, double timeout_s)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	int rc = -2;

	assert_int_equal(spawn_start(s, argv, timeout_s), 0);
	while (!spawn_poll(s, &rc)) {
		struct pollfd p = { .fd = s->fd, .events = POLLIN };

		poll(&p, 1, 100);
	}
	assert_false(s->running);
	assert_int_equal(s->fd, -1);
	return rc;
}

static void test_output_and_status(void **state)
{
	static struct spawn s;

	(void)state;
	assert_int_equal(run(&s, "echo out; echo err >&2; exit 3", 5), 3);
	assert_string_equal(s.out, "out\nerr\n");
	assert_int_equal(run(&s, "kill -TERM $$", 5), 128 + 15);
}

static void test_timeout(void **state)
{
	static struct spawn s;
	double t0 = worker_now();

	(void)state;
	assert_int_equal(run(&s, "echo started; exec sleep 30", 0.5), -1);
	assert_true(worker_now() - t0 < 5);
	assert_string_equal(s.out, "did not finish in time");
}

static void test_missing(void **state)
{
	static struct spawn s;
	char *argv[] = { "/nonexistent/fault-script", NULL };
	int rc = -2;

	(void)state;
	assert_int_equal(spawn_start(&s, argv, 5), 0);
	while (!spawn_poll(&s, &rc))
		poll(NULL, 0, 20);
	assert_int_equal(rc, 127);
	assert_non_null(strstr(s.out, "cannot run /nonexistent/fault-script"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output_and_status),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
