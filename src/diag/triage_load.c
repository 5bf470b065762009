// SPDX-License-Identifier: MIT
/* Triage steps 5 to 7, judged from the traffic runs against the peer's
 * agent: lossless configuration (good at 1 QP, collapsing under load with
 * retransmissions or pauses), NUMA placement of the test, more QPs. */
#include "config.h"
#include "diag/triage_steps.h"
#include "diag/triage_lines.h"

#include <stdio.h>
#include <string.h>

/* ---- step 5: lossless ---- */

/* Retransmissions on timeouts alone (retry counters, duplicates at the
 * responder) with no sequence gap at either end: no packet was seen lost,
 * the acks were late. */
#define LATE_ACKS_HINT "look for a starved host or peer (CPU, interrupts) before the network: a loss would have shown a sequence gap"

/* "Good idle, collapses under load": the load run's total falls below
 * half of what one QP alone carried. */
#define TRI_COLLAPSE 0.5

/* One of the two runs a step compares did not complete: judges it (warn
 * when it ran, n/a naming what it needs when not), returns true. */
static bool runs_missing(const struct tri_traffic *a, const struct tri_traffic *b,
			 const char *what, struct tri_result *r)
{
	const struct tri_traffic *bad = !a->ok ? a : b;

	if (a->ok && b->ok)
		return false;
	if (bad->ran)
		tri_judge(r, TRI_WARN, "check the agent on the peer and re-run this step",
			  "%s did not complete: %s", what, bad->err);
	else
		tri_judge(r, TRI_NA, NULL, "%s %s", what, bad->err[0] ? bad->err : "needs --peer");
	return true;
}

/* The strongest collapse: one QP ran, the load run's QPs broke off (on
 * Soft-RoCE a lossy wire ends in "remote invalid request" rather than a
 * slow run); its counters up to the break still tell why. */
static void load_broke(const struct tri_traffic *one, const struct tri_traffic *load,
		       struct tri_result *r)
{
	char m1[TRI_LINE], ml[TRI_LINE];
	uint64_t re1 = triage_traffic_sum(one, false, m1, sizeof(m1));
	uint64_t rel = triage_traffic_sum(load, false, ml, sizeof(ml));
	uint64_t pal = triage_traffic_sum(load, true, NULL, 0), gap = triage_traffic_gaps(load);

	tri_line(r, "1 QP: %.4g Gb/s; retransmissions +%llu%s%s", one->gbps,
		 (unsigned long long)re1, m1[0] ? ": " : "", m1);
	tri_line(r, "%u QPs both ways broke off: %s", load->qps, load->err);
	tri_line(r, "until then: retransmissions +%llu (sequence gaps +%llu), pause / CNP +%llu%s%s",
		 (unsigned long long)rel, (unsigned long long)gap, (unsigned long long)pal,
		 ml[0] ? ": " : "", ml);
	if (gap || pal)
		tri_judge(r, TRI_FAIL, tri_steps[TRI_LOSSLESS].hint,
			  "fine idle (1 QP %.3g Gb/s), collapses under load: %u QPs both ways broke off with %s +%llu",
			  one->gbps, load->qps, gap ? "retransmissions" : "pauses",
			  (unsigned long long)(gap ? rel : pal));
	else if (rel)
		tri_judge(r, TRI_WARN, LATE_ACKS_HINT,
			  "the load test broke off with retransmissions +%llu but no sequence gap: acks came late, nothing was seen lost",
			  (unsigned long long)rel);
	else
		tri_judge(r, TRI_WARN, "check the agent on the peer and re-run this step",
			  "the load test broke off with no retransmission or pause counted: %.100s", load->err);
}

void tri_step_lossless(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct tri_traffic *one = &ev->bw1, *load = &ev->load;
	char m1[TRI_LINE], ml[TRI_LINE];
	uint64_t re1, pa1, rel, pal, gap;

	if (tri_no_port(ev, r))
		return;
	if (!tri_is_roce(ev)) {
		tri_judge(r, TRI_NA, NULL, "InfiniBand: credit-based link-level flow control, lossless by design");
		return;
	}
	{
		char buf[TRI_LINE];
		int n = 0;

		for (uint32_t i = 0; i < ev->counters.n && n < (int)sizeof(buf); i++)
			if (triage_counter_is_pause(ev->counters.c[i].name))
				n += snprintf(buf + n, sizeof(buf) - n, "%s%s %llu", n ? ", " : "",
					      ev->counters.c[i].name,
					      (unsigned long long)ev->counters.c[i].delta);
		if (n)
			tri_line(r, "pause / ECN / CNP counters: %s", buf);
		else
			tri_line(r, "no pause / ECN / CNP counters exposed by %s", ev->local.dev);
	}
	tri_line(r, "DCB / trust: %s", ev->dcb[0] ? ev->dcb : ev->dcb_why[0] ? ev->dcb_why : "not exposed");
	if (one->ok && load->broke) {
		load_broke(one, load, r);
		return;
	}
	if (runs_missing(one, load, "the load test", r))
		return;
	re1 = triage_traffic_sum(one, false, m1, sizeof(m1));
	pa1 = triage_traffic_sum(one, true, NULL, 0);
	rel = triage_traffic_sum(load, false, ml, sizeof(ml));
	pal = triage_traffic_sum(load, true, NULL, 0);
	gap = triage_traffic_gaps(load);
	tri_line(r, "1 QP: %.4g Gb/s; retransmissions +%llu, pause / CNP +%llu%s%s", one->gbps,
	     (unsigned long long)re1, (unsigned long long)pa1, m1[0] ? ": " : "", m1);
	tri_line(r, "%u QPs both ways: %.4g Gb/s; retransmissions +%llu (sequence gaps +%llu), pause / CNP +%llu%s%s",
	     load->qps, load->gbps, (unsigned long long)rel, (unsigned long long)gap,
	     (unsigned long long)pal, ml[0] ? ": " : "", ml);
	if (load->gbps < one->gbps * TRI_COLLAPSE && (gap || pal))
		tri_judge(r, TRI_FAIL, tri_steps[TRI_LOSSLESS].hint,
		      "fine idle (1 QP %.3g Gb/s), collapses under load (%.3g Gb/s, %u QPs both ways) with %s +%llu",
		      one->gbps, load->gbps, load->qps, rel ? "retransmissions" : "pauses",
		      (unsigned long long)(rel ? rel : pal));
	else if (load->gbps < one->gbps * TRI_COLLAPSE && rel)
		tri_judge(r, TRI_WARN, LATE_ACKS_HINT,
			  "collapses under load (%.3g of %.3g Gb/s) with retransmissions +%llu but no sequence gap: acks came late, nothing was seen lost",
			  load->gbps, one->gbps, (unsigned long long)rel);
	else if (load->gbps < one->gbps * TRI_COLLAPSE)
		tri_judge(r, TRI_WARN, "watch the switch's drop counters during a load test",
		      "collapses under load (%.3g of %.3g Gb/s) with no retransmission or pause counted",
		      load->gbps, one->gbps);
	else if (gap && !triage_traffic_gaps(one))
		/* a lossless fabric loses nothing under load: packets missing
		 * under load and none at 1 QP are the fingerprint, whether or
		 * not the bandwidth fell (a CPU-bound host may hide it) */
		tri_judge(r, TRI_FAIL, tri_steps[TRI_LOSSLESS].hint,
			  "fine idle (1 QP %.3g Gb/s, no gap), drops under load (%.3g Gb/s, %u QPs both ways): sequence gaps +%llu, retransmissions +%llu",
			  one->gbps, load->gbps, load->qps, (unsigned long long)gap, (unsigned long long)rel);
	else if (rel)
		tri_judge(r, TRI_WARN, tri_steps[TRI_LOSSLESS].hint,
		      "retransmissions under load (+%llu) though the bandwidth held", (unsigned long long)rel);
	else
		tri_judge(r, TRI_PASS, NULL, "pause / CNP +%llu; 1 QP %.3g Gb/s, %u QPs both ways %.3g Gb/s",
		      (unsigned long long)pal, one->gbps, load->qps, load->gbps);
}

/* ---- step 6: NUMA ---- */

void tri_step_numa(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct numa_info *n = &ev->local.numa;
	const char *hint = tri_steps[TRI_NUMA].hint;

	if (tri_no_port(ev, r))
		return;
	if (!n->v.valid) {
		tri_judge(r, TRI_NA, NULL, "%s", n->v.why);
		return;
	}
	tri_line(r, "HCA %s on node %d, its CPUs %s", ev->local.dev, n->node,
	     n->local_cpus[0] ? n->local_cpus : "?");
	tri_line(r, "this process may run on: %s of the HCA's node", n->relation);
	if (ev->peer_facts_valid)
		tri_line(r, "peer %s: HCA on node %d", ev->peer_facts.host, ev->peer_facts.numa_node);
	if (ev->bw1.ok) {
		tri_line(r, "the test: %s", ev->bw1.numa_note);
		if (!ev->bw1.numa_placed)
			tri_judge(r, TRI_WARN, hint, "the test ran off the HCA's node %d: %s", n->node,
			      ev->bw1.numa_note);
		else
			tri_judge(r, TRI_PASS, NULL, "HCA node %d, the test ran on node %d", n->node, n->node);
		return;
	}
	if (!strcmp(n->relation, "remote"))
		tri_judge(r, TRI_WARN, hint, "HCA on node %d, this process may only run on other nodes' CPUs (%s)",
		      n->node, n->local_cpus);
	else if (!strcmp(n->relation, "unknown"))
		tri_judge(r, TRI_INFO, NULL, "HCA on node %d; where the test would run is unknown", n->node);
	else
		tri_judge(r, TRI_PASS, NULL, "HCA node %d; the test runs on its CPUs (%s)", n->node, n->relation);
}

/* ---- step 7: more QPs ---- */

/* No source gives the gain that makes a single-QP limit: 30 % more at
 * 8 QPs is this program's default, triage.qp_gain in the config file. */
#define TRI_QP_GAIN 1.3

void tri_step_qps(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct tri_traffic *one = &ev->bw1, *eight = &ev->bw8;
	double ratio, gain = ev->qp_gain > 0 ? ev->qp_gain : TRI_QP_GAIN;

	if (runs_missing(one, eight, "the 1 / 8 QP comparison", r))
		return;
	ratio = one->gbps > 0 ? eight->gbps / one->gbps : 0;
	tri_line(r, "1 QP %.4g Gb/s, %u QPs %.4g Gb/s (%+.0f %%)", one->gbps, eight->qps, eight->gbps,
	     (ratio - 1) * 100);
	if (ratio >= gain)
		tri_judge(r, TRI_INFO, tri_steps[TRI_QPS].hint,
		      "%u QPs carry %.1fx one QP: a single-QP limit, not a link problem", eight->qps, ratio);
	else
		tri_judge(r, TRI_PASS, NULL, "1 QP %.3g, %u QPs %.3g Gb/s (%+.0f %%): the limit is not per QP",
		      one->gbps, eight->qps, eight->gbps, (ratio - 1) * 100);
}
