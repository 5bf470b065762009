// SPDX-License-Identifier: MIT
/* What every triage step builds its result with, and what the walk, the
 * fingerprints and the report share: the step table (names, questions,
 * hints), the state names, the line and judgement helpers, a port's data
 * rate after encoding, and the procedure's counter classes around a test.
 * Calls nothing else of the triage: the steps and the fingerprints call
 * here, never the other way. Pure: no I/O. */
#include "config.h"
#include "diag/triage_lines.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const struct tri_step_def tri_steps[TRI_NSTEPS] = {
	{ TRI_ENV, "environment", "environment", "environment",
	  "Can a test run at all?",
	  "port state / physical state / link layer, device-to-netdev mapping, locked-memory limit or CAP_IPC_LOCK; driver and firmware on both ends, CPU governor, irqbalance",
	  "bring the port up (cable, subnet manager), raise the memlock limit (ulimit -l unlimited; containers need IPC_LOCK)",
	  false },
	{ TRI_RATE, "port_rate", "port rate", "port rate",
	  "Is the port rate right?",
	  "active width x speed against enabled / supported on both ends of the link, the site's expected rate, the peer's rate; both ends' error-counter increments over the triage's window, judged per 10 minutes",
	  "reseat or replace the cable / optic; check LinkWidthEnabled / LinkSpeedEnabled on both ends (ibportstate)",
	  false },
	{ TRI_PCIE, "pcie", "PCIe", "PCIe",
	  "Is PCIe enough?",
	  "the HCA's PCIe link status against its capability (speed, width), usable PCIe bandwidth against the port's data rate",
	  "reseat the card or check the riser; move it to a slot that trains at the needed generation and width",
	  false },
	{ TRI_GID, "gid", "GID", "GID",
	  "Is the right GID used (RoCE)?",
	  "the GID table (type, address, netdev), the index the test uses, the peer's index",
	  "use the RoCE v2 entry of the netdev's IPv4 address on both ends (-x N, or leave -x out)",
	  false },
	{ TRI_MTU, "mtu", "MTU", "MTU",
	  "Do both ends have the same MTU?",
	  "active MTU here and at the other end (IB: NeighborMTU of both ends of the link; RoCE: both hosts through the agent), the netdev MTU",
	  "set the same MTU on both ends (RoCE: the netdev MTU, ip link set DEV mtu N; IB: the subnet manager's partition MTU)",
	  false },
	{ TRI_LOSSLESS, "lossless", "lossless", "lossless configuration",
	  "Is lossless configuration in effect (RoCE)?",
	  "pause / PFC and ECN / CNP counters, DCB / trust settings where exposed; 1 QP against 8 QPs both ways with retransmission and pause counters watched",
	  "enable PFC on the RoCE traffic's priority (and ECN) on the hosts and the switch ports; check the switch's drop counters",
	  true },
	{ TRI_NUMA, "numa", "NUMA", "NUMA placement",
	  "Is the test crossing NUMA?",
	  "the HCA's NUMA node and local CPUs, where the test's thread and buffers ran, the peer's node",
	  "bind the test to the HCA's node: numactl --cpunodebind=N --membind=N",
	  false },
	{ TRI_QPS, "more_qps", "more QPs", "single-QP limit",
	  "Do more QPs help?",
	  "bandwidth at 1 QP and at 8 QPs",
	  "use several QPs or streams in the application (perftest -q 8): the limit is per QP, not the link",
	  true },
};

const char *triage_state_name(enum tri_state s)
{
	switch (s) {
	case TRI_PASS: return "pass";
	case TRI_INFO: return "info";
	case TRI_WARN: return "warn";
	case TRI_FAIL: return "fail";
	default: return "n/a";
	}
}

double triage_data_rate_gbps(const struct port_info *p)
{
	const char *s = p->speed_name;

	/* the port model's data rate after encoding (and, on RoCE, the
	 * netdev's speed when the kernel caps its rate) */
	if (p->data_rate_gbps > 0)
		return p->data_rate_gbps;
	/* a port filled in without the decoder: the same rule by name */
	if (p->rate_gbps <= 0)
		return 0;
	if (!strcmp(s, "SDR") || !strcmp(s, "DDR") || !strcmp(s, "QDR"))
		return p->rate_gbps * 0.8;		/* 8b/10b */
	if (!strcmp(s, "FDR"))
		return p->rate_gbps * 14.0625 * 64 / 66 / 14.0;	/* 64b/66b */
	return p->rate_gbps;	/* FDR10, EDR (64b/66b on 25.78) and PAM4 */
}

/* ---- building a result ---- */

/* snprintf for lines that may be cut: evidence lines are bounded. */
void tri_fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
}

void tri_line(struct tri_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nlines >= TRI_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(r->lines[r->nlines++], TRI_LINE, fmt, ap);
	va_end(ap);
}

/* Raises the state; the first reason at the highest state stays. */
void tri_judge(struct tri_result *r, enum tri_state s, const char *hint, const char *fmt, ...)
{
	va_list ap;

	if (s <= r->state && r->reason[0])
		return;
	r->state = s;
	va_start(ap, fmt);
	vsnprintf(r->reason, TRI_LINE, fmt, ap);
	va_end(ap);
	snprintf(r->hint, TRI_LINE, "%s", hint ? hint : "");
}

bool tri_no_port(const struct tri_evidence *ev, struct tri_result *r)
{
	if (ev->local_valid)
		return false;
	tri_judge(r, TRI_NA, NULL, "no port to judge: %s", ev->local_why);
	return true;
}

bool tri_is_roce(const struct tri_evidence *ev)
{
	return !strcmp(ev->local.link_layer, "Ethernet");
}

/* ---- counters around a test, as the procedure classes them ---- */

bool triage_counter_is_retrans(const char *n)
{
	return strstr(n, "retr") || strstr(n, "seq_err") || strstr(n, "out_of_seq") ||
	       strstr(n, "duplicate_request") || strstr(n, "ack_timeout") ||
	       strstr(n, "slow_restart");
}

bool triage_counter_is_pause(const char *n)
{
	return strstr(n, "pause") || strstr(n, "pfc") || strstr(n, "cnp") || strstr(n, "ecn_marked");
}

bool triage_counter_is_gap(const char *n)
{
	return strstr(n, "seq_err") || strstr(n, "out_of_seq");
}

static uint64_t sum_ctr(const struct testctr *t, bool (*is)(const char *), const char *where,
			char *moved, int len, int *n)
{
	uint64_t s = 0;

	for (uint32_t i = 0; i < t->n; i++) {
		if (!is(t->c[i].name) || !t->c[i].delta)
			continue;
		s += t->c[i].delta;
		if (moved && *n < len)
			*n += snprintf(moved + *n, len - *n, "%s%s +%llu %s", *n ? ", " : "",
				       t->c[i].name, (unsigned long long)t->c[i].delta, where);
	}
	return s;
}

static uint64_t both_ends(const struct tri_traffic *t, bool (*is)(const char *), char *moved, int len)
{
	int n = 0;
	uint64_t s;

	if (moved && len)
		moved[0] = '\0';
	s = sum_ctr(&t->local_ctr, is, "here", moved, len, &n);
	s += sum_ctr(&t->peer_ctr, is, "on the peer", moved, len, &n);
	return s;
}

uint64_t triage_traffic_sum(const struct tri_traffic *t, bool pause, char *moved, int len)
{
	return both_ends(t, pause ? triage_counter_is_pause : triage_counter_is_retrans, moved, len);
}

uint64_t triage_traffic_gaps(const struct tri_traffic *t)
{
	return both_ends(t, triage_counter_is_gap, NULL, 0);
}
