// SPDX-License-Identifier: MIT
/* Counters panel of the selected port (value, delta, rate, windows,
 * sparkline, saturation / reset marks, highlighted unacknowledged error
 * increments, clear behind a confirmation) and the event-log view. */
#include "config.h"
#include "screen.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ctrview.h"
#include "diag/congestion.h"
#include "diag/pfc.h"
#include "layout.h"
#include "widgets.h"
#include "core/port/snapshot.h"

static struct {
	struct widgets_list list;	/* counter rows */
	bool confirm;		/* clear-counters dialog is up */
	char confirm_dev[32];	/* the port to clear, by identity */
	int confirm_port;
	char confirm_label[64];
	struct widgets_list ev;		/* event log rows */
} cv = { .list = { .sel = -1 }, .ev = { .sel = -1 } };

static int cv_selected(const struct ui_ctx *c, char *label, int len)
{
	char dev[PORT_STR];
	int port, i;

	screen_ports_selected(dev, sizeof(dev), &port);
	i = ctrview_find(c->ctr, dev, port);
	if (i < 0 && c->ctr && c->ctr->n)
		i = 0;		/* nothing selected yet: the first port */
	if (i >= 0)
		snprintf(label, len, "%s", c->ctr->dp[i].label);
	else
		snprintf(label, len, "%.40s/%d", dev, port);
	return i;
}

static const char *cv_mark(const struct delta_ctr *k)
{
	switch (k->state) {
	case DELTA_SATURATED: return "SATURATED";
	case DELTA_RESET: return "RESET";
	case DELTA_WRAPPED: return "wrapped";
	case DELTA_GAP: return "gap";
	case DELTA_CLOCK: return "clock";
	case DELTA_MISSING: return "missing";
	case DELTA_FIRST: return "first";
	case DELTA_OK: break;
	}
	return "";
}

static void cv_rate(const struct delta_ctr *k, char *b, int len)
{
	double g = delta_gbps(k);

	if (!k->rate_valid)
		snprintf(b, len, "-");
	else if (g >= 0)
		snprintf(b, len, "%.3g Gb/s", g);
	else if (k->rate >= 1e6)
		snprintf(b, len, "%.3gM/s", k->rate / 1e6);
	else if (k->rate >= 1e3)
		snprintf(b, len, "%.3gk/s", k->rate / 1e3);
	else
		snprintf(b, len, "%.3g/s", k->rate);
}

static void cv_dialog(WINDOW *win, int w, int h)
{
	const char *lines[4];
	char l1[160];

	snprintf(l1, sizeof(l1), "Clear ALL PMA counters of %s?", cv.confirm_label);
	lines[0] = l1;
	lines[1] = "Every error and traffic counter on that port goes to 0,";
	lines[2] = "for everyone watching it. This cannot be undone.";
	lines[3] = "y = clear now    any other key = cancel";
	(void)w;
	(void)h;
	widgets_message(win, lines, 4, UI_WARN);
}

struct cv_rows {
	const struct ctr_model *m;
	const struct delta_port *d;
	bool wide, utf8;
	int sparkw;
};

static void counters_row(WINDOW *win, int y, int i, bool sel, void *arg)
{
	const struct cv_rows *rc = arg;
	const struct ctr_model *m = rc->m;
	const struct delta_port *d = rc->d;
	const struct delta_ctr *k = &d->c[i];
	bool unacked = eventlog_unacked(&m->log, d->label, k->name) > 0;
	enum ui_role role = UI_NORMAL;
	char buf[400], v[24], dl[24], rate[24], w1[16], w10[16];
	char spark[3 * DELTA_HIST + 1], mark[16];

	(void)sel;
	if (k->state == DELTA_FIRST || k->state == DELTA_MISSING)
		snprintf(dl, sizeof(dl), "-");
	else
		snprintf(dl, sizeof(dl), "%s%s", k->lower_bound ? ">=" : "+",
			 ctrview_num(k->delta, v, sizeof(v)));
	ctrview_num(k->value, v, sizeof(v));
	cv_rate(k, rate, sizeof(rate));
	ctrview_num(delta_window(k, m->now, DELTA_WIN_MINUTE), w1, sizeof(w1));
	ctrview_num(delta_window(k, m->now, DELTA_WIN_10MIN), w10, sizeof(w10));
	spark[0] = '\0';
	if (rc->sparkw > 4)
		ctrview_spark(k, rc->sparkw, rc->utf8, spark, sizeof(spark));
	/* the state mark stays visible; '!' (and the colour) says
	 * the increment is not acknowledged yet */
	snprintf(mark, sizeof(mark), "%s%s", *cv_mark(k) ? cv_mark(k) : unacked ? "NEW" : "",
		 unacked ? "!" : "");
	if (rc->wide)
		snprintf(buf, sizeof(buf), " %-28.28s %-10s %14s %12s %12s %8s %8s %-10s %s",
			 k->name, ctr_class_name(k->cls), v, dl, rate, w1, w10,
			 mark, spark);
	else
		snprintf(buf, sizeof(buf), " %-28.28s %10s %9s %10s %7s %-9s",
			 k->name, v, dl, rate, w10, mark);
	if (unacked)
		role = UI_BAD;
	else if (k->state == DELTA_SATURATED || k->state == DELTA_RESET)
		role = UI_WARN;
	else if (k->cls == CTR_ERROR && delta_window(k, m->now, DELTA_WIN_10MIN))
		role = UI_WARN;
	else if (k->state == DELTA_FIRST || k->state == DELTA_MISSING)
		role = UI_DIM;
	widgets_text(win, y, 0, getmaxx(win), buf, role, false, true);
}

#define CV_ITEMS (DET_GROUPS + 4 + PFC_MAX_FLAGS)

struct cv_item {
	const char *label;
	char text[480];
	enum ui_role role;
};

/* The wait share of the last interval and the per-priority pauses. */
static int cv_congestion(struct cv_item *item, const struct monitor_port *p,
			 const struct delta_port *d, double iv)
{
	const struct portcong *pc = &p->cong;
	char flag[PFC_MAX_FLAGS][160];
	struct pfc_delta pd;
	uint64_t ticks;
	double share;
	bool clamped;
	int n = 0, o = 0, nf;

	if (congestion_port_wait(d, pc->tick, pc->lane_gbps, iv, &ticks, &share, &clamped)) {
		item[n].label = "xmit wait";
		if (share >= 0)
			snprintf(item[n].text, sizeof(item[0].text),
				 "%.1f %% of the time waiting to send%s (%llu ticks of %.3g ns)",
				 share * 100, clamped ? " (clamped: the port's tick is implausible)" : "",
				 (unsigned long long)ticks, congestion_tick_ns(pc->tick, pc->lane_gbps));
		else
			snprintf(item[n].text, sizeof(item[0].text), "%s, %llu ticks",
				 pc->why[0] ? pc->why : "n/a", (unsigned long long)ticks);
		item[n++].role = share > 0.1 ? UI_WARN : share >= 0 ? UI_NORMAL : UI_DIM;
	}
	if (!pc->pfc_on)
		return n;
	item[n].label = "PFC per priority";
	item[n].role = UI_DIM;
	if (portcong_pfc_none(pc)) {
		snprintf(item[n++].text, sizeof(item[0].text), "%s", portcong_pfc_none(pc));
		return n;
	}
	pfc_diff(&pc->prev, &pc->cur, &pd);
	for (int q = 0; q < PFC_PRIOS && o < (int)sizeof(item[0].text); q++) {
		int k;

		if (!pc->cur.has[q])
			continue;
		/* pause frames received / sent, and this interval's rise */
		k = snprintf(item[n].text + o, sizeof(item[0].text) - (size_t)o,
			     "%sprio %d%s rx %llu +%llu tx %llu +%llu", o ? ";  " : "", q,
			     q == pc->roce_prio ? " (RoCE)" : "",
			     (unsigned long long)pc->cur.rx[q], (unsigned long long)(pd.valid ? pd.rx[q] : 0),
			     (unsigned long long)pc->cur.tx[q], (unsigned long long)(pd.valid ? pd.tx[q] : 0));
		if (k < 0)
			break;
		o += k;
		if (pd.valid && (pd.rx[q] || pd.tx[q]))
			item[n].role = UI_NORMAL;
	}
	n++;
	nf = pfc_judge(&pd, pc->roce_prio, flag, PFC_MAX_FLAGS);
	for (int k = 0; k < nf; k++) {
		item[n].label = "PFC";
		snprintf(item[n].text, sizeof(item[0].text), "%.159s", flag[k]);
		item[n++].role = UI_WARN;
	}
	return n;
}

/* Below the counter rows, ending at row end: the port's wait share and
 * per-priority pauses, the error details it was asked for (those whose
 * total is not 0) and, for a port read from sysfs for want of MAD
 * access, what needs MADs and what would help. Long texts wrap under
 * their label. At most max rows; returns how many were drawn. */
/* The effective bit error rate since the console started. */
static int cv_ber(struct cv_item *item, const struct monitor_port *p, const struct delta_port *d,
		  const struct snapshot *s)
{
	double lane_gbps = 0;

	if (p->t.remote)
		return 0;
	for (int k = 0; s && k < s->nports; k++)
		if (!strcmp(s->ports[k].dev, p->t.dev) && s->ports[k].port == p->t.port)
			lane_gbps = s->ports[k].lane_gbps;
	item->label = "bit error rate";
	return ctrview_ber(d, p->t.lanes, lane_gbps, item->text, (int)sizeof(item->text), &item->role);
}

static int cv_below(WINDOW *win, const struct monitor_port *p, const struct delta_port *d,
		    const struct snapshot *s, double iv, int end, int w, int max)
{
	struct cv_item item[CV_ITEMS];
	struct { int item, off, len; } row[24];
	int ni, nr = 0, tw = w - 31;

	ni = cv_ber(item, p, d, s);
	ni += cv_congestion(item + ni, p, d, iv);

	if (p->t.no_mad[0]) {
		item[ni].label = "needs MADs";
		snprintf(item[ni].text, sizeof(item[0].text),
			 "error details, the other end's counters, the fabric: %s", p->t.no_mad);
		item[ni++].role = UI_WARN;
	}
	for (int g = 0; g < DET_GROUPS; g++) {
		const struct det_values *dv = &p->det.g[g];

		if (!dv->asked)
			continue;
		item[ni].label = details_attr_name(g);
		details_text(dv, g, item[ni].text, sizeof(item[0].text));
		item[ni++].role = dv->valid ? UI_WARN : UI_DIM;
	}
	if (tw < 20)
		tw = 20;
	for (int i = 0; i < ni; i++) {
		int off = 0, total = (int)strlen(item[i].text);

		do {
			int next, len = layout_wrap(item[i].text + off, tw, &next);

			if (nr < (int)(sizeof(row) / sizeof(row[0]))) {
				row[nr].item = i;
				row[nr].off = off;
				row[nr++].len = len;
			}
			if (next <= 0)
				break;
			off += next;
		} while (off < total);
	}
	if (nr > max)
		nr = max;
	for (int r = 0; r < nr; r++) {
		char buf[520];
		int i = row[r].item;

		snprintf(buf, sizeof(buf), " %-28s %.*s", row[r].off ? "" : item[i].label,
			 row[r].len, item[i].text + row[r].off);
		widgets_text(win, end - nr + r, 0, w, buf, item[i].role, false, true);
	}
	return nr;
}

static void counters_draw(WINDOW *win, const struct ui_ctx *c)
{
	int w = getmaxx(win), h = getmaxy(win), i;
	const struct ctr_model *m = c->ctr;
	const struct delta_port *d;
	struct cv_rows rc;
	char label[64], buf[400];
	const struct verdict *vd;
	bool utf8 = ctrview_utf8();
	bool wide;
	int sparkw, nb;

	i = cv_selected(c, label, sizeof(label));
	widgets_bar(win, 1, w, UI_TITLE);
	if (i < 0 || !m->dp[i].have) {
		snprintf(buf, sizeof(buf), " %s counters", label);
		widgets_text(win, 1, 0, w, buf, UI_TITLE, false, false);
		snprintf(buf, sizeof(buf), "n/a: %s", i >= 0 && m->port[i].why[0] ?
			 m->port[i].why : "no counter sample yet");
		widgets_text(win, 3, 1, w - 2, buf, UI_DIM, false, false);
		return;
	}
	d = &m->dp[i];
	snprintf(buf, sizeof(buf), " %s counters  %s", label,
		 m->port[i].valid ? m->port[i].mode : "(last sample failed)");
	widgets_text(win, 1, 0, w, buf, UI_TITLE, false, false);
	vd = ctrview_verdict(i);	/* judged when the model arrived */
	snprintf(buf, sizeof(buf), " verdict: %s  %s", verdict_name(vd->level), vd->text);
	widgets_text(win, 2, 0, w, buf, vd->level == VERDICT_ACT ? UI_BAD :
		     vd->level == VERDICT_WATCH ? UI_WARN : UI_GOOD, false, false);
	if (!m->port[i].valid)
		snprintf(buf, sizeof(buf), " sample failed: %s", m->port[i].why);
	else
		snprintf(buf, sizeof(buf), " %s%s", m->note,
			 m->dp[i].t_mark > m->dp[i].t_first ? "  (mark set)" : "");
	widgets_text(win, 3, 0, w, buf, m->port[i].valid ? UI_DIM : UI_BAD, false, false);

	/* wide: every column and a sparkline; narrow (80 columns): the
	 * counter, value, delta, rate, 10-minute window and mark */
	wide = w >= 112;
	sparkw = w - 108;
	if (sparkw > DELTA_HIST)
		sparkw = DELTA_HIST;
	if (wide)
		snprintf(buf, sizeof(buf), " %-28s %-10s %14s %12s %12s %8s %8s %-10s %s",
			 "COUNTER", "CLASS", "VALUE", "DELTA", "RATE", "1 MIN", "10 MIN",
			 "MARK", sparkw > 4 ? "HISTORY" : "");
	else
		snprintf(buf, sizeof(buf), " %-28s %10s %9s %10s %7s %-9s",
			 "COUNTER", "VALUE", "DELTA", "RATE", "10 MIN", "MARK");
	widgets_bar(win, 4, w, UI_TITLE);
	widgets_text(win, 4, 0, w, buf, UI_TITLE, false, false);

	rc.m = m;
	rc.d = d;
	rc.wide = wide;
	rc.sparkw = sparkw;
	rc.utf8 = utf8;
	nb = cv_below(win, &m->port[i], d, c->snap, m->interval_s, h - 1, w, h - 6 - 4);
	widgets_list_draw(win, &cv.list, 5, h - 6 - nb, d->n, counters_row, &rc);
	widgets_bar(win, h - 1, w, UI_FOOTER);
	widgets_text(win, h - 1, 0, w,
		     " a ack  m mark  C clear  e events  x sweep  Up/Down scroll  c/Esc back  q quit   ! = unacknowledged error increment",
		     UI_FOOTER, false, false);
	if (cv.confirm)
		cv_dialog(win, w, h);
}

static int counters_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	char label[64];
	int i;

	if (cv.confirm) {
		cv.confirm = false;
		if ((key == 'y' || key == 'Y') && c->cw)
			monitor_clear(c->cw, cv.confirm_dev, cv.confirm_port);
		return SCREEN_HANDLED | SCREEN_REDRAW;
	}
	if (widgets_list_key(&cv.list, a))
		return SCREEN_HANDLED | SCREEN_REDRAW;
	switch (a) {
	case UI_ACT_CLEAR:
		i = cv_selected(c, label, sizeof(label));
		if (i < 0)
			return SCREEN_HANDLED;
		cv.confirm = true;
		snprintf(cv.confirm_dev, sizeof(cv.confirm_dev), "%s", c->ctr->port[i].t.dev);
		cv.confirm_port = c->ctr->port[i].t.port;
		snprintf(cv.confirm_label, sizeof(cv.confirm_label), "%s", label);
		return SCREEN_HANDLED | SCREEN_REDRAW;
	default:
		break;
	}
	return 0;
}

static void counters_on_resize(int w, int h)
{
	cv.list.top = 0;
}

const struct screen screen_counters = {
	.name = "counters",
	.keys = KEYS_COUNTERS,
	.draw = counters_draw,
	.on_key = counters_on_key,
	.on_resize = counters_on_resize,
};

/* ---- event log ---- */

static void events_row(WINDOW *win, int y, int i, bool sel, void *arg)
{
	const struct eventlog *l = arg;
	const struct event *e = eventlog_get(l, i);
	char buf[320], when[16], ms[24], d[24];
	struct tm tm;

	(void)sel;
	if (!e)
		return;
	localtime_r(&e->when.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	snprintf(ms, sizeof(ms), ".%03ld", e->when.tv_nsec / 1000000);
	snprintf(d, sizeof(d), "%s%llu",
		 e->state == DELTA_RESET || e->state == DELTA_SATURATED ? ">=" : "+",
		 (unsigned long long)e->delta);
	if (e->text[0])	/* a link state change or verbs event */
		snprintf(buf, sizeof(buf), " %s%s %-22.22s %-30.30s %s", when, ms,
			 e->port, e->counter, e->text);
	else
		snprintf(buf, sizeof(buf), " %s%s %-22.22s %-30.30s %12s %14llu  %s", when, ms,
			 e->port, e->counter, d, (unsigned long long)e->value,
			 delta_state_name((enum delta_state)e->state));
	widgets_text(win, y, 0, getmaxx(win), buf,
		     e->seq > l->acked ? UI_BAD : UI_NORMAL, false, true);
}

static void events_draw(WINDOW *win, const struct ui_ctx *c)
{
	int w = getmaxx(win), h = getmaxy(win);
	const struct eventlog *l = &c->ctr->log;
	char buf[320];
	int unacked = eventlog_unacked(l, NULL, NULL);

	widgets_bar(win, 1, w, UI_TITLE);
	snprintf(buf, sizeof(buf), " Event log: %d error-counter and link events, %d unacknowledged (newest first)",
		 l->n, unacked);
	widgets_text(win, 1, 0, w, buf, UI_TITLE, false, false);
	snprintf(buf, sizeof(buf), " %-12s %-22s %-30s %12s %14s  %s", "TIME", "PORT",
		 "COUNTER", "DELTA", "VALUE", "STATE");
	widgets_bar(win, 2, w, UI_TITLE);
	widgets_text(win, 2, 0, w, buf, UI_TITLE, false, false);
	if (!l->n)
		widgets_text(win, 3, 1, w - 2, "no error counter has moved since the console started",
			     UI_DIM, false, false);
	widgets_list_draw(win, &cv.ev, 3, h - 4, l->n, events_row, (void *)l);
	widgets_bar(win, h - 1, w, UI_FOOTER);
	widgets_text(win, h - 1, 0, w,
		     " a acknowledge all  Up/Down scroll  c counters  x sweep  e/Esc back  q quit",
		     UI_FOOTER, false, false);
}

static int events_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	(void)key;
	(void)c;
	if (widgets_list_key(&cv.ev, a))
		return SCREEN_HANDLED | SCREEN_REDRAW;
	return 0;
}

static void events_on_resize(int w, int h)
{
	cv.ev.top = 0;
}

const struct screen screen_events = {
	.name = "events",
	.keys = KEYS_EVENTS,
	.draw = events_draw,
	.on_key = events_on_key,
	.on_resize = events_on_resize,
};
