// SPDX-License-Identifier: MIT
/* The acceptance screen: every local card tested against the reference
 * host's agent (the console's peer) on a worker — a progress bar per card,
 * Esc Esc cancels — then the table with the failing cards first and, on
 * Enter, the selected card's evidence; and the pair matrix of an
 * `accept --hosts` results directory as a heat map whose bands read in
 * monochrome too (a character and an attribute per band, a legend). */
#include "config.h"
#include "screen.h"
#include "screen_accept_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/accept/accept.h"
#include "core/accept/acceptres.h"
#include "core/base/numfmt.h"
#include "core/testrun/peer.h"
#include "core/base/worker.h"
#include "diag/portfacts.h"
#include "diag/accept.h"
#include "diag/thresholds.h"
#include "layout.h"
#include "widgets.h"

#define ESC_CONFIRM_S 3

static struct {
	struct snap_opts so;
	char dev[64];
	long long iters;		/* the run's -n / -D (0: accept's defaults) */
	double duration_s;
	struct acc_limits l;
	struct accept_job *job;
	struct accept_view *v;		/* newest view, NULL before a run */
	struct acc_card verdict[ACCEPT_MAX_CARDS];
	int order[ACCEPT_MAX_CARDS];
	bool judged[ACCEPT_MAX_CARDS];	/* verdict[i] holds card i's */
	struct widgets_list list;
	bool open;			/* the selected card's evidence is shown */
	bool heat;			/* the heat map is shown */
	struct acceptres *res;		/* --accept-results, NULL none */
	double esc_at;
	char msg[480];
	enum ui_role msg_role;
} as = { .list = { .sel = 0 } };

static void note(enum ui_role r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(enum ui_role r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(as.msg, sizeof(as.msg), fmt, ap);
	va_end(ap);
	as.msg_role = r;
}

int screen_accept_configure(const struct snap_opts *o, const char *config, const char *results,
			    long long iters, double duration_s, char *err, size_t errlen)
{
	struct thresholds *th = calloc(1, sizeof(*th));
	char cbuf[512];

	as.so = *o;
	as.iters = iters;
	as.duration_s = duration_s;
	if (o->device) {
		snprintf(as.dev, sizeof(as.dev), "%s", o->device);
		as.so.device = as.dev;
	}
	acc_limits_defaults(&as.l);
	if (th) {
		/* the site's acceptance line; a bad file was reported at start */
		thresholds_defaults(th);
		if (thresholds_load(th, thresholds_config_path(config, cbuf, sizeof(cbuf)), cbuf,
				    sizeof(cbuf)) >= 0) {
			as.l.accept = th->tv.accept;
			as.l.fleet_bw = th->tv.accept_fleet_bw;
			as.l.fleet_lat = th->tv.accept_fleet_lat;
		}
		free(th);
	}
	if (results) {
		as.res = acceptres_load(results, err, errlen);
		if (!as.res)
			return -1;
		as.heat = true;
	}
	return 0;
}

bool screen_accept_has_results(void)
{
	return as.res != NULL;
}

static bool running(void)
{
	return as.v && (as.v->state == ACCEPT_JOB_READING || as.v->state == ACCEPT_JOB_RUNNING);
}

static void start(void)
{
	struct accept_opts o = { .gid_index = -1, .judge = portfacts_judge };
	char ref[128], err[ENG_ERR], secret[256];

	if (running())
		return;
	if (getenv("IBCONSOLE_DEMO") && !strcmp(getenv("IBCONSOLE_DEMO"), "1")) {
		note(UI_WARN, "no acceptance on the demo fabric: ibsim carries no data — run the console on a host with a verbs device");
		return;
	}
	peer_host(ref, sizeof(ref));
	if (!ref[0]) {
		note(UI_BAD, "no reference host: the acceptance tests against its agent ('ibconsole serve') — start the console with --peer HOST, type it on the test screen (t) or mark it with p on the fabric screen");
		return;
	}
	if (!as.v && !(as.v = calloc(1, sizeof(*as.v)))) {
		note(UI_BAD, "cannot start the acceptance: out of memory — close other programs and retry");
		return;
	}
	/* the agent's secret, as the test screen sends it (console
	 * --secret-file or the test form's Secret field) */
	if (peer_secret(secret, sizeof(secret), err, sizeof(err)) < 0) {
		note(UI_BAD, "cannot start the acceptance: %s", err);
		return;
	}
	o.secret = secret[0] ? secret : NULL;
	o.ref = ref;
	o.line_rate = screen_demo_line_rate();	/* 0 outside the RoCE demo */
	accept_params(-1, 0, as.iters, as.duration_s, &o.p);
	accept_job_stop(as.job);
	as.job = accept_job_start(&o, &as.so, err, sizeof(err));
	memset(secret, 0, sizeof(secret));
	if (!as.job) {
		note(UI_BAD, "cannot start the acceptance: %s — close other programs and retry", err);
		return;
	}
	memset(as.v, 0, sizeof(*as.v));
	memset(as.judged, 0, sizeof(as.judged));
	as.open = false;
	as.heat = false;
	as.list.sel = as.list.top = 0;
	as.esc_at = 0;
	note(UI_NORMAL, "testing every local card against %s ...", ref);
}

/* Judges the cards that finished since the last view (on the UI thread,
 * once each) and orders the table: failing first once the run is over,
 * the cards in test order while it goes. */
static void judge(void)
{
	struct accept_view *v = as.v;
	int nfail = 0;

	for (int i = 0; i < v->n; i++) {
		if (!as.judged[i] && v->cards[i].state == ACCEPT_DONE) {
			acc_card_verdict(&v->cards[i], &as.l, &as.verdict[i]);
			as.judged[i] = true;
		}
		if (!as.judged[i]) {
			memset(&as.verdict[i], 0, sizeof(as.verdict[i]));
			as.verdict[i].pct = -1;
			snprintf(as.verdict[i].cause, sizeof(as.verdict[i].cause), "%s",
				 v->cards[i].state == ACCEPT_SKIPPED ? "not tested: the run was cancelled" : "");
		}
		nfail += as.judged[i] && !as.verdict[i].pass;
	}
	if (running()) {
		for (int i = 0; i < v->n; i++)
			as.order[i] = i;
		return;
	}
	acc_order(as.verdict, v->n, as.order);
	if (v->state == ACCEPT_JOB_FAILED)
		note(UI_BAD, "%s", v->err);
	else if (v->state == ACCEPT_JOB_CANCELLED)
		note(UI_WARN, "cancelled: the card under test was released at both ends; the others were not tested");
	else
		note(nfail ? UI_BAD : UI_GOOD, "%d of %d passed — Enter on a card opens its evidence", v->n - nfail, v->n);
}

/* ---- the cards ---- */

static void card_row(WINDOW *win, int y, int i, bool sel, void *arg)
{
	const struct accept_card *c = &as.v->cards[as.order[i]];
	const struct acc_card *k = &as.verdict[as.order[i]];
	int w = getmaxx(win);
	char name[PORT_STR + 8], buf[800], gbps[16] = "-", pct[16] = "-", line[16] = "-";
	enum ui_role role = sel ? UI_SELECTED : UI_NORMAL;

	(void)arg;
	if (c->port)
		snprintf(name, sizeof(name), "%s/%d", c->dev, c->port);
	else
		snprintf(name, sizeof(name), "%s", c->dev);
	if (c->ran)
		numfmt_sig(c->gbps, NUMFMT_DIGITS, gbps, sizeof(gbps));
	if (k->pct >= 0)
		snprintf(pct, sizeof(pct), "%.1f", k->pct);
	if (k->line_gbps > 0)
		numfmt_sig(k->line_gbps, NUMFMT_DIGITS, line, sizeof(line));
	snprintf(buf, sizeof(buf), " %-16s %10s %10s %10s  ", name, gbps, pct, line);
	if (sel)
		widgets_bar(win, y, w, UI_SELECTED);
	widgets_text(win, y, 0, w, buf, role, false, false);
	if (c->state == ACCEPT_RUNNING || c->state == ACCEPT_PENDING) {
		widgets_progress(win, y, 52, 20, c->frac);
		snprintf(buf, sizeof(buf), "%3.0f %%  %s", 100 * c->frac,
			 c->state == ACCEPT_RUNNING ? "testing" : "waiting");
		widgets_text(win, y, 73, w - 73, buf, role, false, false);
		return;
	}
	widgets_text(win, y, 52, 10, as.judged[as.order[i]] ? k->pass ? "PASS" : "FAIL" : "-",
		     sel ? UI_SELECTED : !as.judged[as.order[i]] ? UI_DIM : k->pass ? UI_GOOD : UI_BAD, false, false);
	widgets_text(win, y, 63, w - 63, k->pass ? "" : k->cause, role, false, false);
}

static const struct snapshot *acc_snap;	/* the console's newest, for the draw */

/* The data rate a card's port reports (rxe: 2 of its 2.5 Gb/s), 0 unknown. */
static double port_rate(const struct accept_card *c)
{
	for (int i = 0; acc_snap && i < acc_snap->nports; i++)
		if (!strcmp(acc_snap->ports[i].dev, c->dev) && acc_snap->ports[i].port == c->port)
			return acc_snap->ports[i].data_rate_gbps;
	return 0;
}

/* The selected card's evidence, wrapped into the rows left. */
static void evidence(WINDOW *win, int y, int rows, int w)
{
	int i = as.order[layout_clamp(as.list.sel, 0, as.v->n - 1)];
	const struct accept_card *c = &as.v->cards[i];
	const struct acc_card *k = &as.verdict[i];
	char meas[600], head[PORT_STR + 64], demo[160], got[48], rate[48];
	const struct { const char *label, *text; } f[] = {
		{ "width/speed", c->link }, { "PCIe", c->pcie }, { "NUMA", c->numa },
		{ "GID", c->gid }, { "MTU", c->mtu }, { "measured", meas },
		{ "cause", k->pass ? "none: passed" : k->cause },
	};
	int end = y + rows;

	screen_demo_line_note(port_rate(c), demo, sizeof(demo));
	if (c->ran)
		snprintf(meas, sizeof(meas), "%s against %s data rate (%s); reference %s %s",
			 numfmt_unit(c->gbps, "Gb/s", got, sizeof(got)),
			 numfmt_unit(c->data_gbps, "Gb/s", rate, sizeof(rate)),
			 demo[0] ? demo : c->data_source[0] ? c->data_source : "n/a",
			 c->ref_host, c->ref_dev);
	else
		snprintf(meas, sizeof(meas), "no result (the cause says why)");
	snprintf(head, sizeof(head), " EVIDENCE %s/%d  (Esc closes)", c->dev, c->port);
	widgets_text(win, y++, 0, w, head, UI_TITLE, false, true);
	for (size_t n = 0; n < sizeof(f) / sizeof(f[0]) && y < end; n++) {
		const char *t = f[n].text[0] ? f[n].text : "n/a (not read: the port was not found)";
		bool first = true;

		while (*t && y < end) {
			int next, len = layout_wrap(t, w - 16, &next);
			char buf[600];

			snprintf(buf, sizeof(buf), "  %-12s %.*s", first ? f[n].label : "", len, t);
			widgets_text(win, y++, 0, w, buf,
				     !strcmp(f[n].label, "cause") && !k->pass ? UI_BAD : UI_NORMAL, false, false);
			first = false;
			if (next <= 0)
				break;
			t += next;
		}
	}
}

/* The cards' footer; the first hint (Tab) only with pair results. */
static const struct keymap_hint cards_footer[] = {
	{ UI_ACT_ACC_VIEW, 0 }, { UI_ACT_UP, UI_ACT_DOWN }, { UI_ACT_ACC_EVIDENCE, 0 },
	{ UI_ACT_ACC_RUN, 0 }, { UI_ACT_BACK, 0 }, { UI_ACT_HELP, 0 },
};
#define CARDS_HINTS ((int)(sizeof(cards_footer) / sizeof(cards_footer[0])))

static void draw_cards(WINDOW *win, int w, int h)
{
	char buf[400], ref[128];
	int y = 1, rows;

	if (as.v) {
		const struct proto_params *p = &as.v->p;
		char len[32];

		if (p->duration_ms)
			snprintf(len, sizeof(len), "%.1f s", p->duration_ms / 1000.0);
		else
			snprintf(len, sizeof(len), "%llu iterations", (unsigned long long)p->iters);
		/* the state before the parameters: a narrow terminal clips the end */
		snprintf(buf, sizeof(buf), " ACCEPTANCE against %s, %s: send bandwidth at %llu B, %s, pass at %.0f %% of the data rate",
			 as.v->ref,
			 as.v->state == ACCEPT_JOB_READING ? "reading the ports" :
			 as.v->state == ACCEPT_JOB_RUNNING ? "running" :
			 as.v->state == ACCEPT_JOB_CANCELLED ? "cancelled" :
			 as.v->state == ACCEPT_JOB_FAILED ? "failed" : "done",
			 (unsigned long long)p->size, len, 100 * as.l.accept);
	} else {
		peer_host(ref, sizeof(ref));
		snprintf(buf, sizeof(buf), " ACCEPTANCE against %s", ref[0] ? ref : "(no reference: the console's peer)");
	}
	widgets_text(win, y++, 0, w, buf, UI_TITLE, false, true);
	if (!as.v || !as.v->n) {
		static const char *const lines[] = {
			"Every local card runs send bandwidth at 64 KiB against the reference host's agent",
			"('ibconsole serve' there) and passes at 90 % of its port's data rate (config",
			"test_accept_pct); a failing card's cause comes from what this host reads: trained",
			"width and speed, PCIe, NUMA, GID type, MTU. The reference is the console's peer",
			"(--peer HOST, the test screen's peer, or p on the fabric screen).",
			"",
			"Enter or r runs it.",
		};

		y++;
		for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]) && y < h - 2; i++)
			widgets_text(win, y++, 2, w - 2, lines[i], UI_NORMAL, false, false);
	} else {
		snprintf(buf, sizeof(buf), " %-16s %10s %10s %10s  %-10s %s", "device", "Gb/s", "% of rate", "line Gb/s",
			 "PASS/FAIL", running() ? "progress" : "cause");
		widgets_text(win, y++, 0, w, buf, UI_LABEL, false, true);
		rows = as.open ? layout_clamp(as.v->n, 1, 6) : h - 2 - y;
		widgets_list_draw(win, &as.list, y, rows, as.v->n, card_row, NULL);
		y += rows;
		if (as.open && h - 2 - y > 2)
			evidence(win, y + 1, h - 3 - y, w);
	}
	widgets_text(win, h - 2, 0, w, as.msg, as.msg_role, false, true);
	widgets_text(win, h - 1, 0, w,
		     running() ? " [Esc Esc] cancel   F1 help" :
		     keymap_footer(KEYS_ACCEPT, as.res ? cards_footer : cards_footer + 1,
				   as.res ? CARDS_HINTS : CARDS_HINTS - 1, false, buf, sizeof(buf)),
		     UI_FOOTER, false, true);
}

static void acc_draw(WINDOW *win, const struct ui_ctx *c)
{
	acc_snap = c->snap;
	if (as.heat && as.res)
		acc_heat_draw(win, as.res, getmaxx(win), getmaxy(win));
	else
		draw_cards(win, getmaxx(win), getmaxy(win));
}

/* ---- keys ---- */

static int acc_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	const int done = SCREEN_HANDLED | SCREEN_REDRAW;

	(void)c;
	if (key != KEYMAP_ESC && as.esc_at) {	/* the cancel question is dropped */
		as.esc_at = 0;
		as.msg[0] = '\0';
	}
	switch (a) {
	case UI_ACT_BACK:
		if (running()) {
			if (worker_now() - as.esc_at > ESC_CONFIRM_S) {
				/* one Esc only asks, as on the test screen */
				as.esc_at = worker_now();
				note(UI_WARN, "Esc again to cancel the acceptance (within %d s; any other key keeps it running)",
				     ESC_CONFIRM_S);
				return done;
			}
			accept_job_cancel(as.job);
			as.esc_at = 0;
			note(UI_WARN, "cancelling: the card under test is released at both ends ...");
			return done;
		}
		if (as.open && !as.heat) {
			as.open = false;
			return done;
		}
		if (as.heat && acc_heat_close())
			return done;
		as.msg[0] = '\0';
		return SCREEN_HANDLED | SCREEN_CLOSE | SCREEN_REDRAW;
	case UI_ACT_ACC_RUN:
		start();
		return done;
	case UI_ACT_ACC_EVIDENCE:
		if (as.heat)
			return acc_heat_key(a, as.res);
		if (!as.v || !as.v->n)
			start();
		else if (as.judged[as.order[layout_clamp(as.list.sel, 0, as.v->n - 1)]])
			as.open = !as.open;
		else
			note(UI_NORMAL, "that card is not tested yet — its evidence comes with its result");
		return done;
	case UI_ACT_ACC_VIEW:
		if (as.res)
			as.heat = !as.heat;
		else
			note(UI_NORMAL, "no pair results loaded — start the console with --accept-results DIR (a directory accept --hosts wrote)");
		return done;
	default:
		if (as.heat)
			return acc_heat_key(a, as.res);
		if (widgets_list_key(&as.list, a))
			return done;
		return 0;
	}
}

static void acc_on_resize(int w, int h)
{
	(void)w;
	(void)h;
	as.list.top = 0;
}

static int acc_wake_fd(void)
{
	return as.job ? accept_job_fd(as.job) : -1;
}

static bool acc_update(const struct ui_ctx *c)
{
	(void)c;
	if (!as.job || !as.v)
		return false;
	accept_job_drain(as.job);
	if (!accept_job_get(as.job, as.v))
		return false;
	judge();
	return true;
}

const struct screen screen_accept = {
	.name = "accept",
	.keys = KEYS_ACCEPT,
	.draw = acc_draw,
	.on_key = acc_on_key,
	.on_resize = acc_on_resize,
	.update = acc_update,
	.wake_fd = acc_wake_fd,
};

void screen_accept_shutdown(void)
{
	accept_job_stop(as.job);
	as.job = NULL;
	free(as.v);
	as.v = NULL;
	acceptres_free(as.res);
	as.res = NULL;
}
