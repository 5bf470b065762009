// SPDX-License-Identifier: MIT
/* Port events: the line format round trip, damaged lines, the state
 * tracker, counter events, --since, and the file's rotation bound. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/port/events.h"

static void test_round_trip(void **state)
{
	struct port_event e = { .t = 1764592818.25, .delta = 0 }, r;
	char line[512];

	(void)state;
	strcpy(e.port, "mlx5_0/1");
	strcpy(e.kind, "state");
	strcpy(e.source, "poll");
	strcpy(e.from, "Active/LinkUp");
	strcpy(e.to, "Down/Polling");
	events_format(&e, line, sizeof(line));
	assert_string_equal(line,
		"{\"time\":\"2025-12-01T12:40:18.250Z\",\"t\":1764592818.250,\"port\":\"mlx5_0/1\","
		"\"event\":\"state\",\"source\":\"poll\",\"from\":\"Active/LinkUp\","
		"\"to\":\"Down/Polling\",\"delta\":0}");
	assert_int_equal(events_parse(line, &r), 0);
	assert_true(r.t > 1764592818.24 && r.t < 1764592818.26);
	assert_string_equal(r.port, "mlx5_0/1");
	assert_string_equal(r.kind, "state");
	assert_string_equal(r.from, "Active/LinkUp");
	assert_string_equal(r.to, "Down/Polling");
	assert_int_equal(r.delta, 0);

	/* a quote in a name cannot break the line */
	strcpy(e.port, "a\"b");
	events_format(&e, line, sizeof(line));
	assert_int_equal(events_parse(line, &r), 0);
	assert_string_equal(r.port, "a_b");
}

static void test_damaged(void **state)
{
	struct port_event r;

	(void)state;
	assert_int_equal(events_parse("", &r), -1);
	assert_int_equal(events_parse("garbage", &r), -1);
	assert_int_equal(events_parse("{\"time\":\"x\",\"t\":1.0,\"port\":\"p\"", &r), -1);
	assert_int_equal(events_parse("{\"t\":-1,\"port\":\"p\",\"event\":\"state\",\"source\":\"poll\",\"from\":\"\",\"to\":\"\",\"delta\":0}", &r), -1);
	assert_int_equal(events_parse("{\"t\":5,\"port\":\"p\",\"event\":\"state\",\"source\":\"poll\",\"from\":\"\",\"to\":\"\",\"delta\":x}", &r), -1);
	assert_int_equal(events_parse("{\"t\":5,\"port\":\"p\",\"event\":\"state\",\"source\":\"poll\",\"from\":\"\",\"to\":\"\",\"delta\":7}", &r), 0);
	assert_int_equal(r.delta, 7);
}

static void test_track(void **state)
{
	struct port_track tr = { 0 };
	struct port_event e;

	(void)state;
	/* first poll: the baseline, no event; unknown polls teach nothing */
	assert_false(events_track(&tr, "p/1", 4, 5, 10, &e));
	assert_false(events_track(&tr, "p/1", 0, 0, 11, &e));
	assert_false(events_track(&tr, "p/1", 4, 5, 12, &e));
	assert_true(events_track(&tr, "p/1", 1, 2, 13, &e));
	assert_string_equal(e.from, "Active/LinkUp");
	assert_string_equal(e.to, "Down/Polling");
	assert_string_equal(e.kind, "state");
	assert_true(e.t == 13);
	/* the physical state alone changing is a change too */
	assert_true(events_track(&tr, "p/1", 1, 3, 14, &e));
	assert_string_equal(e.to, "Down/Disabled");
	assert_true(events_track(&tr, "p/1", 2, 5, 15, &e));
	assert_string_equal(e.to, "Initializing/LinkUp");
}

static void test_counter(void **state)
{
	struct port_event e;

	(void)state;
	assert_true(events_from_counter("p/1", "LinkDownedCounter", 2, 9, &e));
	assert_string_equal(e.kind, "link_downed");
	assert_string_equal(e.source, "counter");
	assert_int_equal(e.delta, 2);
	assert_true(events_from_counter("p/1", "LinkErrorRecoveryCounter", 1, 9, &e));
	assert_string_equal(e.kind, "link_error_recovery");
	assert_false(events_from_counter("p/1", "LinkDownedCounter", 0, 9, &e));
	assert_false(events_from_counter("p/1", "SymbolErrorCounter", 5, 9, &e));
}

static void test_since(void **state)
{
	double s;

	(void)state;
	assert_int_equal(events_parse_since("90", 1000, &s), 0);
	assert_true(s == 910);
	assert_int_equal(events_parse_since("15m", 1000, &s), 0);
	assert_true(s == 100);
	assert_int_equal(events_parse_since("2h", 10000, &s), 0);
	assert_true(s == 2800);
	assert_int_equal(events_parse_since("1d", 100000, &s), 0);
	assert_true(s == 13600);
	assert_int_equal(events_parse_since("2025-12-01T12:40:18Z", 0, &s), 0);
	assert_true(s == 1764592818);
	assert_int_equal(events_parse_since("2025-12-01T12:40Z", 0, &s), 0);
	assert_true(s == 1764592800);
	assert_int_equal(events_parse_since("2025-12-01Z", 0, &s), 0);
	assert_true(s == 1764547200);
	assert_int_equal(events_parse_since("", 0, &s), -1);
	assert_int_equal(events_parse_since("-5m", 0, &s), -1);
	assert_int_equal(events_parse_since("5x", 0, &s), -1);
	assert_int_equal(events_parse_since("5mm", 0, &s), -1);
	assert_int_equal(events_parse_since("nan", 0, &s), -1);
	assert_int_equal(events_parse_since("2025-13-01", 0, &s), -1);
	assert_int_equal(events_parse_since("2025-12-01T12:40:18+01", 0, &s), -1);
}

/* The file stays bounded: past the limit it moves to .1, and load reads
 * both, oldest first, the newest max kept. */
static void test_rotation(void **state)
{
	char dir[] = "/tmp/test_events.XXXXXX", path[256], old[300];
	struct port_event e = { .t = 100 }, *got;
	struct stat st;
	char err[600] = "";
	int n, bad, total;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sub/events.jsonl", dir);
	snprintf(old, sizeof(old), "%s.1", path);
	strcpy(e.port, "p/1");
	strcpy(e.kind, "link_downed");
	strcpy(e.source, "counter");
	e.delta = 1;
	/* enough lines to pass the limit once */
	total = EVENTS_MAX_BYTES / (events_format(&e, err, sizeof(err)) + 1) + 200;
	for (int i = 0; i < total; i++) {
		e.t = 100 + i;
		if (events_append(path, &e, err, sizeof(err)))
			fail_msg("append %d: %s", i, err);
	}
	assert_int_equal(stat(old, &st), 0);
	assert_true(st.st_size > EVENTS_MAX_BYTES);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size < EVENTS_MAX_BYTES);

	got = calloc(10, sizeof(*got));
	n = events_load(path, 0, got, 10, &bad, err, sizeof(err));
	assert_int_equal(n, 10);
	assert_int_equal(bad, 0);
	assert_true(got[9].t == 100 + total - 1);	/* newest last */
	assert_true(got[0].t == 100 + total - 10);
	/* --since */
	n = events_load(path, 100 + total - 3, got, 10, &bad, err, sizeof(err));
	assert_int_equal(n, 3);
	free(got);
	unlink(path);
	unlink(old);
	snprintf(old, sizeof(old), "%s/sub", dir);
	rmdir(old);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_track),
		cmocka_unit_test(test_counter),
		cmocka_unit_test(test_since),
		cmocka_unit_test(test_rotation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
