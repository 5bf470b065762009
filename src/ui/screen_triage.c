// SPDX-License-Identifier: MIT
/* Triage screen: the seven-step walk on one screen — each step's state
 * and finding, its raw evidence under Enter, n / p to walk, r to re-run
 * the selected step, R the whole walk, w to write the report; the
 * conclusion at the foot. The ports screen's status line carries the
 * conclusion with its age, marked stale once a port's state, MTU or GID
 * changed or a demo fault was switched since the walk began. */
#include "config.h"
#include "screen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdint.h>
#include <time.h>

#include "core/testrun/peer.h"
#include "core/triage/job.h"
#include "diag/portfacts.h"
#include "diag/triage.h"
#include "diag/triage_report.h"
#include "widgets.h"

#define TS_LINES 256
/* T from another screen walks again when the last walk is older than
 * this (a console judgement, not a rule of the reference procedure) */
#define TS_FRESH_S 60

static struct {
	struct snap_opts so;
	char dev[64], config[512];
	bool configured;
	struct tri_job *job;
	int job_step;			/* the step being re-run, -1 the walk */
	char phase[96];
	struct tri_evidence *ev;	/* newest evidence, NULL before */
	struct triage t;
	char peer[128];			/* the agent host of the walk */
	char started[16];
	struct timespec walked;		/* CLOCK_MONOTONIC, the walk's start */
	bool have_fp;			/* a snapshot was seen (fp below) */
	char stale[96];			/* why the walk is stale, "" fresh */
	char stale_short[32];		/* the same for the status line */
	char summary[TRI_LINE + 160];	/* the status line's text */
	char err[512];
	char note[640];			/* last action (report written …) */
	char last[TRI_LINE];		/* conclusion for the ports header */
	int sel;			/* selected step */
	bool open[TRI_NSTEPS];		/* evidence shown */
	int top;
} ts = { .job_step = -1 };

void screen_triage_configure(const struct snap_opts *o, const char *config)
{
	ts.so = *o;
	if (o->device) {
		snprintf(ts.dev, sizeof(ts.dev), "%s", o->device);
		ts.so.device = ts.dev;
	}
	snprintf(ts.config, sizeof(ts.config), "%s", config ? config : "");
	ts.configured = true;
}

/* Traffic runs a step needs when it is re-run alone. */
static unsigned step_runs(int s)
{
	switch (s) {
	case TRI_ENV: return TRI_RUN_ALL;	/* the whole walk */
	case TRI_LOSSLESS: return TRI_RUN_BW1 | TRI_RUN_LOAD;
	case TRI_NUMA: return TRI_RUN_BW1;
	case TRI_QPS: return TRI_RUN_BW1 | TRI_RUN_BW8;
	default: return 0;
	}
}

/* What a walk depends on that the console sees change, per port: its
 * state, active MTU, netdev MTU and GID table. A value a snapshot could
 * not read (0: an SMP query that timed out on a busy host) is unknown,
 * not a change: only values known both at the walk and now are compared,
 * and one learnt later joins the walk's record. */
#define TS_FP_PORTS 64

#define TS_FP_VALUES 4

struct port_fp {
	char dev[sizeof(((struct port_info *)0)->dev)];
	int port;
	/* state, active MTU, netdev MTU, FNV-1a of the GID table: 0 unread */
	uint64_t v[TS_FP_VALUES];
};

static struct {
	struct port_fp walk[TS_FP_PORTS], now[TS_FP_PORTS];
	int nwalk, nnow;
} fp;

static uint64_t gids_hash(const struct port_info *p)
{
	uint64_t h = 1469598103934665603ULL;

	if (!p->ngids)
		return 0;
	for (int g = 0; g < p->ngids; g++)
		for (const char *c = p->gids[g].gid; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	return h;
}

static void fp_read(const struct snapshot *s)
{
	fp.nnow = 0;
	for (int i = 0; i < s->nports && fp.nnow < TS_FP_PORTS; i++) {
		const struct port_info *p = &s->ports[i];
		struct port_fp *f = &fp.now[fp.nnow++];

		snprintf(f->dev, sizeof(f->dev), "%s", p->dev);
		f->port = p->port;
		f->v[0] = (uint64_t)p->state;
		f->v[1] = (uint64_t)p->mtu_active;
		f->v[2] = (uint64_t)p->netdev_mtu;
		f->v[3] = gids_hash(p);
	}
}

/* Merges one value: true when both are known and differ. */
static bool fp_differs(uint64_t *walk, uint64_t now)
{
	if (!*walk)
		*walk = now;
	return *walk && now && *walk != now;
}

/* Whether a port of the walk changed since (or a port came or went). */
static bool fp_changed(void)
{
	bool changed = fp.nnow != fp.nwalk;

	for (int i = 0; i < fp.nnow && !changed; i++) {
		const struct port_fp *n = &fp.now[i];
		struct port_fp *w = NULL;

		for (int k = 0; k < fp.nwalk && !w; k++)
			if (fp.walk[k].port == n->port && !strcmp(fp.walk[k].dev, n->dev))
				w = &fp.walk[k];
		if (!w)
			return true;
		/* every value merged, not only up to the first change */
		for (int v = 0; v < TS_FP_VALUES; v++)
			changed |= fp_differs(&w->v[v], n->v[v]);
	}
	return changed;
}

static void fp_walk_now(void)
{
	memcpy(fp.walk, fp.now, sizeof(fp.walk));
	fp.nwalk = fp.nnow;
}

static void start(int step)
{
	struct tri_opts o = {
		.snap = &ts.so, .config = ts.config[0] ? ts.config : NULL,
		.gid_index = -1, .judge = portfacts_judge,
	};
	time_t now = time(NULL);
	struct tm tm;
	char secret[256];

	if (ts.job || !ts.configured)
		return;
	peer_host(ts.peer, sizeof(ts.peer));
	o.peer = ts.peer[0] ? ts.peer : NULL;
	ts.err[0] = '\0';
	/* the agent's secret, as the test and the acceptance send it */
	if (peer_secret(secret, sizeof(secret), ts.err, sizeof(ts.err)) < 0)
		return;
	o.secret = secret[0] ? secret : NULL;
	o.line_gbps = screen_demo_line_rate();	/* 0 outside the RoCE demo */
	snprintf(o.line_origin, sizeof(o.line_origin), "the demo's line rate, measured at boot");
	ts.job_step = step;
	ts.job = tri_job_start(&o, step >= 0 ? ts.ev : NULL,
			       step >= 0 ? step_runs(step) : TRI_RUN_ALL, triage_env_ok,
			       ts.err, sizeof(ts.err));
	memset(secret, 0, sizeof(secret));
	if (ts.job && (step < 0 || step == TRI_ENV)) {
		localtime_r(&now, &tm);
		strftime(ts.started, sizeof(ts.started), "%H:%M:%S", &tm);
		clock_gettime(CLOCK_MONOTONIC, &ts.walked);
		fp_walk_now();
		ts.stale[0] = '\0';
	}
}

void screen_triage_watch(const struct snapshot *s)
{
	fp_read(s);
	if (!ts.have_fp)
		fp_walk_now();
	ts.have_fp = true;
	if ((ts.ev || ts.job) && !ts.stale[0] && fp_changed())
		screen_triage_stale("a port's state, MTU or GID changed", "port changed");
}

void screen_triage_stale(const char *why, const char *brief)
{
	if (ts.ev || ts.job) {
		snprintf(ts.stale, sizeof(ts.stale), "%s", why);
		snprintf(ts.stale_short, sizeof(ts.stale_short), "%s", brief);
	}
}

/* Seconds since the last walk began; -1 before any. */
static long walk_age(void)
{
	struct timespec now;

	if (!ts.walked.tv_sec && !ts.walked.tv_nsec)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(now.tv_sec - ts.walked.tv_sec);
}

bool screen_triage_poll(void)
{
	struct tri_evidence *ev;
	int st;

	if (!ts.job)
		return false;
	if (!tri_job_poll(ts.job, ts.phase, sizeof(ts.phase)))
		return true;	/* the phase line changed */
	ev = tri_job_take(ts.job, &st, ts.err, sizeof(ts.err));
	tri_job_free(ts.job);
	ts.job = NULL;
	if (ev) {
		free(ts.ev);
		ts.ev = ev;
		triage_eval(ts.ev, &ts.t);	/* judged once, here */
		snprintf(ts.last, sizeof(ts.last), "%s", ts.t.c.text);
	}
	return true;
}

/* "MTU (step 4), 3 min ago: <finding>", with the reason when stale. */
const char *screen_triage_last(bool *stale)
{
	long age = walk_age();
	const char *sep = strstr(ts.last, ": ");
	int head = sep ? (int)(sep - ts.last) : (int)strlen(ts.last);
	char when[32];

	*stale = ts.last[0] && ts.stale[0];
	if (!ts.last[0])
		return ts.job ? "walking (T)" : "";
	if (age < 60)
		snprintf(when, sizeof(when), "%ld s ago", age);
	else if (age < 3600)
		snprintf(when, sizeof(when), "%ld min ago", age / 60);
	else
		snprintf(when, sizeof(when), "%ld h ago", age / 3600);
	snprintf(ts.summary, sizeof(ts.summary), "%.*s, %s%s%s%s%s%s", head, ts.last, when,
		 ts.job ? ", walking again" : "",
		 *stale && !ts.job ? ", STALE (" : "", *stale && !ts.job ? ts.stale_short : "",
		 *stale && !ts.job ? "; T walks again)" : "", sep ? sep : "");
	return ts.summary;
}

/* T from another screen: the first walk, or a new one when the last is
 * stale or older than a minute; else the last walk as it was. */
static void tri_enter(const struct ui_ctx *c)
{
	long age = walk_age();

	(void)c;
	if (!ts.ev || ts.stale[0] || age >= TS_FRESH_S)
		start(-1);
}

static bool tri_update(const struct ui_ctx *c)
{
	(void)c;
	return screen_triage_poll();
}

static int tri_wake_fd(void)
{
	return tri_job_fd(ts.job);
}

static enum ui_role state_role(enum tri_state s)
{
	return s == TRI_FAIL ? UI_BAD : s == TRI_WARN ? UI_WARN : s == TRI_PASS ? UI_GOOD :
	       s == TRI_NA ? UI_DIM : UI_NORMAL;
}

struct tline {
	char text[TRI_LINE + 40];
	enum ui_role role;
	int step;		/* the step row it belongs to, -1 none */
	bool head;		/* the step's own row */
};

static int build(struct tline *l, int max)
{
	int n = 0;

	for (int s = 0; s < TRI_NSTEPS && n < max; s++) {
		const struct tri_result *r = &ts.t.r[s];
		char num[8];

		snprintf(num, sizeof(num), s ? " %d " : "ENV", s);
		snprintf(l[n].text, sizeof(l[n].text), " %-4s %-11s %-4s  %s", num, tri_steps[s].title,
			 r->state == TRI_FAIL ? "FAIL" : triage_state_name(r->state), r->reason);
		l[n].role = state_role(r->state);
		l[n].step = s;
		l[n++].head = true;
		if (!ts.open[s])
			continue;
		for (int i = 0; i < r->nlines && n < max; i++) {
			snprintf(l[n].text, sizeof(l[n].text), "        %s", r->lines[i]);
			l[n].role = UI_NORMAL;
			l[n].step = s;
			l[n++].head = false;
		}
		if (r->hint[0] && r->state >= TRI_WARN && n < max) {
			snprintf(l[n].text, sizeof(l[n].text), "        what to do: %s", r->hint);
			l[n].role = UI_LABEL;
			l[n].step = s;
			l[n++].head = false;
		}
	}
	return n;
}

static const struct keymap_hint tri_footer[] = {
	{ UI_ACT_TRI_EVIDENCE, 0 }, { UI_ACT_TRI_NEXT, UI_ACT_TRI_PREV },
	{ UI_ACT_TRI_RERUN, 0 }, { UI_ACT_TRI_WALK, 0 }, { UI_ACT_TRI_WRITE, 0 },
	{ UI_ACT_BACK, UI_ACT_BACK }, { UI_ACT_HELP, 0 },
};

static void tri_draw(WINDOW *win, const struct ui_ctx *c)
{
	static struct tline lines[TS_LINES];
	int w = getmaxx(win), h = getmaxy(win), n, y, rows, selline = 0;
	char buf[768];

	(void)c;
	widgets_bar(win, 1, w, UI_TITLE);
	snprintf(buf, sizeof(buf), " TRIAGE %s %s/%d -> %s   started %s   peer agent: %s%s%s%s%s%s",
		 ts.ev ? ts.ev->host : "", ts.ev && ts.ev->local_valid ? ts.ev->local.dev : "?",
		 ts.ev && ts.ev->local_valid ? ts.ev->local.port : 0,
		 ts.peer[0] ? ts.peer : "(no peer marked)", ts.started[0] ? ts.started : "-",
		 !ts.ev || !ts.peer[0] ? "none" : ts.ev->peer_facts_valid ? "yes" : "unreachable",
		 ts.job ? "   " : "", ts.job ? ts.phase : "",
		 ts.stale[0] && !ts.job ? "   STALE: " : "", ts.stale[0] && !ts.job ? ts.stale : "",
		 ts.stale[0] && !ts.job ? " (R walks again)" : "");
	widgets_text(win, 1, 0, w, buf, UI_TITLE, false, false);
	if (!ts.ev) {
		const char *msg[2] = { ts.job ? ts.phase : "no triage yet",
				       ts.err[0] ? ts.err : "" };

		widgets_message(win, msg, ts.err[0] ? 2 : 1, ts.err[0] ? UI_BAD : UI_NORMAL);
		return;
	}
	n = build(lines, TS_LINES);
	for (int i = 0; i < n; i++)
		if (lines[i].head && lines[i].step == ts.sel)
			selline = i;
	rows = h - 2 - 4 - 1;	/* title, conclusion (3) + its bar, footer */
	if (rows < 1)
		rows = 1;
	if (selline < ts.top)
		ts.top = selline;
	if (selline >= ts.top + rows)
		ts.top = selline - rows + 1;
	for (y = 0; y < rows && ts.top + y < n; y++) {
		const struct tline *l = &lines[ts.top + y];
		bool sel = l->head && l->step == ts.sel;

		if (sel)
			widgets_bar(win, 2 + y, w, UI_SELECTED);
		widgets_text(win, 2 + y, 0, w, l->text, sel ? UI_SELECTED : l->role, false, false);
	}
	y = h - 5;
	widgets_bar(win, y, w, UI_TITLE);
	/* While a walk or a step's re-run is under way there is no
	 * conclusion: the line says what runs (the title's phase is cut off
	 * on a narrow terminal), never the last walk's conclusion as if it
	 * were this one's. */
	if (ts.job) {
		if (ts.job_step < 0 || ts.job_step == TRI_ENV)
			snprintf(buf, sizeof(buf), " WALKING     %s", ts.phase);
		else
			snprintf(buf, sizeof(buf), " RE-RUNNING  step %d: %s", ts.job_step, ts.phase);
		widgets_text(win, y, 0, w, buf, UI_TITLE, false, false);
		widgets_text(win, y + 1, 0, w,
			     "             the steps above are the last walk's until this one ends",
			     UI_DIM, false, false);
	} else {
		snprintf(buf, sizeof(buf), " CONCLUSION  %s", ts.t.c.text);
		widgets_text(win, y, 0, w, buf, UI_TITLE, false, false);
		if (ts.t.fp.id != FP_NONE) {
			snprintf(buf, sizeof(buf), "             %s", ts.t.fp.text);
			widgets_text(win, y + 1, 0, w, buf, UI_NORMAL, false, false);
		}
		snprintf(buf, sizeof(buf), " NEXT        %s", ts.t.c.action);
		widgets_text(win, y + 2, 0, w, buf, UI_LABEL, false, false);
	}
	if (ts.note[0] || ts.err[0])
		widgets_text(win, y + 3, 1, w - 2, ts.err[0] ? ts.err : ts.note,
			     ts.err[0] ? UI_BAD : UI_NORMAL, false, false);
	widgets_bar(win, h - 1, w, UI_FOOTER);
	widgets_text(win, h - 1, 0, w, keymap_footer(KEYS_TRIAGE, tri_footer,
						     (int)(sizeof(tri_footer) / sizeof(tri_footer[0])),
						     false, buf, sizeof(buf)),
		     UI_FOOTER, false, false);
}

/* Beside the test records: $IBCONSOLE_RECORD_DIR, else
 * $XDG_STATE_HOME/ibconsole/records (~/.local/state/…). */
static void write_report(void)
{
	const char *dir = getenv("IBCONSOLE_RECORD_DIR"), *st = getenv("XDG_STATE_HOME"),
		   *home = getenv("HOME");
	char base[400], path[512], jpath[520], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	FILE *m, *j;

	if (!ts.ev)
		return;
	if (dir && *dir)
		snprintf(base, sizeof(base), "%s", dir);
	else if (st && *st)
		snprintf(base, sizeof(base), "%s/ibconsole/records", st);
	else
		snprintf(base, sizeof(base), "%s/.local/state/ibconsole/records", home ? home : ".");
	for (char *s = base + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(base, 0755);
			*s = '/';
		}
	mkdir(base, 0755);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(path, sizeof(path), "%s/triage-%s-%s.md", base, ts.ev->host, stamp);
	snprintf(jpath, sizeof(jpath), "%s.json", path);
	m = fopen(path, "w");
	j = m ? fopen(jpath, "w") : NULL;
	if (!m || !j) {
		snprintf(ts.note, sizeof(ts.note), "cannot write %s: %s", m ? jpath : path, strerror(errno));
		if (m)
			fclose(m);
		return;
	}
	triage_write_markdown(m, ts.ev, &ts.t);
	triage_write_json(j, ts.ev, &ts.t);
	fclose(m);
	fclose(j);
	snprintf(ts.note, sizeof(ts.note), "report written: %s (+ .json)", path);
}

static int tri_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	const int done = SCREEN_HANDLED | SCREEN_REDRAW;
	bool was_open = ts.open[ts.sel];

	(void)key;
	(void)c;
	switch (a) {
	case UI_ACT_TRI_EVIDENCE:
		ts.open[ts.sel] = !ts.open[ts.sel];
		return done;
	case UI_ACT_TRI_NEXT:
	case UI_ACT_DOWN:
	case UI_ACT_TRI_PREV:
	case UI_ACT_UP:
		/* the walk: the next step opens when this one was open */
		ts.open[ts.sel] = a == UI_ACT_DOWN || a == UI_ACT_UP ? ts.open[ts.sel] : false;
		ts.sel += a == UI_ACT_TRI_NEXT || a == UI_ACT_DOWN ? 1 : -1;
		ts.sel = ts.sel < 0 ? 0 : ts.sel >= TRI_NSTEPS ? TRI_NSTEPS - 1 : ts.sel;
		if ((a == UI_ACT_TRI_NEXT || a == UI_ACT_TRI_PREV) && was_open)
			ts.open[ts.sel] = true;
		return done;
	case UI_ACT_FIRST:
		ts.sel = 0;
		return done;
	case UI_ACT_LAST:
		ts.sel = TRI_NSTEPS - 1;
		return done;
	case UI_ACT_TRI_RERUN:
		ts.note[0] = '\0';
		start(ts.ev ? ts.sel : -1);
		return done;
	case UI_ACT_TRI_WALK:
		ts.note[0] = '\0';
		start(-1);
		return done;
	case UI_ACT_TRI_WRITE:
		write_report();
		return done;
	default:
		return 0;
	}
}

static void tri_on_resize(int w, int h)
{
	(void)w;
	(void)h;
	ts.top = 0;
}

void screen_triage_shutdown(void)
{
	if (ts.job) {
		tri_job_free(ts.job);
		ts.job = NULL;
	}
	free(ts.ev);
	ts.ev = NULL;
}

const struct screen screen_triage = {
	.name = "triage",
	.keys = KEYS_TRIAGE,
	.draw = tri_draw,
	.on_key = tri_on_key,
	.on_resize = tri_on_resize,
	.enter = tri_enter,
	.update = tri_update,
	.wake_fd = tri_wake_fd,
};
