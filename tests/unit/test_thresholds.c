// SPDX-License-Identifier: MIT
/* cmocka tests of the config file parser: counter names by any alias,
 * long lines refused, watch above act refused, non-regular files refused,
 * values that are not finite or not counts refused with the line. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "diag/thresholds.h"

static char path[] = "/tmp/ibc-thr-XXXXXX";
static char err[512];
static struct thresholds th;

static int load(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	err[0] = '\0';
	thresholds_defaults(&th);
	return thresholds_load(&th, path, err, sizeof(err));
}

static int setup(void **state)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	return 0;
}

static void test_alias(void **state)
{
	uint64_t w, a;

	/* the kernel's counters/ name sets the PMA counter's row */
	assert_int_equal(load("symbol_error = 100\nsymbol_error.watch = 7\n"), 0);
	thresholds_get(&th, "SymbolErrorCounter", &w, &a);
	assert_int_equal(a, 100);
	assert_int_equal(w, 7);
	assert_int_equal(th.n, 1);
	assert_string_equal(th.t[0].counter, "SymbolErrorCounter");
	assert_int_equal(load("port_rcv_errors=9\nPortRcvErrors.watch=3\n"), 0);
	thresholds_get(&th, "PortRcvErrors", &w, &a);
	assert_int_equal(a, 9);
	assert_int_equal(w, 3);
}

/* The acceptance's keys reach the verdict table, not the counter rows. */
static void test_accept_keys(void **state)
{
	(void)state;
	assert_int_equal(load("test_accept_pct = 85\naccept_fleet_bw_pct = 50\naccept_fleet_lat_ratio = 3.5\n"), 0);
	assert_true(th.tv.accept > 0.849 && th.tv.accept < 0.851);
	assert_true(th.tv.accept_fleet_bw > 0.499 && th.tv.accept_fleet_bw < 0.501);
	assert_true(th.tv.accept_fleet_lat > 3.49 && th.tv.accept_fleet_lat < 3.51);
	assert_int_equal(th.n, 0);
	assert_int_equal(load("accept_fleet_bw_pct = 101\n"), -1);
	assert_non_null(strstr(err, "accept_fleet_bw_pct '101' is not a number in range"));
}

/* How often the console reads the modules: 60 s unless the file says,
 * 1 ... 86400 s, refused with its line otherwise. */
static void test_optic_read(void **state)
{
	(void)state;
	assert_int_equal(load("ber_act = 1e-8\n"), 0);
	assert_true(th.optic_read_s == 60);
	assert_int_equal(load("optic_read_s = 5\n"), 0);
	assert_true(th.optic_read_s == 5);
	assert_int_equal(th.n, 0);
	assert_int_equal(load("\noptic_read_s = 0\n"), -1);
	assert_non_null(strstr(err, ":2: optic_read_s '0' is not 1 … 86400 seconds"));
	assert_int_equal(load("optic_read_s = nan\n"), -1);
}

static void test_long_line(void **state)
{
	char text[1200];
	uint64_t w, a;

	/* 511 bytes is the most a line may have */
	memset(text, ' ', sizeof(text));
	memcpy(text, "SymbolErrorCounter = 9", 22);
	text[511] = '\n';
	text[512] = '\0';
	assert_int_equal(load(text), 0);
	thresholds_get(&th, "SymbolErrorCounter", &w, &a);
	assert_int_equal(a, 9);
	/* a key past byte 511 of a comment line must not take effect */
	memset(text, 'x', sizeof(text));
	text[0] = '#';
	snprintf(text + 520, sizeof(text) - 520, " SymbolErrorCounter = 1\n");
	assert_int_equal(load(text), -1);
	assert_non_null(strstr(err, ":1: line longer than 511 bytes"));
}

/* Written with its length: fputs would stop at the NUL. */
static int load_n(const char *text, size_t n)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, n, f), n);
	fclose(f);
	err[0] = '\0';
	thresholds_defaults(&th);
	return thresholds_load(&th, path, err, sizeof(err));
}

/* A NUL byte inside a comment hides nothing: the line is an error named
 * by its number, and the key after the NUL never takes effect. */
static void test_nul(void **state)
{
	static const char text[] = "error_window_s = 60\n# site thresholds\0error_lifetime_act = 55\n";

	assert_int_equal(load_n(text, sizeof(text) - 1), -1);
	assert_non_null(strstr(err, ":2: the line holds a NUL byte"));
	assert_true(th.life_act != 55);
}

/* The counts since the last clear get the same watch <= act check. */
static void test_lifetime_pair(void **state)
{
	assert_int_equal(load("error_lifetime_watch = 1000\nerror_lifetime_act = 10\n"), -1);
	assert_non_null(strstr(err, "watch level 1000 (line 1) is above the act level 10 (line 2)"));
	assert_non_null(strstr(err, "error_lifetime_watch"));
	assert_int_equal(load("error_lifetime_act = 5000\nerror_lifetime_watch = 1000\n"), 0);
	assert_true(th.life_watch == 1000 && th.life_act == 5000);
	/* an act level alone below the default watch level pulls it down */
	assert_int_equal(load("error_lifetime_act = 1\n"), 0);
	assert_true(th.life_watch == 1 && th.life_act == 1);
	/* numbers as people write them */
	assert_int_equal(load("error_lifetime_act = 0x10\n"), -1);
	assert_int_equal(load("error_lifetime_watch = -0\n"), -1);
	assert_int_equal(load("error_act = 0x10\n"), -1);
	assert_int_equal(load("SymbolErrorCounter.watch = 0x1\n"), -1);
	assert_int_equal(load("error_window_s = 0x10\n"), -1);
	assert_int_equal(load("test_bw_large_healthy_pct = 0x10\n"), -1);
}

static void test_watch_above_act(void **state)
{
	uint64_t w, a;

	assert_int_equal(load("error_watch = 60\nerror_act = 50\n"), -1);
	assert_non_null(strstr(err, "watch level 60 (line 1)"));
	assert_non_null(strstr(err, "act level 50 (line 2)"));
	/* order in the file does not matter */
	assert_int_equal(load("error_act = 500\nerror_watch = 60\n"), 0);
	assert_int_equal(load("SymbolErrorCounter.watch = 9\nSymbolErrorCounter = 8\n"), -1);
	assert_non_null(strstr(err, "SymbolErrorCounter"));
	/* infiniband-diags' one number: watch follows a lower act */
	assert_int_equal(load("SymbolErrorCounter = 3\n"), 0);
	thresholds_get(&th, "SymbolErrorCounter", &w, &a);
	assert_int_equal(w, 3);
	assert_int_equal(a, 3);
	/* a row takes error_watch / error_act from anywhere in the file */
	assert_int_equal(load("LinkDownedCounter.watch = 1\nerror_act = 20\n"), 0);
	thresholds_get(&th, "LinkDownedCounter", &w, &a);
	assert_int_equal(w, 1);
	assert_int_equal(a, 20);
	assert_int_equal(load("LinkDownedCounter = 50\nerror_watch = 4\n"), 0);
	thresholds_get(&th, "LinkDownedCounter", &w, &a);
	assert_int_equal(w, 4);
	assert_int_equal(a, 50);
}

static void test_bad_values(void **state)
{
	assert_int_equal(load("error_window_s = nan\n"), -1);
	assert_non_null(strstr(err, ":1:"));
	assert_int_equal(load("error_window_s = inf\n"), -1);
	assert_int_equal(load("\nerror_act = 1e99\n"), -1);
	assert_non_null(strstr(err, ":2:"));
	assert_int_equal(load("error_act = -1\n"), -1);
	assert_int_equal(load("error_act = 18446744073709551616\n"), -1);
	assert_int_equal(load("SymbolErrorCounter = 12abc\n"), -1);
}

static void test_not_regular(void **state)
{
	char dir[] = "/tmp/ibc-thd-XXXXXX", fifo[64];

	assert_non_null(mkdtemp(dir));
	thresholds_defaults(&th);
	assert_int_equal(thresholds_load(&th, dir, err, sizeof(err)), -2);
	assert_non_null(strstr(err, "is a directory"));
	assert_non_null(strstr(err, dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(thresholds_load(&th, fifo, err, sizeof(err)), -2);
	assert_non_null(strstr(err, "FIFO"));
	unlink(fifo);
	assert_int_equal(thresholds_load(&th, fifo, err, sizeof(err)), 1);
	rmdir(dir);
}

/* A window longer than the counters' history is refused with an error
 * naming the limit, never cut to it silently. */
static void test_window_past_history(void **state)
{
	(void)state;
	assert_int_equal(load("error_window_s = 600\n"), 0);
	assert_true(th.window_s == 600.0);
	assert_int_equal(load("error_window_s = 601\n"), -1);
	assert_non_null(strstr(err, "error_window_s '601'"));
	assert_non_null(strstr(err, "600 seconds (the counter history kept)"));
	assert_int_equal(load("error_window_s = 3600\n"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alias),
		cmocka_unit_test(test_accept_keys),
		cmocka_unit_test(test_optic_read),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_watch_above_act),
		cmocka_unit_test(test_nul),
		cmocka_unit_test(test_lifetime_pair),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_window_past_history),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
