// SPDX-License-Identifier: MIT
/* Triage steps 1 and 2, the capacity of the path: the port rate (active
 * width x speed against enabled / supported on both ends of the link and
 * the site's expected rate) and PCIe (LnkSta against LnkCap, usable PCIe
 * bandwidth against the port's data rate). */
#include "config.h"
#include "diag/triage_steps.h"
#include "diag/triage_lines.h"

#include <stdio.h>
#include <string.h>

#include "core/port/pcie.h"
#include "core/counters/delta.h"
#include "diag/ctrclass.h"
#include "diag/pcielimit.h"
#include "diag/rules.h"
#include "diag/thresholds.h"
#include "diag/portfacts.h"
#include "diag/ber.h"

/* ---- step 1: port rate ---- */

static void port_line(struct tri_result *r, const char *name, const struct port_info *p)
{
	char we[48], ws[48], se[48], ss[48];

	tri_line(r, "%s: active %s %s (%g Gb/s); enabled %s, %s; supported %s, %s", name,
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

static void rate_only(const struct tri_evidence *ev, struct tri_result *r);

/* One end's error-counter increments over the triage's window, judged by
 * the counter rules (per 10 minutes, the reference's levels): an evidence
 * line, and at act a fail with the advice of the counter's class. */
static void errors_end(struct tri_result *r, const char *end, const struct counter_set *a,
		       const struct counter_set *b, double span_s, const struct thresholds *th)
{
	struct verdict v;
	char moved[TRI_LINE] = "";
	size_t k = 0;

	rules_eval_interval(a, b, th, span_s, &v);
	for (int i = 0; i < b->n && k < sizeof(moved) - 1; i++) {
		const struct ctr_value *c = &b->c[i], *p = counters_find_near(a, c->name, i);
		uint64_t d = 0;
		bool lb = false;

		if (c->cls != CTR_ERROR || !c->valid || !p || !p->valid)
			continue;
		delta_pair(p->value, c->value, c->bits, c->saturates, &d, &lb);
		if (d) {
			int w = snprintf(moved + k, sizeof(moved) - k, "%s%s +%llu", k ? "," : "",
					 c->name, (unsigned long long)d);

			k = w < 0 ? sizeof(moved) : k + (size_t)w;
		}
	}
	tri_line(r, "%s error counters in the last %.0f s: %s — %s: %s", end, span_s,
		 moved[0] ? moved : "no change", verdict_name(v.level), v.text);
	if (v.level == VERDICT_ACT)
		tri_judge(r, TRI_FAIL, ctr_fault_advice(v.cls_counter), "%s: %s", end, v.text);
	else if (v.level == VERDICT_WATCH)
		tri_judge(r, TRI_WARN, "keep an eye on the link's error counters; compare with the baseline",
			  "%s: %s", end, v.text);
}

/* One end's effective bit error rate over the window: SymbolErrorCounter's
 * increment over the link's lanes x lane signalling rate x seconds (both
 * ends share the cable). An evidence line; the rate, or -1 unknown. */
static double ber_end(struct tri_result *r, const char *end, const struct counter_set *a,
		      const struct counter_set *b, double span_s, const struct port_info *p)
{
	const struct ctr_value *c = counters_find(b, "SymbolErrorCounter");
	const struct ctr_value *q = counters_find(a, "SymbolErrorCounter");
	uint64_t d = 0;
	bool lb = false;
	char text[64];
	struct ber x;

	if (!c || !q || !c->valid || !q->valid) {
		tri_line(r, "%s bit error rate: n/a (SymbolErrorCounter not read)", end);
		return -1;
	}
	delta_pair(q->value, c->value, c->bits, c->saturates, &d, &lb);
	ber_compute(&x, d, port_width_lanes(p->width_active), p->lane_gbps, span_s);
	if (!x.valid) {
		tri_line(r, "%s bit error rate: n/a (the link's width or lane rate is not known)", end);
		return -1;
	}
	ber_text(&x, text, sizeof(text));
	tri_line(r, "%s bit error rate: %s (%s%llu symbol errors over %.3g bits)", end, text,
		 lb ? "at least " : "", (unsigned long long)d, x.bits);
	return x.bound ? 0 : x.rate;
}

/* This end's optic: its lane nearest its low receive alarm, or why it
 * cannot be read. Returns the judged bits of the module. */
#define OPTIC_LANE 120
static unsigned optic_end(struct tri_result *r, const struct port_info *p, char lane[OPTIC_LANE])
{
	const struct optics_module *m = &p->module.m;
	int worst = -1;
	char text[64];

	lane[0] = '\0';
	if (!p->module_asked)
		return 0;
	if (!p->module.readable) {
		tri_line(r, "this end's optic: n/a (%s)", p->module.why);
		return 0;
	}
	for (int i = 0; i < m->nlanes; i++)
		if (m->lane[i].margin_valid && m->lane[i].margin_low &&
		    (worst < 0 || m->lane[i].margin_db < m->lane[worst].margin_db))
			worst = i;
	if (worst < 0) {
		tri_line(r, "this end's optic: %s %s %s, no receive-power margin readable", m->type,
			 m->vendor, m->part);
		return m->judged;
	}
	optics_margin_text(&m->lane[worst], text, sizeof(text));
	snprintf(lane, OPTIC_LANE, "lane %d receives %.1f dBm, %s", worst + 1, m->lane[worst].rx.value,
		 text);
	tri_line(r, "this end's optic: %s %s %s, %s", m->type, m->vendor, m->part, lane);
	return m->judged;
}

/* The physical-layer advice: when the counters already judged the step,
 * their reason stays and the advice names the end to start at. */
static void cable_advice(struct tri_result *r, enum tri_state s, const char *hint, const char *why)
{
	if (r->reason[0] && r->state >= s) {
		size_t n = strnlen(hint, TRI_LINE - 1);

		memcpy(r->hint, hint, n);
		r->hint[n] = '\0';
	} else {
		tri_judge(r, s, hint, "%s", why);
	}
}

/* The reference checks the error rate first: both ends' counters, their
 * bit error rates and this end's optic; the cable / optic advice names
 * the end to start at. */
static void errors_step(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct tri_errors *e = &ev->errors;
	const char *peer = e->peer_label[0] ? e->peer_label : "the other end";
	double here = -1, there = -1;
	struct thresholds th;
	char lane[OPTIC_LANE], hint[TRI_LINE + 200], why[80];
	unsigned optic;

	thresholds_defaults(&th);
	if (ev->ber_watch > 0)
		th.ber_watch = ev->ber_watch;
	if (ev->ber_act > 0)
		th.ber_act = ev->ber_act;
	optic = optic_end(r, &ev->local, lane);
	if (!e->local_valid) {
		tri_line(r, "error counters: not sampled (%s)", e->why[0] ? e->why : "no reader");
		return;
	}
	/* the rates first: the counters' lines close the evidence */
	here = ber_end(r, "this end", &e->local_prev, &e->local_cur, e->span_s, &ev->local);
	if (e->peer_valid)
		there = ber_end(r, peer, &e->peer_prev, &e->peer_cur, e->span_s, &ev->local);
	errors_end(r, "this end", &e->local_prev, &e->local_cur, e->span_s, &th);
	if (e->peer_valid)
		errors_end(r, peer, &e->peer_prev, &e->peer_cur, e->span_s, &th);
	else
		tri_line(r, "the other end's error counters: n/a (%s)", e->peer_why);
	/* A port counts the symbol errors it receives: the suspect is the
	 * cable into it and the transmitter at its other end, or its own
	 * optic when that reads near its low receive alarm. */
	if (optic & (OPTICS_NEAR_LOW_RX | OPTICS_DARK | OPTICS_ALARM)) {
		snprintf(hint, sizeof(hint), "clean both connectors of this end's optic, then replace it "
			 "if it still reads low (%s)", lane);
		cable_advice(r, here > th.ber_watch ? TRI_FAIL : TRI_WARN, hint,
			     "this end's optic is close to or past its own alarm");
	} else if (here > th.ber_watch || there > th.ber_watch) {
		bool near_end = here >= there;

		snprintf(hint, sizeof(hint), "start with the optic / cable into %s, which receives the "
			 "errors: clean the fibre and the optic at %s (its transmitter), then replace the "
			 "cable, then the optics", near_end ? "this end" : peer, near_end ? peer : "this end");
		snprintf(why, sizeof(why), "%s bit error rate is above %g (ber_watch)",
			 near_end ? "this end's" : "the other end's", th.ber_watch);
		cable_advice(r, (near_end ? here : there) > th.ber_act ? TRI_FAIL : TRI_WARN, hint,
			     why);
	}
}

/* The path against what it is known to carry: a port Active at full
 * rate whose write test gives half (the switch port or cable between; the
 * degraded-link fingerprint, "measured about 50 %"), which the trained
 * width and speed alone do not show. No source gives the fraction that
 * is "too slow": acceptance passes a card at 90 % of line rate and about
 * half is the fingerprint; the default lies between them,
 * triage.path_rate_min in the config file. */
#define TRI_PATH_RATE_MIN 0.75
#define PATH_HINT "the port trained at full rate but the path carries less: move both ends to other switch ports, then swap the cable, and read the switch ports' counters (a shaper or a degraded link between)"

static void path_rate(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct tri_traffic *one = &ev->bw1, *eight = &ev->bw8;
	const struct tri_traffic *best = eight->ok && (!one->ok || eight->gbps >= one->gbps) ? eight : one;
	double min = ev->path_rate_min > 0 ? ev->path_rate_min : TRI_PATH_RATE_MIN, ratio;
	uint64_t lost;

	if (ev->line_gbps <= 0 || !best->ok)
		return;
	ratio = best->gbps / ev->line_gbps;
	tri_line(r, "the path: %.4g Gb/s measured (%u QP%s), %.0f %% of the %.4g Gb/s it carries (%s)",
		 best->gbps, best->qps, best->qps == 1 ? "" : "s", ratio * 100, ev->line_gbps,
		 ev->line_origin[0] ? ev->line_origin : "given");
	if (ratio >= min || r->state >= TRI_WARN)
		return;	/* fast enough, or the port's own finding explains it */
	/* a sequence gap is a packet lost; retries alone (a deep queue
	 * delaying the acks past the QP's time-out) are not */
	lost = triage_traffic_gaps(one) + triage_traffic_gaps(eight);
	if (lost) {
		tri_line(r, "the path is slow with sequence gaps +%llu: loss, which step 5 judges",
			 (unsigned long long)lost);
		return;
	}
	tri_judge(r, TRI_FAIL, PATH_HINT,
		  "the port trained at %s %s, the path carries %.0f %% of its %.3g Gb/s (below %.0f %%, triage.path_rate_min), with no sequence gap",
		  port_width_name(ev->local.width_active), ev->local.speed_name, ratio * 100,
		  ev->line_gbps, min * 100);
}

void tri_step_rate(const struct tri_evidence *ev, struct tri_result *r)
{
	rate_only(ev, r);
	if (ev->local_valid) {
		errors_step(ev, r);
		path_rate(ev, r);
	}
}

static void rate_only(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct port_info *p = &ev->local;
	const char *hint = tri_steps[TRI_RATE].hint;
	char why[TRI_LINE], name[PORT_STR + 16];
	bool enlim = false, judged = false;

	if (tri_no_port(ev, r))
		return;
	if (p->rate_gbps <= 0) {
		tri_judge(r, TRI_NA, NULL, "active width and speed unknown: %s",
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
			tri_judge(r, TRI_FAIL, enlim ?
			      "the enabled widths / speeds allow no more: set LinkWidthEnabled / LinkSpeedEnabled on both ends (ibportstate), then reseat or replace the cable" :
			      hint, "%s <-> %s %s", ev->link.local_name, ev->link.peer_name, why);
		judged = true;
	} else if (p->caps_valid) {
		port_line(r, name, p);
		tri_line(r, "other end of the link: %s", ev->link.why[0] ? ev->link.why : "not read");
		below(p, NULL, why, sizeof(why), &enlim);
		if (why[0])
			tri_judge(r, TRI_FAIL, hint, "%s %s", name, why);
		judged = true;
	} else {
		tri_line(r, "%s: active %s %s (%g Gb/s); enabled / supported unknown: %s", name,
		     port_width_name(p->width_active), p->speed_name, p->rate_gbps,
		     p->link_v.why[0] ? p->link_v.why : "no SMP PortInfo");
	}
	if (ev->expected_rate_gbps > 0) {
		tri_line(r, "the site expects %g Gb/s (%s)", ev->expected_rate_gbps, ev->expected_origin);
		if (p->rate_gbps < ev->expected_rate_gbps * 0.999)
			tri_judge(r, TRI_FAIL, hint, "%s runs %s %s %g Gb/s, the site expects %g Gb/s", name,
			      port_width_name(p->width_active), p->speed_name, p->rate_gbps,
			      ev->expected_rate_gbps);
		judged = true;
	}
	if (ev->peer_facts_valid && ev->peer_facts.rate_mbps) {
		/* the agent reports the data rate after encoding: compare like
		 * with like */
		double pr = ev->peer_facts.rate_mbps / 1000.0, here = triage_data_rate_gbps(p);

		tri_line(r, "peer %s %s: data rate %g Gb/s, this port's %g Gb/s", ev->peer_facts.host,
			 ev->peer_facts.device, pr, here);
		if (pr < here * 0.999)
			tri_judge(r, TRI_WARN, "the slower end limits the test: run step 1 on the peer",
				  "the peer's port carries %g Gb/s of data, this one %g Gb/s", pr, here);
	}
	if (r->state == TRI_NA && !r->reason[0]) {
		if (judged)
			tri_judge(r, TRI_PASS, NULL, "%s %s %g Gb/s, %s", port_width_name(p->width_active),
			      p->speed_name, p->rate_gbps,
			      ev->link.valid ? "what both ends of the link support" :
			      ev->expected_rate_gbps > 0 ? "the site's expected rate" : "what the port supports");
		else
			tri_judge(r, TRI_INFO, NULL, "%s %s %g Gb/s; enabled / supported not readable here",
			      port_width_name(p->width_active), p->speed_name, p->rate_gbps);
	}
}

/* ---- step 2: PCIe ---- */

void tri_step_pcie(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct port_info *p = &ev->local;
	const struct pcie_info *pc = &p->pcie;
	/* the ports sharing the PCI function when the snapshot was judged,
	 * else this port's data rate */
	double need = p->pcie_need_gbps > 0 ? p->pcie_need_gbps : triage_data_rate_gbps(p);
	/* after encoding and TLP overhead when the snapshot read MaxPayload */
	double usable = portfacts_pcie_usable(pc);
	char now[48], cap[48];

	if (tri_no_port(ev, r))
		return;
	if (!pc->v.valid) {
		tri_judge(r, TRI_NA, NULL, "%s", pc->v.why[0] ? pc->v.why : "no PCIe link status");
		return;
	}
	snprintf(now, sizeof(now), "Gen%d x%d", pcie_gen(pc->cur_gts), pc->cur_width);
	snprintf(cap, sizeof(cap), "Gen%d x%d", pcie_gen(pc->max_gts), pc->max_width);
	tri_line(r, "%s LnkSta %g GT/s x%d (%s), LnkCap %g GT/s x%d (%s)", pc->address, pc->cur_gts,
	     pc->cur_width, now, pc->max_gts, pc->max_width, cap);
	tri_line(r, "usable per direction after encoding: %.0f Gb/s now, %.0f Gb/s at capability",
	     pc->cur_gbps, pc->max_gbps);
	if (pc->usable_gbps > 0)
		tri_line(r, "after TLP overhead (MaxPayload %d B, %s): %.1f Gb/s", pc->mps,
		     pc->mps_source, pc->usable_gbps);
	if (need <= 0) {
		tri_judge(r, TRI_INFO, NULL, "%s (cap %s): %.0f Gb/s; the port's rate is unknown", now, cap,
		      usable);
		return;
	}
	/* signalling is the lanes' baud times bits: NDR 4 x 106.25 = 425,
	 * not the nominal 400 (IBTA speeds, as port.c's table) */
	tri_line(r, "port data rate %.0f Gb/s (%s %s, %g Gb/s signalling)%s", need,
	     port_width_name(p->width_active), p->speed_name,
	     p->lane_gbps > 0 ? port_width_lanes(p->width_active) * p->lane_gbps : p->rate_gbps,
	     p->pcie_ports > 1 ? ", with the other active ports of this PCI function" : "");
	if (pcielimit_short(usable, need))
		tri_judge(r, TRI_FAIL, pc->degraded ?
		      "the slot trained below its capability: reseat the card, check the riser and the slot (lspci -vv: LnkSta)" :
		      "the slot cannot carry the link even at its best: move the card to a slot of the generation and width the link needs",
		      "%s (cap %s): %.0f of %.0f Gb/s, short %.0f Gb/s", now, cap, usable, need,
		      need - usable);
	else if (pc->degraded)
		tri_judge(r, TRI_WARN, "reseat the card when convenient: the slot trained below its capability",
		      "%s (cap %s) still carries %.0f Gb/s: %.0f Gb/s usable", now, cap, need, usable);
	else
		tri_judge(r, TRI_PASS, NULL, "%s: %.0f Gb/s usable for %.0f Gb/s", now, usable, need);
}
