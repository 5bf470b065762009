// SPDX-License-Identifier: MIT
/* Ports screen: a live table of the local HCA ports and a detail pane
 * with every field of the selected port, unknowns shown as "n/a (why)". */
#include "config.h"
#include "screen_ports_int.h"

#include <stdio.h>
#include <string.h>

#include "core/testrun/peer.h"
#include "ctrview.h"
#include "layout.h"
#include "widgets.h"

enum {
	COL_PORT, COL_STATE, COL_PHYS, COL_LAYER, COL_LINK, COL_RATE,
	COL_MTU, COL_LID,
	COL_TX, COL_RX, COL_ERR, COL_PEER,	/* counters */
	COL_NETDEV, COL_NUMA, COL_PCIE, COL_FLAGS,
	COL_N
};

/* drop: higher ranks go first when the terminal is narrow */
static const struct layout_col ports_cols[COL_N] = {
	[COL_PORT] = { "PORT", 10, 22, 0, false },
	[COL_STATE] = { "STATE", 6, 6, 0, false },
	[COL_PHYS] = { "PHYS", 8, 12, 3, false },
	[COL_LAYER] = { "LAYER", 5, 5, 4, false },
	[COL_LINK] = { "LINK", 9, 9, 1, false },
	[COL_RATE] = { "RATE", 9, 9, 0, true },
	[COL_MTU] = { "MTU act/max", 11, 11, 2, false },
	[COL_LID] = { "LID", 5, 5, 5, true },
	[COL_NETDEV] = { "NETDEV", 8, 14, 7, false },
	[COL_NUMA] = { "NUMA", 4, 4, 8, true },
	[COL_PCIE] = { "PCIe", 9, 9, 6, false },
	[COL_FLAGS] = { "FLAGS", 5, 5, 0, false },
	/* counters; errors go with PCIe, rates first, so the
	 * 80-column table keeps the link facts */
	[COL_TX] = { "TX Gb/s", 7, 8, 9, true },
	[COL_RX] = { "RX Gb/s", 7, 8, 9, true },
	[COL_ERR] = { "ERR/10m", 7, 8, 6, true },
	/* the neighbour's errors in the same window */
	[COL_PEER] = { "PEER ERR", 8, 8, 7, true },
};


/* Screen state: the selection follows the port (dev, port) across
 * snapshots, not the row number. */
static struct {
	int sel, top;
	char sel_dev[PORT_STR];
	int sel_port;
} ports;

const char *ports_state_short(int st)
{
	const char *n = st ? port_state_name(st) : NULL;

	return n && *n ? n : "n/a";
}

static const char *ports_layer_short(const struct port_info *p)
{
	if (strcmp(p->link_layer, "InfiniBand") == 0)
		return "IB";
	if (strcmp(p->link_layer, "Ethernet") == 0)
		return "RoCE";
	return p->link_layer[0] ? p->link_layer : "n/a";
}

bool ports_is_ib(const struct port_info *p)
{
	return strcmp(p->link_layer, "Ethernet") != 0;
}

static char *ports_flags(const struct port_info *p, char *buf, int len)
{
	snprintf(buf, len, "%c%c%c", p->below_capability ? 'R' : '-',
		 (p->pcie_limits || (p->pcie.v.valid && p->pcie.degraded)) ?
			 'P' : '-',
		 p->state != 4 ? 'D' : '-');
	return buf;
}

static bool ports_flagged(const struct port_info *p)
{
	return p->below_capability || p->pcie_limits ||
	       (p->pcie.v.valid && p->pcie.degraded) || p->state != 4;
}

const struct ui_ctx *ports_ctx;	/* counter cells */

/* One table cell's text and role. */
static enum ui_role ports_cell(const struct port_info *p, int col, char *b,
			       int len)
{
	switch (col) {
	case COL_TX:
		return ctrview_cell(ports_ctx, p, CTRVIEW_TX, b, len);
	case COL_RX:
		return ctrview_cell(ports_ctx, p, CTRVIEW_RX, b, len);
	case COL_ERR:
		return ctrview_cell(ports_ctx, p, CTRVIEW_ERR, b, len);
	case COL_PEER:
		return ctrview_cell(ports_ctx, p, CTRVIEW_PEER_ERR, b, len);
	case COL_PORT:
		snprintf(b, len, "%s/%d", p->dev, p->port);
		return UI_NORMAL;
	case COL_STATE:
		snprintf(b, len, "%s", ports_state_short(p->state));
		return p->state == 4 ? UI_GOOD : UI_BAD;
	case COL_PHYS:
		snprintf(b, len, "%s",
			 p->phys_state ? port_phys_state_name(p->phys_state) :
					 "n/a");
		return p->phys_state == 5 ? UI_NORMAL : UI_WARN;
	case COL_LAYER:
		snprintf(b, len, "%s", ports_layer_short(p));
		return UI_NORMAL;
	case COL_LINK:
		if (!p->link_v.valid || !p->width_active) {
			snprintf(b, len, "n/a");
			return UI_DIM;
		}
		snprintf(b, len, "%s %s", port_width_name(p->width_active),
			 p->speed_name[0] ? p->speed_name : "?");
		return p->below_capability ? UI_WARN : UI_NORMAL;
	case COL_RATE:
		layout_fmt_gbps(p->rate_gbps, b, len);
		if (!(p->rate_gbps > 0))
			return UI_DIM;
		return p->below_capability ? UI_WARN : UI_NORMAL;
	case COL_MTU:
		if (!p->mtu_v.valid) {
			snprintf(b, len, "n/a");
			return UI_DIM;
		}
		snprintf(b, len, "%d/%d", p->mtu_active, p->mtu_max);
		return UI_NORMAL;
	case COL_LID:
		if (!ports_is_ib(p)) {
			snprintf(b, len, "-");
			return UI_DIM;
		}
		if (!p->addr_v.valid) {
			snprintf(b, len, "n/a");
			return UI_DIM;
		}
		snprintf(b, len, "%u", p->lid);
		return UI_NORMAL;
	case COL_NETDEV:
		snprintf(b, len, "%s", p->netdev[0] ? p->netdev : "-");
		return p->netdev[0] ? UI_NORMAL : UI_DIM;
	case COL_NUMA:
		if (!p->numa.v.valid) {
			snprintf(b, len, "n/a");
			return UI_DIM;
		}
		if (p->numa.node < 0)
			snprintf(b, len, "-");
		else
			snprintf(b, len, "%d", p->numa.node);
		return UI_NORMAL;
	case COL_PCIE:
		if (!p->pcie.v.valid || !p->pcie.cur_width) {
			snprintf(b, len, "n/a");
			return UI_DIM;
		}
		snprintf(b, len, "Gen%d x%d%s", layout_pcie_gen(p->pcie.cur_gts),
			 p->pcie.cur_width, p->pcie.degraded ? "!" : "");
		return p->pcie.degraded || p->pcie_limits ? UI_WARN : UI_NORMAL;
	case COL_FLAGS:
		ports_flags(p, b, len);
		return ports_flagged(p) ? UI_WARN : UI_DIM;
	}
	b[0] = '\0';
	return UI_NORMAL;
}

/* ---- table ---- */

static void ports_find_sel(const struct snapshot *s)
{
	int i;

	for (i = 0; i < s->nports; i++)
		if (strcmp(s->ports[i].dev, ports.sel_dev) == 0 &&
		    s->ports[i].port == ports.sel_port) {
			ports.sel = i;
			return;
		}
	ports.sel = layout_clamp(ports.sel, 0, s->nports - 1);
}

static void ports_remember_sel(const struct snapshot *s)
{
	snprintf(ports.sel_dev, sizeof(ports.sel_dev), "%s",
		 s->ports[ports.sel].dev);
	ports.sel_port = s->ports[ports.sel].port;
}

static void ports_draw_table(WINDOW *win, const struct layout_frame *f,
			     const struct snapshot *s)
{
	int x[COL_N], w[COL_N], c, r, reserve = 0;
	char cell[128], pos[32] = "";

	/* the "3/40" position sits at the header's right end: keep the
	 * columns clear of it, or it overwrites the last title */
	if (s->nports > f->table_h) {
		snprintf(pos, sizeof(pos), "%d/%d", ports.sel + 1, s->nports);
		reserve = (int)strlen(pos) + 1;
	}
	layout_columns(ports_cols, COL_N, f->w - 1 - reserve, 1, x, w);
	widgets_bar(win, f->table_y, f->w, UI_TITLE);
	for (c = 0; c < COL_N; c++)
		if (w[c])
			widgets_text(win, f->table_y, 1 + x[c], w[c],
				     ports_cols[c].title, UI_TITLE,
				     ports_cols[c].right, true);

	ports.top = layout_scroll(ports.sel, ports.top, f->table_h, s->nports);
	for (r = 0; r < f->table_h; r++) {
		int i = ports.top + r, y = f->table_y + 1 + r;
		bool sel = i == ports.sel;

		if (i >= s->nports)
			break;
		if (sel)
			widgets_bar(win, y, f->w, UI_SELECTED);
		for (c = 0; c < COL_N; c++) {
			enum ui_role role;

			if (!w[c])
				continue;
			role = ports_cell(&s->ports[i], c, cell, sizeof(cell));
			widgets_text(win, y, 1 + x[c], w[c], cell,
				     sel ? UI_SELECTED : role,
				     ports_cols[c].right, false);
		}
	}
	if (pos[0])
		widgets_text(win, f->table_y, f->w - (int)strlen(pos) - 1,
			     (int)strlen(pos), pos, UI_TITLE, false, false);
}

/* The main actions first, then moving and the flags legend where the
 * width allows; the keys and words come from the key table. */
static const struct keymap_hint ports_actions[] = {
	{ UI_ACT_TEST, 0 }, { UI_ACT_TRIAGE, 0 }, { UI_ACT_ACCEPT, 0 },
	{ UI_ACT_FABRIC, 0 }, { UI_ACT_DEMO, 0 }, { UI_ACT_HELP, 0 }, { UI_ACT_QUIT, 0 },
};
static const struct keymap_hint ports_moves[] = {
	{ UI_ACT_UP, UI_ACT_DOWN }, { UI_ACT_PAGE_UP, UI_ACT_PAGE_DOWN },
	{ UI_ACT_SLOWER, UI_ACT_FASTER },
};

static void ports_draw_footer(WINDOW *win, const struct layout_frame *f,
			      const struct ui_ctx *c)
{
	static const char flags[] = " FLAGS: R rate<max P PCIe D down";
	char buf[320], more[160];
	size_t n;

	widgets_bar(win, f->footer_y, f->w, UI_FOOTER);
	if (c->st->status != SNAP_OK) {
		snprintf(buf, sizeof(buf),
			 " refresh failed, showing the last good data: %s",
			 c->st->err);
		widgets_text(win, f->footer_y, 0, f->w, buf, UI_FOOTER, false,
			     false);
		return;
	}
	keymap_footer(KEYS_PORTS, ports_actions,
		      (int)(sizeof(ports_actions) / sizeof(ports_actions[0])),
		      screen_demo_active(), buf, sizeof(buf));
	keymap_footer(KEYS_PORTS, ports_moves,
		      (int)(sizeof(ports_moves) / sizeof(ports_moves[0])), false,
		      more, sizeof(more));
	n = strlen(buf);
	if ((int)(n + 1 + strlen(more)) <= f->w)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "|%s", more);
	if ((int)(n + strlen(flags)) <= f->w)
		snprintf(buf + n, sizeof(buf) - n, "%s", flags);
	widgets_text(win, f->footer_y, 0, f->w, buf, UI_FOOTER, false, false);
}

/* The status line under the header: where to look first — the fabric's
 * problem count (none on a RoCE-only host: no subnet manager, nothing
 * to discover), the last triage's conclusion and its age, the marked
 * test peer. */
static struct {
	enum fab_known fabric;
	bool roce_only;
	int errors, warns;
} pstat;

/* Every port Ethernet: RoCE, which has no subnet management. */
static bool ports_roce_only(const struct snapshot *s)
{
	for (int i = 0; i < s->nports; i++)
		if (strcmp(s->ports[i].link_layer, "Ethernet"))
			return false;
	return s->nports > 0;
}

static bool ports_update(const struct ui_ctx *c)
{
	int e = 0, w = 0;
	enum fab_known known;
	bool changed, roce = ports_roce_only(c->snap);

	changed = screen_triage_poll();
	known = screen_fabric_problems(&e, &w);
	if (known != pstat.fabric || e != pstat.errors || w != pstat.warns ||
	    roce != pstat.roce_only)
		changed = true;
	pstat.fabric = known;
	pstat.roce_only = roce;
	pstat.errors = e;
	pstat.warns = w;
	return changed;
}

static void ports_draw_status(WINDOW *win, int y, int w)
{
	char fab[64], peer[128], buf[512];
	bool stale;
	const char *last = screen_triage_last(&stale);

	if (pstat.roce_only)
		snprintf(fab, sizeof(fab), "fabric: none (RoCE: no subnet manager)");
	else if (pstat.fabric == FAB_KNOWN)
		snprintf(fab, sizeof(fab), "fabric: %d problem%s%s", pstat.errors + pstat.warns,
			 pstat.errors + pstat.warns == 1 ? "" : "s",
			 pstat.errors + pstat.warns ? " (f)" : "");
	else if (pstat.fabric == FAB_FAILED)
		snprintf(fab, sizeof(fab), "fabric: discovery failed (f)");
	else
		snprintf(fab, sizeof(fab), "fabric: discovering (f)");
	peer_host(peer, sizeof(peer));
	snprintf(buf, sizeof(buf), " %s | triage: %s | peer: %s", fab,
		 last[0] ? last : "not run (T)",
		 peer[0] ? peer : "none (p on the fabric screen, or --peer HOST)");
	widgets_text(win, y, 0, w, buf,
		     pstat.errors || stale || strstr(last, "(step") ? UI_WARN : UI_NORMAL,
		     false, true);
}

static void ports_draw(WINDOW *win, const struct ui_ctx *c)
{
	const struct snapshot *s = c->snap;
	struct layout_frame f;
	bool status = true;

	/* one line for the status under the header, when the room allows */
	layout_frame(getmaxx(win), getmaxy(win) - 1, s->nports, &f);
	if (f.too_small) {
		status = false;
		layout_frame(getmaxx(win), getmaxy(win), s->nports, &f);
	} else {
		f.table_y++;
		f.detail_y++;
		f.footer_y++;
		f.h++;
	}
	if (f.too_small)
		return;		/* the app shows the message */
	if (status)
		ports_draw_status(win, 1, f.w);
	ports_ctx = c;
	ports_find_sel(s);
	ports_remember_sel(s);
	ports_draw_table(win, &f, s);
	ports_detail_draw(win, &f, s, ports.sel, c->ctr);
	ports_draw_footer(win, &f, c);
}

static int ports_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	int n = c->snap->nports;
	int old = ports.sel;

	switch (a) {
	case UI_ACT_UP:
		ports.sel--;
		break;
	case UI_ACT_DOWN:
		ports.sel++;
		break;
	case UI_ACT_FIRST:
		ports.sel = 0;
		break;
	case UI_ACT_LAST:
		ports.sel = n - 1;
		break;
	case UI_ACT_PAGE_UP:
		ports_detail_scroll(-1);
		return SCREEN_HANDLED | SCREEN_REDRAW;
	case UI_ACT_PAGE_DOWN:
		ports_detail_scroll(1);
		return SCREEN_HANDLED | SCREEN_REDRAW;
	default:
		return 0;
	}
	ports.sel = layout_clamp(ports.sel, 0, n - 1);
	if (ports.sel != old) {
		ports_detail_home();
		ports_remember_sel(c->snap);
		/* the detail pane shows another port: its module read now */
		if (c->sm)
			sampler_read_modules(c->sm);
	}
	return SCREEN_HANDLED | SCREEN_REDRAW;
}

static void ports_on_resize(int w, int h)
{
	ports_detail_home();
}

void screen_ports_selected(char *dev, int len, int *port)
{
	snprintf(dev, len, "%s", ports.sel_dev);
	*port = ports.sel_port;
}

const struct screen screen_ports = {
	.name = "ports",
	.keys = KEYS_PORTS,
	.draw = ports_draw,
	.update = ports_update,
	.on_key = ports_on_key,
	.on_resize = ports_on_resize,
};
