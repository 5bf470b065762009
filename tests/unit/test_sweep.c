// SPDX-License-Identifier: MIT
/* cmocka tests of the sweep's port list taken from a fabric model, and of
 * its history: a failed allocation leaves neither a port list nor a
 * previous sample behind (calloc wrapped to fail on demand). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/fabric/fabric.h"
#include "core/fabric/sweep.h"

void *__wrap_calloc(size_t n, size_t size);
void *__real_calloc(size_t n, size_t size);
static int fail_calloc_in = -1;		/* fail the Nth call from now, -1 never */

void *__wrap_calloc(size_t n, size_t size)
{
	if (fail_calloc_in >= 0 && fail_calloc_in-- == 0)
		return NULL;
	return __real_calloc(n, size);
}

/* A switch (ports 0..2) with two CAs behind it. */
static struct fabric *two_hosts(void)
{
	struct fabric *f = fabric_new();
	struct fab_node sw = { .type = FAB_SWITCH, .guid = 0x10, .lid = 1, .numports = 2 };
	struct fab_node ca = { .type = FAB_CA, .numports = 1 };
	int ni;

	assert_non_null(f);
	snprintf(sw.desc, sizeof(sw.desc), "sw-a");
	ni = fabric_add_node(f, &sw);
	for (int p = 0; p <= 2; p++) {
		struct fab_port fp = { .node = ni, .portnum = p, .lid = 1, .remote = -1 };

		assert_true(fabric_add_port(f, &fp) >= 0);
	}
	for (int k = 0; k < 2; k++) {
		struct fab_port fp = { .portnum = 1, .remote = -1 };

		ca.guid = 0x20 + (uint64_t)k;
		snprintf(ca.desc, sizeof(ca.desc), "hca-%d", k);
		fp.node = fabric_add_node(f, &ca);
		fp.lid = 2 + (unsigned)k;
		assert_true(fabric_add_port(f, &fp) >= 0);
	}
	return f;
}

static void test_ports_from_fabric(void **state)
{
	struct fabric *f = two_hosts();
	static struct counter_set cs;
	struct sweep sw;
	char err[120];

	assert_int_equal(sweep_from_fabric(&sw, f, err, sizeof(err)), 0);
	assert_int_equal(sw.nodes, 3);
	assert_int_equal(sw.n, 4);		/* switch port 0 is not swept */
	assert_int_equal(sw.p[0].port, 1);
	assert_true(sw.p[0].is_switch);
	assert_int_equal(sw.p[1].lid, 1);	/* switch: port 0's LID */
	assert_string_equal(sw.p[2].node_desc, "hca-0");
	assert_int_equal(sw.p[3].lid, 3);
	assert_false(sweep_port_valid(&sw.p[3]));	/* not queried yet */
	sweep_port_counters(&sw, 3, &cs);
	assert_string_equal(cs.label, "hca-1/1");
	assert_string_equal(cs.node_desc, "hca-1");
	assert_false(cs.valid);
	sweep_free(&sw);
	fabric_free(f);
}

/* A copy keeps its own values: the next query of the original (which
 * replaces them) must not change the previous round's. */
static void test_copy_keeps_values(void **state)
{
	struct fabric *f = two_hosts();
	static struct counter_set cs;
	struct sweep sw, old = { 0 };
	char err[120];

	assert_int_equal(sweep_from_fabric(&sw, f, err, sizeof(err)), 0);
	sw.vals = calloc(CTR_IDX_COUNT, sizeof(*sw.vals));
	assert_non_null(sw.vals);
	sw.nvals = 1;
	sw.vals[CTR_IDX_SYMBOL_ERROR] = 5;
	sw.p[3].result = SWEEP_READ;
	sw.p[3].vi = 0;
	sw.p[0].result = SWEEP_CLEAN_SUM;
	assert_int_equal(sweep_copy(&old, &sw), 0);
	sw.vals[CTR_IDX_SYMBOL_ERROR] = 9;
	sweep_port_counters(&old, 3, &cs);
	assert_true(cs.valid);
	assert_string_equal(cs.label, "hca-1/1");
	assert_int_equal(counters_find(&cs, "SymbolErrorCounter")->value, 5);
	sweep_port_counters(&sw, 3, &cs);
	assert_int_equal(counters_find(&cs, "SymbolErrorCounter")->value, 9);
	/* a switch port under a clean sum: error counters, all 0, no traffic */
	sweep_port_counters(&old, 0, &cs);
	assert_true(cs.valid);
	assert_int_equal(counters_find(&cs, "SymbolErrorCounter")->value, 0);
	assert_null(counters_find(&cs, "PortXmitData"));
	sweep_free(&old);
	sweep_free(&sw);
	fabric_free(f);
}

/* The previous round keeps a port's last sample when this round could
 * not read it, and takes this round's where it could. */
static void test_history_keeps_last_sample(void **state)
{
	struct fabric *f = two_hosts();
	static struct counter_set cs;
	struct sweep_history h = { 0 };
	char err[120];

	assert_int_equal(sweep_from_fabric(&h.sw, f, err, sizeof(err)), 0);
	assert_int_equal(sweep_history_adopt(&h, err, sizeof(err)), 0);
	/* round 1: hca-0 and hca-1 read, SymbolErrorCounter 1 and 2 */
	h.sw.vals = calloc(2 * CTR_IDX_COUNT, sizeof(*h.sw.vals));
	assert_non_null(h.sw.vals);
	h.sw.nvals = 2;
	for (int k = 0; k < 2; k++) {
		h.sw.p[2 + k].result = SWEEP_READ;
		h.sw.p[2 + k].vi = k;
		h.sw.vals[k * CTR_IDX_COUNT + CTR_IDX_SYMBOL_ERROR] = 1 + (uint64_t)k;
	}
	assert_int_equal(sweep_history_keep(&h), 0);
	/* round 2: hca-0 does not answer, hca-1 reads 7 */
	h.sw.p[2].result = SWEEP_NO_PC;
	h.sw.p[3].vi = 0;
	h.sw.vals[CTR_IDX_SYMBOL_ERROR] = 7;
	h.sw.nvals = 1;
	assert_int_equal(sweep_history_keep(&h), 0);
	sweep_port_counters(&h.prev, 2, &cs);
	assert_true(cs.valid);
	assert_int_equal(counters_find(&cs, "SymbolErrorCounter")->value, 1);
	sweep_port_counters(&h.prev, 3, &cs);
	assert_int_equal(counters_find(&cs, "SymbolErrorCounter")->value, 7);
	assert_false(sweep_port_valid(&h.prev.p[0]));	/* never read */
	sweep_history_free(&h);
	fabric_free(f);
}

static void test_history_alloc_failure(void **state)
{
	struct fabric *f = two_hosts();
	struct sweep_history h = { 0 };
	char err[120];

	assert_int_equal(sweep_from_fabric(&h.sw, f, err, sizeof(err)), 0);
	fail_calloc_in = 0;	/* the previous samples */
	assert_int_equal(sweep_history_adopt(&h, err, sizeof(err)), 5);
	fail_calloc_in = -1;
	assert_false(h.have);
	assert_null(h.prev.p);
	assert_null(h.sw.p);
	assert_int_equal(h.sw.n, 0);
	assert_non_null(strstr(err, "out of memory"));
	/* the next round starts over and holds both */
	assert_int_equal(sweep_from_fabric(&h.sw, f, err, sizeof(err)), 0);
	assert_int_equal(sweep_history_adopt(&h, err, sizeof(err)), 0);
	assert_true(h.have);
	assert_non_null(h.prev.p);
	assert_int_equal(h.prev.n, 4);
	assert_false(sweep_port_valid(&h.prev.p[3]));
	sweep_history_free(&h);
	assert_false(h.have);
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ports_from_fabric),
		cmocka_unit_test(test_copy_keeps_values),
		cmocka_unit_test(test_history_keeps_last_sample),
		cmocka_unit_test(test_history_alloc_failure),
	};

	return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
