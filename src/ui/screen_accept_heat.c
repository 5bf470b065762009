// SPDX-License-Identifier: MIT
/* The acceptance screen's pair heat map: each cell a pair's bandwidth in
 * % of the best pair's with a character per band (reads in monochrome
 * too), a cell cursor the arrow keys move, rows and columns that scroll
 * with it when the hosts outnumber the terminal, and on Enter the pair's
 * evidence as the results directory recorded it. */
#include "config.h"
#include "screen_accept_int.h"

#include <stdio.h>
#include <string.h>

#include "core/base/numfmt.h"
#include "diag/accept.h"
#include "keymap.h"
#include "layout.h"
#include "widgets.h"

#define CELL_W 7
#define LABEL_W 5	/* the row numbers */
#define NAME_W 26	/* room kept for the row's host name */
#define PANE_ROWS 8	/* the evidence pane */

static struct {
	int a, b;		/* the cursor: row host, column host */
	int top, left;		/* the first row and column shown */
	int rows;		/* rows shown at the last draw: PgUp / PgDn */
	bool open;		/* the cursor pair's evidence is shown */
	bool placed;		/* the cursor left its start */
} hm;

static const struct {
	char glyph;
	enum ui_role role;
} band_look[ACC_BAND_N] = {
	[ACC_BAND_TOP] = { '=', UI_GOOD }, [ACC_BAND_MID] = { '~', UI_NORMAL },
	[ACC_BAND_LOW] = { '-', UI_WARN }, [ACC_BAND_BAD] = { '!', UI_BAD },
	[ACC_BAND_NONE] = { 'x', UI_DIM },
};

static const struct keymap_hint heat_footer[] = {
	{ UI_ACT_ACC_LEFT, UI_ACT_ACC_RIGHT }, { UI_ACT_UP, UI_ACT_DOWN },
	{ UI_ACT_ACC_EVIDENCE, 0 }, { UI_ACT_ACC_VIEW, 0 }, { UI_ACT_ACC_RUN, 0 },
	{ UI_ACT_BACK, 0 }, { UI_ACT_HELP, 0 },
};

static double fleet_pct(const struct acceptres *r)
{
	return r->fleet_bw_pct > 0 ? r->fleet_bw_pct : 93;
}

/* The pair's share of the best pair's bandwidth, -1 when not measured. */
static double pair_pct(const struct acceptres *r, const struct acceptres_pair *p)
{
	double best = acceptres_best_gbps(r);

	return p && p->ok && best > 0 ? 100 * p->bw_gbps / best : -1;
}

static void legend(WINDOW *win, const struct acceptres *r, int y, int w)
{
	double fleet = fleet_pct(r);
	char lg[ACC_BAND_N][64];
	int x = 2;

	snprintf(lg[ACC_BAND_TOP], 64, "%c >= %.1f %%", band_look[ACC_BAND_TOP].glyph,
		 acc_band_floor(ACC_BAND_TOP, fleet));
	snprintf(lg[ACC_BAND_MID], 64, "%c %.0f-%.1f %%", band_look[ACC_BAND_MID].glyph, fleet,
		 acc_band_floor(ACC_BAND_TOP, fleet));
	snprintf(lg[ACC_BAND_LOW], 64, "%c < %.0f %% (re-test good)", band_look[ACC_BAND_LOW].glyph, fleet);
	snprintf(lg[ACC_BAND_BAD], 64, "%c judged bad", band_look[ACC_BAND_BAD].glyph);
	snprintf(lg[ACC_BAND_NONE], 64, "%c no result", band_look[ACC_BAND_NONE].glyph);
	for (int b = 0; b < ACC_BAND_N && x < w; b++)
		x += widgets_text(win, y, x, w - x, lg[b], band_look[b].role, false, false) + 3;
}

static void cell(WINDOW *win, const struct acceptres *r, int y, int x, int a, int b)
{
	const struct acceptres_pair *p = a == b ? NULL : acceptres_pair_of(r, a, b);
	double pct = pair_pct(r, p);
	enum acc_band band = p ? acc_heat_band(p->ok, p->bad, pct, fleet_pct(r)) : ACC_BAND_NONE;
	bool cur = a == hm.a && b == hm.b;
	char c[CELL_W + 8];

	if (a == b)
		snprintf(c, sizeof(c), "%*s", CELL_W, "\\ ");
	else if (!p || pct < 0)
		snprintf(c, sizeof(c), "%*s%c", CELL_W - 1, p ? "- " : "  ", band_look[band].glyph);
	else
		snprintf(c, sizeof(c), "%*.0f %c", CELL_W - 2, pct, band_look[band].glyph);
	/* the cursor in reverse video: it reads without colour too */
	widgets_text(win, y, x, CELL_W, c, cur ? UI_SELECTED : a == b ? UI_DIM : band_look[band].role,
		     false, false);
}

/* The cursor's pair in one line, for the status line. */
static void where(const struct acceptres *r, char *buf, size_t len)
{
	const struct acceptres_pair *p = hm.a == hm.b ? NULL : acceptres_pair_of(r, hm.a, hm.b);
	char bw[96] = "", g[48];

	if (p && p->ok)
		snprintf(bw, sizeof(bw), ": %s, %.0f %% of the best",
			 numfmt_unit(p->bw_gbps, "Gb/s", g, sizeof(g)), pair_pct(r, p));
	snprintf(buf, len, " row %d of %d, column %d of %d: %s - %s%s%s", hm.a + 1, r->nhosts, hm.b + 1,
		 r->nhosts, r->host[hm.a], r->host[hm.b],
		 hm.a == hm.b ? " (a host with itself: no pair)" : !p ? " (no such pair in the results)" :
		 bw, p ? p->bad ? ", bad" : ", good" : "");
}

/* The cursor pair's evidence: verdict, figures, re-test, both hosts. */
static void evidence(WINDOW *win, const struct acceptres *r, int y, int w)
{
	const struct acceptres_pair *p = hm.a == hm.b ? NULL : acceptres_pair_of(r, hm.a, hm.b);
	char head[400], bw[48], best[48], lat[48], t[PANE_ROWS][480];
	int n = 0;

	snprintf(head, sizeof(head), " EVIDENCE %s - %s  (Esc closes)", r->host[hm.a], r->host[hm.b]);
	widgets_text(win, y++, 0, w, head, UI_TITLE, false, true);
	if (!p) {
		widgets_text(win, y, 2, w - 2, "no such pair in the results", UI_DIM, false, false);
		return;
	}
	snprintf(t[n++], sizeof(t[0]), "  %-12s %s%s%s", "verdict", p->bad ? "bad" : "good",
		 p->why[0] ? ": " : "", p->why);
	if (p->ok) {
		snprintf(t[n++], sizeof(t[0]), "  %-12s %s, %.1f %% of the best pair's %s", "bandwidth",
			 numfmt_unit(p->bw_gbps, "Gb/s", bw, sizeof(bw)), pair_pct(r, p),
			 numfmt_unit(acceptres_best_gbps(r), "Gb/s", best, sizeof(best)));
		snprintf(t[n++], sizeof(t[0]), "  %-12s p99 %s", "latency",
			 p->lat_p99_us > 0 ? numfmt_unit(p->lat_p99_us, "us", lat, sizeof(lat)) : "n/a");
	} else {
		snprintf(t[n++], sizeof(t[0]), "  %-12s no result (the verdict says why)", "bandwidth");
	}
	snprintf(t[n++], sizeof(t[0]), "  %-12s %s", "re-tested", p->retested ? "yes: the verdict is the re-test's" : "no");
	for (int k = 0; k < 2; k++) {
		int h = k ? hm.b : hm.a;

		snprintf(t[n++], sizeof(t[0]), "  %-12s %s: %s%s", k ? "host B" : "host A", r->host[h],
			 r->host_bad[h] ? "BAD HOST, " : "not judged bad",
			 r->host_bad[h] ? r->host_why[h] : "");
	}
	for (int i = 0; i < n; i++)
		widgets_text(win, y + i, 0, w, t[i],
			     i == 0 && p->bad ? UI_BAD : UI_NORMAL, false, false);
}

/* The bad hosts and paths with their reasons, from y while rows last. */
static int bad_lines(WINDOW *win, const struct acceptres *r, int y, int end, int w, bool draw)
{
	char buf[600];
	int n = 0;

	for (int a = 0; a < r->nhosts; a++)
		if (r->host_bad[a]) {
			snprintf(buf, sizeof(buf), " BAD HOST %s: %s", r->host[a], r->host_why[a]);
			if (draw && y + n < end)
				widgets_text(win, y + n, 0, w, buf, UI_BAD, false, false);
			n++;
		}
	for (int i = 0; i < r->npairs; i++) {
		const struct acceptres_pair *p = &r->pairs[i];

		if (!p->bad || r->host_bad[p->a] || r->host_bad[p->b])
			continue;
		snprintf(buf, sizeof(buf), " BAD PATH %s - %s: %s", r->host[p->a], r->host[p->b], p->why);
		if (draw && y + n < end)
			widgets_text(win, y + n, 0, w, buf, UI_BAD, false, false);
		n++;
	}
	return n;
}

void acc_heat_draw(WINDOW *win, const struct acceptres *r, int w, int h)
{
	int nbad = 0, y = 1, cols, rows, below, n = r->nhosts;
	char buf[900], num[48];

	for (int i = 0; i < r->npairs; i++)
		nbad += r->pairs[i].bad;
	if (n > 1 && !hm.placed && hm.a == hm.b)
		hm.b = 1;	/* start off the diagonal: on a pair */
	hm.a = layout_clamp(hm.a, 0, n - 1);
	hm.b = layout_clamp(hm.b, 0, n - 1);
	snprintf(buf, sizeof(buf), " ACCEPTANCE RESULTS  %d hosts, %d pairs, %d bad; %s bandwidth at %llu B  %s  %s",
		 n, r->npairs, nbad, r->bw_op, (unsigned long long)r->bw_size, r->time, r->path);
	widgets_text(win, y++, 0, w, buf, UI_TITLE, false, true);
	snprintf(buf, sizeof(buf), " cell: the pair's bandwidth in %% of the best pair's (best %s); bands:",
		 numfmt_unit(acceptres_best_gbps(r), "Gb/s", num, sizeof(num)));
	widgets_text(win, y++, 0, w, buf, UI_LABEL, false, false);
	legend(win, r, y++, w);
	/* what is left below the column numbers: the pane or the bad lines,
	 * the status line and the footer */
	below = hm.open ? PANE_ROWS : layout_clamp(bad_lines(win, r, 0, 0, w, false), 0, 6);
	rows = layout_clamp(h - 3 - (y + 1) - below, 1, n > 0 ? n : 1);
	cols = layout_clamp((w - LABEL_W - NAME_W) / CELL_W, 1, n > 0 ? n : 1);
	hm.rows = rows;
	hm.top = layout_scroll(hm.a, hm.top, rows, n);
	hm.left = layout_scroll(hm.b, hm.left, cols, n);
	/* column numbers; < > say that more columns lie that way */
	snprintf(buf, sizeof(buf), "%*s", LABEL_W - 1, hm.left > 0 ? "<" : "");
	for (int b = hm.left; b < hm.left + cols && b < n; b++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%*d", CELL_W, b + 1);
	if (hm.left + cols < n)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " >");
	widgets_text(win, y++, 0, w, buf, UI_LABEL, false, false);
	for (int a = hm.top; a < hm.top + rows && a < n; a++, y++) {
		int x = LABEL_W + (cols < n - hm.left ? cols : n - hm.left) * CELL_W;

		snprintf(buf, sizeof(buf), "%4d ", a + 1);
		widgets_text(win, y, 0, LABEL_W, buf, a == hm.a ? UI_SELECTED : UI_LABEL, false, false);
		for (int b = hm.left; b < hm.left + cols && b < n; b++)
			cell(win, r, y, LABEL_W + (b - hm.left) * CELL_W, a, b);
		snprintf(buf, sizeof(buf), "  %s%s", r->host[a], r->host_bad[a] ? "  BAD HOST" : "");
		widgets_text(win, y, x, w - x, buf, r->host_bad[a] ? UI_BAD : UI_NORMAL, false, false);
	}
	if (hm.top + rows < n && y < h - 2)
		widgets_text(win, y++, 1, w - 1, "v  more rows below: Down / PgDn", UI_DIM, false, false);
	if (hm.open)
		evidence(win, r, y, w);
	else
		bad_lines(win, r, y, h - 2, w, true);
	where(r, buf, sizeof(buf));
	widgets_text(win, h - 2, 0, w, buf, UI_NORMAL, false, true);
	widgets_text(win, h - 1, 0, w,
		     keymap_footer(KEYS_ACCEPT, heat_footer, (int)(sizeof(heat_footer) / sizeof(heat_footer[0])),
				   false, buf, sizeof(buf)),
		     UI_FOOTER, false, true);
}

int acc_heat_key(enum ui_action a, const struct acceptres *r)
{
	const int done = SCREEN_HANDLED | SCREEN_REDRAW;
	int last = r->nhosts - 1, page = hm.rows > 1 ? hm.rows : 1;

	switch (a) {
	case UI_ACT_UP: hm.a--; break;
	case UI_ACT_DOWN: hm.a++; break;
	case UI_ACT_PAGE_UP: hm.a -= page; break;
	case UI_ACT_PAGE_DOWN: hm.a += page; break;
	case UI_ACT_FIRST: hm.a = 0; break;
	case UI_ACT_LAST: hm.a = last; break;
	case UI_ACT_ACC_LEFT: hm.b--; break;
	case UI_ACT_ACC_RIGHT: hm.b++; break;
	case UI_ACT_ACC_EVIDENCE:
		hm.open = !hm.open;
		return done;
	default:
		return 0;
	}
	hm.placed = true;
	hm.a = layout_clamp(hm.a, 0, last);
	hm.b = layout_clamp(hm.b, 0, last);
	return done;
}

bool acc_heat_close(void)
{
	bool was = hm.open;

	hm.open = false;
	return was;
}
