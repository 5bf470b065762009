// SPDX-License-Identifier: MIT
/* The test screen's live run: the header and progress, bandwidth and
 * message rate each second, the counters and latency panes, and the keys
 * of a run (panes, Esc Esc cancel, again, compare). */
#include "config.h"
#include "screen_test_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/parse.h"
#include "core/counters/counters.h"
#include "ctrview.h"
#include "layout.h"

#define ESC_CONFIRM_S 3

static double mono_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}


static void spark(WINDOW *win, int y, int x, int w, const float *v, int n)
{
	static const char *const blocks[8] = {
		"\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
		"\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88",
	};
	static const char ascii[] = "_.:-=+*#";
	bool utf8 = ctrview_utf8();
	int from = n > w ? n - w : 0;
	float max = 0;

	for (int i = from; i < n; i++)
		if (v[i] > max)
			max = v[i];
	wattron(win, widgets_attr(UI_GOOD));
	for (int i = from; i < n; i++) {
		int lvl = max > 0 ? (int)(v[i] * 7.999f / max) : 0;

		if (lvl > 7)
			lvl = 7;
		if (utf8)
			mvwaddstr(win, y, x + i - from, blocks[lvl]);
		else
			mvwaddch(win, y, x + i - from, (chtype)ascii[lvl]);
	}
	wattroff(win, widgets_attr(UI_GOOD));
}

static const char *state_name(enum tj_state s)
{
	switch (s) {
	case TJ_CONNECTING: return "connecting";
	case TJ_RUNNING: return "running";
	case TJ_CANCELLING: return "cancelling";
	case TJ_DONE: return "done";
	case TJ_FAILED: return "failed";
	case TJ_CANCELLED: return "cancelled";
	default: return "idle";
	}
}

static void draw_facts(WINDOW *win, int y, int w, const struct tj_view *v)
{
	char buf[400], rate[16];
	const struct eng_info *i = &v->info;
	const struct proto_facts *l = &v->local, *p = &v->peer_facts;

	if (!v->have_facts) {
		widgets_text(win, y, 0, w, v->o.kind == TJ_KIND_TCP ? " local  (TCP stream: the kernel's path to the peer)" :
			     " local  opening the device, reaching the agent ...", UI_DIM, false, false);
		return;
	}
	snprintf(buf, sizeof(buf), " local  %s/%d %s  %s  MTU %u  GID %d %s %s  NUMA %s",
		 i->device, i->ib_port, l->link_layer, layout_fmt_gbps(l->rate_mbps / 1000.0, rate, sizeof(rate)),
		 i->mtu, i->gid_index, i->gid_index < 0 ? "" : i->gid_auto ? "(auto: RoCE v2 IPv4)" : "(given)",
		 i->gid, i->numa_note[0] ? i->numa_note : "?");
	widgets_text(win, y, 0, w, buf, UI_NORMAL, false, false);
	if (v->o.c.perftest)	/* its handshake carries no port facts: say so, never 0 */
		snprintf(buf, sizeof(buf), " peer   %s  perftest %s server (device, rate, MTU, NUMA: not told)",
			 p->host, p->fw_ver[0] ? p->fw_ver : "?");
	else
		snprintf(buf, sizeof(buf), " peer   %s %s %s  %s  MTU %u  GID %d  NUMA %d  fw %s",
			 p->host, p->device, p->link_layer, layout_fmt_gbps(p->rate_mbps / 1000.0, rate, sizeof(rate)),
			 p->mtu, p->gid_index, p->numa_node, p->fw_ver[0] ? p->fw_ver : "?");
	widgets_text(win, y + 1, 0, w, buf, UI_NORMAL, false, false);
}

struct row {
	const char *name;
	const struct tj_ctr *l, *p;
	int cls;
	bool moved;
};

static const struct tj_ctr *find_ctr(const struct tj_side *s, const char *name)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].name, name))
			return &s->c[i];
	return NULL;
}

static int row_rank(const struct row *r)
{
	/* moved errors, moved congestion, moved traffic, then still errors */
	int base = r->moved ? 0 : 3;

	return base + (r->cls == CTR_ERROR ? 0 : r->cls == CTR_CONGESTION ? 1 : 2);
}

static int cmp_rows(const void *a, const void *b)
{
	return row_rank(a) - row_rank(b);
}

static void cell(WINDOW *win, int y, int x, int cw, const struct tj_side *s, const struct tj_ctr *c,
		 int cls, double now)
{
	char buf[48], n1[16], n2[16];
	enum ui_role r = UI_NORMAL;
	bool fresh;

	if (!s->valid) {
		widgets_text(win, y, x, cw, "n/a", UI_DIM, true, false);
		return;
	}
	if (!c) {
		widgets_text(win, y, x, cw, "-", UI_DIM, true, false);
		return;
	}
	fresh = c->rose_at >= 0 && now - c->rose_at < 3.0;
	if (!c->delta) {
		snprintf(buf, sizeof(buf), "0");
		r = UI_DIM;
	} else if (cls == CTR_TRAFFIC) {
		if (c->rate_per_s && fresh)
			snprintf(buf, sizeof(buf), "+%s (%s/s)", tscreen_human_count(c->delta, n1, sizeof(n1)),
				 tscreen_human_count(c->rate_per_s, n2, sizeof(n2)));
		else
			snprintf(buf, sizeof(buf), "+%s", tscreen_human_count(c->delta, n1, sizeof(n1)));
		r = fresh ? UI_GOOD : UI_NORMAL;
	} else {
		snprintf(buf, sizeof(buf), "+%s !", tscreen_human_count(c->delta, n1, sizeof(n1)));
		r = fresh ? UI_BAD : UI_WARN;
	}
	widgets_text(win, y, x, cw, buf, r, true, false);
}

static void draw_counters(WINDOW *win, int y, int rows, int w, const struct tj_view *v)
{
	struct row rw[2 * PROTO_MAX_COUNTERS];
	int n = 0, cw = (w - 30) / 2 > 22 ? 22 : (w - 30) / 2;

	for (int s = 0; s < 2; s++) {
		const struct tj_side *side = s ? &v->pctr : &v->lctr;

		for (uint32_t i = 0; i < side->n; i++) {
			const char *name = side->c[i].name;
			bool dup = false;

			for (int k = 0; k < n; k++)
				if (!strcmp(rw[k].name, name))
					dup = true;
			if (dup)
				continue;
			rw[n].name = name;
			rw[n].l = find_ctr(&v->lctr, name);
			rw[n].p = find_ctr(&v->pctr, name);
			rw[n].cls = (int)ctr_classify(name);
			rw[n].moved = (rw[n].l && rw[n].l->delta) || (rw[n].p && rw[n].p->delta);
			if (rw[n].moved || rw[n].cls != CTR_TRAFFIC)
				n++;
		}
	}
	qsort(rw, (size_t)n, sizeof(rw[0]), cmp_rows);
	widgets_text(win, y, 0, w, " COUNTER (\xce\x94 since start)", UI_TITLE, false, true);
	widgets_text(win, y, 30, cw, "LOCAL", UI_TITLE, true, false);
	widgets_text(win, y, 31 + cw, cw, "PEER", UI_TITLE, true, false);
	y++;
	if (!v->lctr.valid && !v->pctr.valid) {
		widgets_text(win, y, 1, w - 1, v->o.kind == TJ_KIND_TCP ?
			     "the TCP baseline moves no RDMA counter" :
			     "the first samples come a second into the run", UI_DIM, false, false);
		return;
	}
	for (int i = 0; i < n && i < rows - 1; i++, y++) {
		widgets_text(win, y, 1, 28, rw[i].name, rw[i].cls == CTR_TRAFFIC ? UI_NORMAL : UI_LABEL, false, false);
		cell(win, y, 30, cw, &v->lctr, rw[i].l, rw[i].cls, v->t_s);
		cell(win, y, 31 + cw, cw, &v->pctr, rw[i].p, rw[i].cls, v->t_s);
	}
	if (n > rows - 1) {
		char more[64];

		snprintf(more, sizeof(more), " … %d more unchanged error counters", n - (rows - 1));
		widgets_text(win, y, 0, w, more, UI_DIM, false, false);
	}
}

/* The latency pane: percentiles and a histogram of the current phase's
 * samples so far, from the engine's live buckets; when the run is over,
 * perftest's exact figures beside them. */
static void draw_latency(WINDOW *win, int y, int rows, int w, const struct tj_view *v)
{
	const struct eng_lat_live *h = &v->lat;
	const struct eng_result *e = v->res.nphases ? &v->res.ph[v->res.nphases - 1].local : NULL;
	static const struct { double q; const char *name; } marks[] = {
		{ 0.50, "p50" }, { 0.99, "p99" }, { 0.999, "p99.9" },
	};
	struct widgets_bin bins[ENG_LAT_BUCKETS];
	double pq[3];
	char buf[300], n1[16];
	int first, group, nb, end = y + rows;

	widgets_text(win, y++, 0, w, " LATENCY", UI_TITLE, false, true);
	if (v->o.c.p.kind != KIND_LAT) {
		widgets_text(win, y, 1, w - 1, "a bandwidth or rate test has no latency histogram; Tab: counters", UI_DIM, false, false);
		return;
	}
	if (!h->n) {
		widgets_text(win, y, 1, w - 1, "the first samples come with the first progress (a quarter of a second into the phase)",
			     UI_DIM, false, false);
		return;
	}
	for (int k = 0; k < 3; k++)
		pq[k] = eng_lat_live_quantile_us(h, marks[k].q);
	snprintf(buf, sizeof(buf), " %s B, %s samples: p50 %.2f  p99 %.2f  p99.9 %.2f  min %.2f  max %.2f us (%s; from the buckets, within 1/%d)",
		 tscreen_human_count(v->size, (char[16]){ 0 }, 16), tscreen_human_count(h->n, n1, sizeof(n1)), pq[0], pq[1], pq[2],
		 h->min_ns / 1000.0, h->max_ns / 1000.0, h->halved ? "half round trip, as perftest" : "full round trip",
		 ENG_LAT_SUB);
	widgets_text(win, y++, 0, w, buf, UI_NORMAL, false, false);
	if (e && e->lat_valid && v->state == TJ_DONE) {
		snprintf(buf, sizeof(buf), " perftest's figures, every sample: t_typical %.2f  p99 %.2f  p99.9 %.2f  t_max %.2f us",
			 e->lat_median, e->lat_p99, e->lat_p999, e->lat_max);
		widgets_text(win, y++, 0, w, buf, UI_GOOD, false, false);
	}
	nb = layout_hist_group(h->b, ENG_LAT_BUCKETS, end - y, &first, &group);
	for (int r = 0; r < nb; r++) {
		int b0 = first + r * group, b1 = b0 + group;
		struct widgets_bin *bin = &bins[r];
		double lo = eng_lat_bucket_lo_ns(b0) / 1000.0;
		double hi = b1 < ENG_LAT_BUCKETS ? eng_lat_bucket_lo_ns(b1) / 1000.0 : h->max_ns / 1000.0;
		int o = 0;

		bin->count = 0;
		for (int b = b0; b < b1 && b < ENG_LAT_BUCKETS; b++)
			bin->count += h->b[b];
		snprintf(bin->label, sizeof(bin->label), " %.2f-%.2f us", lo, hi);
		bin->note[0] = '\0';
		for (int k = 0; k < 3; k++)
			if (pq[k] * 1000.0 >= eng_lat_bucket_lo_ns(b0) &&
			    (b1 >= ENG_LAT_BUCKETS || pq[k] * 1000.0 < eng_lat_bucket_lo_ns(b1)))
				o += snprintf(bin->note + o, sizeof(bin->note) - (size_t)o, "%s%s", o ? " " : "<- ",
					      marks[k].name);
	}
	widgets_hist(win, y, 0, w, bins, nb);
}

void tscreen_run_draw(WINDOW *win, int w, int h)
{
	const struct tj_view *v = tscreen.v;
	const struct proto_params *p = &v->o.c.p;
	char buf[400], sz[24], g1[16];
	bool tcp = v->o.kind == TJ_KIND_TCP, over = v->state >= TJ_DONE;
	double avg = 0;
	int y = 1, rows;

	if (tcp)
		snprintf(buf, sizeof(buf), " TEST tcp baseline %u s -> %s (agent port %d + 1)   %s %.1f s",
			 v->o.tcp_seconds, v->peer, v->o.c.tcp_port ? v->o.c.tcp_port : 18516, state_name(v->state), v->t_s);
	else
		snprintf(buf, sizeof(buf), " TEST %s %s %s%s %s %u QP%s%s -> %s   %s %.1f s",
			 eng_op_name(p->op), eng_kind_name(p->kind), p->flags & PARAM_SWEEP ? "sweep to " : "",
			 parse_size_name(p->size, sz, sizeof(sz)), p->conn == CONN_UD ? "UD" : "RC", p->qps,
			 p->qps > 1 ? "s" : "", p->flags & PARAM_BIDIR ? " bidir" : "", v->peer,
			 state_name(v->state), v->t_s);
	widgets_text(win, y++, 0, w, buf, UI_TITLE, false, true);
	draw_facts(win, y, w, v);
	y += 2;
	/* progress */
	{
		double frac = 0;

		if (over && v->state == TJ_DONE)
			frac = 1;
		else if (tcp)
			frac = v->t_s / (v->o.tcp_seconds ? v->o.tcp_seconds : 10);
		else if (v->msgs_goal)
			frac = ((double)v->phase + (double)v->msgs / (double)v->msgs_goal) / (v->nphases ? v->nphases : 1);
		else if (p->duration_ms)
			frac = v->t_s * 1000.0 / (p->duration_ms * (double)(v->nphases ? v->nphases : 1));
		if (frac > 1)
			frac = 1;
		widgets_progress(win, y, 1, 30, frac);
		if (over)
			snprintf(buf, sizeof(buf), "%.1f s in all, %d phase%s", v->t_s, v->nphases,
				 v->nphases == 1 ? "" : "s");
		else if (tcp)
			snprintf(buf, sizeof(buf), "%5.1f / %u s", v->t_s, v->o.tcp_seconds);
		else if (v->msgs_goal)
			snprintf(buf, sizeof(buf), "%llu / %llu iters  size %s  phase %d/%d",
				 (unsigned long long)v->msgs, (unsigned long long)v->msgs_goal,
				 parse_size_name(v->size, sz, sizeof(sz)), v->phase + 1, v->nphases);
		else
			snprintf(buf, sizeof(buf), "%.1f s of %.1f s  size %s  phase %d/%d", v->t_s,
				 p->duration_ms / 1000.0, parse_size_name(v->size, sz, sizeof(sz)), v->phase + 1, v->nphases);
		widgets_text(win, y++, 32, w - 32, buf, UI_NORMAL, false, false);
	}
	/* bandwidth each second */
	for (int i = 0; i < v->nsec; i++)
		avg += v->gbps[i];
	if (v->nsec)
		avg /= v->nsec;
	snprintf(buf, sizeof(buf), " Gb/s %8.3f now %8.3f avg %8.3f peak  %s",
		 over ? (v->nsec ? v->gbps[v->nsec - 1] : 0) : v->now_gbps, avg, v->peak_gbps,
		 layout_fmt_gbps(v->have_facts ? v->local.rate_mbps / 1000.0 : 0, g1, sizeof(g1)));
	widgets_text(win, y, 0, 58, buf, UI_NORMAL, false, false);
	spark(win, y++, 59, w - 60, v->gbps, v->nsec);
	if (!tcp) {
		snprintf(buf, sizeof(buf), " Mpps %8.4f now   %llu msgs this phase   per second:",
			 over ? (v->nsec ? v->mpps[v->nsec - 1] : 0) : v->now_mpps, (unsigned long long)v->msgs);
		widgets_text(win, y, 0, 58, buf, UI_NORMAL, false, false);
		spark(win, y++, 59, w - 60, v->mpps, v->nsec);
	}
	rows = h - 2 - y;
	if (tscreen.mode == M_PICK)
		tscreen_pick_draw(win, y, rows, w);
	else if (tscreen.pane == 0 && over)
		tscreen_result_draw(win, y, rows, w, v);
	else if (tscreen.pane == 2)
		draw_latency(win, y, rows, w, v);
	else
		draw_counters(win, y, rows, w, v);
	widgets_text(win, h - 2, 0, w, tscreen.msg, tscreen.msg_role, false, true);
	widgets_text(win, h - 1, 0, w, over ? " [r] again  [c] compare  [Tab] result/counters/latency  [Esc] form  F1 help" :
		     " [Esc Esc] cancel  [Tab] counters/latency  q quit  F1 help", UI_FOOTER, false, true);
	snprintf(buf, sizeof(buf), "pane: %s ", tscreen.pane == 0 && over ? "result" : tscreen.pane == 2 ? "latency" : "counters");
	widgets_text(win, h - 1, w - 16, 16, buf, UI_FOOTER, true, false);
}


/* A key's escape sequence that a loaded terminal split (a bare Esc, then
 * "[A" or "OA" as plain keys) is swallowed to its final byte, so the rest
 * of an arrow key never reaches the global keys (A is the acceptance
 * screen). This reads bytes of a sequence, not bindings; SCREEN_* flags
 * when the key belonged to one, else 0. */
static int split_escape(int key, enum ui_action a, bool over)
{
	if (tscreen.split_seq) {
		if (key >= 0x20 && key <= 0x3f)
			return SCREEN_HANDLED;
		tscreen.split_seq = false;
		if (key >= 0x40 && key <= 0x7e)
			return SCREEN_HANDLED;
	}
	if (a != UI_ACT_BACK && tscreen.esc_at) {	/* the cancel question is dropped */
		tscreen.esc_at = 0;
		if (!over)
			tscreen.msg[0] = '\0';
		if (key == '[' || key == 'O') {
			tscreen.split_seq = true;
			return SCREEN_HANDLED | SCREEN_REDRAW;
		}
	}
	return 0;
}

/* Esc during a run asks, a second Esc within ESC_CONFIRM_S cancels;
 * after the run it goes back to the form. */
static void run_back(bool over)
{
	if (!over && mono_s() - tscreen.esc_at > ESC_CONFIRM_S) {
		/* one Esc only asks: an arrow key split by a loaded terminal
		 * starts with a bare Esc, and its next byte disarms */
		tscreen.esc_at = mono_s();
		tscreen_note(UI_WARN, "Esc again to cancel the run (within %d s; any other key keeps it running)",
		     ESC_CONFIRM_S);
		return;
	}
	if (!over) {
		testjob_cancel(tscreen.job);
		tscreen_note(UI_WARN, "cancelling: both ends release the QPs ...");
		tscreen.v->gen = 0;	/* take the cancelling view */
		tscreen.esc_at = 0;
		return;
	}
	tscreen.mode = M_FORM;
	tscreen.field = F_PEER;	/* back at the top of the form */
	tscreen.msg[0] = '\0';
}

int tscreen_run_key(int key, enum ui_action a)
{
	const int done = SCREEN_HANDLED | SCREEN_REDRAW;
	bool over = tscreen.v->state >= TJ_DONE;
	int fl = split_escape(key, a, over);

	if (fl)
		return fl;
	if (tscreen.mode == M_PICK)
		return tscreen_pick_key(a);
	switch (a) {
	case UI_ACT_PANE:
		if (over)
			tscreen.pane = (tscreen.pane + 1) % 3;
		else
			tscreen.pane = tscreen.pane == 1 ? 2 : 1;
		return done;
	case UI_ACT_BACK:
		run_back(over);
		return done;
	case UI_ACT_AGAIN:
		if (over)
			tscreen_start();
		return done;
	case UI_ACT_COMPARE:
		if (over && tscreen.v->state == TJ_DONE && tscreen.v->o.kind != TJ_KIND_TCP)
			tscreen_compare_pick();
		return done;
	default:
		return 0;
	}
}
