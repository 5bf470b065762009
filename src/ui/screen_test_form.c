// SPDX-License-Identifier: MIT
/* The test screen's form: perftest's choices as fields, their text and
 * choice editing by the key table's actions, and starting a run from
 * what the form holds. */
#include "config.h"
#include "screen_test_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/testrun/peer.h"

static const char *const kind_names[] = { "bw", "lat", "rate", "tcp" };
static const char *const op_names[] = { "write", "read", "send" };
static const char *const conn_names[] = { "RC", "UD" };
static const char *const onoff[] = { "off", "on" };

/* The console's peer (fabric screen's mark, --peer, or the last typed),
 * as a host name. */
void tscreen_fabric_peer(void)
{
	struct test_peer tp;

	if (!peer_get(&tp) || !tp.host[0] || !strcmp(tp.host, tscreen.peer))
		return;
	snprintf(tscreen.peer, sizeof(tscreen.peer), "%s", tp.host);
	if (tp.node[0])
		tscreen_note(UI_NORMAL, "peer \"%s\" from the fabric screen's mark (node \"%s\" port %d) — edit it if the agent's address differs",
		     tp.host, tp.node, tp.port);
	else
		tscreen_note(UI_NORMAL, "peer \"%s\" — edit it if the agent's address differs", tp.host);
}

void tscreen_form_init(void)
{
	if (tscreen.init)
		return;
	tscreen.init = true;
	tscreen.nrecent = testjob_peers_load(tscreen.recent, TJ_MAX_PEERS);
	if (tscreen.nrecent)
		snprintf(tscreen.peer, sizeof(tscreen.peer), "%s", tscreen.recent[0]);
	snprintf(tscreen.gid, sizeof(tscreen.gid), "auto");
	peer_secret_file(tscreen.secret, sizeof(tscreen.secret));	/* console --secret-file */
	tscreen.v = calloc(1, sizeof(*tscreen.v));
	tscreen.diff = calloc(1, sizeof(*tscreen.diff));
}

static bool is_text(int f)
{
	return f == F_PEER || f == F_SIZE || f == F_QPS || f == F_ITERS || f == F_DUR ||
	       f == F_GID || f == F_PORT || f == F_SECRET;
}

static char *text_of(int f, size_t *len)
{
	switch (f) {
	case F_PEER: *len = sizeof(tscreen.peer); return tscreen.peer;
	case F_SIZE: *len = sizeof(tscreen.size); return tscreen.size;
	case F_QPS: *len = sizeof(tscreen.qps); return tscreen.qps;
	case F_ITERS: *len = sizeof(tscreen.iters); return tscreen.iters;
	case F_DUR: *len = sizeof(tscreen.dur); return tscreen.dur;
	case F_GID: *len = sizeof(tscreen.gid); return tscreen.gid;
	case F_PORT: *len = sizeof(tscreen.port); return tscreen.port;
	case F_SECRET: *len = sizeof(tscreen.secret); return tscreen.secret;
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
	c->kind = tscreen.kind == TJ_KIND_TCP ? KIND_BW : tscreen.kind;
	c->op = tscreen.op_set ? tscreen.op : -1;
	c->conn = tscreen.conn;
	c->size = parse_num(tscreen.size, true);
	if (c->size == 0)
		c->size = -1;
	c->sweep = tscreen.sweep;
	c->bidir = tscreen.bidir;
	c->qps = (int)parse_num(tscreen.qps, false);
	c->iters = parse_num(tscreen.iters, false);
	c->duration_s = (double)parse_num(tscreen.dur, false);
	c->tx_depth = c->inline_size = c->cq_mod = -1;
}

/* ---- starting a run ---- */

void tscreen_start(void)
{
	struct tj_choice ch;
	struct tj_opts o;
	char err[ENG_ERR], secret[256];
	struct test_peer tp;
	long long gid, port;

	tscreen.msg[0] = '\0';
	if (tscreen_demo()) {
		tscreen_note(UI_WARN, "no test on the demo fabric: ibsim carries no data — run the console on a host with a verbs device");
		return;
	}
	if (!tscreen.peer[0]) {
		tscreen_note(UI_BAD, "no peer: the test needs the host running 'ibconsole serve' — type its name or address, or mark its port with p on the fabric screen");
		tscreen.field = F_PEER;
		return;
	}
	memset(&o, 0, sizeof(o));
	choice_of_form(&ch);
	if (ch.size < -1 || ch.qps < 0 || ch.iters < 0 || ch.duration_s < 0) {
		tscreen_note(UI_BAD, "bad number in the form — give whole numbers (size may end in K or M)");
		return;
	}
	gid = strcmp(tscreen.gid, "auto") && tscreen.gid[0] ? parse_num(tscreen.gid, false) : -1;
	port = parse_num(tscreen.port, false);
	if (tscreen.gid[0] && strcmp(tscreen.gid, "auto") && gid < 0) {
		tscreen_note(UI_BAD, "bad GID index '%s' — give a number or auto", tscreen.gid);
		return;
	}
	if (port < 0 || port > 65535) {
		tscreen_note(UI_BAD, "bad agent port '%s' — give 1..65535, or leave it empty for 18516", tscreen.port);
		return;
	}
	o.kind = tscreen.kind;
	if (tscreen.kind != TJ_KIND_TCP) {
		testjob_params(&ch, &o.c.p);
		if (testjob_check(&o.c.p, err, sizeof(err))) {
			tscreen_note(UI_BAD, "%s", err);
			return;
		}
	}
	o.tcp_seconds = ch.duration_s > 0 ? (uint32_t)ch.duration_s : 10;
	o.c.peer = tscreen.peer;
	o.c.tcp_port = (int)port;
	o.c.gid_index = (int)gid;
	o.c.timeout_ms = 10000;
	o.c.stall_ms = 5000;
	o.c.perftest = tscreen.ptest && tscreen.kind != TJ_KIND_TCP;
	screen_ports_selected(tscreen.from_dev, sizeof(tscreen.from_dev), &tscreen.from_port);
	o.c.device = tscreen.from_dev[0] ? tscreen.from_dev : NULL;
	o.c.ib_port = tscreen.from_dev[0] ? tscreen.from_port : 0;
	if (tscreen.secret[0]) {
		if (testjob_read_secret(tscreen.secret, secret, sizeof(secret), err, sizeof(err))) {
			tscreen_note(UI_BAD, "%s", err);
			return;
		}
		o.c.secret = secret;
	}
	testjob_stop(tscreen.job);
	tscreen.job = testjob_start(&o, err, sizeof(err));
	memset(secret, 0, sizeof(secret));
	if (!tscreen.job) {
		tscreen_note(UI_BAD, "%s", err);
		return;
	}
	if (!peer_get(&tp) || strcmp(tp.host, tscreen.peer))
		peer_set_host(tscreen.peer);	/* the triage walks to the same peer */
	if (testjob_peers_remember(tscreen.peer) == 0)
		tscreen.nrecent = testjob_peers_load(tscreen.recent, TJ_MAX_PEERS);
	memset(tscreen.v, 0, sizeof(*tscreen.v));
	tscreen.handled = false;
	tscreen.pane = 1;
	tscreen.record[0] = tscreen.vline[0] = tscreen.diffpath[0] = '\0';
	tscreen.diff->n = 0;
	tscreen.mode = M_RUN;
}

/* What one field shows: its label, value, hint and default, and whether
 * the kind uses it. */
struct field_view {
	const char *label, *val, *hint;
	bool unused;
	char def[64];
};

static void form_field(int f, const struct proto_params *p, bool tcp, struct field_view *fv)
{
	fv->label = fv->val = fv->hint = "";
	fv->unused = false;
	fv->def[0] = '\0';
	switch (f) {
	case F_PEER:
		fv->label = "Peer";
		fv->val = tscreen.peer;
		fv->hint = tscreen.nrecent ? "Left/Right: recent peers; p on the fabric screen marks one" :
					     "host or address; p on the fabric screen marks one";
		break;
	case F_KIND:
		fv->label = "Kind";
		fv->val = kind_names[tscreen.kind];
		fv->hint = "bw, lat, rate, tcp (the TCP baseline)";
		break;
	case F_OP:
		fv->label = "Operation";
		fv->val = op_names[p->op];
		fv->unused = tcp;
		fv->hint = tscreen.op_set ? "" : "perftest's default for the kind";
		break;
	case F_CONN:
		fv->label = "Transport";
		fv->val = conn_names[tscreen.conn];
		fv->unused = tcp;
		fv->hint = "UD: send only";
		break;
	case F_SIZE:
		fv->label = "Size";
		fv->val = tscreen.size;
		fv->unused = tcp;
		snprintf(fv->def, sizeof(fv->def), "%llu", (unsigned long long)p->size);
		fv->hint = tscreen.sweep ? "largest size of the sweep; K/M" : "bytes, K/M suffixes";
		break;
	case F_SWEEP:
		fv->label = "Sweep 2 B..size";
		fv->val = onoff[tscreen.sweep];
		fv->unused = tcp;
		break;
	case F_QPS:
		fv->label = "QPs";
		fv->val = tscreen.qps;
		fv->unused = tcp;
		snprintf(fv->def, sizeof(fv->def), "%u", p->qps);
		break;
	case F_BIDIR:
		fv->label = "Bidirectional";
		fv->val = onoff[tscreen.bidir];
		fv->unused = tcp || p->kind == KIND_LAT;
		break;
	case F_ITERS:
		fv->label = "Iterations";
		fv->val = tscreen.iters;
		fv->unused = tcp || p->duration_ms;
		if (!tcp && p->duration_ms)
			fv->hint = "(not used: the duration decides)";
		snprintf(fv->def, sizeof(fv->def), "%llu", (unsigned long long)p->iters);
		fv->hint = "per QP";
		break;
	case F_DUR:
		fv->label = "Duration s";
		fv->val = tscreen.dur;
		snprintf(fv->def, sizeof(fv->def), "%s", tcp ? "10" : "by iterations");
		fv->hint = tcp ? "seconds of the TCP stream" : "instead of iterations";
		break;
	case F_GID:
		fv->label = "GID index";
		fv->val = tscreen.gid;
		fv->unused = tcp;
		fv->hint = "auto: the RoCE v2 IPv4 entry of the port's netdev (IB: none); the run shows its pick";
		break;
	case F_PORT:
		fv->label = "Agent port";
		fv->val = tscreen.port;
		snprintf(fv->def, sizeof(fv->def), "18516");
		fv->hint = tcp ? "the TCP stream uses this + 1" : "";
		break;
	case F_SECRET:
		fv->label = "Secret file";
		fv->val = tscreen.secret;
		snprintf(fv->def, sizeof(fv->def), "none");
		fv->hint = "when the agent runs with --secret-file";
		break;
	case F_PTEST:
		fv->label = "Peer runs";
		fv->val = tscreen.ptest ? "perftest" : "the agent";
		fv->unused = tcp;
		fv->hint = tscreen.ptest ? "an unmodified ib_<op>_<kind> server, same options; port 18515" : "";
		break;
	}
}

/* The demo fabric carries no data: the form says so and how to test. */
static void form_draw_demo(WINDOW *win, int y, int w, int h)
{
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
}

void tscreen_form_draw(WINDOW *win, int w, int h)
{
	struct tj_choice ch;
	struct proto_params p;
	char buf[400], def[64];
	int y = 1;
	bool tcp = tscreen.kind == TJ_KIND_TCP;

	choice_of_form(&ch);
	testjob_params(&ch, &p);
	screen_ports_selected(tscreen.from_dev, sizeof(tscreen.from_dev), &tscreen.from_port);
	snprintf(buf, sizeof(buf), " TEST  from %s%s%s   to the agent ('ibconsole serve') on the peer",
		 tscreen.from_dev[0] ? tscreen.from_dev : "the first device", tscreen.from_dev[0] ? "/" : "",
		 tscreen.from_dev[0] ? (snprintf(def, sizeof(def), "%d", tscreen.from_port), def) : "");
	widgets_text(win, y++, 0, w, buf, UI_TITLE, false, true);
	if (tscreen_demo()) {
		form_draw_demo(win, y, w, h);
		return;
	}
	for (int f = 0; f < F_N && y < h - 3; f++, y++) {
		struct field_view fv;
		bool blank;
		char vb[300];

		form_field(f, &p, tcp, &fv);
		blank = !fv.val[0] && fv.def[0];
		widgets_text(win, y, 1, 16, fv.label, fv.unused ? UI_DIM : UI_LABEL, false, false);
		if (is_text(f)) {
			snprintf(vb, sizeof(vb), "[%s%s]", fv.val, f == tscreen.field ? "_" : "");
			if (blank && f != tscreen.field)
				snprintf(vb, sizeof(vb), "[%s]", fv.def);
		} else {
			snprintf(vb, sizeof(vb), "< %s >", fv.val);
		}
		widgets_text(win, y, 18, 24, vb, f == tscreen.field ? UI_SELECTED : fv.unused || blank ? UI_DIM : UI_NORMAL,
			     false, f == tscreen.field);
		widgets_text(win, y, 43, w - 43, fv.unused && fv.hint[0] != '(' ? "(not used by this kind)" : fv.hint,
			     UI_DIM, false, false);
	}
	if (tscreen.nrecent && y < h - 3) {
		int o = snprintf(buf, sizeof(buf), " recent peers:");

		for (int i = 0; i < tscreen.nrecent && o < (int)sizeof(buf) - 130; i++)
			o += snprintf(buf + o, sizeof(buf) - (size_t)o, " %s", tscreen.recent[i]);
		widgets_text(win, y, 0, w, buf, UI_DIM, false, false);
	}
	widgets_text(win, h - 2, 0, w, tscreen.msg, tscreen.msg_role, false, true);
	widgets_text(win, h - 1, 0, w,
		     " Enter start  Up/Down/Tab field  Left/Right/Space choose  type to edit  F5 acceptance  Esc back  F1 help",
		     UI_FOOTER, false, true);
}

static void cycle(int f, int d)
{
	switch (f) {
	case F_KIND:
		tscreen.kind = (tscreen.kind + 4 + d) % 4;
		break;
	case F_OP: {
		struct tj_choice ch;
		struct proto_params p;

		choice_of_form(&ch);
		testjob_params(&ch, &p);
		tscreen.op = (p.op + 3 + d) % 3;
		tscreen.op_set = true;
		break;
	}
	case F_CONN:
		tscreen.conn = !tscreen.conn;
		break;
	case F_SWEEP:
		tscreen.sweep = !tscreen.sweep;
		break;
	case F_BIDIR:
		tscreen.bidir = !tscreen.bidir;
		break;
	case F_PTEST:
		tscreen.ptest = !tscreen.ptest;
		break;
	case F_PEER:
		if (tscreen.nrecent) {
			tscreen.recent_i = (tscreen.recent_i + tscreen.nrecent + d) % tscreen.nrecent;
			snprintf(tscreen.peer, sizeof(tscreen.peer), "%s", tscreen.recent[tscreen.recent_i]);
		}
		break;
	}
}

/* Text entry: on a text field the printable keys are its text, never a
 * binding (the key table says so); true when the key was taken. */
static bool form_type(int key)
{
	size_t len, n;
	char *t = text_of(tscreen.field, &len);

	if (!t || key < 32 || key >= 127)
		return false;
	n = strlen(t);
	if (tscreen.field == F_GID && !strcmp(t, "auto") && key >= '0' && key <= '9')
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
	if (tscreen_demo())
		return 0;
	if (form_type(key))
		return done;
	t = text_of(tscreen.field, &len);
	switch (a) {
	case UI_ACT_START:
		tscreen_start();
		return done;
	case UI_ACT_UP:
		tscreen.field = (tscreen.field + F_N - 1) % F_N;
		return done;
	case UI_ACT_FIRST:
		tscreen.field = 0;
		return done;
	case UI_ACT_DOWN:
	case UI_ACT_PANE:
		tscreen.field = (tscreen.field + 1) % F_N;
		return done;
	case UI_ACT_CHOICE_PREV:
	case UI_ACT_CHOICE_NEXT:
		cycle(tscreen.field, a == UI_ACT_CHOICE_PREV ? -1 : 1);
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

int tscreen_form_key(int key, enum ui_action a)
{
	int f = tscreen.field, r = form_key(key, a);

	/* the Secret field is the console's: the acceptance and the triage
	 * send what it names, as the test does */
	if (f == F_SECRET && (r & SCREEN_HANDLED))
		peer_set_secret_file(tscreen.secret);
	return r;
}
