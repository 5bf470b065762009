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

static struct widgets_list sw_list = { .sel = -1 };

struct sw_rows {
	const struct ctr_model *m;
	const struct ctrview_sweep_row *order;
};

static void sweep_row(WINDOW *win, int y, int i, bool sel, void *arg)
{
	const struct sw_rows *sr = arg;
	const struct ctrview_sweep_row *o = &sr->order[i];
	const struct monitor_flagged *f = &sr->m->flag[o->idx];
	char buf[512];
	int len;

	(void)sel;
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
	widgets_text(win, y, 0, getmaxx(win), buf,
		     o->v.level == VERDICT_ACT ? UI_BAD :
		     o->v.level == VERDICT_WATCH || f->moved ? UI_WARN : UI_NORMAL,
		     false, true);
}

static void sweep_draw(WINDOW *win, const struct ui_ctx *c)
{
	const struct ctr_model *m = c->ctr;
	int w = getmaxx(win), h = getmaxy(win), n;
	const struct ctrview_sweep_row *order;
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
	n = ctrview_sweep_rows(&order);	/* judged when the sweep arrived */
	if (m->sweep_gen && !n && !m->sweep_err[0])
		widgets_text(win, 4, 1, w - 2,
			     "no port has a non-zero error counter", UI_GOOD, false, false);
	widgets_list_draw(win, &sw_list, 4, h - 4, n, sweep_row,
			  &(struct sw_rows){ .m = m, .order = order });
	widgets_bar(win, h - 1, w, UI_FOOTER);
	widgets_text(win, h - 1, 0, w,
		     " x sweep now  Up/Down scroll  c counters  e events  Esc back  q quit   rule: errors between sweeps per 10 min, and since last clear",
		     UI_FOOTER, false, false);
}

static int sweep_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	(void)key;
	if (widgets_list_key(&sw_list, a))
		return SCREEN_HANDLED | SCREEN_REDRAW;
	if (a == UI_ACT_SWEEP_NOW) {
		if (c->cw)
			monitor_sweep(c->cw);
		return SCREEN_HANDLED | SCREEN_REDRAW;
	}
	return 0;
}

/* Left: no more sweeps every 10 s until the next request. */
static void sweep_leave(const struct ui_ctx *c)
{
	if (c->cw)
		monitor_sweep_stop(c->cw);
}

static void sweep_on_resize(int w, int h)
{
	sw_list.top = 0;
}

const struct screen screen_sweep = {
	.name = "sweep",
	.keys = KEYS_SWEEP,
	.draw = sweep_draw,
	.on_key = sweep_on_key,
	.leave = sweep_leave,
	.on_resize = sweep_on_resize,
};
