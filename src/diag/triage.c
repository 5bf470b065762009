// SPDX-License-Identifier: MIT
/* The seven-step triage: one rule per step over the gathered evidence,
 * in the reference procedure's order, then the conclusion. Pure: no I/O. */
#include "config.h"
#include "diag/triage.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/port/pcie.h"
#include "diag/pcielimit.h"
#include "diag/fingerprint.h"

const struct tri_step_def tri_steps[TRI_NSTEPS] = {
	{ TRI_ENV, "environment", "environment",
	  "Can a test run at all?",
	  "port state / physical state / link layer, device-to-netdev mapping, locked-memory limit or CAP_IPC_LOCK; driver and firmware on both ends, CPU governor, irqbalance",
	  "bring the port up (cable, subnet manager), raise the memlock limit (ulimit -l unlimited; containers need IPC_LOCK)",
	  false },
	{ TRI_RATE, "port_rate", "port rate",
	  "Is the port rate right?",
	  "active width x speed against enabled / supported on both ends of the link, the site's expected rate, the peer's rate",
	  "reseat or replace the cable / optic; check LinkWidthEnabled / LinkSpeedEnabled on both ends (ibportstate)",
	  false },
	{ TRI_PCIE, "pcie", "PCIe",
	  "Is PCIe enough?",
	  "the HCA's PCIe link status against its capability (speed, width), usable PCIe bandwidth against the port's data rate",
	  "reseat the card or check the riser; move it to a slot that trains at the needed generation and width",
	  false },
	{ TRI_GID, "gid", "GID",
	  "Is the right GID used (RoCE)?",
	  "the GID table (type, address, netdev), the index the test uses, the peer's index",
	  "use the RoCE v2 entry of the netdev's IPv4 address on both ends (-x N, or leave -x out)",
	  false },
	{ TRI_MTU, "mtu", "MTU",
	  "Do both ends have the same MTU?",
	  "active MTU here and at the other end (IB: NeighborMTU of both ends of the link; RoCE: both hosts through the agent), the netdev MTU",
	  "set the same MTU on both ends (RoCE: the netdev MTU, ip link set DEV mtu N; IB: the subnet manager's partition MTU)",
	  false },
	{ TRI_LOSSLESS, "lossless", "lossless",
	  "Is lossless configuration in effect (RoCE)?",
	  "pause / PFC and ECN / CNP counters, DCB / trust settings where exposed; 1 QP against 8 QPs both ways with retransmission and pause counters watched",
	  "enable PFC on the RoCE traffic's priority (and ECN) on the hosts and the switch ports; check the switch's drop counters",
	  true },
	{ TRI_NUMA, "numa", "NUMA",
	  "Is the test crossing NUMA?",
	  "the HCA's NUMA node and local CPUs, where the test's thread and buffers ran, the peer's node",
	  "bind the test to the HCA's node: numactl --cpunodebind=N --membind=N",
	  false },
	{ TRI_QPS, "more_qps", "more QPs",
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
static void fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
}

static void line(struct tri_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void line(struct tri_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nlines >= TRI_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(r->lines[r->nlines++], TRI_LINE, fmt, ap);
	va_end(ap);
}

/* Raises the state; the first reason at the highest state stays. */
static void judge(struct tri_result *r, enum tri_state s, const char *hint,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void judge(struct tri_result *r, enum tri_state s, const char *hint,
		  const char *fmt, ...)
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

static bool is_roce(const struct tri_evidence *ev)
{
	return !strcmp(ev->local.link_layer, "Ethernet");
}

static const char *human_bytes(uint64_t b, char *buf, size_t len)
{
	if (b >= (1ull << 30))
		snprintf(buf, len, "%.1f GiB", (double)b / (1ull << 30));
	else if (b >= (1ull << 20))
		snprintf(buf, len, "%.1f MiB", (double)b / (1ull << 20));
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
	return buf;
}

/* ---- environment ---- */

static void step_env(const struct tri_evidence *ev, struct tri_result *r)
{
	const char *hint = tri_steps[TRI_ENV].hint;
	const struct tri_memlock *m = &ev->memlock;
	char b1[32], b2[32];

	for (int i = 0; i < ev->nports; i++) {
		const struct tri_portstate *q = &ev->ports[i];
		bool up = q->state == 4 && q->phys_state == 5;

		line(r, "%s/%d %s/%s %s%s%s%s", q->dev, q->port, port_state_name(q->state),
		     port_phys_state_name(q->phys_state),
		     !strcmp(q->link_layer, "Ethernet") ? "Ethernet (RoCE)" :
		     q->link_layer[0] ? q->link_layer : "link layer unknown",
		     q->netdev[0] ? ", netdev " : ", no netdev", q->netdev,
		     q->under_test ? " (under triage)" : "");
		if (up)
			continue;
		if (q->under_test)
			judge(r, TRI_FAIL, "bring the port up: check the cable (Polling), the subnet manager (Init / Armed) or the switch port",
			      "%s/%d is %s/%s, want Active/LinkUp", q->dev, q->port,
			      port_state_name(q->state), port_phys_state_name(q->phys_state));
		else
			judge(r, TRI_WARN, "nothing to do if the port is meant to be unused",
			      "%s/%d is %s/%s (not under triage)", q->dev, q->port,
			      port_state_name(q->state), port_phys_state_name(q->phys_state));
	}
	if (!ev->local_valid) {
		judge(r, TRI_FAIL, "pick a port that 'ibconsole snapshot' lists (-d, -i)", "%s", ev->local_why);
		return;
	}
	if (!ev->local.netdev[0] && is_roce(ev))
		judge(r, TRI_FAIL, "create or bring up the Ethernet interface of the RoCE device (rdma link show)",
		      "no netdev behind %s/%d: RoCE needs one", ev->local.dev, ev->local.port);
	else if (!ev->local.netdev[0])
		line(r, "no IPoIB netdev behind %s/%d (tests do not need one)", ev->local.dev, ev->local.port);

	if (!m->valid)
		judge(r, TRI_WARN, hint, "locked-memory limit not readable: %s", m->why);
	else if (m->unlimited)
		line(r, "memlock unlimited");
	else if (m->cap_ipc_lock)
		line(r, "memlock %s, but CAP_IPC_LOCK is held", human_bytes(m->limit_bytes, b1, sizeof(b1)));
	else if (m->limit_bytes >= m->need_bytes)
		line(r, "memlock %s, the tests lock %s", human_bytes(m->limit_bytes, b1, sizeof(b1)),
		     human_bytes(m->need_bytes, b2, sizeof(b2)));
	else
		judge(r, TRI_FAIL, "raise the limit: ulimit -l unlimited (memlock in /etc/security/limits.conf); containers also need IPC_LOCK",
		      "memlock %s and no CAP_IPC_LOCK: the tests lock %s, memory registration would fail",
		      human_bytes(m->limit_bytes, b1, sizeof(b1)), human_bytes(m->need_bytes, b2, sizeof(b2)));

	/* the extras: reported, and warned about, never a failure */
	if (ev->peer_facts_valid) {
		const struct proto_facts *l = &ev->local_facts, *p = &ev->peer_facts;

		line(r, "driver %s / %s, firmware %s / %s, HCA %s / %s (here / peer)",
		     l->driver[0] ? l->driver : "?", p->driver[0] ? p->driver : "?",
		     l->fw_ver[0] ? l->fw_ver : "?", p->fw_ver[0] ? p->fw_ver : "?",
		     l->ca_type[0] ? l->ca_type : "?", p->ca_type[0] ? p->ca_type : "?");
		if (strcmp(l->driver, p->driver) || strcmp(l->fw_ver, p->fw_ver) || strcmp(l->ca_type, p->ca_type))
			judge(r, TRI_WARN, "run the same HCA model, driver and firmware on both ends",
			      "the ends differ: driver %s / %s, firmware %s / %s", l->driver, p->driver,
			      l->fw_ver, p->fw_ver);
	} else {
		line(r, "driver %s, firmware %s (the peer's: %s)", ev->env.driver[0] ? ev->env.driver : "?",
		     ev->local.fw_ver[0] ? ev->local.fw_ver : "?",
		     ev->peer[0] ? ev->peer_why : "no --peer given");
	}
	if (!ev->env.governor[0])
		line(r, "CPU governor unknown: %s", ev->env.governor_why);
	else if (ev->env.gov_other || strcmp(ev->env.governor, "performance"))
		judge(r, TRI_WARN, "set the CPU governor to performance (cpupower frequency-set -g performance)",
		      "CPU governor %s on %d of %d CPUs, want performance", ev->env.governor,
		      ev->env.gov_other ? ev->env.gov_other : ev->env.gov_cpus, ev->env.gov_cpus);
	else
		line(r, "CPU governor performance on all %d CPUs", ev->env.gov_cpus);
	if (ev->env.irqbalance == 1)
		judge(r, TRI_WARN, "stop irqbalance during tests, or pin the HCA's interrupts to its node",
		      "irqbalance is running: it moves the HCA's interrupts during a test");
	else
		line(r, "irqbalance %s", ev->env.irqbalance == 0 ? "not running" : "state unknown");
	if (r->state <= TRI_PASS) {
		r->state = TRI_PASS;
		fmt(r->reason, TRI_LINE, "%s/%d %s/%s, %s; %s%s%s; memlock %s",
			 ev->local.dev, ev->local.port, port_state_name(ev->local.state),
			 port_phys_state_name(ev->local.phys_state),
			 is_roce(ev) ? "RoCE" : "InfiniBand", ev->local.dev,
			 ev->local.netdev[0] ? " <-> " : " (no netdev)", ev->local.netdev,
			 m->unlimited ? "unlimited" : m->cap_ipc_lock ? "CAP_IPC_LOCK" :
			 human_bytes(m->limit_bytes, b1, sizeof(b1)));
	}
}

bool triage_env_ok(const struct tri_evidence *ev)
{
	struct tri_result r;

	memset(&r, 0, sizeof(r));
	step_env(ev, &r);
	return r.state != TRI_FAIL;
}

/* ---- step 1: port rate ---- */

static void port_line(struct tri_result *r, const char *name, const struct port_info *p)
{
	char we[48], ws[48], se[48], ss[48];

	line(r, "%s: active %s %s (%g Gb/s); enabled %s, %s; supported %s, %s", name,
	     port_width_name(p->width_active), p->speed_name[0] ? p->speed_name : "?", p->rate_gbps,
	     port_width_list(p->width_enabled, we, sizeof(we)), port_speed_list(p, true, se, sizeof(se)),
	     port_width_list(p->width_supported, ws, sizeof(ws)), port_speed_list(p, false, ss, sizeof(ss)));
}

/* Trained vs capable for one link (a, b) or one port (b NULL); writes
 * "trained 1X, supports 4X" style text into out, "" when at capability. */
static void below(const struct port_info *a, const struct port_info *b, char *out, size_t len,
		  bool *enabled_limits)
{
	unsigned cw = port_capable_widths(a->width_supported, a->width_enabled);
	unsigned en = a->width_enabled;
	unsigned cls = a->speed_supported, ext = a->ext_supported, ext2 = a->ext2_supported;
	unsigned ecls = a->speed_enabled, eext = a->ext_enabled, eext2 = a->ext2_enabled;
	bool ev = a->ext_valid, ev2 = a->ext2_valid;
	int act = port_width_lanes(a->width_active), could;
	char cname[8], ename[8];
	double cap_lane, act_lane, en_lane;
	int n = 0;

	if (b) {
		cw &= port_capable_widths(b->width_supported, b->width_enabled);
		en &= b->width_enabled;
		cls &= b->speed_supported;
		ecls &= b->speed_enabled;
		ev = ev && b->ext_valid;
		ev2 = ev2 && b->ext2_valid;
		ext &= b->ext_supported;
		eext &= b->ext_enabled;
		ext2 &= b->ext2_supported;
		eext2 &= b->ext2_enabled;
		if (port_width_lanes(b->width_active) < act)
			act = port_width_lanes(b->width_active);
	}
	could = port_width_lanes(cw);
	*enabled_limits = false;
	out[0] = '\0';
	if (act && could > act) {
		n += snprintf(out + n, len - n, "trained %dX, supports %dX", act, could);
		if (port_width_lanes(en) <= act)
			*enabled_limits = true;
	}
	cap_lane = port_lane_rate(cls, ext, ev, ext2, ev2, cname, sizeof(cname));
	en_lane = port_lane_rate(ecls, eext, ev, eext2, ev2, ename, sizeof(ename));
	act_lane = act && a->rate_gbps ? a->rate_gbps / port_width_lanes(a->width_active) : 0;
	if (act_lane > 0 && cap_lane > act_lane + 1e-9 && (size_t)n < len) {
		snprintf(out + n, len - n, "%srunning %s, supports %s", n ? "; " : "",
			 a->speed_name, cname);
		if (en_lane > 0 && en_lane <= act_lane + 1e-9)
			*enabled_limits = true;
	}
}

static void step_rate(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct port_info *p = &ev->local;
	const char *hint = tri_steps[TRI_RATE].hint;
	char why[TRI_LINE], name[PORT_STR + 16];
	bool enlim = false, judged = false;

	if (!ev->local_valid) {
		judge(r, TRI_NA, NULL, "no port to judge: %s", ev->local_why);
		return;
	}
	if (p->rate_gbps <= 0) {
		judge(r, TRI_NA, NULL, "active width and speed unknown: %s",
		      p->link_v.why[0] ? p->link_v.why : "no source reported them");
		return;
	}
	snprintf(name, sizeof(name), "%s/%d", p->dev, p->port);
	if (ev->link.valid) {
		struct port_info a, b;

		fabric_port_to_info(&ev->link.local, &a);
		fabric_port_to_info(&ev->link.peer, &b);
		port_decode_rate(&a);
		port_decode_rate(&b);
		port_line(r, ev->link.local_name, &a);
		port_line(r, ev->link.peer_name, &b);
		below(&a, &b, why, sizeof(why), &enlim);
		if (why[0])
			judge(r, TRI_FAIL, enlim ?
			      "the enabled widths / speeds allow no more: set LinkWidthEnabled / LinkSpeedEnabled on both ends (ibportstate), then reseat or replace the cable" :
			      hint, "%s <-> %s %s", ev->link.local_name, ev->link.peer_name, why);
		judged = true;
	} else if (p->caps_valid) {
		port_line(r, name, p);
		line(r, "other end of the link: %s", ev->link.why[0] ? ev->link.why : "not read");
		below(p, NULL, why, sizeof(why), &enlim);
		if (why[0])
			judge(r, TRI_FAIL, hint, "%s %s", name, why);
		judged = true;
	} else {
		line(r, "%s: active %s %s (%g Gb/s); enabled / supported unknown: %s", name,
		     port_width_name(p->width_active), p->speed_name, p->rate_gbps,
		     p->link_v.why[0] ? p->link_v.why : "no SMP PortInfo");
	}
	if (ev->expected_rate_gbps > 0) {
		line(r, "the site expects %g Gb/s (%s)", ev->expected_rate_gbps, ev->expected_origin);
		if (p->rate_gbps < ev->expected_rate_gbps * 0.999)
			judge(r, TRI_FAIL, hint, "%s runs %s %s %g Gb/s, the site expects %g Gb/s", name,
			      port_width_name(p->width_active), p->speed_name, p->rate_gbps,
			      ev->expected_rate_gbps);
		judged = true;
	}
	if (ev->peer_facts_valid && ev->peer_facts.rate_mbps) {
		double pr = ev->peer_facts.rate_mbps / 1000.0;

		line(r, "peer %s %s: %g Gb/s", ev->peer_facts.host, ev->peer_facts.device, pr);
		if (pr < p->rate_gbps * 0.999)
			judge(r, TRI_WARN, "the slower end limits the test: run step 1 on the peer",
			      "the peer's port runs %g Gb/s, this one %g Gb/s", pr, p->rate_gbps);
	}
	if (r->state == TRI_NA && !r->reason[0]) {
		if (judged)
			judge(r, TRI_PASS, NULL, "%s %s %g Gb/s, %s", port_width_name(p->width_active),
			      p->speed_name, p->rate_gbps,
			      ev->link.valid ? "what both ends of the link support" :
			      ev->expected_rate_gbps > 0 ? "the site's expected rate" : "what the port supports");
		else
			judge(r, TRI_INFO, NULL, "%s %s %g Gb/s; enabled / supported not readable here",
			      port_width_name(p->width_active), p->speed_name, p->rate_gbps);
	}
}

/* ---- step 2: PCIe ---- */

static void step_pcie(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct port_info *p = &ev->local;
	const struct pcie_info *pc = &p->pcie;
	/* the ports sharing the PCI function when the snapshot was judged,
	 * else this port's data rate */
	double need = p->pcie_need_gbps > 0 ? p->pcie_need_gbps : triage_data_rate_gbps(p);
	/* after encoding and TLP overhead when the snapshot read MaxPayload */
	double usable = pc->usable_gbps > 0 ? pc->usable_gbps : pc->cur_gbps;
	char now[48], cap[48];

	if (!ev->local_valid) {
		judge(r, TRI_NA, NULL, "no port to judge: %s", ev->local_why);
		return;
	}
	if (!pc->v.valid) {
		judge(r, TRI_NA, NULL, "%s", pc->v.why[0] ? pc->v.why : "no PCIe link status");
		return;
	}
	snprintf(now, sizeof(now), "Gen%d x%d", pcie_gen(pc->cur_gts), pc->cur_width);
	snprintf(cap, sizeof(cap), "Gen%d x%d", pcie_gen(pc->max_gts), pc->max_width);
	line(r, "%s LnkSta %g GT/s x%d (%s), LnkCap %g GT/s x%d (%s)", pc->address, pc->cur_gts,
	     pc->cur_width, now, pc->max_gts, pc->max_width, cap);
	line(r, "usable per direction after encoding: %.0f Gb/s now, %.0f Gb/s at capability",
	     pc->cur_gbps, pc->max_gbps);
	if (pc->usable_gbps > 0)
		line(r, "after TLP overhead (MaxPayload %d B, %s): %.1f Gb/s", pc->mps,
		     pc->mps_source, pc->usable_gbps);
	if (need <= 0) {
		judge(r, TRI_INFO, NULL, "%s (cap %s): %.0f Gb/s; the port's rate is unknown", now, cap,
		      usable);
		return;
	}
	line(r, "port data rate %.0f Gb/s (%s %s, %g Gb/s signalling)%s", need,
	     port_width_name(p->width_active), p->speed_name, p->rate_gbps,
	     p->pcie_ports > 1 ? ", with the other active ports of this PCI function" : "");
	if (pcielimit_short(usable, need))
		judge(r, TRI_FAIL, pc->degraded ?
		      "the slot trained below its capability: reseat the card, check the riser and the slot (lspci -vv: LnkSta)" :
		      "the slot cannot carry the link even at its best: move the card to a slot of the generation and width the link needs",
		      "%s (cap %s): %.0f of %.0f Gb/s, short %.0f Gb/s", now, cap, usable, need,
		      need - usable);
	else if (pc->degraded)
		judge(r, TRI_WARN, "reseat the card when convenient: the slot trained below its capability",
		      "%s (cap %s) still carries %.0f Gb/s: %.0f Gb/s usable", now, cap, need, usable);
	else
		judge(r, TRI_PASS, NULL, "%s: %.0f Gb/s usable for %.0f Gb/s", now, usable, need);
}

/* ---- step 3: GID ---- */

static const struct port_gid *gid_at(const struct port_info *p, int index)
{
	for (int i = 0; i < p->ngids; i++)
		if (p->gids[i].index == index)
			return &p->gids[i];
	return NULL;
}

static const char *gid_kind(const struct port_gid *g)
{
	if (strstr(g->type, "v1"))
		return "RoCE v1";
	if (!strncmp(g->gid, "fe80", 4))
		return "RoCE v2, IPv6 link-local";
	if (g->ipv4[0])
		return "RoCE v2, IPv4";
	return g->type[0] ? "RoCE v2, IPv6" : "type unknown";
}

static void step_gid(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct port_info *p = &ev->local;
	int right = p->roce_v2_ipv4_index, used;
	const struct port_gid *g;

	if (!ev->local_valid) {
		judge(r, TRI_NA, NULL, "no port to judge: %s", ev->local_why);
		return;
	}
	if (!is_roce(ev)) {
		judge(r, TRI_NA, NULL, "InfiniBand: LID-routed, there is no GID to choose");
		return;
	}
	for (int i = 0; i < p->ngids && r->nlines < TRI_LINES - 3; i++)
		line(r, "index %d %s %s%s%s %s", p->gids[i].index, p->gids[i].gid,
		     p->gids[i].type[0] ? p->gids[i].type : "?",
		     p->gids[i].ipv4[0] ? " " : "", p->gids[i].ipv4, p->gids[i].netdev);
	used = ev->gid_given >= 0 ? ev->gid_given : right;
	line(r, "the test uses index %d (%s)", used, ev->gid_given >= 0 ? "given with -x" : "automatic");
	if (right < 0) {
		judge(r, TRI_FAIL, "add an IPv4 address to the netdev (ip addr add) and re-run",
		      "no RoCE v2 entry with an IPv4 address of %s", p->netdev[0] ? p->netdev : "the netdev");
	} else if (used != right) {
		g = gid_at(p, used);
		const struct port_gid *rg = gid_at(p, right);
		char fix[TRI_LINE];

		snprintf(fix, sizeof(fix), "give -x %d (or leave -x out: the RoCE v2 IPv4 entry is chosen) on both ends", right);
		if (!g)
			judge(r, TRI_FAIL, fix, "-x %d: no such GID index on %s; the right index is %d (RoCE v2, %s)",
			      used, p->dev, right, rg ? rg->ipv4 : "?");
		else
			judge(r, TRI_FAIL, fix, "-x %d is %s; the right index is %d (RoCE v2, %s)", used,
			      gid_kind(g), right, rg ? rg->ipv4 : "?");
	} else {
		g = gid_at(p, right);
		judge(r, TRI_PASS, NULL, "index %d, RoCE v2, %s%s", right, g ? g->ipv4 : "?",
		      ev->peer_facts_valid ? "" : " (the peer's index needs --peer)");
	}
	if (ev->peer_facts_valid) {
		line(r, "peer %s %s: %s, GID index %d", ev->peer_facts.host, ev->peer_facts.device,
		     ev->peer_facts.link_layer, ev->peer_facts.gid_index);
		if (strcmp(ev->peer_facts.link_layer, "Ethernet"))
			judge(r, TRI_FAIL, "test between two RoCE ports", "the peer's port is %s, this one RoCE",
			      ev->peer_facts.link_layer);
		else if (ev->peer_facts.gid_index < 0)
			judge(r, TRI_WARN, "start the agent with -x N of its RoCE v2 IPv4 entry",
			      "the peer reports no GID index");
	}
}

/* ---- step 4: MTU ---- */

static void step_mtu(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct port_info *p = &ev->local;
	const char *hint = tri_steps[TRI_MTU].hint;
	char nd[64] = "";
	bool compared = false;

	if (!ev->local_valid) {
		judge(r, TRI_NA, NULL, "no port to judge: %s", ev->local_why);
		return;
	}
	if (!p->mtu_v.valid) {
		judge(r, TRI_NA, NULL, "active MTU unknown: %s", p->mtu_v.why);
		return;
	}
	if (p->netdev[0] && p->netdev_mtu)
		snprintf(nd, sizeof(nd), " (netdev %s MTU %d)", p->netdev, p->netdev_mtu);
	line(r, "%s/%d active MTU %d, max %d (%s)%s", p->dev, p->port, p->mtu_active, p->mtu_max,
	     p->mtu_source, nd);
	if (!is_roce(ev) && ev->link.valid) {
		const struct fab_port *a = &ev->link.local, *b = &ev->link.peer;

		line(r, "%s NeighborMTU %d (MtuCap %d), %s NeighborMTU %d (MtuCap %d)",
		     ev->link.local_name, a->mtu_active, a->mtu_cap, ev->link.peer_name,
		     b->mtu_active, b->mtu_cap);
		if (a->mtu_active && b->mtu_active && a->mtu_active != b->mtu_active)
			judge(r, TRI_FAIL, hint, "NeighborMTU %d at %s vs %d at %s", a->mtu_active,
			      ev->link.local_name, b->mtu_active, ev->link.peer_name);
		compared = true;
	}
	if (ev->peer_facts_valid && ev->peer_facts.mtu) {
		line(r, "peer %s %s active MTU %u", ev->peer_facts.host, ev->peer_facts.device,
		     ev->peer_facts.mtu);
		if ((uint32_t)p->mtu_active != ev->peer_facts.mtu)
			judge(r, TRI_FAIL, hint, "active MTU %d here vs %u on the peer %s%s", p->mtu_active,
			      ev->peer_facts.mtu, ev->peer_facts.host, nd);
		compared = true;
	}
	if (!compared)
		judge(r, TRI_NA, NULL, "%d here%s; the other end needs %s", p->mtu_active, nd,
		      is_roce(ev) ? "--peer (its agent reports its MTU)" : "a one-hop discovery or --peer");
	else
		judge(r, TRI_PASS, NULL, "%d / %d%s", p->mtu_active,
		      ev->peer_facts_valid && ev->peer_facts.mtu ? (int)ev->peer_facts.mtu :
		      ev->link.peer.mtu_active, nd);
}

/* ---- step 5: lossless ---- */

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

static uint64_t sum_ctr(const struct testctr *t, bool pause, const char *where,
			char *moved, int len, int *n)
{
	uint64_t s = 0;

	for (uint32_t i = 0; i < t->n; i++) {
		bool hit = pause ? triage_counter_is_pause(t->c[i].name) :
				   triage_counter_is_retrans(t->c[i].name);

		if (!hit || !t->c[i].delta)
			continue;
		s += t->c[i].delta;
		if (moved && *n < len)
			*n += snprintf(moved + *n, len - *n, "%s%s +%llu %s", *n ? ", " : "",
				       t->c[i].name, (unsigned long long)t->c[i].delta, where);
	}
	return s;
}

uint64_t triage_traffic_sum(const struct tri_traffic *t, bool pause, char *moved, int len)
{
	int n = 0;
	uint64_t s;

	if (moved && len)
		moved[0] = '\0';
	s = sum_ctr(&t->local_ctr, pause, "here", moved, len, &n);
	s += sum_ctr(&t->peer_ctr, pause, "on the peer", moved, len, &n);
	return s;
}

/* "Good idle, collapses under load": the load run's total falls below
 * half of what one QP alone carried. */
#define TRI_COLLAPSE 0.5

static void step_lossless(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct tri_traffic *one = &ev->bw1, *load = &ev->load;
	char m1[TRI_LINE], ml[TRI_LINE];
	uint64_t re1, pa1, rel, pal;

	if (!ev->local_valid) {
		judge(r, TRI_NA, NULL, "no port to judge: %s", ev->local_why);
		return;
	}
	if (!is_roce(ev)) {
		judge(r, TRI_NA, NULL, "InfiniBand: credit-based link-level flow control, lossless by design");
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
			line(r, "pause / ECN / CNP counters: %s", buf);
		else
			line(r, "no pause / ECN / CNP counters exposed by %s", ev->local.dev);
	}
	line(r, "DCB / trust: %s", ev->dcb[0] ? ev->dcb : ev->dcb_why[0] ? ev->dcb_why : "not exposed");
	if (!one->ok || !load->ok) {
		const struct tri_traffic *bad = !one->ok ? one : load;

		if (bad->ran)
			judge(r, TRI_WARN, "check the agent on the peer and re-run this step",
			      "the load test did not complete: %s", bad->err);
		else
			judge(r, TRI_NA, NULL, "the load test %s", bad->err[0] ? bad->err : "needs --peer");
		return;
	}
	re1 = triage_traffic_sum(one, false, m1, sizeof(m1));
	pa1 = triage_traffic_sum(one, true, NULL, 0);
	rel = triage_traffic_sum(load, false, ml, sizeof(ml));
	pal = triage_traffic_sum(load, true, NULL, 0);
	line(r, "1 QP: %.4g Gb/s; retransmissions +%llu, pause / CNP +%llu%s%s", one->gbps,
	     (unsigned long long)re1, (unsigned long long)pa1, m1[0] ? ": " : "", m1);
	line(r, "%u QPs both ways: %.4g Gb/s; retransmissions +%llu, pause / CNP +%llu%s%s",
	     load->qps, load->gbps, (unsigned long long)rel, (unsigned long long)pal,
	     ml[0] ? ": " : "", ml);
	if (load->gbps < one->gbps * TRI_COLLAPSE && (rel || pal))
		judge(r, TRI_FAIL, tri_steps[TRI_LOSSLESS].hint,
		      "fine idle (1 QP %.3g Gb/s), collapses under load (%.3g Gb/s, %u QPs both ways) with %s +%llu",
		      one->gbps, load->gbps, load->qps, rel ? "retransmissions" : "pauses",
		      (unsigned long long)(rel ? rel : pal));
	else if (load->gbps < one->gbps * TRI_COLLAPSE)
		judge(r, TRI_WARN, "watch the switch's drop counters during a load test",
		      "collapses under load (%.3g of %.3g Gb/s) with no retransmission or pause counted",
		      load->gbps, one->gbps);
	else if (rel)
		judge(r, TRI_WARN, tri_steps[TRI_LOSSLESS].hint,
		      "retransmissions under load (+%llu) though the bandwidth held", (unsigned long long)rel);
	else
		judge(r, TRI_PASS, NULL, "pause / CNP +%llu; 1 QP %.3g Gb/s, %u QPs both ways %.3g Gb/s",
		      (unsigned long long)pal, one->gbps, load->qps, load->gbps);
}

/* ---- step 6: NUMA ---- */

static void step_numa(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct numa_info *n = &ev->local.numa;
	const char *hint = tri_steps[TRI_NUMA].hint;

	if (!ev->local_valid) {
		judge(r, TRI_NA, NULL, "no port to judge: %s", ev->local_why);
		return;
	}
	if (!n->v.valid) {
		judge(r, TRI_NA, NULL, "%s", n->v.why);
		return;
	}
	line(r, "HCA %s on node %d, its CPUs %s", ev->local.dev, n->node,
	     n->local_cpus[0] ? n->local_cpus : "?");
	line(r, "this process may run on: %s of the HCA's node", n->relation);
	if (ev->peer_facts_valid)
		line(r, "peer %s: HCA on node %d", ev->peer_facts.host, ev->peer_facts.numa_node);
	if (ev->bw1.ok) {
		line(r, "the test: %s", ev->bw1.numa_note);
		if (!ev->bw1.numa_placed)
			judge(r, TRI_WARN, hint, "the test ran off the HCA's node %d: %s", n->node,
			      ev->bw1.numa_note);
		else
			judge(r, TRI_PASS, NULL, "HCA node %d, the test ran on node %d", n->node, n->node);
		return;
	}
	if (!strcmp(n->relation, "remote"))
		judge(r, TRI_WARN, hint, "HCA on node %d, this process may only run on other nodes' CPUs (%s)",
		      n->node, n->local_cpus);
	else if (!strcmp(n->relation, "unknown"))
		judge(r, TRI_INFO, NULL, "HCA on node %d; where the test would run is unknown", n->node);
	else
		judge(r, TRI_PASS, NULL, "HCA node %d; the test runs on its CPUs (%s)", n->node, n->relation);
}

/* ---- step 7: more QPs ---- */

#define TRI_QP_GAIN 1.3

static void step_qps(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct tri_traffic *one = &ev->bw1, *eight = &ev->bw8;
	double ratio;

	if (!one->ok || !eight->ok) {
		const struct tri_traffic *bad = !one->ok ? one : eight;

		if (bad->ran)
			judge(r, TRI_WARN, "check the agent on the peer and re-run this step",
			      "the bandwidth test did not complete: %s", bad->err);
		else
			judge(r, TRI_NA, NULL, "the 1 / 8 QP comparison %s", bad->err[0] ? bad->err : "needs --peer");
		return;
	}
	ratio = one->gbps > 0 ? eight->gbps / one->gbps : 0;
	line(r, "1 QP %.4g Gb/s, %u QPs %.4g Gb/s (%+.0f %%)", one->gbps, eight->qps, eight->gbps,
	     (ratio - 1) * 100);
	if (ratio >= TRI_QP_GAIN)
		judge(r, TRI_INFO, tri_steps[TRI_QPS].hint,
		      "%u QPs carry %.1fx one QP: a single-QP limit, not a link problem", eight->qps, ratio);
	else
		judge(r, TRI_PASS, NULL, "1 QP %.3g, %u QPs %.3g Gb/s (%+.0f %%): the limit is not per QP",
		      one->gbps, eight->qps, eight->gbps, (ratio - 1) * 100);
}

/* ---- all of it ---- */

void triage_step(const struct tri_evidence *ev, enum tri_step s, struct tri_result *out)
{
	memset(out, 0, sizeof(*out));
	switch (s) {
	case TRI_ENV: step_env(ev, out); break;
	case TRI_RATE: step_rate(ev, out); break;
	case TRI_PCIE: step_pcie(ev, out); break;
	case TRI_GID: step_gid(ev, out); break;
	case TRI_MTU: step_mtu(ev, out); break;
	case TRI_LOSSLESS: step_lossless(ev, out); break;
	case TRI_NUMA: step_numa(ev, out); break;
	case TRI_QPS: step_qps(ev, out); break;
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
		fmt(c->text, sizeof(c->text), "environment: %s", r->reason);
	else
		fmt(c->text, sizeof(c->text), "%s (step %d): %s", tri_steps[s].title, (int)s, r->reason);
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
		conclude(t, t->fp.step, t->fp.text);
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
