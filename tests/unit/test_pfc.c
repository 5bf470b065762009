// SPDX-License-Identifier: MIT
/* Per-priority PFC: the drivers' statistic names, a sample built from an
 * ethtool -S list, the interval's deltas and the two flags, and the RoCE
 * priority from mlx5's traffic_class text. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "diag/pfc.h"

static void test_names(void **state)
{
	int p;
	bool tx, dur;

	(void)state;
	assert_int_equal(pfc_parse_name("rx_prio3_pause", &p, &tx, &dur), 0);
	assert_int_equal(p, 3);
	assert_false(tx);
	assert_false(dur);
	assert_int_equal(pfc_parse_name("tx_prio7_pause_duration", &p, &tx, &dur), 0);
	assert_int_equal(p, 7);
	assert_true(tx);
	assert_true(dur);
	assert_int_equal(pfc_parse_name("tx_pfc_ena_frames_pri0", &p, &tx, &dur), 0);
	assert_int_equal(p, 0);
	assert_true(tx);
	assert_int_equal(pfc_parse_name("rx_priority_5_xoff.nic", &p, &tx, &dur), 0);
	assert_int_equal(p, 5);
	assert_false(tx);
	assert_int_equal(pfc_parse_name("rx_priority_5_xoff", &p, &tx, &dur), 0);
	/* not per-priority pause frames */
	assert_int_equal(pfc_parse_name("rx_prio3_pause_transition", &p, &tx, &dur), -1);
	assert_int_equal(pfc_parse_name("rx_pause_ctrl_phy", &p, &tx, &dur), -1);
	assert_int_equal(pfc_parse_name("rx_priority_5_xon", &p, &tx, &dur), -1);
	assert_int_equal(pfc_parse_name("rx_prio8_pause", &p, &tx, &dur), -1);
	assert_int_equal(pfc_parse_name("rx_prio-1_pause", &p, &tx, &dur), -1);
	assert_int_equal(pfc_parse_name("rx_prio 3_pause", &p, &tx, &dur), -1);
	assert_int_equal(pfc_parse_name("rx_prio3_bytes", &p, &tx, &dur), -1);
	assert_int_equal(pfc_parse_name("", &p, &tx, &dur), -1);
}

/* mlx5-like ethtool -S, and one without per-priority counters (rxe's
 * veth / virtio netdev: none at all, or only global pause). */
static void test_sample(void **state)
{
	static const char *const mlx5[] = {
		"rx_packets", "rx_pause_ctrl_phy", "tx_pause_ctrl_phy",
		"rx_prio3_pause", "rx_prio3_pause_duration", "rx_prio3_pause_transition",
		"tx_prio3_pause", "tx_prio3_pause_duration", "rx_prio0_pause", "tx_prio0_pause",
	};
	static const uint64_t mv[] = { 1000, 0, 0, 40, 900, 3, 2, 50, 7, 0 };
	static const char *const virt[] = { "rx_packets", "tx_packets", "rx_pause_ctrl_phy" };
	static const uint64_t vv[] = { 1, 2, 3 };
	struct pfc_sample s;

	(void)state;
	pfc_from_stats(&s, mlx5, mv, 10);
	assert_true(s.read);
	assert_true(s.per_prio);
	assert_true(s.have_dur);
	assert_true(s.has[3]);
	assert_true(s.has[0]);
	assert_false(s.has[1]);
	assert_int_equal(s.rx[3], 40);
	assert_int_equal(s.rx_dur[3], 900);
	assert_int_equal(s.tx[3], 2);
	assert_int_equal(s.tx_dur[3], 50);
	assert_int_equal(s.rx[0], 7);

	pfc_from_stats(&s, virt, vv, 3);
	assert_true(s.read);
	assert_false(s.per_prio);	/* "no per-priority pause counters", never 0 */
	pfc_from_stats(&s, NULL, NULL, 0);
	assert_true(s.read);
	assert_false(s.per_prio);
}

static void set(struct pfc_sample *s, int p, uint64_t rx, uint64_t tx)
{
	s->read = s->per_prio = true;
	s->has[p] = true;
	s->rx[p] = rx;
	s->tx[p] = tx;
}

static void test_judge(void **state)
{
	struct pfc_sample a, b;
	struct pfc_delta d;
	char flag[PFC_MAX_FLAGS][160];
	int n;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (int p = 0; p < PFC_PRIOS; p++) {
		set(&a, p, 100, 5);
		set(&b, p, 100, 5);
	}
	/* RoCE on 3: pauses received on 3 are lossless doing its job */
	b.rx[3] = 160;
	pfc_diff(&a, &b, &d);
	assert_true(d.valid);
	assert_int_equal(d.rx[3], 60);
	assert_int_equal(pfc_judge(&d, 3, flag, PFC_MAX_FLAGS), 0);
	/* pauses on 5, which carries no RoCE */
	b.rx[5] = 130;
	pfc_diff(&a, &b, &d);
	n = pfc_judge(&d, 3, flag, PFC_MAX_FLAGS);
	assert_int_equal(n, 1);
	assert_non_null(strstr(flag[0], "priority 5 (30 received, 0 sent), which carries no RoCE traffic (RoCE uses 3)"));
	/* priority unknown: that flag cannot be raised */
	assert_int_equal(pfc_judge(&d, -1, flag, PFC_MAX_FLAGS), 0);
	/* this host sending pauses on the RoCE priority: a slow receiver */
	b.rx[5] = 100;
	b.tx[3] = 9;
	pfc_diff(&a, &b, &d);
	n = pfc_judge(&d, 3, flag, PFC_MAX_FLAGS);
	assert_int_equal(n, 1);
	assert_non_null(strstr(flag[0], "this host sent 4 pause frames on priority 3: a slow receiver here"));
	/* a counter reset counts from 0, never a huge delta */
	b.tx[3] = 2;
	pfc_diff(&a, &b, &d);
	assert_int_equal(d.tx[3], 2);
	/* no per-priority counters: nothing to judge */
	memset(&b, 0, sizeof(b));
	b.read = true;
	pfc_diff(&a, &b, &d);
	assert_false(d.valid);
	assert_int_equal(pfc_judge(&d, 3, flag, PFC_MAX_FLAGS), 0);
}

static void test_tclass(void **state)
{
	int tc;

	(void)state;
	/* ToS 106: DSCP 26 (AF31), default map DSCP / 8: priority 3 */
	assert_int_equal(pfc_priority_of_tclass_text("Global tclass=106", &tc), 3);
	assert_int_equal(tc, 106);
	assert_int_equal(pfc_priority_of_tclass_text("tclass=0", &tc), 0);
	assert_int_equal(pfc_priority_of_tclass_text("tclass=255", &tc), 7);
	assert_int_equal(pfc_priority_of_tclass_text("", &tc), -1);
	assert_int_equal(pfc_priority_of_tclass_text("tclass=", &tc), -1);
	assert_int_equal(pfc_priority_of_tclass_text("tclass=256", &tc), -1);
	assert_int_equal(pfc_priority_of_tclass_text("tclass=-1", &tc), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_tclass),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
