// SPDX-License-Identifier: MIT
/* The test screen's result: the verdict and record at the end of a run
 * (the reference procedure's numbers, through testverdict), the result
 * pane, and the compare with an earlier record (its list and its keys). */
#include "config.h"
#include "screen_test_int.h"
#include "ctrview.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/counters/counters.h"
#include "layout.h"

/* ---- the end of a run: verdict and record (on the UI thread: a small
 * file, written once) ---- */

void tscreen_finish(void)
{
	struct tj_view *v = tscreen.v;
	const struct client_result *r = &v->res;
	struct client_opts co = v->o.c;
	struct tv_input in = { 0 };
	struct tv_verdict tv = { 0 };
	struct record_verdict rv;
	FILE *f;

	tscreen.handled = true;
	tscreen.pane = 0;
	if (v->state == TJ_CANCELLED) {
		tscreen_note(UI_WARN, "cancelled: both ends released the test's QPs and memory; the agent takes the next test");
		return;
	}
	if (v->state == TJ_FAILED) {
		tscreen_note(UI_BAD, "%s", v->err);
		return;
	}
	if (v->o.kind == TJ_KIND_TCP) {
		tscreen_note(UI_GOOD, "TCP baseline done: %.2f Gb/s received (tcp runs keep no record)", v->tcp_gbps);
		return;
	}
	if (r->nphases < 1)
		return;
	{
		const struct client_phase *ph = &r->ph[r->nphases - 1];

		in.kind = co.p.kind;
		in.op = co.p.op;
		in.bidir = co.p.flags & PARAM_BIDIR;
		in.size = ph->local.size;
		in.data_gbps = screen_demo_line_rate() > 0 ? screen_demo_line_rate() :
			       r->local.rate_mbps / 1000.0;
		in.bw_avg_gbps = ph->total_avg_gbps;
		in.bw_peak_gbps = ph->total_peak_gbps;
		in.mpps = ph->total_mpps;
		if (co.p.kind == KIND_LAT) {	/* the smallest size is the latency one */
			in.lat_valid = r->ph[0].local.lat_valid;
			in.lat_median_us = r->ph[0].local.lat_median;
			in.lat_p99_us = r->ph[0].local.lat_p99;
			in.size = r->ph[0].local.size;
		}
	}
	/* the reference procedure's numbers, with the site's test_* keys
	 * from the config file, as `ibconsole test` judges */
	tv_eval(&in, &ctrview_thresholds()->tv, &tv);
	tscreen.vstate = tv.state;
	snprintf(tscreen.vline, sizeof(tscreen.vline), "verdict: %s%s%s%s — %s", tv_state_name(tv.state),
		 tv.rule[0] ? " (rule " : "", tv.rule, tv.rule[0] ? ")" : "", tv.text);
	screen_demo_line_note(r->local.rate_mbps / 1000.0, tscreen.demo_line, sizeof(tscreen.demo_line));
	rv = (struct record_verdict){ .state = tv_state_name(tv.state), .rule = tv.rule,
				      .text = tv.text, .line_gbps = in.data_gbps,
				      .source = tv.source, .healthy = tv.healthy,
				      .abnormal = tv.abnormal, .pass = tv.pass, .unit = tv.unit };
	co.peer = v->peer;
	co.secret = NULL;
	if (testjob_record_path(co.p.kind, co.p.op, tscreen.record, sizeof(tscreen.record)) ||
	    !(f = fopen(tscreen.record, "w"))) {
		tscreen_note(UI_WARN, "the record could not be saved in %s — set IBCONSOLE_RECORD_DIR to a writable directory",
		     tscreen.record[0] ? tscreen.record : "the state directory (no HOME)");
		tscreen.record[0] = '\0';
		return;
	}
	record_write(f, &co, r, &rv, NULL, NULL);
	if (fclose(f)) {
		tscreen_note(UI_WARN, "the record %s could not be written — check the disk", tscreen.record);
		tscreen.record[0] = '\0';
		return;
	}
	tscreen_note(UI_NORMAL, "c compare with an earlier record   r run again   Tab counters / latency   Esc form");
}

void tscreen_compare_pick(void)
{
	const struct proto_params *p = &tscreen.v->o.c.p;

	tscreen.nrefs = testjob_find_records(p, tscreen.v->peer, tscreen.record, tscreen.refs, TJ_MAX_RECORDS);
	if (!tscreen.nrefs) {
		tscreen_note(UI_WARN, "no earlier record of this test (same kind, op, size, QPs) to %s — run it again later and press c",
		     tscreen.v->peer);
		return;
	}
	tscreen.refsel = 0;
	tscreen.mode = M_PICK;
}

static void compare_with(const char *path)
{
	struct record_saved *s = calloc(1, sizeof(*s));
	char why[200];

	if (!s) {
		tscreen_note(UI_BAD, "out of memory");
		return;
	}
	if (testjob_load_record(path, s, why, sizeof(why))) {
		tscreen_note(UI_BAD, "cannot use the record %s: %s — pick another", path, why);
		free(s);
		return;
	}
	snprintf(tscreen.diffpath, sizeof(tscreen.diffpath), "%s", path);
	record_compare(s, &tscreen.v->res, tscreen.diff);
	tscreen.diff->path = tscreen.diffpath;
	free(s);
	tscreen.pane = 0;
}

static void moved_line(char *buf, size_t len, const char *who, const struct tj_side *s)
{
	int o = snprintf(buf, len, "%s:", who), shown = 0;
	char n[16];

	for (uint32_t i = 0; i < s->n && o < (int)len - 48; i++)
		if (s->c[i].delta && ctr_classify(s->c[i].name) != CTR_TRAFFIC)
			o += snprintf(buf + o, len - (size_t)o, "%s %s +%s", shown++ ? "," : "", s->c[i].name,
				      tscreen_human_count(s->c[i].delta, n, sizeof(n)));
	if (!shown)
		snprintf(buf + o, len - (size_t)o, " no error or congestion counter moved");
}

void tscreen_result_draw(WINDOW *win, int y, int rows, int w, const struct tj_view *v)
{
	const struct client_result *r = &v->res;
	const struct proto_params *p = &v->o.c.p;
	char buf[640];
	int end = y + rows;

	if (v->state == TJ_FAILED || v->state == TJ_CANCELLED) {
		const char *t = v->state == TJ_FAILED ? v->err : "Esc stopped it; both ends released their QPs and memory";

		widgets_text(win, y++, 0, w, v->state == TJ_FAILED ? " FAILED" : " CANCELLED", UI_TITLE, false, true);
		/* the whole line, remedy included, wrapped: the footer clips it */
		while (*t && y < end - 1) {
			int next, len = layout_wrap(t, w - 2, &next);

			snprintf(buf, sizeof(buf), "%.*s", len, t);
			widgets_text(win, y++, 1, w - 1, buf, v->state == TJ_FAILED ? UI_BAD : UI_WARN, false, false);
			if (next <= 0)
				break;
			t += next;
		}
		widgets_text(win, y, 1, w - 1, "Esc: the form   r: run it again", UI_DIM, false, false);
		return;
	}
	if (v->o.kind == TJ_KIND_TCP) {
		widgets_text(win, y++, 0, w, " RESULT  TCP baseline (one stream)", UI_TITLE, false, true);
		snprintf(buf, sizeof(buf), " received %llu B in %.2f s = %.3f Gb/s (the agent's count)",
			 (unsigned long long)v->tcp_bytes, v->tcp_s, v->tcp_gbps);
		widgets_text(win, y++, 0, w, buf, UI_GOOD, false, false);
		widgets_text(win, y++, 1, w - 1, "TCP fine and RDMA slow: look at RDMA (GID, MTU, lossless, QPs); both slow: the path (rate, PCIe, NUMA).",
			     UI_DIM, false, false);
		return;
	}
	widgets_text(win, y++, 0, w, " RESULT", UI_TITLE, false, true);
	if (p->kind == KIND_LAT)
		widgets_text(win, y++, 0, w, " #bytes   #iterations  t_min   t_typical  t_avg    t_max    p99      p99.9  [usec]", UI_LABEL, false, false);
	else
		widgets_text(win, y++, 0, w, " #bytes     #iterations    BW peak[Gb/sec]  BW average[Gb/sec]  MsgRate[Mpps]", UI_LABEL, false, false);
	for (int i = 0; i < r->nphases && y < end - 4; i++) {
		const struct client_phase *ph = &r->ph[i];
		const struct eng_result *e = &ph->local;

		if (p->kind == KIND_LAT)
			snprintf(buf, sizeof(buf), " %-8llu %-12llu %-7.2f %-10.2f %-8.2f %-8.2f %-8.2f %-7.2f",
				 (unsigned long long)e->size, (unsigned long long)e->msgs, e->lat_min, e->lat_median,
				 e->lat_avg, e->lat_max, e->lat_p99, e->lat_p999);
		else
			snprintf(buf, sizeof(buf), " %-10llu %-14llu %-16.4f %-19.4f %-.6f",
				 (unsigned long long)e->size, (unsigned long long)e->msgs, ph->total_peak_gbps,
				 ph->total_avg_gbps, ph->total_mpps);
		widgets_text(win, y++, 0, w, buf, UI_NORMAL, false, false);
	}
	widgets_text(win, y++, 0, w, tscreen.vline, tscreen.vstate == TV_FAIL ? UI_BAD : tscreen.vstate == TV_WARN ? UI_WARN : UI_GOOD,
		     false, false);
	if (tscreen.vline[0] && tscreen.demo_line[0])
		widgets_text(win, y++, 0, w, tscreen.demo_line, UI_LABEL, false, false);
	moved_line(buf, sizeof(buf), " counters moved — local", &v->lctr);
	widgets_text(win, y++, 0, w, buf, UI_NORMAL, false, false);
	moved_line(buf, sizeof(buf), "                   peer", &v->pctr);
	widgets_text(win, y++, 0, w, buf, UI_NORMAL, false, false);
	if (tscreen.record[0]) {
		snprintf(buf, sizeof(buf), " record: %s", tscreen.record);
		widgets_text(win, y++, 0, w, buf, UI_NORMAL, false, false);
	}
	if (tscreen.diffpath[0] && y < end) {
		snprintf(buf, sizeof(buf), " compared with %s:", tscreen.diffpath);
		widgets_text(win, y++, 0, w, buf, UI_TITLE, false, false);
		for (int i = 0; i < tscreen.diff->n && y < end; i++) {
			const struct record_cmp *c = &tscreen.diff->c[i];

			snprintf(buf, sizeof(buf), "   %-9llu %-14s %12.4f -> %12.4f  (%+.1f %%)",
				 (unsigned long long)c->size, c->metric, c->before, c->after, c->change_pct);
			widgets_text(win, y++, 0, w, buf, fabs(c->change_pct) >= 10 ? UI_WARN : UI_NORMAL, false, false);
		}
		if (!tscreen.diff->n)
			widgets_text(win, y, 0, w, "   no common sizes to compare", UI_DIM, false, false);
	}
}

void tscreen_pick_draw(WINDOW *win, int y, int rows, int w)
{
	widgets_text(win, y++, 0, w, " COMPARE WITH  (Up/Down, Enter picks, Esc back)", UI_TITLE, false, true);
	for (int i = 0; i < tscreen.nrefs && i < rows - 1; i++, y++)
		widgets_text(win, y, 1, w - 1, tscreen.refs[i].name, i == tscreen.refsel ? UI_SELECTED : UI_NORMAL, false, true);
}

/* The compare list: every key stays on it. */
int tscreen_pick_key(enum ui_action a)
{
	switch (a) {
	case UI_ACT_UP:
		tscreen.refsel = tscreen.refsel ? tscreen.refsel - 1 : 0;
		break;
	case UI_ACT_DOWN:
		if (tscreen.refsel + 1 < tscreen.nrefs)
			tscreen.refsel++;
		break;
	case UI_ACT_START:
		tscreen.mode = M_RUN;
		compare_with(tscreen.refs[tscreen.refsel].path);
		break;
	case UI_ACT_BACK:
		tscreen.mode = M_RUN;
		break;
	default:
		return SCREEN_HANDLED;
	}
	return SCREEN_HANDLED | SCREEN_REDRAW;
}
