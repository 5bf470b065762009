// SPDX-License-Identifier: MIT
/* Fabric screen: switches and HCAs with their links, or a flat list with
 * the problems first; filter, sort, port details, and the test peer. */
#include "config.h"
#include "screen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/counters/delta.h"
#include "core/fabric/discovery.h"
#include "core/testrun/peer.h"
#include "core/testrun/testjob.h"
#include "diag/linkhealth.h"
#include "ctrview.h"
#include "layout.h"
#include "widgets.h"

#define FAB_FILTER 64
#define FAB_DETAIL_H 12

enum fab_view { VIEW_PROBLEMS, VIEW_TREE, VIEW_N };
enum fab_sort { SORT_SEVERITY, SORT_NAME, SORT_RATE, SORT_LID, SORT_N };
static const char *const view_names[VIEW_N] = { "problems first", "switches and HCAs" };
static const char *const sort_names[SORT_N] = { "severity", "name", "rate", "LID" };

enum row_kind { ROW_NODE, ROW_PORT, ROW_LOST };

struct frow {
	enum row_kind kind;
	int node, port;		/* fabric indices, -1 none */
	int finding;		/* first finding on it, -1 none */
	int sev;		/* highest severity, -1 healthy */
	char text[320];
};

static struct {
	struct fab_opts opts;
	char ca[64], map[512];
	bool configured;
	double rediscover_s;
	struct discovery *w;
	char err[320];		/* start failure */
	struct fabric_view *v;
	struct lh_report rep;
	int *port_sev, *port_find;	/* per port */
	struct frow *rows;
	int nrows, cap;
	struct widgets_list list;	/* rows; list.sel is the selection */
	struct counter_set now, prev;	/* watched port's samples */
	bool have_ctr;
	unsigned watch_lid;		/* what the worker is asked to watch */
	int watch_port;
	unsigned watch_plid;		/* and the other end of its link */
	int watch_pport;
	/* both ends' samples since the selection, for the bit error rate */
	struct delta_port ends[2];
	bool have_end[2];
	double end_t[2];
	enum fab_view view;
	enum fab_sort sort;
	char filter[FAB_FILTER];
	bool editing;
	char note[160];		/* last action, shown in the status line */
	int saved_stderr;	/* libibnetdisc / libibmad print there */
} fs = { .saved_stderr = -1, .list = { .page = 10 } };

void screen_fabric_configure(const struct fab_opts *o, double rediscover_s)
{
	if (o) {
		fs.opts = *o;
		if (o->ca) {
			snprintf(fs.ca, sizeof(fs.ca), "%s", o->ca);
			fs.opts.ca = fs.ca;
		}
		if (o->node_name_map) {
			snprintf(fs.map, sizeof(fs.map), "%s", o->node_name_map);
			fs.opts.node_name_map = fs.map;
		}
	}
	fs.rediscover_s = rediscover_s;
	fs.configured = true;
}

static void fab_drop_view(void)
{
	if (fs.v)
		discovery_put(fs.w, fs.v);
	fs.v = NULL;
	linkhealth_free(&fs.rep);
	free(fs.port_sev);
	free(fs.port_find);
	fs.port_sev = fs.port_find = NULL;
	fs.nrows = 0;
}

void screen_fabric_shutdown(void)
{
	if (!fs.w)
		return;
	fab_drop_view();
	discovery_stop(fs.w);
	fs.w = NULL;
	if (fs.saved_stderr >= 0) {
		dup2(fs.saved_stderr, STDERR_FILENO);
		close(fs.saved_stderr);
		fs.saved_stderr = -1;
	}
	free(fs.rows);
	fs.rows = NULL;
	fs.cap = 0;
}

static const struct fabric *fab(void)
{
	return fs.v ? fs.v->fabric : NULL;
}

static bool matches(const char *text)
{
	size_t n = strlen(fs.filter);

	if (!n)
		return true;
	for (const char *p = text; *p; p++)
		if (!strncasecmp(p, fs.filter, n))
			return true;
	return false;
}

static struct frow *push_row(void)
{
	if (fs.nrows == fs.cap) {
		int ncap = fs.cap ? fs.cap * 2 : 256;
		void *p = realloc(fs.rows, (size_t)ncap * sizeof(*fs.rows));

		if (!p)
			return NULL;
		fs.rows = p;
		fs.cap = ncap;
	}
	memset(&fs.rows[fs.nrows], 0, sizeof(*fs.rows));
	return &fs.rows[fs.nrows++];
}

static void port_cells(const struct fabric *f, int p, char *buf, size_t len, bool tree)
{
	const struct fab_port *a = &f->ports[p];
	char la[80], lb[80], tok[16], flags[96] = "", st[40];
	int n = 0, fi;

	for (fi = 0; fi < fs.rep.n; fi++)
		if (fs.rep.f[fi].port == p || fs.rep.f[fi].peer == p)
			n = layout_addf(flags, sizeof(flags), n, "%s%s", n ? "," : "",
				      lh_rules[fs.rep.f[fi].rule].name);
	fabric_rate_token(a, tok, sizeof(tok));
	snprintf(st, sizeof(st), "%s/%s", port_state_name(a->state),
		 port_phys_state_name(a->phys_state));
	if (tree) {
		snprintf(buf, len, "  [%2d] %-6s %-16s %s %s",
			 a->portnum, tok[0] ? tok : "-", st,
			 a->remote >= 0 ? fabric_port_label(f, a->remote, lb, sizeof(lb)) : "(no peer)",
			 n ? flags : "");
	} else {
		char lk[164];

		if (a->remote >= 0)
			snprintf(lk, sizeof(lk), "%s <-> %s", fabric_port_label(f, p, la, sizeof(la)),
				 fabric_port_label(f, a->remote, lb, sizeof(lb)));
		else
			snprintf(lk, sizeof(lk), "%s", fabric_port_label(f, p, la, sizeof(la)));
		snprintf(buf, len, "%-40s %-6s %-16s %4u %s", lk, tok[0] ? tok : "-", st,
			 a->lid, n ? flags : "");
	}
}

static const struct fabric *sort_f;

static int row_cmp(const void *x, const void *y)
{
	const struct frow *a = x, *b = y;
	const struct fabric *f = sort_f;
	int c = 0;

	if (fs.sort == SORT_SEVERITY || a->kind == ROW_LOST || b->kind == ROW_LOST)
		c = b->sev - a->sev;
	if (!c && fs.sort == SORT_RATE && a->port >= 0 && b->port >= 0) {
		double ra = f->ports[a->port].rate_gbps, rb = f->ports[b->port].rate_gbps;

		c = ra < rb ? -1 : ra > rb;
	}
	if (!c && fs.sort == SORT_LID && a->port >= 0 && b->port >= 0)
		c = (int)f->ports[a->port].lid - (int)f->ports[b->port].lid;
	if (!c)
		c = strcmp(a->text, b->text);
	return c;
}

static void fab_rows(void)
{
	const struct fabric *f = fab();
	struct frow *r;

	fs.nrows = 0;
	if (!f)
		return;
	if (fs.view == VIEW_TREE) {
		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < f->nnodes; i++) {
				const struct fab_node *n = &f->nodes[i];
				int first = fs.nrows;
				bool any = false;

				if ((pass == 0) != (n->type == FAB_SWITCH))
					continue;
				if (!(r = push_row()))
					return;
				r->kind = ROW_NODE;
				r->node = i;
				r->port = r->finding = -1;
				r->sev = -1;
				snprintf(r->text, sizeof(r->text), "%s \"%s\"  lid %u  %d ports  0x%016llx",
					 fabric_type_name(n->type), n->name, n->lid, n->numports,
					 (unsigned long long)n->guid);
				any = matches(r->text);
				for (int k = 0; k < n->nports; k++) {
					int p = n->first_port + k;

					if (f->ports[p].portnum == 0)
						continue;
					if (!(r = push_row()))
						return;
					r->kind = ROW_PORT;
					r->node = i;
					r->port = p;
					r->sev = fs.port_sev[p];
					r->finding = fs.port_find[p];
					port_cells(f, p, r->text, sizeof(r->text), true);
					if (!matches(r->text) && !any)
						fs.nrows--;
				}
				if (fs.nrows == first + 1 && !any)
					fs.nrows = first;	/* nothing of this node matched */
				else if (fs.rows[first].sev < 0)
					for (int k = first + 1; k < fs.nrows; k++)
						if (fs.rows[k].sev > fs.rows[first].sev)
							fs.rows[first].sev = fs.rows[k].sev;
			}
		return;
	}
	/* flat: one row per link (from its first end) and per lone port */
	for (int p = 0; p < f->nports; p++) {
		const struct fab_port *a = &f->ports[p];

		if (a->portnum == 0)
			continue;
		/* one row per link, named from its HCA end when it has one */
		if (a->remote >= 0) {
			bool ca = f->nodes[a->node].type != FAB_SWITCH;
			bool rca = f->nodes[f->ports[a->remote].node].type != FAB_SWITCH;

			if (ca != rca ? !ca : a->remote < p)
				continue;
		}
		if (!(r = push_row()))
			return;
		r->kind = ROW_PORT;
		r->node = a->node;
		r->port = p;
		r->sev = fs.port_sev[p];
		r->finding = fs.port_find[p];
		if (a->remote >= 0 && fs.port_sev[a->remote] > r->sev) {
			r->sev = fs.port_sev[a->remote];
			r->finding = fs.port_find[a->remote];
		}
		port_cells(f, p, r->text, sizeof(r->text), false);
		if (!matches(r->text))
			fs.nrows--;
	}
	for (int i = 0; i < fs.rep.n; i++) {
		if (fs.rep.f[i].rule != LH_LINK_LOST || fs.rep.f[i].port >= 0)
			continue;
		if (!(r = push_row()))
			return;
		r->kind = ROW_LOST;
		r->node = r->port = -1;
		r->finding = i;
		r->sev = lh_rules[LH_LINK_LOST].severity;
		snprintf(r->text, sizeof(r->text), "%-40s %-6s %-17s %4s link_lost",
			 fs.rep.f[i].where, "-", "gone", "");
		if (!matches(r->text))
			fs.nrows--;
	}
	sort_f = f;
	if (fs.nrows)
		qsort(fs.rows, (size_t)fs.nrows, sizeof(*fs.rows), row_cmp);
}

/* A new view: judge it against the first discovery, index the findings
 * and lay the rows out — unless it holds the model the rows were laid out
 * from (a rediscovery that found nothing new: the usual case), which
 * keeps them; a 4,000-node fabric's judging and layout would hold the
 * keys up on each rediscovery. */
static void fab_take(struct fabric_view *v)
{
	const struct fabric *f;

	if (fs.v && fs.v->fabric && v->fabric && v->model_gen == fs.v->model_gen &&
	    fs.port_sev && fs.port_find) {
		discovery_put(fs.w, fs.v);
		fs.v = v;
		return;
	}
	fab_drop_view();
	fs.v = v;
	f = fab();
	if (!f)
		return;
	if (linkhealth_eval(f, v->baseline != f ? v->baseline : NULL, &fs.rep) ||
	    !(fs.port_sev = malloc(sizeof(int) * ((size_t)f->nports + 1))) ||
	    !(fs.port_find = malloc(sizeof(int) * ((size_t)f->nports + 1)))) {
		snprintf(fs.note, sizeof(fs.note), "out of memory judging the fabric");
		return;
	}
	for (int i = 0; i < f->nports; i++)
		fs.port_sev[i] = fs.port_find[i] = -1;
	for (int i = 0; i < fs.rep.n; i++) {
		int sev = lh_rules[fs.rep.f[i].rule].severity;
		int ends[2] = { fs.rep.f[i].port, fs.rep.f[i].peer };

		for (int k = 0; k < 2; k++)
			if (ends[k] >= 0 && sev > fs.port_sev[ends[k]]) {
				fs.port_sev[ends[k]] = sev;
				fs.port_find[ends[k]] = i;
			}
	}
	fab_rows();
}

/* Asks the worker for the live counters of the selected port, when the
 * selection or the rows changed (lid 0: none). */
static void fab_follow(void)
{
	const struct fabric *f = fab();
	unsigned lid = 0, plid = 0;
	int p, port = 0, pport = 0;

	fs.list.sel = fs.nrows ? (fs.list.sel < 0 ? 0 : fs.list.sel >= fs.nrows ?
				  fs.nrows - 1 : fs.list.sel) : 0;
	p = fs.list.sel < fs.nrows ? fs.rows[fs.list.sel].port : -1;
	if (f && p >= 0 && f->ports[p].lid) {
		int r = f->ports[p].remote;

		lid = f->ports[p].lid;
		port = f->ports[p].portnum;
		if (r >= 0 && f->ports[r].lid) {
			plid = f->ports[r].lid;
			pport = f->ports[r].portnum;
		}
	}
	if (!fs.w || (lid == fs.watch_lid && port == fs.watch_port &&
		      plid == fs.watch_plid && pport == fs.watch_pport))
		return;
	discovery_watch(fs.w, lid, port, plid, pport);
	fs.watch_lid = lid;
	fs.watch_port = port;
	fs.watch_plid = plid;
	fs.watch_pport = pport;
	fs.have_ctr = false;
	/* the bit error rates start again with the new selection */
	for (int e = 0; e < 2; e++) {
		delta_init(&fs.ends[e], e ? "other end" : "this end", 1.0);
		fs.have_end[e] = false;
		fs.end_t[e] = 0;
	}
}

/* Shown: the discovery thread starts the first time, the watch follows
 * the selection again. */
static void fab_start(void)
{
	if (!fs.w && !fs.err[0]) {
		/* libibnetdisc and libibmad write time-outs to stderr, which
		 * may be the console's terminal: send them nowhere while it
		 * runs. */
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null >= 0 && isatty(STDERR_FILENO)) {
			fs.saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
			dup2(null, STDERR_FILENO);
		}
		if (null >= 0)
			close(null);
		fs.w = discovery_start(&fs.opts, fs.rediscover_s, fs.err, sizeof(fs.err));
	}
}

static void fab_enter(const struct ui_ctx *c)
{
	(void)c;
	fab_start();
	fs.watch_lid = 0;
	fs.watch_port = -1;	/* ask again */
	fs.watch_plid = 0;
	fs.watch_pport = 0;
	fab_follow();
}

/* Left: the worker stops reading the selected port's counters. */
static void fab_leave(const struct ui_ctx *c)
{
	(void)c;
	if (fs.w)
		discovery_watch(fs.w, 0, 0, 0, 0);
	fs.watch_lid = 0;
	fs.watch_port = 0;
	fs.watch_plid = 0;
	fs.watch_pport = 0;
}

/* Takes what the worker published: a new view (judged here, once) and
 * the watched port's newest samples. True when the screen changed. */
static bool fab_update(const struct ui_ctx *c)
{
	struct fabric_view *v;
	bool changed = false;

	(void)c;
	if (!fs.w)
		return false;
	discovery_drain(fs.w);	/* the wake that brought us here */
	v = discovery_get(fs.w);
	if (v && fs.v && v->gen == fs.v->gen) {
		discovery_put(fs.w, v);
	} else if (v) {
		fab_take(v);
		fab_follow();
		changed = true;
	}
	if (fs.watch_lid) {
		struct counter_set now, prev;
		bool have = discovery_counters(fs.w, 0, &now, &prev);

		if (have != fs.have_ctr || (have && now.t_mono != fs.now.t_mono)) {
			fs.have_ctr = have;
			fs.now = now;
			fs.prev = prev;
			changed = true;
		}
		for (int e = 0; e < 2; e++) {
			if (!discovery_counters(fs.w, e, &now, &prev) || now.t_mono == fs.end_t[e])
				continue;
			fs.end_t[e] = now.t_mono;
			fs.have_end[e] = true;
			delta_update(&fs.ends[e], &now, now.t_mono);
			changed = true;
		}
	}
	return changed;
}

/* New views and live samples wake the console's loop at once. */
static int fab_wake_fd(void)
{
	return fs.w ? discovery_fd(fs.w) : -1;
}

void screen_fabric_prefetch(void)
{
	fab_start();
}

enum fab_known screen_fabric_problems(int *errors, int *warns)
{
	struct fabric_view *v;

	if (!fs.w)
		return fs.err[0] ? FAB_FAILED : FAB_DISCOVERING;
	v = discovery_get(fs.w);
	if (v && fs.v && v->gen == fs.v->gen)
		discovery_put(fs.w, v);
	else if (v)
		fab_take(v);
	if (fs.v && !fab() && fs.v->err[0])
		return FAB_FAILED;
	if (!fs.v || !fab())
		return FAB_DISCOVERING;
	*errors = fs.rep.by_severity[LH_ERROR];
	*warns = fs.rep.by_severity[LH_WARN];
	return FAB_KNOWN;
}

static enum ui_role sev_role(int sev)
{
	return sev == LH_ERROR ? UI_BAD : sev == LH_WARN ? UI_WARN : sev == LH_INFO ? UI_DIM : UI_NORMAL;
}

static void draw_status(WINDOW *win, int w)
{
	struct fabric_progress p;
	const struct fabric *f = fab();
	char buf[400];
	struct test_peer tp;
	int n = 0;

	if (!fs.w) {
		snprintf(buf, sizeof(buf), " %s", fs.err[0] ? fs.err : "starting discovery ...");
		widgets_text(win, 1, 0, w, buf, fs.err[0] ? UI_BAD : UI_NORMAL, false, true);
		return;
	}
	discovery_progress(fs.w, &p);
	if (p.running) {
		int bar = 20, fill = p.last_s > 0 ? (int)(bar * p.elapsed_s / p.last_s) : 0;
		char b[32];

		if (fill > bar)
			fill = bar;
		for (int i = 0; i < bar; i++)
			b[i] = i < fill ? '#' : '.';
		b[bar] = '\0';
		n = snprintf(buf, sizeof(buf), " discovering ... %.1f s [%s]", p.elapsed_s, b);
		if (p.last_s > 0)
			n = layout_addf(buf, sizeof(buf), n, " last: %d nodes in %.1f s",
				      p.last_nodes, p.last_s);
	} else if (f) {
		char when[16];
		struct tm tm;

		localtime_r(&f->taken.tv_sec, &tm);
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
		n = snprintf(buf, sizeof(buf), " %d nodes, %d links at %s in %.2f s", f->nnodes,
			     f->nlinks, when, f->discover_s);
		if (p.next_in_s >= 0)
			n = layout_addf(buf, sizeof(buf), n, ", next in %.0f s", p.next_in_s);
	} else if (fs.v) {
		n = snprintf(buf, sizeof(buf), " %s", fs.v->err);
	}
	if (f)
		n = layout_addf(buf, sizeof(buf), n, " | problems: %d error %d warn %d info",
			      fs.rep.by_severity[LH_ERROR], fs.rep.by_severity[LH_WARN],
			      fs.rep.by_severity[LH_INFO]);
	if (peer_get(&tp))
		n = layout_addf(buf, sizeof(buf), n, " | peer \"%s\"[%d] lid %u",
			      tp.node, tp.port, tp.lid);
	widgets_text(win, 1, 0, w, buf, !f && fs.v && !p.running ? UI_BAD : UI_NORMAL, false, true);
}

static int detail_line(WINDOW *win, int y, int w, const char *label, const char *val,
		       enum ui_role r)
{
	widgets_text(win, y, 1, 18, label, UI_LABEL, false, false);
	widgets_text(win, y, 20, w - 21, val, r, false, false);
	return y + 1;
}

/* A long value (evidence, hints) wrapped at spaces over up to ymax. */
static int detail_wrapped(WINDOW *win, int y, int ymax, int w, const char *label,
			  const char *val, enum ui_role r)
{
	int vw = w - 21;
	size_t len = strlen(val);

	if (vw < 10)
		return detail_line(win, y, w, label, val, r);
	while (len && y < ymax) {
		size_t cut = len;
		char part[512];

		if ((int)cut > vw) {
			cut = (size_t)vw;
			while (cut > (size_t)vw / 2 && val[cut] != ' ')
				cut--;
		}
		snprintf(part, sizeof(part), "%.*s", (int)cut, val);
		y = detail_line(win, y, w, label, part, r);
		label = "";
		while (val[cut] == ' ')
			cut++;
		val += cut;
		len -= cut;
	}
	return y;
}

static void end_lines(WINDOW *win, int *y, int ymax, int w, const struct fabric *f, int p)
{
	const struct fab_port *a = &f->ports[p];
	const struct fab_node *n = &f->nodes[a->node];
	struct port_info pi;
	char buf[256], l1[64], l2[64];

	fabric_port_to_info(a, &pi);
	snprintf(buf, sizeof(buf), "%s \"%s\" port %d  lid %u  guid 0x%016llx  %s/%s",
		 fabric_type_name(n->type), n->name, a->portnum, a->lid,
		 (unsigned long long)a->guid, port_state_name(a->state),
		 port_phys_state_name(a->phys_state));
	if (*y < ymax)
		*y = detail_line(win, *y, w, "port", buf, UI_NORMAL);
	snprintf(buf, sizeof(buf), "active %s, enabled %s, supported %s",
		 a->width[0] ? a->width : "-", port_width_list(a->width_enabled, l1, sizeof(l1)),
		 port_width_list(a->width_supported, l2, sizeof(l2)));
	if (*y < ymax)
		*y = detail_line(win, *y, w, "  width", buf, UI_NORMAL);
	snprintf(buf, sizeof(buf), "active %s, enabled %s, supported %s",
		 a->speed[0] ? a->speed : "-", port_speed_list(&pi, true, l1, sizeof(l1)),
		 port_speed_list(&pi, false, l2, sizeof(l2)));
	if (*y < ymax)
		*y = detail_line(win, *y, w, "  speed", buf, UI_NORMAL);
	snprintf(buf, sizeof(buf), "active %d, cap %d", a->mtu_active, a->mtu_cap);
	if (*y < ymax)
		*y = detail_line(win, *y, w, "  MTU", buf, UI_NORMAL);
}

/* The selected port's PMA counters, sampled by the discovery worker:
 * error counters that are not zero (with the change over the last
 * sample) and the data rates. */
static int draw_counters(WINDOW *win, int y, int ymax, int w)
{
	const struct counter_set *now = &fs.now, *prev = &fs.prev;
	char buf[1024];
	int n = 0, errs = 0;
	double dt;

	if (!fs.w || !fs.have_ctr)
		return detail_line(win, y, w, "  counters", "reading ...", UI_DIM);
	if (!now->valid) {
		snprintf(buf, sizeof(buf), "n/a (%s)", now->why[0] ? now->why : "no answer");
		return detail_wrapped(win, y, ymax, w, "  counters", buf, UI_DIM);
	}
	dt = prev->valid ? now->t_mono - prev->t_mono : 0;
	for (int i = 0; i < now->n && n < (int)sizeof(buf) - 80; i++) {
		const struct ctr_value *v = &now->c[i], *pv;

		if (!v->valid || v->cls != CTR_ERROR || !v->value)
			continue;
		pv = prev->valid ? counters_find(prev, v->name) : NULL;
		n = layout_addf(buf, sizeof(buf), n, "%s%s %llu", n ? ", " : "",
			      v->name, (unsigned long long)v->value);
		if (pv && pv->valid && v->value >= pv->value)
			n = layout_addf(buf, sizeof(buf), n, " (+%llu)",
				      (unsigned long long)(v->value - pv->value));
		errs++;
	}
	if (!errs)
		n = snprintf(buf, sizeof(buf), "no error counted");
	if (dt > 0) {
		const char *names[2] = { "PortXmitData", "PortRcvData" };

		/* the delta rule: a saturated or reset counter has no rate */
		for (int k = 0; k < 2; k++) {
			enum delta_state st;
			double gbps = delta_pair_gbps(prev, now, names[k], &st);

			if (gbps >= 0)
				n = layout_addf(buf, sizeof(buf), n, "; %s %.3f Gb/s",
					      k ? "rcv" : "xmit", gbps);
			else if (st == DELTA_SATURATED || st == DELTA_RESET)
				n = layout_addf(buf, sizeof(buf), n, "; %s rate n/a (%s)",
					      k ? "rcv" : "xmit", delta_state_name(st));
		}
	}
	n = layout_addf(buf, sizeof(buf), n, " [PMA lid %u port %d]", now->lid, now->port);
	return detail_wrapped(win, y, ymax, w, "  counters", buf, errs ? UI_WARN : UI_NORMAL);
}

/* Both ends' effective bit error rates since the selection: each end's
 * SymbolErrorCounter over its lanes x lane signalling rate x the window
 * (diag/ber.c), or why there is none yet. */
static int draw_ber(WINDOW *win, int y, int ymax, int w, const struct fabric *f, int p)
{
	enum ui_role worst = UI_NORMAL;
	char buf[400], t[96], la[80];
	int n = 0;

	for (int e = 0; e < 2; e++) {
		int q = e ? f->ports[p].remote : p;
		enum ui_role r = UI_DIM;

		if (q < 0)
			continue;
		if (f->ports[q].state == 1)	/* PortInfo PortState Down */
			snprintf(t, sizeof(t), "n/a (the port is down)");
		else if (!fs.have_end[e])
			snprintf(t, sizeof(t), "reading ...");
		else if (!ctrview_ber(&fs.ends[e], f->ports[q].lanes, f->ports[q].lane_gbps,
				      t, (int)sizeof(t), &r))
			snprintf(t, sizeof(t), "n/a (SymbolErrorCounter not read)");
		n = layout_addf(buf, sizeof(buf), n, "%s%s %s", e ? "; " : "",
			 e ? fabric_port_label(f, q, la, sizeof(la)) : "this end", t);
		if (r == UI_BAD || (r == UI_WARN && worst != UI_BAD))
			worst = r;
	}
	return detail_wrapped(win, y, ymax, w, "  bit error rate", buf, worst);
}

static void draw_detail(WINDOW *win, int y0, int h, int w)
{
	const struct fabric *f = fab();
	const struct frow *r;
	int y = y0 + 1, ymax = y0 + h;

	widgets_bar(win, y0, w, UI_TITLE);
	widgets_text(win, y0, 0, w, " Details", UI_TITLE, false, false);
	if (!f || fs.list.sel < 0 || fs.list.sel >= fs.nrows)
		return;
	r = &fs.rows[fs.list.sel];
	if (r->kind == ROW_NODE) {
		const struct fab_node *n = &f->nodes[r->node];
		char buf[200];

		snprintf(buf, sizeof(buf), "%s \"%s\" (%s)  guid 0x%016llx  lid %u  %d ports",
			 fabric_type_name(n->type), n->name, n->desc,
			 (unsigned long long)n->guid, n->lid, n->numports);
		detail_line(win, y, w, "node", buf, UI_NORMAL);
		return;
	}
	/* the selected end, its live counters, the findings, then the peer */
	if (r->port >= 0) {
		end_lines(win, &y, ymax, w, f, r->port);
		/* the rates first: a long counters line wraps below them */
		if (y < ymax && fs.w && fs.have_ctr)
			y = draw_ber(win, y, ymax, w, f, r->port);
		if (y < ymax)
			y = draw_counters(win, y, ymax, w);
	}
	for (int i = 0; i < fs.rep.n && y < ymax; i++) {
		const struct lh_finding *x = &fs.rep.f[i];
		char buf[700];

		if (r->kind == ROW_LOST ? i != r->finding :
		    !(r->port >= 0 && (x->port == r->port || x->peer == r->port)))
			continue;
		snprintf(buf, sizeof(buf), "%s: %s — %s", lh_rules[x->rule].name, x->evidence,
			 lh_rules[x->rule].hint);
		y = detail_wrapped(win, y, ymax, w, lh_severity_name(lh_rules[x->rule].severity),
				   buf, sev_role(lh_rules[x->rule].severity));
	}
	if (r->port >= 0 && f->ports[r->port].remote >= 0)
		end_lines(win, &y, ymax, w, f, f->ports[r->port].remote);
}

static void fab_row(WINDOW *win, int y, int i, bool sel, void *arg)
{
	const struct frow *r = &fs.rows[i];

	(void)arg;
	widgets_text(win, y, 0, getmaxx(win), r->text,
		     sel ? UI_SELECTED : r->kind == ROW_NODE ? UI_LABEL : sev_role(r->sev),
		     false, sel);
}

static void fab_draw(WINDOW *win, const struct ui_ctx *c)
{
	int h = getmaxy(win), w = getmaxx(win);
	int dh = h >= 24 ? (h / 3 > FAB_DETAIL_H ? h / 3 : FAB_DETAIL_H) : 0;
	int ty = 3, th = h - 1 - ty - dh;
	char buf[300];

	(void)c;
	draw_status(win, w);
	snprintf(buf, sizeof(buf), " view: %s  sort: %s  filter: %s%s",
		 view_names[fs.view], sort_names[fs.sort],
		 fs.filter[0] || fs.editing ? fs.filter : "(none)", fs.editing ? "_" : "");
	widgets_bar(win, 2, w, UI_TITLE);
	widgets_text(win, 2, 0, w, buf, UI_TITLE, false, false);
	widgets_list_draw(win, &fs.list, ty, th, fs.nrows, fab_row, NULL);
	if (fab() && !fs.nrows)
		widgets_text(win, ty, 2, w - 2, fs.filter[0] ? "no row matches the filter" :
			     "nothing discovered", UI_DIM, false, false);
	else if (!fab() && fs.v && fs.v->err[0])	/* the whole reason, wrapped */
		detail_wrapped(win, ty, ty + th - 1, w, "Discovery failed", fs.v->err, UI_BAD);
	if (dh)
		draw_detail(win, h - 1 - dh, dh, w);
	widgets_bar(win, h - 1, w, UI_FOOTER);
	widgets_text(win, h - 1, 0, w, fs.note[0] ? fs.note :
		     " f/Esc back  r rediscover  / filter  s sort  v view  p test peer  ? help",
		     UI_FOOTER, false, false);
}

static void mark_peer(void)
{
	const struct fabric *f = fab();
	struct test_peer tp = { 0 };
	int p;

	if (!f || fs.list.sel < 0 || fs.list.sel >= fs.nrows || fs.rows[fs.list.sel].port < 0) {
		snprintf(fs.note, sizeof(fs.note), " select a port first");
		return;
	}
	p = fs.rows[fs.list.sel].port;
	if (f->nodes[f->ports[p].node].type != FAB_CA && f->ports[p].remote >= 0)
		p = f->ports[p].remote;		/* the HCA end of the link */
	if (f->nodes[f->ports[p].node].type != FAB_CA) {
		snprintf(fs.note, sizeof(fs.note), " the test peer must be an HCA port");
		return;
	}
	snprintf(tp.node, sizeof(tp.node), "%s", f->nodes[f->ports[p].node].name);
	tp.node_guid = f->nodes[f->ports[p].node].guid;
	tp.port_guid = f->ports[p].guid;
	tp.port = f->ports[p].portnum;
	tp.lid = f->ports[p].lid;
	testjob_peer_host(tp.node, tp.host, sizeof(tp.host));
	peer_set(&tp);
	snprintf(fs.note, sizeof(fs.note), " test peer: \"%s\"[%d] lid %u", tp.node, tp.port, tp.lid);
}

static int fab_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	const int done = SCREEN_HANDLED | SCREEN_REDRAW;

	(void)c;
	if (fs.editing) {
		size_t n = strlen(fs.filter);

		if (key == KEYMAP_ESC) {	/* drop the filter */
			fs.filter[0] = '\0';
			fs.editing = false;
		} else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
			fs.editing = false;
		} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
			if (n)
				fs.filter[n - 1] = '\0';
		} else if (key >= 32 && key < 127 && n + 1 < sizeof(fs.filter)) {
			fs.filter[n] = (char)key;
			fs.filter[n + 1] = '\0';
		} else {
			return done;
		}
		fs.list.sel = fs.list.top = 0;
		fab_rows();
		fab_follow();
		return done;
	}
	fs.note[0] = '\0';
	if (widgets_list_key(&fs.list, a)) {
		fab_follow();
		return done;
	}
	switch (a) {
	case UI_ACT_FILTER:
		fs.editing = true;
		return done;
	case UI_ACT_REDISCOVER:
		if (fs.w)
			discovery_request(fs.w);
		snprintf(fs.note, sizeof(fs.note), " rediscovery requested");
		return done;
	case UI_ACT_SORT:
		fs.sort = (fs.sort + 1) % SORT_N;
		fab_rows();
		fab_follow();
		return done;
	case UI_ACT_VIEW:
		fs.view = (fs.view + 1) % VIEW_N;
		fs.list.sel = fs.list.top = 0;
		fab_rows();
		fab_follow();
		return done;
	case UI_ACT_PEER:
		mark_peer();
		return done;
	default:
		return 0;
	}
}

static void fab_on_resize(int w, int h)
{
	(void)w;
	(void)h;
	fs.list.top = 0;
}

const struct screen screen_fabric = {
	.name = "fabric",
	.keys = KEYS_FABRIC,
	.enter = fab_enter,
	.leave = fab_leave,
	.update = fab_update,
	.wake_fd = fab_wake_fd,
	.draw = fab_draw,
	.on_key = fab_on_key,
	.on_resize = fab_on_resize,
};
