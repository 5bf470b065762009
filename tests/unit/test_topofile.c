// SPDX-License-Identifier: MIT
/* Topology text: reading ibnetdiscover's output, writing our own, the
 * round trip, and the compare (self: empty; one link down: that link). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/fabric/diff.h"

/* Trimmed ibnetdiscover output from ibsim (tests/topo/fabric-faults.net). */
static const char sample[] =
	"#\n# Topology file: generated on Sun Nov 29 20:51:24 2026\n#\n"
	"# Initiated from node 0000000000100000 port 0000000000100001\n\n"
	"vendid=0x0\ndevid=0x0\nsysimgguid=0x200001\nswitchguid=0x200001(200001)\n"
	"Switch\t6 \"S-0000000000200001\"\t\t# \"sw-b\" base port 0 lid 3 lmc 0\n"
	"[2]\t\"H-000000000010000a\"[1](10000b) \t\t# \"hca-gone\" lid 8 4xQDR\n"
	"[5]\t\"S-0000000000200000\"[5]\t\t# \"sw-a\" lid 2 4xQDR\n\n"
	"vendid=0x0\ndevid=0x0\nsysimgguid=0x200000\nswitchguid=0x200000(200000)\n"
	"Switch\t6 \"S-0000000000200000\"\t\t# \"sw-a\" base port 0 lid 2 lmc 0\n"
	"[1]\t\"H-0000000000100002\"[1](100003) \t\t# \"hca-narrow\" lid 4 1xQDR\n"
	"[5]\t\"S-0000000000200001\"[5]\t\t# \"sw-b\" lid 3 4xQDR\n\n"
	"vendid=0x0\ndevid=0x0\nsysimgguid=0x10000a\ncaguid=0x10000a\n"
	"Ca\t1 \"H-000000000010000a\"\t\t# \"hca-gone\"\n"
	"[1](10000b) \t\"S-0000000000200001\"[2]\t\t# lid 8 lmc 0 \"sw-b\" lid 3 4xQDR\n\n"
	"vendid=0x0\ndevid=0x0\nsysimgguid=0x100002\ncaguid=0x100002\n"
	"Ca\t1 \"H-0000000000100002\"\t\t# \"hca-narrow\"\n"
	"[1](100003) \t\"S-0000000000200000\"[1]\t\t# lid 4 lmc 0 \"sw-a\" lid 2 1xQDR\n";

static struct fabric *parse(const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	char err[256] = "";
	struct fabric *f;

	assert_non_null(fp);
	f = fabric_parse_topology(fp, "sample", err, sizeof(err));
	fclose(fp);
	if (!f)
		fail_msg("parse: %s", err);
	return f;
}

static void test_read(void **state)
{
	struct fabric *f = parse(sample);
	int n;

	(void)state;
	assert_int_equal(f->nnodes, 4);
	assert_int_equal(f->nlinks, 3);
	n = fabric_find_node(f, 0x200000);
	assert_true(n >= 0);
	assert_string_equal(f->nodes[n].name, "sw-a");
	assert_int_equal(f->nodes[n].type, FAB_SWITCH);
	n = fabric_find_port(f, 0x100002, 1);
	assert_true(n >= 0);
	assert_string_equal(f->ports[n].width, "1X");
	assert_string_equal(f->ports[n].speed, "QDR");
	assert_int_equal(f->ports[f->ports[n].remote].portnum, 1);
	fabric_free(f);
}

static char *roundtrip(const struct fabric *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(fabric_write_topology(fp, f), 0);
	fclose(fp);
	return buf;
}

static void test_self_diff_and_roundtrip(void **state)
{
	struct fabric *f = parse(sample), *g;
	struct fdiff d;
	char *text = roundtrip(f);

	(void)state;
	g = parse(text);
	assert_int_equal(fabric_diff(f, f, &d), 0);
	assert_int_equal(d.n, 0);
	fdiff_free(&d);
	assert_int_equal(fabric_diff(f, g, &d), 0);
	if (d.n)
		fail_msg("round trip differs: %d changes, first kind %d", d.n, d.e[0].kind);
	fdiff_free(&d);
	assert_int_equal(g->nnodes, 4);
	assert_int_equal(g->nlinks, 3);
	free(text);
	fabric_free(f);
	fabric_free(g);
}

/* Removes every line containing one of the needles. */
static char *drop_lines(const char *text, const char *const *needles, int n)
{
	char *out = calloc(1, strlen(text) + 1), *o = out;
	const char *s = text;

	while (*s) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s + 1) : strlen(s);
		bool keep = true;

		for (int i = 0; i < n; i++)
			if (memmem(s, len, needles[i], strlen(needles[i])))
				keep = false;
		if (keep) {
			memcpy(o, s, len);
			o += len;
		}
		s += len;
	}
	return out;
}

static void test_diff_unlink(void **state)
{
	/* sw-b[2] <-> hca-gone[1] taken down: hca-gone is unreachable too */
	static const char *const gone[] = {
		"\"hca-gone\" lid 8", "# \"hca-gone\"", "[1](10000b)",
	};
	char *cut = drop_lines(sample, gone, 3);
	struct fabric *f = parse(sample), *g;
	struct fdiff d;
	char buf[256];

	(void)state;
	g = parse(cut);
	assert_int_equal(fabric_diff(f, g, &d), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.e[0].kind, FDIFF_LINK_GONE);
	fdiff_describe(&d.e[0], buf, sizeof(buf));
	assert_string_equal(buf, "link gone: \"hca-gone\"[1] <-> \"sw-b\"[2] (was 4xQDR)");
	assert_int_equal(d.e[1].kind, FDIFF_NODE_GONE);
	assert_string_equal(d.e[1].name_a, "hca-gone");
	fdiff_free(&d);
	fabric_free(f);
	fabric_free(g);
	free(cut);
}

static void test_rate_change(void **state)
{
	char *slow = strdup(sample), *p;
	struct fabric *f = parse(sample), *g;
	struct fdiff d;

	(void)state;
	while ((p = strstr(slow, "1xQDR")))
		p[0] = '4';
	g = parse(slow);
	assert_int_equal(fabric_diff(f, g, &d), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.e[0].kind, FDIFF_LINK_RATE);
	assert_string_equal(d.e[0].old_rate, "1xQDR");
	assert_string_equal(d.e[0].new_rate, "4xQDR");
	fdiff_free(&d);
	fabric_free(f);
	fabric_free(g);
	free(slow);
}

static void test_bad_input(void **state)
{
	static const char bad[] = "Switch 4 \"S-1\"\n[1 \"H-2\"[1]\n";
	FILE *fp = fmemopen((void *)bad, sizeof(bad) - 1, "r");
	char err[256];

	(void)state;
	assert_null(fabric_parse_topology(fp, "bad", err, sizeof(err)));
	assert_non_null(strstr(err, "line 2"));
	fclose(fp);
}

/* Every prefix and a few thousand byte mutations of a real file: the
 * reader returns a fabric or an error, never crashes (run under valgrind
 * or --enable-sanitizers to see out-of-bounds reads). */
static void test_mangled(void **state)
{
	size_t n = strlen(sample);
	char *buf = malloc(n + 1);
	uint32_t rnd = 12345;
	char err[256];

	(void)state;
	for (size_t cut = 0; cut <= n; cut += 7) {
		FILE *fp;
		struct fabric *f;

		memcpy(buf, sample, cut);
		buf[cut] = '\0';
		fp = fmemopen(buf, cut ? cut : 1, "r");
		f = fabric_parse_topology(fp, "cut", err, sizeof(err));
		fabric_free(f);
		fclose(fp);
	}
	for (int i = 0; i < 3000; i++) {
		FILE *fp;
		struct fabric *f;

		memcpy(buf, sample, n + 1);
		for (int k = 0; k < 4; k++) {
			rnd = rnd * 1103515245u + 12345u;
			buf[(rnd >> 8) % n] = "[]()\"#x0123456789 \nSCa-"[(rnd >> 20) % 22];
		}
		fp = fmemopen(buf, n, "r");
		f = fabric_parse_topology(fp, "mangled", err, sizeof(err));
		if (f) {
			struct fdiff d;

			assert_int_equal(fabric_diff(f, f, &d), 0);
			assert_int_equal(d.n, 0);
			fdiff_free(&d);
		}
		fabric_free(f);
		fclose(fp);
	}
	free(buf);
}

static void test_name_map(void **state)
{
	char path[] = "/tmp/ibc-nnmap-XXXXXX";
	int fd = mkstemp(path);
	FILE *fp = fdopen(fd, "w");
	struct fab_name *map;
	char err[256];

	(void)state;
	fprintf(fp, "# comment\n0x0000000000200000 \"spine 1\"\n\n0x100002 leafy\n");
	fclose(fp);
	assert_int_equal(fabric_read_name_map(path, &map, err, sizeof(err)), 2);
	assert_true(map[0].guid == 0x200000);
	assert_string_equal(map[0].name, "spine 1");
	assert_string_equal(map[1].name, "leafy");
	free(map);
	unlink(path);
	assert_int_equal(fabric_read_name_map("/nonexistent/x", &map, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--node-name-map"));
}

/* The same text read twice is the same model; one field changed in a
 * node, a port or the cabling is not (the console keeps its judged rows
 * only while fabric_same holds). */
static void test_same_model(void **state)
{
	struct fabric *f = parse(sample), *g = parse(sample), *h;
	int p = fabric_find_port(g, 0x100002, 1);
	static const char *const gone[] = {
		"\"hca-gone\" lid 8", "# \"hca-gone\"", "[1](10000b)",
	};
	char *cut = drop_lines(sample, gone, 3);

	(void)state;
	assert_true(fabric_same(f, g));
	assert_true(p >= 0);
	g->ports[p].state = 1;	/* Down */
	assert_false(fabric_same(f, g));
	g->ports[p].state = f->ports[p].state;
	assert_true(fabric_same(f, g));
	g->ports[p].remote = -1;
	assert_false(fabric_same(f, g));
	g->ports[p].remote = f->ports[p].remote;
	snprintf(g->nodes[0].name, sizeof(g->nodes[0].name), "renamed");
	assert_false(fabric_same(f, g));
	snprintf(g->nodes[0].name, sizeof(g->nodes[0].name), "%s", f->nodes[0].name);
	g->ports[p].mtu_active = 1024;
	assert_false(fabric_same(f, g));
	g->ports[p].mtu_active = f->ports[p].mtu_active;
	assert_true(fabric_same(f, g));
	h = parse(cut);
	assert_false(fabric_same(f, h));
	assert_false(fabric_same(f, NULL));
	fabric_free(f);
	fabric_free(g);
	fabric_free(h);
	free(cut);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_self_diff_and_roundtrip),
		cmocka_unit_test(test_diff_unlink),
		cmocka_unit_test(test_rate_change),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_mangled),
		cmocka_unit_test(test_name_map),
		cmocka_unit_test(test_same_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
