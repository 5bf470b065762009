// SPDX-License-Identifier: MIT
/* Unit tests for the hosts file of accept --hosts and serve --hosts:
 * host[:port] lines, [v6]:port, comments, and every kind of bad line. */
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

#include "core/accept/hostlist.h"

static void test_lines(void **state)
{
	struct hostlist_entry e;
	char why[160];

	(void)state;
	assert_int_equal(hostlist_parse_line("node07", 18516, &e, why, sizeof(why)), 1);
	assert_string_equal(e.host, "node07");
	assert_int_equal(e.port, 18516);
	assert_string_equal(e.name, "node07:18516");
	assert_int_equal(hostlist_parse_line("  10.0.2.15:18702\t# agent 2\r", 18516, &e, why, sizeof(why)), 1);
	assert_string_equal(e.host, "10.0.2.15");
	assert_int_equal(e.port, 18702);
	assert_int_equal(hostlist_parse_line("[fe80::1%eth0]:7", 18516, &e, why, sizeof(why)), 1);
	assert_string_equal(e.host, "fe80::1%eth0");
	assert_int_equal(e.port, 7);
	assert_string_equal(e.name, "[fe80::1%eth0]:7");
	assert_int_equal(hostlist_parse_line("[::1]", 9, &e, why, sizeof(why)), 1);
	assert_int_equal(e.port, 9);
	assert_int_equal(hostlist_parse_line("", 1, &e, why, sizeof(why)), 0);
	assert_int_equal(hostlist_parse_line("   # only a comment", 1, &e, why, sizeof(why)), 0);

	assert_int_equal(hostlist_parse_line("a b", 1, &e, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "one host a line"));
	assert_int_equal(hostlist_parse_line("::1", 1, &e, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "brackets"));
	assert_int_equal(hostlist_parse_line("[::1", 1, &e, why, sizeof(why)), -1);
	assert_int_equal(hostlist_parse_line("[::1]x", 1, &e, why, sizeof(why)), -1);
	assert_int_equal(hostlist_parse_line("host:0", 1, &e, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "1..65535"));
	assert_int_equal(hostlist_parse_line("host:65536", 1, &e, why, sizeof(why)), -1);
	assert_int_equal(hostlist_parse_line("host:", 1, &e, why, sizeof(why)), -1);
	assert_int_equal(hostlist_parse_line(":80", 1, &e, why, sizeof(why)), -1);
	assert_int_equal(hostlist_parse_line("ho/st", 1, &e, why, sizeof(why)), -1);
	assert_int_equal(hostlist_parse_line("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1, &e, why, sizeof(why)), -1);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_load(void **state)
{
	static struct hostlist l;
	char path[] = "/tmp/test_hostlist.XXXXXX", err[400];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_file(path, "# fleet\nnode1\nnode2:18600\n\n[::1]:5\n");
	assert_int_equal(hostlist_load(&l, path, 18516, err, sizeof(err)), 0);
	assert_int_equal(l.n, 3);
	assert_true(hostlist_has(&l, "node1", 18516));
	assert_true(hostlist_has(&l, "node2", 18600));
	assert_false(hostlist_has(&l, "node2", 18516));
	assert_true(hostlist_has(&l, "::1", 5));

	write_file(path, "node1\nnode1:18516\n");
	assert_int_equal(hostlist_load(&l, path, 18516, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 2: node1:18516 is listed twice"));
	assert_non_null(strstr(err, " — "));
	write_file(path, "node1\nnode 2\n");
	assert_int_equal(hostlist_load(&l, path, 18516, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 2"));
	unlink(path);
	assert_int_equal(hostlist_load(&l, path, 18516, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read the hosts file"));
	assert_int_equal(hostlist_load(&l, "/tmp", 18516, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
