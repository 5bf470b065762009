// SPDX-License-Identifier: MIT
/* Fabric sweep view: every port of the discovered fabric is read (many
 * PMA queries in flight); only ports whose error counters are non-zero
 * or moved since the previous sweep are listed, worst verdict first. */
#include "config.h"
#include "screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctrview.h"
#include "layout.h"
#include "widgets.h"

#define KEY_ESC 27

static int sw_top;

struct sw_row {
	int idx;
	struct verdict v;
};

static int sw_cmp(const void *a, const void *b)
{
	const struct sw_row *x = a, *y = b;

	if (x->v.level != y->v.level)
		return (int)y->v.level - (int)x->v.level;
	return x->idx - y->idx;
}

static void sweep_draw(WINDOW *win, const struct ui_ctx *c)
{
	const struct ctr_model *m = c->ctr;
	int w = getmaxx(win), h = getmaxy(win), rows = h - 4, n = 0;
	static struct sw_row order[CTRW_MAX_FLAGGED];
	char buf[512];

	widgets_bar(win, 1, w, UI_TITLE);
	if (!m->sweep_gen) {
		snprintf(buf, sizeof(buf), " Fabric sweep: %s", m->sweep_busy ?
			 "discovering the fabric and reading every port ..." : "not started");
		widgets_text(win, 1, 0, w, buf, UI_TITLE, false, false);
	} else {
		snprintf(buf, sizeof(buf),
			 " Fabric sweep: %d nodes, %d ports in %.2f s, %d listed%s, %d failed%s",
			 m->sweep_nodes, m->sweep_ports, m->sweep_s, m->nflag,
			 m->flag_truncated ? "+" : "", m->sweep_failed,
			 m->sweep_busy ? "  (sweeping ...)" : "  (every 10 s; x: now)");
		widgets_text(win, 1, 0, w, buf, UI_TITLE, false, false);
	}
	if (m->sweep_err[0])
		widgets_text(win, 2, 1, w - 2, m->sweep_err, UI_BAD, false, false);
	snprintf(buf, sizeof(buf), " %-6s %-22s %5s %4s  %s", "RULE", "NODE", "LID", "PORT",
		 "COUNTERS (value, change since the previous sweep)");
	widgets_bar(win, 3, w, UI_TITLE);
	widgets_text(win, 3, 0, w, buf, UI_TITLE, false, false);
	for (int i = 0; i < m->nflag; i++) {
		order[n].idx = i;
		rules_eval_values(&m->flag[i].cs, ctrview_thresholds(), &order[n].v);
		n++;
	}
	qsort(order, (size_t)n, sizeof(order[0]), sw_cmp);
	if (m->sweep_gen && !n && !m->sweep_err[0])
		widgets_text(win, 4, 1, w - 2,
			     "no port has a non-zero error counter", UI_GOOD, false, false);
	sw_top = layout_clamp(sw_top, 0, n > rows ? n - rows : 0);
	for (int r = 0; r < rows && sw_top + r < n; r++) {
		const struct sw_row *o = &order[sw_top + r];
		const struct monitor_flagged *f = &m->flag[o->idx];
		int len;

		len = snprintf(buf, sizeof(buf), " %-6s %-22.22s %5u %4d ",
			       verdict_name(o->v.level), f->node_desc, f->lid, f->port);
		for (int k = 0; k < f->cs.n && len < (int)sizeof(buf) - 60; k++) {
			const struct ctr_value *x = &f->cs.c[k];
			const struct ctr_value *p = f->prev.valid ? counters_find(&f->prev, x->name) : NULL;

			if (x->cls == CTR_TRAFFIC || (!x->value && !(p && p->value != x->value)))
				continue;
			len += snprintf(buf + len, sizeof(buf) - (size_t)len, " %s=%llu",
					x->name, (unsigned long long)x->value);
			if (p && p->value != x->value)
				len += snprintf(buf + len, sizeof(buf) - (size_t)len, "(%+lld)",
						(long long)(x->value - p->value));
		}
		widgets_text(win, 4 + r, 0, w, buf,
			     o->v.level == VERDICT_ACT ? UI_BAD :
			     o->v.level == VERDICT_WATCH || f->moved ? UI_WARN : UI_NORMAL,
			     false, true);
	}
	widgets_bar(win, h - 1, w, UI_FOOTER);
	widgets_text(win, h - 1, 0, w,
		     " x sweep now  Up/Down scroll  c counters  e events  Esc back  q quit   rule: errors since last clear vs thresholds",
		     UI_FOOTER, false, false);
}

static int sweep_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	switch (a) {
	case UI_ACT_UP:
		sw_top--;
		return SCREEN_HANDLED | SCREEN_REDRAW;
	case UI_ACT_DOWN:
		sw_top++;
		return SCREEN_HANDLED | SCREEN_REDRAW;
	case UI_ACT_SWEEP:
		if (c->cw)
			monitor_sweep(c->cw);
		return SCREEN_HANDLED | SCREEN_REDRAW;
	default:
		break;
	}
	if (key == KEY_ESC)
		return SCREEN_HANDLED | SCREEN_CLOSE | SCREEN_REDRAW;
	return 0;
}

static void sweep_on_resize(int w, int h)
{
	sw_top = 0;
}

const struct screen screen_sweep = {
	.name = "sweep",
	.draw = sweep_draw,
	.on_key = sweep_on_key,
	.on_resize = sweep_on_resize,
};
