// SPDX-License-Identifier: MIT
/* The seven-step triage: the step table, the helpers every step's rule
 * builds its result with, and the conclusion over all steps. The rules
 * themselves live by family (see triage.h). Pure: no I/O. */
#include "config.h"
#include "diag/triage.h"
#include "diag/triage_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diag/fingerprint.h"

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

/* ---- all of it ---- */

void triage_step(const struct tri_evidence *ev, enum tri_step s, struct tri_result *out)
{
	memset(out, 0, sizeof(*out));
	switch (s) {
	case TRI_ENV: tri_step_env(ev, out); break;
	case TRI_RATE: tri_step_rate(ev, out); break;
	case TRI_PCIE: tri_step_pcie(ev, out); break;
	case TRI_GID: tri_step_gid(ev, out); break;
	case TRI_MTU: tri_step_mtu(ev, out); break;
	case TRI_LOSSLESS: tri_step_lossless(ev, out); break;
	case TRI_NUMA: tri_step_numa(ev, out); break;
	case TRI_QPS: tri_step_qps(ev, out); break;
	default: break;
	}
}

static void conclude(struct triage *t, enum tri_step s, const char *extra)
{
	struct tri_conclusion *c = &t->c;
	const struct tri_result *r = &t->r[s];

	c->step = s;
	c->state = r->state;
	if (s == TRI_ENV)
		tri_fmt(c->text, sizeof(c->text), "environment: %s", r->reason);
	else
		tri_fmt(c->text, sizeof(c->text), "%s (step %d): %s",
			r->state == TRI_FAIL ? tri_steps[s].cause : tri_steps[s].title, (int)s, r->reason);
	snprintf(c->action, sizeof(c->action), "%s", r->hint[0] ? r->hint : tri_steps[s].hint);
	snprintf(c->lines[c->nlines++], TRI_LINE, "%s", r->reason);
	if (extra && *extra)
		snprintf(c->lines[c->nlines++], TRI_LINE, "%s", extra);
	for (int i = 0; i < r->nlines && c->nlines < 4; i++)
		if (strstr(r->lines[i], "under triage") == NULL)
			snprintf(c->lines[c->nlines++], TRI_LINE, "%s", r->lines[i]);
}

void triage_eval(const struct tri_evidence *ev, struct triage *t)
{
	memset(t, 0, sizeof(*t));
	for (int s = 0; s < TRI_NSTEPS; s++) {
		triage_step(ev, (enum tri_step)s, &t->r[s]);
		if (t->r[s].state == TRI_FAIL)
			t->any_fail = true;
	}
	fingerprint_match(ev, t->r, &t->fp);

	if (t->r[TRI_ENV].state == TRI_FAIL) {
		conclude(t, TRI_ENV, NULL);
		return;
	}
	if (t->fp.id != FP_NONE) {
		/* in the procedure's order: a failed earlier step explains the
		 * collapse under load (an MTU mismatch also breaks the load
		 * run); the PCIe and link-rate fingerprints are those steps' */
		enum tri_step s = t->fp.step;

		for (int e = TRI_RATE; t->fp.id == FP_LOSSLESS && e < (int)t->fp.step; e++)
			if (t->r[e].state == TRI_FAIL) {
				s = (enum tri_step)e;
				break;
			}
		conclude(t, s, s == t->fp.step ? t->fp.text : NULL);
		return;
	}
	for (int want = TRI_FAIL; want >= TRI_WARN; want--)
		for (int s = TRI_RATE; s < TRI_NSTEPS; s++)
			if ((int)t->r[s].state == want) {
				conclude(t, (enum tri_step)s, NULL);
				return;
			}
	if (t->r[TRI_QPS].state == TRI_INFO) {
		conclude(t, TRI_QPS, NULL);
		return;
	}
	if (t->r[TRI_ENV].state == TRI_WARN) {
		conclude(t, TRI_ENV, NULL);
		return;
	}
	t->c.step = TRI_NSTEPS;
	t->c.state = TRI_PASS;
	snprintf(t->c.text, sizeof(t->c.text), "no cause found: every step that could run passed");
	snprintf(t->c.action, sizeof(t->c.action), "%s",
		 ev->peer[0] ? "compare with a saved test record (ibconsole test --compare) and sweep the fabric's error counters (ibconsole errors)" :
		 "re-run with --peer HOST (an agent: ibconsole serve) for the traffic steps");
}
