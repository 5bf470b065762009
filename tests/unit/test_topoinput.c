// SPDX-License-Identifier: MIT
/* cmocka tests of hostile saved fabrics: port numbers out of InfiniBand's
 * range, the reader's time on a large file, the JSON of `fabric --json`
 * read back, non-regular files and long lines, the node-name map. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/fabric/diff.h"

static char err[640];

static struct fabric *parse(const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	struct fabric *f;

	assert_non_null(fp);
	err[0] = '\0';
	f = fabric_parse_topology(fp, "t", err, sizeof(err));
	fclose(fp);
	return f;
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void test_port_range(void **state)
{
	struct fabric *f;

	/* the reproducer: INT_MIN and INT_MAX port numbers */
	f = parse("Switch 4 \"S-1\"\n[-2147483648] \"H-3\"[2147483647]\n");
	assert_null(f);
	assert_non_null(strstr(err, "line 2: a port number is not 1..254"));
	assert_null(parse("Switch 4 \"S-1\"\n[1] \"H-3\"[255]\n"));
	assert_non_null(strstr(err, "line 2"));
	assert_null(parse("Switch 4 \"S-1\"\n\n[0] \"H-3\"[1]\n"));
	assert_non_null(strstr(err, "line 3"));
	assert_null(parse("Switch 4 \"S-1\"\n[99999999999999999999] \"H-3\"[1]\n"));
	assert_null(parse("Switch 300 \"S-1\"\n"));
	assert_non_null(strstr(err, "number of ports"));
	assert_null(parse("Switch -1 \"S-1\"\n"));
	/* a port that is no number, or an unclosed end, is not the format:
	 * not a port out of range */
	assert_null(parse("Switch 4 \"S-1\"\n[x] \"H-3\"[1]\n"));
	assert_non_null(strstr(err, "line 2 is not ibnetdiscover's format"));
	assert_null(parse("Switch 4 \"S-1\"\n[1] \"H-3\"[-x]\n"));
	assert_non_null(strstr(err, "line 2 is not ibnetdiscover's format"));
	assert_null(parse("Ca 1 \"H-1\"\n[1](10 \"S-3\"[1]\n"));
	assert_non_null(strstr(err, "line 2 is not ibnetdiscover's format"));
	/* the limits themselves are fine */
	f = parse("Switch 254 \"S-1\"\n[1] \"H-3\"[254]\n");
	assert_non_null(f);
	assert_int_equal(f->nlinks, 1);
	fabric_free(f);
}

static void test_long_line(void **state)
{
	char text[1400];

	snprintf(text, sizeof(text), "Switch 4 \"S-1\"\t# \"%01100d\"\n", 0);
	assert_null(parse(text));
	assert_non_null(strstr(err, "line 1 is longer than 1023 bytes"));
}

/* 2,200 switches with 36 hosts each that the file never declares: the
 * remote ends must be found through an index, not a scan per line. */
static void test_large_linear(void **state)
{
	size_t cap = 6 << 20, n = 0;
	char *text = malloc(cap);
	struct timespec t0, t1;
	struct fabric *f;
	double s;
	int hosts = 0;

	assert_non_null(text);
	for (int sw = 1; sw <= 2200; sw++) {
		n += (size_t)snprintf(text + n, cap - n, "Switch\t36 \"S-%016x\"\t# \"sw-%d\" lid %d\n",
				      0x200000 + sw, sw, sw);
		for (int p = 1; p <= 36; p++, hosts++)
			n += (size_t)snprintf(text + n, cap - n,
					      "[%d]\t\"H-%016x\"[1](%x) \t# \"hca-%d\" lid %d 4xQDR\n",
					      p, 0x1000000 + hosts, 0x1000000 + hosts + 1, hosts, 3000 + hosts);
	}
	/* the process's CPU time, not the wall clock: other jobs on a busy
	 * machine (the VM tests beside this one) do not count against it */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	f = parse(text);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	print_message("  %d lines, %.2f MB: %.3f s of CPU\n", 2200 * 37, n / 1e6, s);
	assert_non_null(f);
	assert_int_equal(f->nnodes, 2200 + hosts);
	assert_int_equal(f->nlinks, hosts);
	/* quadratic took 11 s of CPU here; linear takes a fraction of one */
	assert_true(s < 3.0);
	fabric_free(f);
	free(text);
}

static const char json[] =
	"{\n  \"schema\": \"ibconsole/fabric/1\",\n  \"summary\": {\"nodes\": 3},\n"
	"  \"nodes\": [\n"
	"    {\"name\": \"sw-a\", \"type\": \"Switch\", \"guid\": \"0x0000000000200000\", \"lid\": 2, \"num_ports\": 8},\n"
	"    {\"name\": \"hca-1\", \"type\": \"CA\", \"guid\": \"0x0000000000100000\", \"lid\": 4, \"num_ports\": 1},\n"
	"    {\"name\": \"hca-2\", \"type\": \"CA\", \"guid\": \"0x0000000000100002\", \"lid\": 5, \"num_ports\": 1}\n"
	"  ],\n  \"links\": [\n"
	"    {\"width\": \"4X\", \"speed\": \"QDR\", \"rate_gbps\": 40,\n"
	"     \"a\": {\"node\": \"hca-1\", \"node_guid\": \"0x0000000000100000\", \"port\": 1, \"port_guid\": \"0x0000000000100001\", \"lid\": 4},\n"
	"     \"b\": {\"node\": \"sw-a\", \"node_guid\": \"0x0000000000200000\", \"port\": 1, \"port_guid\": \"0x0000000000200000\", \"lid\": 2},\n"
	"     \"flags\": []},\n"
	"    {\"width\": \"1X\", \"speed\": \"QDR\", \"rate_gbps\": 10,\n"
	"     \"a\": {\"node\": \"hca-2\", \"node_guid\": \"0x0000000000100002\", \"port\": 1, \"port_guid\": \"0x0000000000100003\", \"lid\": 5},\n"
	"     \"b\": {\"node\": \"sw-a\", \"node_guid\": \"0x0000000000200000\", \"port\": 2, \"port_guid\": \"0x0000000000200000\", \"lid\": 2},\n"
	"     \"flags\": [\"below_width\"]}\n"
	"  ],\n  \"problems\": []\n}\n";

static const char same_text[] =
	"Switch\t8 \"S-0000000000200000\"\t# \"sw-a\" base port 0 lid 2 lmc 0\n"
	"[1]\t\"H-0000000000100000\"[1](100001) \t# \"hca-1\" lid 4 4xQDR\n"
	"[2]\t\"H-0000000000100002\"[1](100003) \t# \"hca-2\" lid 5 1xQDR\n"
	"Ca\t1 \"H-0000000000100000\"\t# \"hca-1\"\n"
	"[1](100001) \t\"S-0000000000200000\"[1]\t# lid 4 lmc 0 \"sw-a\" lid 2 4xQDR\n"
	"Ca\t1 \"H-0000000000100002\"\t# \"hca-2\"\n"
	"[1](100003) \t\"S-0000000000200000\"[2]\t# lid 5 lmc 0 \"sw-a\" lid 2 1xQDR\n";

static void test_json(void **state)
{
	char path[] = "/tmp/ibc-tj-XXXXXX";
	int fd = mkstemp(path);
	struct fabric *j, *t;
	struct fdiff d;

	assert_true(fd >= 0);
	close(fd);
	write_file(path, json);
	j = fabric_read_topology(path, err, sizeof(err));
	assert_non_null(j);
	assert_int_equal(j->nnodes, 3);
	assert_int_equal(j->nlinks, 2);
	/* the same fabric as text: nothing changed */
	t = parse(same_text);
	assert_non_null(t);
	assert_int_equal(fabric_diff(j, t, &d), 0);
	assert_int_equal(d.n, 0);
	fdiff_free(&d);
	assert_int_equal(fabric_diff(t, j, &d), 0);
	assert_int_equal(d.n, 0);
	fdiff_free(&d);
	fabric_free(t);
	fabric_free(j);

	/* JSON that is not ours, --problems output, broken JSON: refused */
	write_file(path, "{\"schema\": \"ibconsole/watch/1\"}\n");
	assert_null(fabric_read_topology(path, err, sizeof(err)));
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "not ibconsole's fabric"));
	write_file(path, "{\"schema\": \"ibconsole/fabric/1\", \"problems\": []}\n");
	assert_null(fabric_read_topology(path, err, sizeof(err)));
	assert_non_null(strstr(err, "no nodes"));
	write_file(path, "{\"schema\": \"ibconsole/fabric/1\", \"nodes\": [\n");
	assert_null(fabric_read_topology(path, err, sizeof(err)));
	assert_non_null(strstr(err, "not valid JSON"));
	write_file(path, "{\"schema\": \"ibconsole/fabric/1\", \"nodes\": [{\"guid\": \"0x1\"}],"
		   " \"links\": [{\"a\": {\"node_guid\": \"0x1\", \"port\": -2147483648},"
		   " \"b\": {\"node_guid\": \"0x1\", \"port\": 2147483647}}]}\n");
	assert_null(fabric_read_topology(path, err, sizeof(err)));
	assert_non_null(strstr(err, "is not 1..254"));
	/* text that is neither format */
	write_file(path, "hello\nworld\n");
	assert_null(fabric_read_topology(path, err, sizeof(err)));
	assert_non_null(strstr(err, "neither"));
	unlink(path);
}

static void test_not_regular(void **state)
{
	char dir[] = "/tmp/ibc-td-XXXXXX", fifo[64];
	struct fab_name *map;

	assert_non_null(mkdtemp(dir));
	assert_null(fabric_read_topology(dir, err, sizeof(err)));
	assert_non_null(strstr(err, "is a directory"));
	assert_int_equal(fabric_read_name_map(dir, &map, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is a directory"));
	snprintf(fifo, sizeof(fifo), "%s/f", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_null(fabric_read_topology(fifo, err, sizeof(err)));
	assert_non_null(strstr(err, "FIFO"));
	assert_int_equal(fabric_read_name_map(fifo, &map, err, sizeof(err)), -1);
	unlink(fifo);
	rmdir(dir);
}

static void test_name_map(void **state)
{
	char path[] = "/tmp/ibc-nm-XXXXXX", big[700];
	int fd = mkstemp(path);
	struct fab_name *map;

	assert_true(fd >= 0);
	close(fd);
	write_file(path, "0x30 \"c\"\n0x10 \"a\"\n0x30 \"c-again\"\n0x20 b\n");
	assert_int_equal(fabric_read_name_map(path, &map, err, sizeof(err)), 4);
	assert_true(map[0].guid == 0x30 && map[1].guid == 0x10 && map[3].guid == 0x20);
	assert_int_equal(map[2].line, 3);
	assert_string_equal(map[3].name, "b");
	free(map);
	memset(big, 'x', sizeof(big));
	memcpy(big, "0x10 \"", 6);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = '\0';
	write_file(path, big);
	assert_int_equal(fabric_read_name_map(path, &map, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 1: longer than 511 bytes"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_range),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_large_linear),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_name_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
