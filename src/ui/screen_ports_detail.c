// SPDX-License-Identifier: MIT
/* The ports screen's detail pane: every field of the selected port as
 * labelled items (link, the other end, host, identity, GIDs), unknowns
 * as "n/a (why)", wrapped into two balanced columns and scrolled by
 * PgUp / PgDn. The table beside it is screen_ports.c. */
#include "config.h"
#include "screen_ports_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/optics/report.h"
#include "core/testrun/peer.h"
#include "ctrview.h"
#include "layout.h"
#include "widgets.h"

#define DETAIL_LABEL_W 17
#define DETAIL_MAX_ITEMS (64 + PORT_MAX_GIDS)
#define DETAIL_MAX_LINES 512

struct ports_item {
	char label[24];
	char value[200];
	enum ui_role role;
	bool wide;	/* full width, after the two-column part */
};

struct ports_line {
	const struct ports_item *item;
	bool first;			/* shows the label */
	int off, len;			/* slice of item->value */
};

/* The pane's items and wrapped lines for the port drawn last, and its
 * scroll position. */
static struct {
	int top, rows, h;
	struct ports_item items[DETAIL_MAX_ITEMS];
	struct ports_line left[DETAIL_MAX_LINES], right[DETAIL_MAX_LINES];
	struct ports_line wide[DETAIL_MAX_LINES];
} detail;

static int detail_nitems;


static struct ports_item *ports_add(const char *label, enum ui_role r,
				    const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static struct ports_item *ports_add(const char *label, enum ui_role r,
				    const char *fmt, ...)
{
	struct ports_item *it;
	va_list ap;

	if (detail_nitems >= DETAIL_MAX_ITEMS)
		return NULL;
	it = &detail.items[detail_nitems++];
	snprintf(it->label, sizeof(it->label), "%s", label);
	va_start(ap, fmt);
	vsnprintf(it->value, sizeof(it->value), fmt, ap);
	va_end(ap);
	it->role = r;
	it->wide = false;
	return it;
}

static void ports_add_na(const char *label, const struct port_field_err *e)
{
	ports_add(label, UI_DIM, "n/a (%s)", e->why[0] ? e->why : "unknown");
}

static void ports_items_ids(const struct port_info *p)
{
	ports_add("Device", UI_NORMAL, "%s, port %d", p->dev, p->port);
	ports_add("CA type", p->ca_type[0] ? UI_NORMAL : UI_DIM, "%s",
		  p->ca_type[0] ? p->ca_type : "n/a (not reported)");
	ports_add("Firmware", p->fw_ver[0] ? UI_NORMAL : UI_DIM, "%s",
		  p->fw_ver[0] ? p->fw_ver : "n/a (not reported)");
	ports_add("Hardware ver", p->hw_ver[0] ? UI_NORMAL : UI_DIM, "%s",
		  p->hw_ver[0] ? p->hw_ver : "n/a (not reported)");
	if (p->board_id_v.valid)
		ports_add("Board ID", UI_NORMAL, "%s", p->board_id);
	else
		ports_add_na("Board ID", &p->board_id_v);

	if (!p->addr_v.valid) {
		ports_add_na("GUIDs, LID, SM", &p->addr_v);
		return;
	}
	ports_add("Node GUID", UI_NORMAL, "0x%016llx",
		  (unsigned long long)p->node_guid);
	ports_add("Sys image GUID", UI_NORMAL, "0x%016llx",
		  (unsigned long long)p->sys_guid);
	ports_add("Port GUID", UI_NORMAL, "0x%016llx",
		  (unsigned long long)p->port_guid);
	ports_add("GID prefix", UI_NORMAL, "0x%016llx",
		  (unsigned long long)p->gid_prefix);
	if (ports_is_ib(p)) {
		ports_add("LID / LMC", p->lid ? UI_NORMAL : UI_WARN,
			  "%u (0x%x) / %u%s", p->lid, p->lid, p->lmc,
			  p->lid ? "" : "  no LID assigned (no SM?)");
		ports_add("SM LID / SL", p->sm_lid ? UI_NORMAL : UI_WARN,
			  "%u (0x%x) / %u", p->sm_lid, p->sm_lid, p->sm_sl);
	} else {
		ports_add("LID / SM LID", UI_DIM,
			  "n/a (Ethernet link layer: no LIDs)");
	}
	ports_add("Capability mask", UI_NORMAL, "0x%08x", p->cap_mask);
}

/* The other end of the cable: who it is, then both ends' error counters
 * side by side over the console's window (here | there) — those that
 * moved at either end, or one line saying none did. */
static void ports_items_peer(const struct port_info *p)
{
	const struct ctr_model *m = ports_ctx ? ports_ctx->ctr : NULL;
	int i = ctrview_find(m, p->dev, p->port);
	const struct delta_port *here, *there;
	struct ports_item *it;
	double win = ctrview_thresholds()->window_s;
	bool first = true;
	int nerr = 0;

	if (!ports_is_ib(p))
		return;
	if (!p->peer.v.valid) {
		ports_add_na("Other end", &p->peer.v);
		return;
	}
	ports_add("Other end", UI_NORMAL, "%s (%s) port %d, LID %u, GUID 0x%016llx",
		  p->peer.name[0] ? p->peer.name : "?", port_peer_type_name(p->peer.type),
		  p->peer.port, p->peer.lid, (unsigned long long)p->peer.guid);
	if (i < 0 || !m->peer[i].sampled) {
		ports_add("Other end errs", UI_DIM, "n/a (%s)",
			  p->peer.lid ? "not sampled yet" : "the neighbour has no LID");
		return;
	}
	if (!m->peer[i].valid) {
		ports_add("Other end errs", UI_WARN, "n/a (%s)", m->peer[i].why);
		return;
	}
	here = &m->dp[i];
	there = &m->peer_dp[i];
	for (int k = 0; k < there->n; k++) {
		const struct delta_ctr *c = &there->c[k], *l;
		char av[24];
		uint64_t a, b;

		if (c->cls != CTR_ERROR)
			continue;
		l = delta_find(here, c->name);
		a = l ? delta_window(l, m->now, win) : 0;
		b = delta_window(c, m->now, win);
		nerr++;
		if (!a && !b)
			continue;
		if (first) {
			it = ports_add("Errors here|there", UI_DIM, "%-30s %9s %9s  (last %.0f min)",
				       "counter", "here", "there", win / 60);
			if (it)
				it->wide = true;
			first = false;
		}
		if (l)
			snprintf(av, sizeof(av), "%llu", (unsigned long long)a);
		else
			snprintf(av, sizeof(av), "n/a");
		it = ports_add("", UI_WARN, "%-30s %9s %9llu",
			       c->name, av, (unsigned long long)b);
		if (it)
			it->wide = true;
	}
	if (first)
		ports_add("Errors here|there", UI_GOOD,
			  "none at either end in the last %.0f min (%d error counters)",
			  win / 60, nerr);
}

/* Only SMP reports enabled/supported sets; sysfs and verbs do not. */
static void ports_mask(const char *label, bool known, const char *text)
{
	if (known)
		ports_add(label, UI_NORMAL, "%s", text);
	else
		ports_add(label, UI_DIM, "n/a (not reported without SMP)");
}

static void ports_items_link(const struct port_info *p)
{
	char a[96], b[96];

	ports_add("State", p->state == 4 ? UI_GOOD : UI_BAD, "%s (%d)",
		  ports_state_short(p->state), p->state);
	ports_add("Phys state", p->phys_state == 5 ? UI_GOOD : UI_BAD,
		  "%s (%d)",
		  p->phys_state ? port_phys_state_name(p->phys_state) : "n/a",
		  p->phys_state);
	ports_add("Link layer", p->link_layer[0] ? UI_NORMAL : UI_DIM, "%s%s",
		  p->link_layer[0] ? p->link_layer : "n/a (not reported)",
		  ports_is_ib(p) ? "" : " (RoCE)");

	if (!p->link_v.valid) {
		ports_add_na("Width / speed", &p->link_v);
	} else {
		ports_add("Width active", UI_NORMAL, "%s",
			  port_width_name(p->width_active));
		ports_mask("Width enabled", p->caps_valid,
			   port_width_list(p->width_enabled, a, sizeof(a)));
		ports_mask("Width supported", p->caps_valid,
			   port_width_list(p->width_supported, a, sizeof(a)));
		if (p->lane_gbps > 0)
			ports_add("Speed active", UI_NORMAL,
				  "%s, %.10g Gb/s per lane",
				  p->speed_name[0] ? p->speed_name : "?",
				  p->lane_gbps);
		else
			ports_add("Speed active", UI_DIM, "n/a (undecoded)");
		ports_mask("Speed enabled", p->caps_valid,
			   port_speed_list(p, true, a, sizeof(a)));
		ports_mask("Speed supported", p->caps_valid,
			   port_speed_list(p, false, a, sizeof(a)));
	}

	if (p->rate_gbps > 0)
		ports_add("Rate", p->below_capability ? UI_WARN : UI_NORMAL,
			  "%s (%s %s)",
			  layout_fmt_gbps(p->rate_gbps, a, sizeof(a)),
			  p->width_active ? port_width_name(p->width_active) :
					    "?",
			  p->speed_name[0] ? p->speed_name : "?");
	else
		ports_add("Rate", UI_DIM, "n/a (%s)",
			  p->link_v.valid ? "speed not decoded" :
			  p->link_v.why[0] ? p->link_v.why : "unknown");
	if (p->data_rate_gbps > 0)
		ports_add("Data rate", UI_NORMAL, "%s (%s)",
			  layout_fmt_gbps(p->data_rate_gbps, a, sizeof(a)),
			  p->data_rate_source);
	else
		ports_add("Data rate", UI_DIM, "n/a (rate unknown)");
	ports_add("Max rate", p->max_rate_gbps > 0 ? UI_NORMAL : UI_DIM, "%s",
		  p->max_rate_gbps > 0 ?
			  layout_fmt_gbps(p->max_rate_gbps, b, sizeof(b)) :
			  "n/a (enabled/supported unknown)");
	if (p->below_capability)
		ports_add("Below capability", UI_WARN, "yes: %s",
			  p->below_why[0] ? p->below_why : "reason unknown");
	else if (p->link_v.valid && p->max_rate_gbps > 0)
		ports_add("Below capability", UI_GOOD,
			  "no (running at its best rate)");
	else if (p->link_v.valid)
		ports_add("Below capability", UI_DIM,
			  "n/a (enabled/supported unknown)");
	else
		ports_add_na("Below capability", &p->link_v);
	ports_add("Kernel rate", p->rate_sysfs[0] ? UI_NORMAL : UI_DIM, "%s",
		  p->rate_sysfs[0] ? p->rate_sysfs : "n/a (no sysfs rate)");
	if (p->umad_rate)
		ports_add("ibstat Rate", UI_NORMAL, "%s",
			  port_ibstat_rate(p->umad_rate, p->fdr10, a, sizeof(a)));
	else
		ports_add("ibstat Rate", UI_DIM, "n/a (umad gave no rate)");

	if (p->mtu_v.valid)
		ports_add("MTU", UI_NORMAL,
			  "active %d bytes, max %d bytes (%s)", p->mtu_active,
			  p->mtu_max, p->mtu_source[0] ? p->mtu_source : "?");
	else
		ports_add_na("MTU", &p->mtu_v);
}

static void ports_items_host(const struct port_info *p)
{
	struct ports_item *it;
	char a[64];

	if (p->netdev[0]) {
		ports_add("Netdev", UI_NORMAL, "%s", p->netdev);
		if (p->netdev_mtu)
			ports_add("Netdev MTU", UI_NORMAL, "%d bytes",
				  p->netdev_mtu);
		else
			ports_add("Netdev MTU", UI_DIM, "n/a (unreadable)");
		if (p->netdev_speed_mbps > 0)
			ports_add("Netdev speed", UI_NORMAL, "%d Mb/s",
				  p->netdev_speed_mbps);
		else
			ports_add("Netdev speed", UI_DIM,
				  "n/a (not reported by the driver)");
	} else {
		ports_add("Netdev", UI_DIM, "none (no network interface)");
	}
	if (!ports_is_ib(p) && p->roce_v2_ipv4_index >= 0)
		ports_add("RoCE v2 GID idx", UI_GOOD, "%d (use -x %d)",
			  p->roce_v2_ipv4_index, p->roce_v2_ipv4_index);
	else if (!ports_is_ib(p))
		ports_add("RoCE v2 GID idx", UI_WARN,
			  "none (no RoCE v2 GID with an IPv4 address)");
	else
		ports_add("RoCE v2 GID idx", UI_DIM,
			  "n/a (InfiniBand port: no GID choice)");

	if (!p->pcie.v.valid) {
		ports_add_na("PCIe", &p->pcie.v);
	} else {
		ports_add("PCIe address", UI_NORMAL, "%s", p->pcie.address);
		ports_add("PCIe current",
			  p->pcie.degraded ? UI_WARN : UI_NORMAL,
			  "%g GT/s x%d (Gen%d), %s data", p->pcie.cur_gts,
			  p->pcie.cur_width, layout_pcie_gen(p->pcie.cur_gts),
			  layout_fmt_gbps(p->pcie.cur_gbps, a, sizeof(a)));
		ports_add("PCIe max", UI_NORMAL,
			  "%g GT/s x%d (Gen%d), %s data", p->pcie.max_gts,
			  p->pcie.max_width, layout_pcie_gen(p->pcie.max_gts),
			  layout_fmt_gbps(p->pcie.max_gbps, a, sizeof(a)));
		if (p->pcie.degraded)
			ports_add("PCIe link", UI_WARN,
				  "running below its capability");
		else
			ports_add("PCIe link", UI_GOOD, "at capability");
		ports_add("PCIe payload", UI_NORMAL, "%d B (%s): %.1f %% per TLP, %s usable",
			  p->pcie.mps, p->pcie.mps_source, p->pcie.tlp_eff * 100,
			  layout_fmt_gbps(p->pcie.usable_gbps, a, sizeof(a)));
		if (p->pcie_why[0])
			ports_add("PCIe vs data", p->pcie_limits ? UI_WARN : UI_GOOD,
				  "%s", p->pcie_why);
		else
			ports_add("PCIe vs data", UI_DIM,
				  "n/a (data rate unknown)");
	}

	if (!p->numa.v.valid) {
		ports_add_na("NUMA", &p->numa.v);
	} else {
		if (p->numa.node >= 0)
			ports_add("NUMA node", UI_NORMAL, "%d", p->numa.node);
		else
			ports_add("NUMA node", UI_DIM,
				  "none (single-node system or firmware)");
		ports_add("Local CPUs", p->numa.local_cpus[0] ? UI_NORMAL : UI_DIM,
			  "%s", p->numa.local_cpus[0] ? p->numa.local_cpus :
							"n/a (not reported)");
		ports_add("NUMA relation",
			  strcmp(p->numa.relation, "local") == 0 ? UI_GOOD :
			  strcmp(p->numa.relation, "unknown") == 0 ? UI_DIM :
								      UI_WARN,
			  "%s (this process vs the HCA)",
			  p->numa.relation[0] ? p->numa.relation : "unknown");
		if (p->numa.node_mem_mb >= 0)
			ports_add("Node memory", UI_NORMAL, "%lld MB",
				  p->numa.node_mem_mb);
		else
			ports_add("Node memory", UI_DIM, "n/a (unknown)");
	}

	ports_add("Sources", UI_NORMAL, "%s",
		  p->sources[0] ? p->sources : "n/a");
	/* a path: too long for half a pane */
	if (p->hw_counters_dir[0])
		it = ports_add("hw_counters", UI_NORMAL, "%d counters in %s",
			       p->n_hw_counters, p->hw_counters_dir);
	else
		it = ports_add("hw_counters", UI_DIM,
			       "none (driver exposes none)");
	if (it)
		it->wide = true;
}

/* The link's bit error rates since the console started: this end's and,
 * when sampled, its neighbour's (the same cable). */
static void ports_items_ber(const struct port_info *p, const struct ctr_model *m)
{
	char here[96] = "", there[96] = "";
	enum ui_role rh = UI_DIM, rt = UI_DIM;
	int lanes = port_width_lanes(p->width_active);
	struct ports_item *it;

	for (int i = 0; m && i < m->n; i++) {
		const struct monitor_port *q = &m->port[i];

		if (q->t.remote || strcmp(q->t.dev, p->dev) || q->t.port != p->port)
			continue;
		if (!ctrview_ber(&m->dp[i], lanes, p->lane_gbps, here, sizeof(here), &rh))
			return;
		if (m->peer[i].sampled &&
		    ctrview_ber(&m->peer_dp[i], lanes, p->lane_gbps, there, sizeof(there), &rt))
			it = ports_add("Bit error rate", rt > rh && rt != UI_DIM ? rt : rh,
				       "this end %s; %s %s", here, m->peer[i].t.label, there);
		else
			it = ports_add("Bit error rate", rh, "%s", here);
		if (it)
			it->wide = true;
		return;
	}
}

/* The pluggable module beside its own alarms (read by the sampler). */
static void ports_items_module(const struct port_info *p)
{
	const struct optics_module *m = &p->module.m;
	struct ports_item *it;
	char text[300], a[16];

	if (!p->module_asked)
		return;
	if (!p->module.readable) {
		it = ports_add("Module", UI_DIM, "n/a (%s)", p->module.why);
		if (it)
			it->wide = true;
		return;
	}
	it = ports_add("Module", UI_NORMAL, "%s %s %s, serial %s", m->type, m->vendor, m->part,
		       m->serial);
	if (it)
		it->wide = true;
	if (m->temp.valid && m->vcc.valid)
		ports_add("Module temp", m->temp.flags || m->vcc.flags ? UI_WARN : UI_NORMAL,
			  "%.1f °C, supply %.2f V", m->temp.value, m->vcc.value);
	for (int i = 0; i < m->nlanes; i++) {
		unsigned j = m->lane[i].judged;

		optics_lane_text(&m->lane[i], text, sizeof(text));
		snprintf(a, sizeof(a), "Lane %d", i + 1);
		it = ports_add(a, j & (OPTICS_ALARM | OPTICS_DARK) ? UI_BAD :
				  j & (OPTICS_NEAR_LOW_RX | OPTICS_WARN) ? UI_WARN : UI_NORMAL,
			       "%s", text);
		if (it)
			it->wide = true;
	}
	if (m->note[0])
		ports_add("Module note", UI_DIM, "%s", m->note);
}

static void ports_items_gids(const struct port_info *p)
{
	struct ports_item *it;
	int i;

	if (!p->ngids) {
		it = ports_add("GID table", UI_DIM, "empty (no GIDs in sysfs)");
		if (it)
			it->wide = true;
		return;
	}
	it = ports_add("GID table", UI_TITLE, "%-3s  %-39s  %-10s  %-10s  %s",
		       "idx", "gid", "type", "netdev", "IPv4");
	if (it)
		it->wide = true;
	for (i = 0; i < p->ngids && i < PORT_MAX_GIDS; i++) {
		const struct port_gid *g = &p->gids[i];
		bool pick = g->index == p->roce_v2_ipv4_index;

		it = ports_add("", pick ? UI_GOOD : UI_NORMAL,
			       "%-3d  %-39s  %-10s  %-10s  %s", g->index,
			       g->gid, g->type[0] ? g->type : "n/a",
			       g->netdev[0] ? g->netdev : "-",
			       g->ipv4[0] ? g->ipv4 : "-");
		if (it)
			it->wide = true;
	}
}

/* Wrapped lines of the items with wide == want_wide among [from, to),
 * values wrapped at vw columns. */
static int ports_wrap(int from, int to, int vw, struct ports_line *out,
		      bool want_wide)
{
	int i, n = 0;

	for (i = from; i < to; i++) {
		const struct ports_item *it = &detail.items[i];
		int off = 0, total = (int)strlen(it->value);

		if (it->wide != want_wide)
			continue;
		do {
			int next, len = layout_wrap(it->value + off, vw, &next);

			if (n < DETAIL_MAX_LINES) {
				out[n].item = it;
				out[n].first = off == 0;
				out[n].off = off;
				out[n].len = len;
				n++;
			}
			if (next <= 0)
				break;
			off += next;
		} while (off < total);
	}
	return n;
}

static int ports_lines_of(int from, int to, int vw)
{
	static struct ports_line scratch[DETAIL_MAX_LINES];

	return ports_wrap(from, to, vw, scratch, false);
}

/* Builds the detail lines for p at width w; returns the row count and
 * leaves the columns in detail.left / detail.right / detail.wide. */
static int ports_detail_build(const struct port_info *p,
			      const struct snapshot *s, const struct ctr_model *m, int w, int cols,
			      int *nleft, int *nright, int *nwide)
{
	int colw, vw, split, total, best, best_rows, k;
	struct ports_item *it;

	/* Link facts first: they answer "is the port right?" at 80x24. */
	detail_nitems = 0;
	ports_items_link(p);
	ports_items_peer(p);
	ports_items_ber(p, m);
	ports_items_module(p);
	ports_items_host(p);
	ports_items_ids(p);
	if (s->warning[0]) {
		it = ports_add("Warning", UI_WARN, "%s", s->warning);
		if (it)
			it->wide = true;
	}
	ports_items_gids(p);

	colw = cols == 2 ? (w - 3) / 2 : w - 2;
	vw = colw - DETAIL_LABEL_W - 1;
	if (vw < 8)
		vw = 8;
	total = detail_nitems;

	if (cols == 2) {
		/* Split the narrow items where the taller column is lowest,
		 * never inside an item. */
		best = total;
		best_rows = DETAIL_MAX_LINES;
		for (k = 0; k <= total; k++) {
			int l = ports_lines_of(0, k, vw);
			int r = ports_lines_of(k, total, vw);
			int rows = l > r ? l : r;

			if (rows < best_rows) {
				best_rows = rows;
				best = k;
			}
		}
		split = best;
	} else {
		split = total;
	}
	*nleft = ports_wrap(0, split, vw, detail.left, false);
	*nright = ports_wrap(split, total, vw, detail.right, false);
	/* Wide lines take the whole pane width less the label. */
	*nwide = ports_wrap(0, total, w - 2 - DETAIL_LABEL_W - 1, detail.wide,
			    true);
	return (*nleft > *nright ? *nleft : *nright) + *nwide;
}

static void ports_draw_line(WINDOW *win, int y, int x, int w,
			    const struct ports_line *l)
{
	char buf[256];
	int n = l->len < (int)sizeof(buf) - 1 ? l->len : (int)sizeof(buf) - 1;

	if (!l->item)
		return;
	if (l->first && l->item->label[0])
		widgets_text(win, y, x, DETAIL_LABEL_W, l->item->label,
			     UI_LABEL, false, false);
	memcpy(buf, l->item->value + l->off, n);
	buf[n] = '\0';
	widgets_text(win, y, x + DETAIL_LABEL_W + 1,
		     w - DETAIL_LABEL_W - 1, buf, l->item->role, false, false);
}

void ports_detail_draw(WINDOW *win, const struct layout_frame *f,
		       const struct snapshot *s, int sel, const struct ctr_model *m)
{
	const struct port_info *p = &s->ports[sel];
	int nl, nr, nw, rows, r, y, colw;
	char title[160];

	rows = ports_detail_build(p, s, m, f->w, f->detail_cols, &nl, &nr, &nw);
	detail.rows = rows;
	detail.h = f->detail_h;
	detail.top = layout_clamp(detail.top, 0,
					rows > f->detail_h ? rows - f->detail_h :
							     0);

	snprintf(title, sizeof(title), " %s/%d details%s ", p->dev, p->port,
		 rows > f->detail_h ? " (PgUp/PgDn scroll)" : "");
	wattron(win, widgets_attr(UI_TITLE));
	mvwhline(win, f->detail_y, 0, ACS_HLINE, f->w);
	wattroff(win, widgets_attr(UI_TITLE));
	widgets_text(win, f->detail_y, 2, f->w - 2, title, UI_TITLE, false,
		     false);
	if (rows > f->detail_h) {
		snprintf(title, sizeof(title), " %d-%d of %d ",
			 detail.top + 1,
			 layout_clamp(detail.top + f->detail_h, 0, rows),
			 rows);
		widgets_text(win, f->detail_y, f->w - 2 - (int)strlen(title),
			     (int)strlen(title), title, UI_TITLE, false, false);
	}

	colw = f->detail_cols == 2 ? (f->w - 3) / 2 : f->w - 2;
	for (r = 0; r < f->detail_h; r++) {
		int row = detail.top + r, twocol = nl > nr ? nl : nr;

		y = f->detail_y + 1 + r;
		if (row < twocol) {
			if (row < nl)
				ports_draw_line(win, y, 1, colw,
						&detail.left[row]);
			if (row < nr)
				ports_draw_line(win, y, 2 + colw, colw,
						&detail.right[row]);
		} else if (row - twocol < nw) {
			ports_draw_line(win, y, 1, f->w - 2,
					&detail.wide[row - twocol]);
		}
	}
}

void ports_detail_scroll(int pages)
{
	int page = detail.h > 1 ? detail.h - 1 : 1;

	detail.top += pages * page;	/* clamped when drawn */
	if (detail.top < 0)
		detail.top = 0;
}

void ports_detail_home(void)
{
	detail.top = 0;
}
