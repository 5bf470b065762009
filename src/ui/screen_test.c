// SPDX-License-Identifier: MIT
/* The test screen: a short form with perftest's choices, then the run
 * live (bandwidth each second, message rate, both ends' counters side by
 * side with increments highlighted), then the result, the verdict, the
 * record and a compare with an earlier record. The run itself is a
 * testjob on its own thread; this file only draws its views and reads
 * keys. */
#include "config.h"
#include "screen.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/testrun/peer.h"
#include "core/testrun/testjob.h"
#include "core/counters/counters.h"
#include "diag/testverdict.h"
#include "ctrview.h"
#include "layout.h"
#include "widgets.h"

enum field {
	F_PEER, F_KIND, F_OP, F_CONN, F_SIZE, F_SWEEP, F_QPS, F_BIDIR,
	F_ITERS, F_DUR, F_GID, F_PORT, F_SECRET, F_PTEST, F_N
};

enum mode { M_FORM, M_RUN, M_PICK };

static const char *const kind_names[] = { "bw", "lat", "rate", "tcp" };
static const char *const op_names[] = { "write", "read", "send" };
static const char *const conn_names[] = { "RC", "UD" };
static const char *const onoff[] = { "off", "on" };

static struct {
	bool init;
	enum mode mode;
	int field;
	/* the form */
	char peer[128], size[24], qps[8], iters[16], dur[16], gid[8], port[8], secret[256];
	int kind, op, conn, sweep, bidir, ptest;
	bool op_set;		/* the user chose the op: kind changes keep it */
	char recent[TJ_MAX_PEERS][128];
	int nrecent, recent_i;
	char from_dev[32];
	int from_port;
	/* the run */
	struct testjob *job;
	struct tj_view *v;
	bool handled;		/* end-of-run work (verdict, record) done */
	int pane;		/* 0 result (when over), 1 counters, 2 latency */
	char record[512];
	enum tv_state vstate;
	char vline[400];
	/* compare */
	struct tj_record_ref refs[TJ_MAX_RECORDS];
	int nrefs, refsel;
	struct record_diff *diff;
	char diffpath[512];
	double esc_at;		/* a first Esc during a run asked to cancel (mono_s) */
	bool split_seq;		/* inside an escape sequence that came split: Esc, '[' ... */
	/* one line for the user: an error with its remedy, or a note */
	char msg[480];
	enum ui_role msg_role;
} ts;

#define ESC_CONFIRM_S 3

static double mono_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static bool demo(void)
{
	const char *d = getenv("IBCONSOLE_DEMO");

	return d && !strcmp(d, "1");
}

static void note(enum ui_role r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(enum ui_role r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ts.msg, sizeof(ts.msg), fmt, ap);
	va_end(ap);
	ts.msg_role = r;
}

/* The console's peer (fabric screen's mark, --peer, or the last typed),
 * as a host name. */
static void fabric_peer(void)
{
	struct test_peer tp;

	if (!peer_get(&tp) || !tp.host[0] || !strcmp(tp.host, ts.peer))
		return;
	snprintf(ts.peer, sizeof(ts.peer), "%s", tp.host);
	if (tp.node[0])
		note(UI_NORMAL, "peer \"%s\" from the fabric screen's mark (node \"%s\" port %d) — edit it if the agent's address differs",
		     tp.host, tp.node, tp.port);
	else
		note(UI_NORMAL, "peer \"%s\" — edit it if the agent's address differs", tp.host);
}

static void form_init(void)
{
	if (ts.init)
		return;
	ts.init = true;
	ts.nrecent = testjob_peers_load(ts.recent, TJ_MAX_PEERS);
	if (ts.nrecent)
		snprintf(ts.peer, sizeof(ts.peer), "%s", ts.recent[0]);
	snprintf(ts.gid, sizeof(ts.gid), "auto");
	ts.v = calloc(1, sizeof(*ts.v));
	ts.diff = calloc(1, sizeof(*ts.diff));
}

static bool is_text(int f)
{
	return f == F_PEER || f == F_SIZE || f == F_QPS || f == F_ITERS || f == F_DUR ||
	       f == F_GID || f == F_PORT || f == F_SECRET;
}

static char *text_of(int f, size_t *len)
{
	switch (f) {
	case F_PEER: *len = sizeof(ts.peer); return ts.peer;
	case F_SIZE: *len = sizeof(ts.size); return ts.size;
	case F_QPS: *len = sizeof(ts.qps); return ts.qps;
	case F_ITERS: *len = sizeof(ts.iters); return ts.iters;
	case F_DUR: *len = sizeof(ts.dur); return ts.dur;
	case F_GID: *len = sizeof(ts.gid); return ts.gid;
	case F_PORT: *len = sizeof(ts.port); return ts.port;
	case F_SECRET: *len = sizeof(ts.secret); return ts.secret;
	default: *len = 0; return NULL;
	}
}

/* "64K", "1M", "4096"; -1 on bad input, 0 when empty. */
static long long parse_num(const char *s, bool suffix)
{
	char *end;
	long long v;

	if (!s[0])
		return 0;
	v = strtoll(s, &end, 10);
	if (end == s || v < 0)
		return -1;
	if (suffix && (*end == 'K' || *end == 'k')) {
		v <<= 10;
		end++;
	} else if (suffix && (*end == 'M' || *end == 'm')) {
		v <<= 20;
		end++;
	}
	return *end ? -1 : v;
}

static void choice_of_form(struct tj_choice *c)
{
	memset(c, 0, sizeof(*c));
	c->kind = ts.kind == TJ_KIND_TCP ? KIND_BW : ts.kind;
	c->op = ts.op_set ? ts.op : -1;
	c->conn = ts.conn;
	c->size = parse_num(ts.size, true);
	if (c->size == 0)
		c->size = -1;
	c->sweep = ts.sweep;
	c->bidir = ts.bidir;
	c->qps = (int)parse_num(ts.qps, false);
	c->iters = parse_num(ts.iters, false);
	c->duration_s = (double)parse_num(ts.dur, false);
	c->tx_depth = c->inline_size = c->cq_mod = -1;
}

static const char *human_size(uint64_t b, char *buf, size_t len)
{
	if (b >= (1u << 20) && !(b & ((1u << 20) - 1)))
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= 1024 && !(b & 1023))
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%llu B", (unsigned long long)b);
	return buf;
}

/* 1234567 → "1.23M" */
static const char *human_count(uint64_t v, char *buf, size_t len)
{
	if (v >= 1000000000000ull)
		snprintf(buf, len, "%.2fT", (double)v / 1e12);
	else if (v >= 1000000000ull)
		snprintf(buf, len, "%.2fG", (double)v / 1e9);
	else if (v >= 1000000ull)
		snprintf(buf, len, "%.2fM", (double)v / 1e6);
	else if (v >= 10000ull)
		snprintf(buf, len, "%.1fk", (double)v / 1e3);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

/* ---- starting a run ---- */

static void start(void)
{
	struct tj_choice ch;
	struct tj_opts o;
	char err[ENG_ERR], secret[256];
	struct test_peer tp;
	long long gid, port;

	ts.msg[0] = '\0';
	if (demo()) {
		note(UI_WARN, "no test on the demo fabric: ibsim carries no data — run the console on a host with a verbs device");
		return;
	}
	if (!ts.peer[0]) {
		note(UI_BAD, "no peer: the test needs the host running 'ibconsole serve' — type its name or address, or mark its port with p on the fabric screen");
		ts.field = F_PEER;
		return;
	}
	memset(&o, 0, sizeof(o));
	choice_of_form(&ch);
	if (ch.size < -1 || ch.qps < 0 || ch.iters < 0 || ch.duration_s < 0) {
		note(UI_BAD, "bad number in the form — give whole numbers (size may end in K or M)");
		return;
	}
	gid = strcmp(ts.gid, "auto") && ts.gid[0] ? parse_num(ts.gid, false) : -1;
	port = parse_num(ts.port, false);
	if (ts.gid[0] && strcmp(ts.gid, "auto") && gid < 0) {
		note(UI_BAD, "bad GID index '%s' — give a number or auto", ts.gid);
		return;
	}
	if (port < 0 || port > 65535) {
		note(UI_BAD, "bad agent port '%s' — give 1..65535, or leave it empty for 18516", ts.port);
		return;
	}
	o.kind = ts.kind;
	if (ts.kind != TJ_KIND_TCP) {
		testjob_params(&ch, &o.c.p);
		if (testjob_check(&o.c.p, err, sizeof(err))) {
			note(UI_BAD, "%s", err);
			return;
		}
	}
	o.tcp_seconds = ch.duration_s > 0 ? (uint32_t)ch.duration_s : 10;
	o.c.peer = ts.peer;
	o.c.tcp_port = (int)port;
	o.c.gid_index = (int)gid;
	o.c.timeout_ms = 10000;
	o.c.stall_ms = 5000;
	o.c.perftest = ts.ptest && ts.kind != TJ_KIND_TCP;
	screen_ports_selected(ts.from_dev, sizeof(ts.from_dev), &ts.from_port);
	o.c.device = ts.from_dev[0] ? ts.from_dev : NULL;
	o.c.ib_port = ts.from_dev[0] ? ts.from_port : 0;
	if (ts.secret[0]) {
		if (testjob_read_secret(ts.secret, secret, sizeof(secret), err, sizeof(err))) {
			note(UI_BAD, "%s", err);
			return;
		}
		o.c.secret = secret;
	}
	testjob_stop(ts.job);
	ts.job = testjob_start(&o, err, sizeof(err));
	memset(secret, 0, sizeof(secret));
	if (!ts.job) {
		note(UI_BAD, "%s", err);
		return;
	}
	if (!peer_get(&tp) || strcmp(tp.host, ts.peer))
		peer_set_host(ts.peer);	/* the triage walks to the same peer */
	if (testjob_peers_remember(ts.peer) == 0)
		ts.nrecent = testjob_peers_load(ts.recent, TJ_MAX_PEERS);
	memset(ts.v, 0, sizeof(*ts.v));
	ts.handled = false;
	ts.pane = 1;
	ts.record[0] = ts.vline[0] = ts.diffpath[0] = '\0';
	ts.diff->n = 0;
	ts.mode = M_RUN;
}

/* ---- the end of a run: verdict and record (on the UI thread: a small
 * file, written once) ---- */

static void finish(void)
{
	struct tj_view *v = ts.v;
	const struct client_result *r = &v->res;
	struct client_opts co = v->o.c;
	struct tv_input in = { 0 };
	struct tv_verdict tv = { 0 };
	struct record_verdict rv;
	FILE *f;

	ts.handled = true;
	ts.pane = 0;
	if (v->state == TJ_CANCELLED) {
		note(UI_WARN, "cancelled: both ends released the test's QPs and memory; the agent takes the next test");
		return;
	}
	if (v->state == TJ_FAILED) {
		note(UI_BAD, "%s", v->err);
		return;
	}
	if (v->o.kind == TJ_KIND_TCP) {
		note(UI_GOOD, "TCP baseline done: %.2f Gb/s received (tcp runs keep no record)", v->tcp_gbps);
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
		in.data_gbps = r->local.rate_mbps / 1000.0;
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
	tv_eval(&in, NULL, &tv);	/* the reference procedure's numbers */
	ts.vstate = tv.state;
	snprintf(ts.vline, sizeof(ts.vline), "verdict: %s%s%s%s — %s", tv_state_name(tv.state),
		 tv.rule[0] ? " (rule " : "", tv.rule, tv.rule[0] ? ")" : "", tv.text);
	rv = (struct record_verdict){ .state = tv_state_name(tv.state), .rule = tv.rule,
				      .text = tv.text, .line_gbps = in.data_gbps,
				      .source = tv.source, .healthy = tv.healthy,
				      .abnormal = tv.abnormal, .pass = tv.pass, .unit = tv.unit };
	co.peer = v->peer;
	co.secret = NULL;
	if (testjob_record_path(co.p.kind, co.p.op, ts.record, sizeof(ts.record)) ||
	    !(f = fopen(ts.record, "w"))) {
		note(UI_WARN, "the record could not be saved in %s — set IBCONSOLE_RECORD_DIR to a writable directory",
		     ts.record[0] ? ts.record : "the state directory (no HOME)");
		ts.record[0] = '\0';
		return;
	}
	record_write(f, &co, r, &rv, NULL, NULL);
	if (fclose(f)) {
		note(UI_WARN, "the record %s could not be written — check the disk", ts.record);
		ts.record[0] = '\0';
		return;
	}
	note(UI_NORMAL, "c compare with an earlier record   r run again   Tab counters / latency   Esc form");
}

static void compare_pick(void)
{
	const struct proto_params *p = &ts.v->o.c.p;

	ts.nrefs = testjob_find_records(p, ts.v->peer, ts.record, ts.refs, TJ_MAX_RECORDS);
	if (!ts.nrefs) {
		note(UI_WARN, "no earlier record of this test (same kind, op, size, QPs) to %s — run it again later and press c",
		     ts.v->peer);
		return;
	}
	ts.refsel = 0;
	ts.mode = M_PICK;
}

static void compare_with(const char *path)
{
	struct record_saved *s = calloc(1, sizeof(*s));
	char why[200];

	if (!s) {
		note(UI_BAD, "out of memory");
		return;
	}
	if (testjob_load_record(path, s, why, sizeof(why))) {
		note(UI_BAD, "cannot use the record %s: %s — pick another", path, why);
		free(s);
		return;
	}
	snprintf(ts.diffpath, sizeof(ts.diffpath), "%s", path);
	record_compare(s, &ts.v->res, ts.diff);
	ts.diff->path = ts.diffpath;
	free(s);
	ts.pane = 0;
}

/* ---- drawing ---- */

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

static void bar(WINDOW *win, int y, int x, int w, double frac)
{
	int full = (int)(frac * w + 0.5);

	if (full > w)
		full = w;
	wattron(win, widgets_attr(UI_SELECTED));
	mvwhline(win, y, x, ' ', full);
	wattroff(win, widgets_attr(UI_SELECTED));
	wattron(win, widgets_attr(UI_DIM));
	mvwhline(win, y, x + full, '.', w - full);
	wattroff(win, widgets_attr(UI_DIM));
}

static void draw_form(WINDOW *win, int w, int h)
{
	struct tj_choice ch;
	struct proto_params p;
	char buf[400], def[64];
	int y = 1;
	bool tcp = ts.kind == TJ_KIND_TCP;

	choice_of_form(&ch);
	testjob_params(&ch, &p);
	screen_ports_selected(ts.from_dev, sizeof(ts.from_dev), &ts.from_port);
	snprintf(buf, sizeof(buf), " TEST  from %s%s%s   to the agent ('ibconsole serve') on the peer",
		 ts.from_dev[0] ? ts.from_dev : "the first device", ts.from_dev[0] ? "/" : "",
		 ts.from_dev[0] ? (snprintf(def, sizeof(def), "%d", ts.from_port), def) : "");
	widgets_text(win, y++, 0, w, buf, UI_TITLE, false, true);
	if (demo()) {
		static const char *const lines[] = {
			"This is the demo fabric: ibsim simulates the management plane (SMPs, PMA",
			"counters) and carries no data, so no test can run here, and none is faked.",
			"",
			"Tests need a verbs device: an HCA, or Soft-RoCE on any Ethernet port",
			"  (rdma link add rxe0 type rxe netdev eth0).",
			"On the peer:   ibconsole serve",
			"Here:          ibconsole, then t (or: ibconsole test bw PEER,",
			"               ibconsole test tcp PEER for the TCP baseline).",
			"",
			"Esc returns.",
		};

		y++;
		for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]) && y < h - 1; i++)
			widgets_text(win, y++, 2, w - 2, lines[i], i < 2 ? UI_WARN : UI_NORMAL, false, false);
		widgets_text(win, h - 1, 0, w, " Esc back   ? help", UI_FOOTER, false, true);
		return;
	}
	for (int f = 0; f < F_N && y < h - 3; f++, y++) {
		const char *label = "", *val = "", *hint = "";
		bool unused = false;
		char vb[300];

		vb[0] = def[0] = '\0';
		switch (f) {
		case F_PEER:
			label = "Peer";
			val = ts.peer;
			hint = ts.nrecent ? "Left/Right: recent peers; p on the fabric screen marks one" :
					    "host or address; p on the fabric screen marks one";
			break;
		case F_KIND:
			label = "Kind";
			val = kind_names[ts.kind];
			hint = "bw, lat, rate, tcp (the TCP baseline)";
			break;
		case F_OP:
			label = "Operation";
			val = op_names[p.op];
			unused = tcp;
			hint = ts.op_set ? "" : "perftest's default for the kind";
			break;
		case F_CONN:
			label = "Transport";
			val = conn_names[ts.conn];
			unused = tcp;
			hint = "UD: send only";
			break;
		case F_SIZE:
			label = "Size";
			val = ts.size;
			unused = tcp;
			snprintf(def, sizeof(def), "%llu", (unsigned long long)p.size);
			hint = ts.sweep ? "largest size of the sweep; K/M" : "bytes, K/M suffixes";
			break;
		case F_SWEEP:
			label = "Sweep 2 B..size";
			val = onoff[ts.sweep];
			unused = tcp;
			break;
		case F_QPS:
			label = "QPs";
			val = ts.qps;
			unused = tcp;
			snprintf(def, sizeof(def), "%u", p.qps);
			break;
		case F_BIDIR:
			label = "Bidirectional";
			val = onoff[ts.bidir];
			unused = tcp || p.kind == KIND_LAT;
			break;
		case F_ITERS:
			label = "Iterations";
			val = ts.iters;
			unused = tcp || p.duration_ms;
			if (!tcp && p.duration_ms)
				hint = "(not used: the duration decides)";
			snprintf(def, sizeof(def), "%llu", (unsigned long long)p.iters);
			hint = "per QP";
			break;
		case F_DUR:
			label = "Duration s";
			val = ts.dur;
			snprintf(def, sizeof(def), "%s", tcp ? "10" : "by iterations");
			hint = tcp ? "seconds of the TCP stream" : "instead of iterations";
			break;
		case F_GID:
			label = "GID index";
			val = ts.gid;
			unused = tcp;
			hint = "auto: the RoCE v2 IPv4 entry of the port's netdev (IB: none); the run shows its pick";
			break;
		case F_PORT:
			label = "Agent port";
			val = ts.port;
			snprintf(def, sizeof(def), "18516");
			hint = tcp ? "the TCP stream uses this + 1" : "";
			break;
		case F_SECRET:
			label = "Secret file";
			val = ts.secret;
			snprintf(def, sizeof(def), "none");
			hint = "when the agent runs with --secret-file";
			break;
		case F_PTEST:
			label = "Peer runs";
			val = ts.ptest ? "perftest" : "the agent";
			unused = tcp;
			hint = ts.ptest ? "an unmodified ib_<op>_<kind> server, same options; port 18515" : "";
			break;
		}
		widgets_text(win, y, 1, 16, label, unused ? UI_DIM : UI_LABEL, false, false);
		if (is_text(f)) {
			snprintf(vb, sizeof(vb), "[%s%s]", val, f == ts.field ? "_" : "");
			if (!val[0] && def[0] && f != ts.field)
				snprintf(vb, sizeof(vb), "[%s]", def);
		} else {
			snprintf(vb, sizeof(vb), "< %s >", val);
		}
		widgets_text(win, y, 18, 24, vb, f == ts.field ? UI_SELECTED : unused || (!val[0] && def[0]) ? UI_DIM : UI_NORMAL,
			     false, f == ts.field);
		widgets_text(win, y, 43, w - 43, unused && hint[0] != '(' ? "(not used by this kind)" : hint, UI_DIM,
			     false, false);
	}
	if (ts.nrecent && y < h - 3) {
		int o = snprintf(buf, sizeof(buf), " recent peers:");

		for (int i = 0; i < ts.nrecent && o < (int)sizeof(buf) - 130; i++)
			o += snprintf(buf + o, sizeof(buf) - (size_t)o, " %s", ts.recent[i]);
		widgets_text(win, y, 0, w, buf, UI_DIM, false, false);
	}
	widgets_text(win, h - 2, 0, w, ts.msg, ts.msg_role, false, true);
	widgets_text(win, h - 1, 0, w,
		     " Enter start  Up/Down/Tab field  Left/Right/Space choose  type to edit  F5 acceptance  Esc back  F1 help",
		     UI_FOOTER, false, true);
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
			snprintf(buf, sizeof(buf), "+%s (%s/s)", human_count(c->delta, n1, sizeof(n1)),
				 human_count(c->rate_per_s, n2, sizeof(n2)));
		else
			snprintf(buf, sizeof(buf), "+%s", human_count(c->delta, n1, sizeof(n1)));
		r = fresh ? UI_GOOD : UI_NORMAL;
	} else {
		snprintf(buf, sizeof(buf), "+%s !", human_count(c->delta, n1, sizeof(n1)));
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
		 human_count(v->size, (char[16]){ 0 }, 16), human_count(h->n, n1, sizeof(n1)), pq[0], pq[1], pq[2],
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

static void moved_line(char *buf, size_t len, const char *who, const struct tj_side *s)
{
	int o = snprintf(buf, len, "%s:", who), shown = 0;
	char n[16];

	for (uint32_t i = 0; i < s->n && o < (int)len - 48; i++)
		if (s->c[i].delta && ctr_classify(s->c[i].name) != CTR_TRAFFIC)
			o += snprintf(buf + o, len - (size_t)o, "%s %s +%s", shown++ ? "," : "", s->c[i].name,
				      human_count(s->c[i].delta, n, sizeof(n)));
	if (!shown)
		snprintf(buf + o, len - (size_t)o, " no error or congestion counter moved");
}

static void draw_result(WINDOW *win, int y, int rows, int w, const struct tj_view *v)
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
	widgets_text(win, y++, 0, w, ts.vline, ts.vstate == TV_FAIL ? UI_BAD : ts.vstate == TV_WARN ? UI_WARN : UI_GOOD,
		     false, false);
	moved_line(buf, sizeof(buf), " counters moved — local", &v->lctr);
	widgets_text(win, y++, 0, w, buf, UI_NORMAL, false, false);
	moved_line(buf, sizeof(buf), "                   peer", &v->pctr);
	widgets_text(win, y++, 0, w, buf, UI_NORMAL, false, false);
	if (ts.record[0]) {
		snprintf(buf, sizeof(buf), " record: %s", ts.record);
		widgets_text(win, y++, 0, w, buf, UI_NORMAL, false, false);
	}
	if (ts.diffpath[0] && y < end) {
		snprintf(buf, sizeof(buf), " compared with %s:", ts.diffpath);
		widgets_text(win, y++, 0, w, buf, UI_TITLE, false, false);
		for (int i = 0; i < ts.diff->n && y < end; i++) {
			const struct record_cmp *c = &ts.diff->c[i];

			snprintf(buf, sizeof(buf), "   %-9llu %-14s %12.4f -> %12.4f  (%+.1f %%)",
				 (unsigned long long)c->size, c->metric, c->before, c->after, c->change_pct);
			widgets_text(win, y++, 0, w, buf, fabs(c->change_pct) >= 10 ? UI_WARN : UI_NORMAL, false, false);
		}
		if (!ts.diff->n)
			widgets_text(win, y, 0, w, "   no common sizes to compare", UI_DIM, false, false);
	}
}

static void draw_pick(WINDOW *win, int y, int rows, int w)
{
	widgets_text(win, y++, 0, w, " COMPARE WITH  (Up/Down, Enter picks, Esc back)", UI_TITLE, false, true);
	for (int i = 0; i < ts.nrefs && i < rows - 1; i++, y++)
		widgets_text(win, y, 1, w - 1, ts.refs[i].name, i == ts.refsel ? UI_SELECTED : UI_NORMAL, false, true);
}

static void draw_run(WINDOW *win, int w, int h)
{
	const struct tj_view *v = ts.v;
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
			 human_size(p->size, sz, sizeof(sz)), p->conn == CONN_UD ? "UD" : "RC", p->qps,
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
		bar(win, y, 1, 30, frac);
		if (over)
			snprintf(buf, sizeof(buf), "%.1f s in all, %d phase%s", v->t_s, v->nphases,
				 v->nphases == 1 ? "" : "s");
		else if (tcp)
			snprintf(buf, sizeof(buf), "%5.1f / %u s", v->t_s, v->o.tcp_seconds);
		else if (v->msgs_goal)
			snprintf(buf, sizeof(buf), "%llu / %llu iters  size %s  phase %d/%d",
				 (unsigned long long)v->msgs, (unsigned long long)v->msgs_goal,
				 human_size(v->size, sz, sizeof(sz)), v->phase + 1, v->nphases);
		else
			snprintf(buf, sizeof(buf), "%.1f s of %.1f s  size %s  phase %d/%d", v->t_s,
				 p->duration_ms / 1000.0, human_size(v->size, sz, sizeof(sz)), v->phase + 1, v->nphases);
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
	if (ts.mode == M_PICK)
		draw_pick(win, y, rows, w);
	else if (ts.pane == 0 && over)
		draw_result(win, y, rows, w, v);
	else if (ts.pane == 2)
		draw_latency(win, y, rows, w, v);
	else
		draw_counters(win, y, rows, w, v);
	widgets_text(win, h - 2, 0, w, ts.msg, ts.msg_role, false, true);
	widgets_text(win, h - 1, 0, w, over ? " [r] again  [c] compare  [Tab] result/counters/latency  [Esc] form  F1 help" :
		     " [Esc Esc] cancel  [Tab] counters/latency  q quit  F1 help", UI_FOOTER, false, true);
	snprintf(buf, sizeof(buf), "pane: %s ", ts.pane == 0 && over ? "result" : ts.pane == 2 ? "latency" : "counters");
	widgets_text(win, h - 1, w - 16, 16, buf, UI_FOOTER, true, false);
}

static void test_draw(WINDOW *win, const struct ui_ctx *c)
{
	int w = getmaxx(win), h = getmaxy(win);

	(void)c;
	if (!ts.v || !ts.diff) {
		widgets_text(win, 2, 1, w - 1, "out of memory", UI_BAD, false, false);
		return;
	}
	if (ts.mode == M_FORM)
		draw_form(win, w, h);
	else
		draw_run(win, w, h);
}

/* ---- keys ---- */

static void cycle(int f, int d)
{
	switch (f) {
	case F_KIND:
		ts.kind = (ts.kind + 4 + d) % 4;
		break;
	case F_OP: {
		struct tj_choice ch;
		struct proto_params p;

		choice_of_form(&ch);
		testjob_params(&ch, &p);
		ts.op = (p.op + 3 + d) % 3;
		ts.op_set = true;
		break;
	}
	case F_CONN:
		ts.conn = !ts.conn;
		break;
	case F_SWEEP:
		ts.sweep = !ts.sweep;
		break;
	case F_BIDIR:
		ts.bidir = !ts.bidir;
		break;
	case F_PTEST:
		ts.ptest = !ts.ptest;
		break;
	case F_PEER:
		if (ts.nrecent) {
			ts.recent_i = (ts.recent_i + ts.nrecent + d) % ts.nrecent;
			snprintf(ts.peer, sizeof(ts.peer), "%s", ts.recent[ts.recent_i]);
		}
		break;
	}
}

/* Text entry: on a text field the printable keys are its text, never a
 * binding (the key table says so); true when the key was taken. */
static bool form_type(int key)
{
	size_t len, n;
	char *t = text_of(ts.field, &len);

	if (!t || key < 32 || key >= 127)
		return false;
	n = strlen(t);
	if (ts.field == F_GID && !strcmp(t, "auto") && key >= '0' && key <= '9')
		t[n = 0] = '\0';
	if (key != ' ' && n + 1 < len) {
		t[n] = (char)key;
		t[n + 1] = '\0';
	}
	return true;	/* typed into a text field: never a console key */
}

static int form_key(int key, enum ui_action a)
{
	const int done = SCREEN_HANDLED | SCREEN_REDRAW;
	size_t len;
	char *t;

	if (a == UI_ACT_BACK)
		return SCREEN_HANDLED | SCREEN_CLOSE | SCREEN_REDRAW;
	if (demo())
		return 0;
	if (form_type(key))
		return done;
	t = text_of(ts.field, &len);
	switch (a) {
	case UI_ACT_START:
		start();
		return done;
	case UI_ACT_UP:
		ts.field = (ts.field + F_N - 1) % F_N;
		return done;
	case UI_ACT_FIRST:
		ts.field = 0;
		return done;
	case UI_ACT_DOWN:
	case UI_ACT_PANE:
		ts.field = (ts.field + 1) % F_N;
		return done;
	case UI_ACT_CHOICE_PREV:
	case UI_ACT_CHOICE_NEXT:
		cycle(ts.field, a == UI_ACT_CHOICE_PREV ? -1 : 1);
		return done;
	case UI_ACT_ERASE:
		if (t && t[0])
			t[strlen(t) - 1] = '\0';
		return t ? done : 0;
	case UI_ACT_ERASE_ALL:
		if (t)
			t[0] = '\0';
		return t ? done : 0;
	default:
		return 0;	/* the console's keys (q, f, F5 ...) */
	}
}

/* A key's escape sequence that a loaded terminal split (a bare Esc, then
 * "[A" or "OA" as plain keys) is swallowed to its final byte, so the rest
 * of an arrow key never reaches the global keys (A is the acceptance
 * screen). This reads bytes of a sequence, not bindings; SCREEN_* flags
 * when the key belonged to one, else 0. */
static int split_escape(int key, enum ui_action a, bool over)
{
	if (ts.split_seq) {
		if (key >= 0x20 && key <= 0x3f)
			return SCREEN_HANDLED;
		ts.split_seq = false;
		if (key >= 0x40 && key <= 0x7e)
			return SCREEN_HANDLED;
	}
	if (a != UI_ACT_BACK && ts.esc_at) {	/* the cancel question is dropped */
		ts.esc_at = 0;
		if (!over)
			ts.msg[0] = '\0';
		if (key == '[' || key == 'O') {
			ts.split_seq = true;
			return SCREEN_HANDLED | SCREEN_REDRAW;
		}
	}
	return 0;
}

/* The compare list: every key stays on it. */
static int pick_key(enum ui_action a)
{
	switch (a) {
	case UI_ACT_UP:
		ts.refsel = ts.refsel ? ts.refsel - 1 : 0;
		break;
	case UI_ACT_DOWN:
		if (ts.refsel + 1 < ts.nrefs)
			ts.refsel++;
		break;
	case UI_ACT_START:
		ts.mode = M_RUN;
		compare_with(ts.refs[ts.refsel].path);
		break;
	case UI_ACT_BACK:
		ts.mode = M_RUN;
		break;
	default:
		return SCREEN_HANDLED;
	}
	return SCREEN_HANDLED | SCREEN_REDRAW;
}

/* Esc during a run asks, a second Esc within ESC_CONFIRM_S cancels;
 * after the run it goes back to the form. */
static void run_back(bool over)
{
	if (!over && mono_s() - ts.esc_at > ESC_CONFIRM_S) {
		/* one Esc only asks: an arrow key split by a loaded terminal
		 * starts with a bare Esc, and its next byte disarms */
		ts.esc_at = mono_s();
		note(UI_WARN, "Esc again to cancel the run (within %d s; any other key keeps it running)",
		     ESC_CONFIRM_S);
		return;
	}
	if (!over) {
		testjob_cancel(ts.job);
		note(UI_WARN, "cancelling: both ends release the QPs ...");
		ts.v->gen = 0;	/* take the cancelling view */
		ts.esc_at = 0;
		return;
	}
	ts.mode = M_FORM;
	ts.field = F_PEER;	/* back at the top of the form */
	ts.msg[0] = '\0';
}

static int run_key(int key, enum ui_action a)
{
	const int done = SCREEN_HANDLED | SCREEN_REDRAW;
	bool over = ts.v->state >= TJ_DONE;
	int fl = split_escape(key, a, over);

	if (fl)
		return fl;
	if (ts.mode == M_PICK)
		return pick_key(a);
	switch (a) {
	case UI_ACT_PANE:
		if (over)
			ts.pane = (ts.pane + 1) % 3;
		else
			ts.pane = ts.pane == 1 ? 2 : 1;
		return done;
	case UI_ACT_BACK:
		run_back(over);
		return done;
	case UI_ACT_AGAIN:
		if (over)
			start();
		return done;
	case UI_ACT_COMPARE:
		if (over && ts.v->state == TJ_DONE && ts.v->o.kind != TJ_KIND_TCP)
			compare_pick();
		return done;
	default:
		return 0;
	}
}

static int test_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	(void)c;
	form_init();
	if (!ts.v || !ts.diff)
		return 0;
	if (ts.mode == M_FORM)
		return form_key(key, a);
	return run_key(key, a);
}

static void test_on_resize(int w, int h)
{
	(void)w;
	(void)h;
}

static void test_enter(const struct ui_ctx *c)
{
	(void)c;
	form_init();
	if (ts.mode == M_FORM)
		fabric_peer();
}

static int test_wake_fd(void)
{
	return ts.job ? testjob_fd(ts.job) : -1;
}

/* Takes the run's newest view; the end of a run is handled here once
 * (verdict, record), never in a draw. */
static bool test_update(const struct ui_ctx *c)
{
	bool changed;

	(void)c;
	if (!ts.job || !ts.v)
		return false;
	testjob_drain(ts.job);
	changed = testjob_get(ts.job, ts.v);
	if (changed && ts.v->state >= TJ_DONE && !ts.handled)
		finish();
	return changed;
}

const struct screen screen_test = {
	.name = "test",
	.keys = KEYS_TEST,
	.draw = test_draw,
	.on_key = test_on_key,
	.on_resize = test_on_resize,
	.enter = test_enter,
	.update = test_update,
	.wake_fd = test_wake_fd,
};

void screen_test_shutdown(void)
{
	testjob_stop(ts.job);
	ts.job = NULL;
	free(ts.v);
	free(ts.diff);
	ts.v = NULL;
	ts.diff = NULL;
	ts.init = false;
}
