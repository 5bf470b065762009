// SPDX-License-Identifier: MIT
/* Console main loop: takes the newest snapshot from the sampler, draws
 * when something changed and waits for keys or data until the next tick. */
#include "config.h"
#include "ui.h"

#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/base/sigexit.h"
#include "core/port/sampler.h"
#include "core/capture/ctrfile.h"
#include "core/counters/monitor.h"
#include "core/fabric/sweeper.h"
#include "diag/portfacts.h"
#include "diag/pcielimit.h"
#include "diag/sweeplisting.h"
#include "ctrview.h"
#include "cursesdl.h"
#include "layout.h"
#include "screen.h"
#include "uitrace.h"
#include "widgets.h"

#define UI_STOP_S 5	/* clean-up after SIGINT / SIGTERM / SIGHUP, at most */

static volatile sig_atomic_t ui_signal;

static void ui_on_signal(int sig)
{
	ui_signal = sig;
}

struct ui_app {
	struct sampler *sm;
	struct snapshot *snap;
	struct sampler_state st;
	bool have;		/* a good snapshot is in snap */
	double interval_s;
	const char *source;
	const struct screen *screen;
	char host[64];
	time_t drawn_sec;	/* header clock shown */
	bool dirty, clear;
	/* counters */
	struct monitor *cw;
	struct sweeper *swp;		/* the fabric sweep the monitor runs */
	struct ctr_model *ctr;
	/* --from FILE */
	bool capture;
	char notice[240];	/* a refused key's one line, until the next key */
};

/*
 * rdma-core and umad2sim print warnings ("ibwarn: ...") on stderr from the
 * sampler thread; on a curses screen they would scribble over the table.
 * Park fd 2 in a temporary file while the screen is up; after endwin the
 * parked text is shown when the console failed, dropped when it did not.
 */
struct ui_stderr {
	int saved;
	FILE *parked;
};

static void ui_stderr_park(struct ui_stderr *e)
{
	e->saved = -1;
	e->parked = tmpfile();
	if (!e->parked)
		return;
	fflush(stderr);
	e->saved = dup(STDERR_FILENO);
	if (e->saved < 0 || dup2(fileno(e->parked), STDERR_FILENO) < 0) {
		fclose(e->parked);
		e->parked = NULL;
	}
}

static void ui_stderr_restore(struct ui_stderr *e, bool replay)
{
	char line[512];

	if (!e->parked)
		return;
	fflush(stderr);
	dup2(e->saved, STDERR_FILENO);
	close(e->saved);
	if (replay) {
		rewind(e->parked);
		while (fgets(line, sizeof(line), e->parked))
			fputs(line, stderr);
	}
	fclose(e->parked);
	e->parked = NULL;
}

static const int ui_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define UI_NSIG ((int)(sizeof(ui_signals) / sizeof(ui_signals[0])))

static void ui_signals_install(struct sigaction *old)
{
	struct sigaction sa;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ui_on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: poll() must return so the loop sees the flag */
	for (i = 0; i < UI_NSIG; i++)
		sigaction(ui_signals[i], &sa, &old[i]);
}

static void ui_signals_restore(const struct sigaction *old)
{
	int i;

	for (i = 0; i < UI_NSIG; i++)
		sigaction(ui_signals[i], &old[i], NULL);
}

static const char *ui_source(const struct ui_opts *u)
{
	const char *demo = getenv("IBCONSOLE_DEMO");

	if (u->source_label && u->source_label[0])
		return u->source_label;
	if (demo && strcmp(demo, "1") == 0)
		return "ibsim (demo)";
	return NULL;	/* the snapshot's sources string */
}

static void ui_draw_header(struct ui_app *a, int w, time_t now)
{
	char buf[320], clock[16], iv[16];
	struct tm tm;
	const char *src = a->source;

	localtime_r(&now, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	if (!src)
		src = a->have && a->snap->sources[0] ? a->snap->sources :
						       "n/a";
	snprintf(buf, sizeof(buf),
		 " ibconsole  %s  %s  refresh %s  source: %s",
		 a->have && a->snap->host[0] ? a->snap->host : a->host, clock,
		 layout_fmt_interval(a->interval_s, iv, sizeof(iv)), src);
	widgets_bar(stdscr, 0, w, UI_HEADER);
	widgets_text(stdscr, 0, 0, w, buf, UI_HEADER, false, false);
	if ((int)strlen(buf) + 12 < w)
		widgets_text(stdscr, 0, w - 10, 9, "F1/? help", UI_HEADER,
			     true, false);
}

static struct ui_ctx ui_ctx_of(const struct ui_app *a)
{
	return (struct ui_ctx){
		.snap = a->snap, .st = &a->st, .interval_s = a->interval_s,
		.source = a->source, .ctr = a->ctr, .cw = a->cw, .sm = a->sm,
	};
}

/* Switches screens: the old one leaves, the new one enters. */
static void ui_show(struct ui_app *a, const struct screen *s)
{
	struct ui_ctx c = ui_ctx_of(a);

	if (s == a->screen)
		return;
	if (a->screen->leave)
		a->screen->leave(&c);
	a->screen = s;
	if (s->enter)
		s->enter(&c);
	a->dirty = true;
}

/* The one place that writes to the terminal. */
static void ui_draw(struct ui_app *a, time_t now)
{
	int w = getmaxx(stdscr), h = getmaxy(stdscr);
	char l1[64];

	if (a->clear)
		clearok(stdscr, TRUE);
	a->clear = false;
	werase(stdscr);
	if (w < LAYOUT_MIN_W || h < LAYOUT_MIN_H) {
		const char *msg[3];

		snprintf(l1, sizeof(l1), "Terminal too small: %dx%d", w, h);
		msg[0] = l1;
		msg[1] = "Need at least 40x10";
		msg[2] = "q quits";
		widgets_message(stdscr, msg, 3, UI_WARN);
	} else {
		struct ui_ctx c = ui_ctx_of(a);

		ui_draw_header(a, w, now);
		if (a->have) {
			a->screen->draw(stdscr, &c);
			if (a->notice[0]) {	/* over the screen's footer */
				widgets_bar(stdscr, h - 1, w, UI_WARN);
				widgets_text(stdscr, h - 1, 0, w, a->notice, UI_WARN, false, true);
			}
		} else {
			const char *msg[1] = { "Reading ports ..." };

			widgets_message(stdscr, msg, 1, UI_NORMAL);
		}
	}
	wnoutrefresh(stdscr);
	doupdate();
	a->drawn_sec = now;
	a->dirty = false;
}

/* On a capture, the keys that need a live host (traffic, counters read
 * now) say so in one line instead of starting; true when key was one.
 * The counters panel and the event log open: they show the captured
 * samples and events. */
static bool ui_capture_refuses(struct ui_app *a, int key, enum ui_action act)
{
	const char *what;

	switch (act) {
	case UI_ACT_TEST:
		what = "a bandwidth/latency test needs a live host and peer";
		break;
	case UI_ACT_ACCEPT:
		what = "acceptance runs traffic: it needs live hosts";
		break;
	case UI_ACT_SWEEP:
	case UI_ACT_ACK:
	case UI_ACT_MARK:
	case UI_ACT_CLEAR:
		what = "no live counters in a capture";
		break;
	default:
		return false;
	}
	snprintf(a->notice, sizeof(a->notice),
		 " %c: %s \xe2\x80\x94 this is a capture; run ibconsole on the host itself",
		 key > 32 && key < 127 ? key : '?', what);
	a->dirty = true;
	return true;
}

/* The terminal changed size: every screen lays itself out again. */
static void ui_resize(struct ui_app *a)
{
	const struct screen *const all[] = {
		&screen_ports, &screen_help, &screen_fabric, &screen_counters,
		&screen_events, &screen_sweep, &screen_test, &screen_triage,
		&screen_demo, &screen_accept,
	};

	for (size_t i = 0; i < sizeof(all) / sizeof(*all); i++)
		all[i]->on_resize(getmaxx(stdscr), getmaxy(stdscr));
	a->dirty = a->clear = true;
}

/* Returns false when the loop should stop. */
static bool ui_key(struct ui_app *a, int key)
{
	enum ui_action act = keymap_lookup(a->screen->keys, key);
	struct ui_ctx c = ui_ctx_of(a);
	int fl;

	if (key != KEY_RESIZE && a->notice[0]) {
		a->notice[0] = '\0';
		a->dirty = true;
	}

	if (key == KEY_RESIZE) {
		ui_resize(a);
		return true;
	}
	/* The current screen sees the key first (help closes on any). */
	if (a->have) {
		fl = a->screen->on_key(key, act, &c);
		if (fl & SCREEN_CLOSE)
			ui_show(a, &screen_ports);
		if (fl & SCREEN_REDRAW)
			a->dirty = true;
		if (fl & SCREEN_QUIT)
			return false;
		if (fl & SCREEN_HANDLED)
			return true;
	}
	/* after the screen: a filter being typed keeps its letters */
	if (a->capture && ui_capture_refuses(a, key, act))
		return true;
	switch (act) {
	case UI_ACT_QUIT:
		return false;
	case UI_ACT_HELP:
		ui_show(a, &screen_help);
		break;
	case UI_ACT_FABRIC:
		ui_show(a, &screen_fabric);
		break;
	case UI_ACT_TRIAGE:
		ui_show(a, &screen_triage);
		break;
	case UI_ACT_BACK:
		ui_show(a, &screen_ports);
		break;
	case UI_ACT_TEST:
		ui_show(a, &screen_test);
		break;
	case UI_ACT_ACCEPT:
		ui_show(a, &screen_accept);
		break;
	case UI_ACT_DEMO:
		if (!screen_demo_active())
			return true;
		ui_show(a, &screen_demo);
		break;
	case UI_ACT_SLOWER:
	case UI_ACT_FASTER:
		a->interval_s = sampler_set_interval(a->sm,
			layout_interval_step(a->interval_s,
					     act == UI_ACT_SLOWER ? 1 : -1));
		monitor_set_interval(a->cw, a->interval_s);
		break;
	/* counters */
	case UI_ACT_COUNTERS:
		ui_show(a, &screen_counters);
		break;
	case UI_ACT_EVENTS:
		ui_show(a, &screen_events);
		break;
	case UI_ACT_SWEEP:
		monitor_sweep(a->cw);
		ui_show(a, &screen_sweep);
		break;
	case UI_ACT_ACK:
		monitor_ack(a->cw);
		break;
	case UI_ACT_MARK:
		monitor_mark(a->cw);
		break;
	case UI_ACT_CLEAR:	/* the counters panel asks first */
		ui_show(a, &screen_counters);
		if (a->have)
			a->screen->on_key(key, act, &c);
		break;
	case UI_ACT_REDRAW:
		a->clear = true;
		break;
	default:
		return true;
	}
	a->dirty = true;
	return true;
}

/* Milliseconds until the header clock next changes. */
static int ui_ms_to_next_second(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int)((1000000000L - ts.tv_nsec) / 1000000L) + 1;
}

static void ui_curses_start(const struct ui_opts *u)
{
	const char *nc = getenv("NO_COLOR");

	setlocale(LC_CTYPE, "");
	initscr();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	/* how long a lone ESC waits for the rest of an arrow key's sequence:
	 * 25 ms split arrows into a bare Esc on a loaded host; ESCDELAY in
	 * the environment (ncurses reads it) wins */
	if (!getenv("ESCDELAY"))
		set_escdelay(100);
	curs_set(0);
	widgets_palette_init(!u->no_color && !(nc && nc[0]));
}

/* Strips a trailing " — what to do" from a collector message: the
 * console adds its own advice. */
static void ui_why(const char *err, char *buf, size_t len)
{
	const char *dash = strstr(err, " \xe2\x80\x94 ");

	snprintf(buf, len, "%.*s", dash ? (int)(dash - err) : (int)strlen(err),
		 err);
}

/* Starts the sampler and the counter worker and readies the screens;
 * 0, or the exit code after a one-line message on stderr (nothing is
 * left running then). */
static int ui_start(struct ui_app *a, const struct snap_opts *o, const struct ui_opts *u)
{
	char err[800];
	struct snap_opts so;

	memset(a, 0, sizeof(*a));
	a->snap = calloc(1, sizeof(*a->snap));
	if (!a->snap) {
		fprintf(stderr, "ibconsole: cannot start the console: out of memory\n");
		return 5;
	}
	a->interval_s = u->interval_s > 0 ? u->interval_s : 1.0;
	/* a bad thresholds file is a usage error, as in watch */
	if (*ctrview_load(u->config)) {
		fprintf(stderr, "ibconsole: %s\n", ctrview_load_error());
		snapshot_release(a->snap);
		free(a->snap);
		return 2;
	}
	/* unreadable results are a usage error too: one line, no screen */
	if (screen_accept_configure(o, u->config, u->accept_results, u->accept_iters,
				    u->accept_duration_s, err, sizeof(err))) {
		fprintf(stderr, "ibconsole: %s\n", err);
		snapshot_release(a->snap);
		free(a->snap);
		return 2;
	}
	/* the sampler reads each port's module too: the detail pane shows it */
	so = *o;
	so.modules = true;
	so.module_near_db = ctrview_thresholds()->optic_near_db;
	a->sm = sampler_start(&so, a->interval_s, err, sizeof(err));
	if (!a->sm) {
		screen_accept_shutdown();
		snapshot_release(a->snap);
		free(a->snap);
		fprintf(stderr, "ibconsole: cannot start the console: %s\n",
			err);
		return 5;
	}
	a->interval_s = sampler_interval(a->sm);
	/* a module read is slow (I2C in its firmware): on a timer, and
	 * when the ports screen selects a port */
	sampler_set_module_every(a->sm, ctrview_thresholds()->optic_read_s);
	/* counters, sampled on their own worker */
	a->ctr = calloc(1, sizeof(*a->ctr));
	a->swp = sweeper_new(o, sweeplisting_listed);
	if (a->ctr && a->swp) {
		struct monitor_sweeper ms = sweeper_for_monitor(a->swp);

		a->cw = monitor_start(a->interval_s, o, &ms, err, sizeof(err));
	}
	if (!a->cw) {
		sweeper_free(a->swp);
		screen_accept_shutdown();
		sampler_stop(a->sm);
		free(a->ctr);
		snapshot_release(a->snap);
		free(a->snap);
		fprintf(stderr, "ibconsole: cannot start the console: %s\n",
			a->ctr && a->swp ? err : "out of memory");
		return 5;
	}
	a->source = ui_source(u);
	a->capture = u->capture;
	/* a capture's counters: its two samples, judged once */
	if (a->capture) {
		if (replay_counters(a->ctr, err, sizeof(err)))
			snprintf(a->ctr->note, sizeof(a->ctr->note), "no captured counters: %.150s", err);
		ctrview_judge(a->ctr);
	}
	a->screen = screen_accept_has_results() ? &screen_accept : &screen_ports;
	a->dirty = true;
	screen_fabric_configure(u->fabric, u->rediscover_s);
	screen_triage_configure(o, u->config);
	/* the ports screen's status line counts the fabric's problems */
	screen_fabric_prefetch();
	if (gethostname(a->host, sizeof(a->host) - 1) < 0)
		snprintf(a->host, sizeof(a->host), "?");
	return 0;
}

/* One turn of the loop: takes what the workers published, draws when
 * something changed, waits for keys, data or the next second and acts on
 * the keys. False when the console ends; *rc is 3 or 5 when the ports
 * could not be read at all. */
static bool ui_turn(struct ui_app *a, int *rc)
{
	struct pollfd pfd[4];
	time_t now;
	int key, n;

	if (ui_signal)
		return false;
	if (sampler_get(a->sm, a->snap, &a->st)) {
		portfacts_judge(a->snap);
		a->dirty = true;
		if (a->st.good_gen)
			a->have = true;
		/* a capture's ports have no live counters to sample */
		if (a->have && !a->capture) {
			monitor_set_targets(a->cw, a->snap);
			screen_triage_watch(a->snap);
		}
	}
	if (!a->capture && monitor_get(a->cw, a->ctr)) {
		ctrview_judge(a->ctr);	/* rules run here, not in a draw */
		a->dirty = true;
	}
	if (!a->have && a->st.gen && a->st.status != SNAP_OK) {
		*rc = a->st.status == SNAP_INTERNAL ? 5 : 3;
		return false;
	}
	uitrace_mark(UITRACE_MODELS);
	if (a->have && a->screen->update) {
		struct ui_ctx c = ui_ctx_of(a);

		if (a->screen->update(&c))
			a->dirty = true;
	}
	uitrace_mark(UITRACE_UPDATE);
	now = time(NULL);
	if (now != a->drawn_sec)
		a->dirty = true;
	if (a->dirty)
		ui_draw(a, now);
	uitrace_mark(UITRACE_DRAW);
	uitrace_end(a->screen->name);

	pfd[0].fd = STDIN_FILENO;
	pfd[0].events = POLLIN;
	pfd[1].fd = sampler_fd(a->sm);
	pfd[1].events = POLLIN;
	pfd[2].fd = monitor_fd(a->cw);	/* counters */
	pfd[2].events = POLLIN;
	pfd[3].fd = a->screen->wake_fd ? a->screen->wake_fd() : -1;
	pfd[3].events = POLLIN;		/* the screen's worker; -1: none */
	n = poll(pfd, 4, ui_ms_to_next_second());
	uitrace_begin();
	if (n < 0 && errno != EINTR)
		return false;
	if (n > 0 && (pfd[0].revents & (POLLHUP | POLLERR)) &&
	    !(pfd[0].revents & POLLIN))
		return false;		/* terminal gone */
	if (n > 0 && (pfd[1].revents & POLLIN))
		sampler_drain(a->sm);
	if (n > 0 && (pfd[2].revents & POLLIN))
		monitor_drain(a->cw);
	/* Keys, and KEY_RESIZE after SIGWINCH interrupted poll(). */
	while ((key = getch()) != ERR) {
		uitrace_key(key);
		if (!ui_key(a, key))
			return false;
	}
	uitrace_mark(UITRACE_KEYS);
	return true;
}

/* Stops the screens' workers and the counter worker, the terminal
 * already given back; the sampler stops after the signal handlers. */
static void ui_stop_workers(struct ui_app *a)
{
	screen_fabric_shutdown();
	screen_test_shutdown();
	screen_triage_shutdown();
	screen_accept_shutdown();
	/* workers stop while our handlers still catch a second Ctrl-C */
	monitor_stop(a->cw);
	sweeper_free(a->swp);
	free(a->ctr);
}

int ui_run(const struct snap_opts *o, const struct ui_opts *u)
{
	struct sigaction old[UI_NSIG];
	struct ui_stderr quiet;
	struct ui_app a;
	char why[400];
	int rc;

	if (cursesdl_load(why, sizeof(why))) {
		fprintf(stderr, "ibconsole: %s\n", why);
		return 3;
	}
	rc = ui_start(&a, o, u);
	if (rc)
		return rc;
	ui_signal = 0;
	ui_signals_install(old);
	ui_stderr_park(&quiet);
	ui_curses_start(u);
	uitrace_open();
	while (ui_turn(&a, &rc))
		;
	uitrace_close();
	/* stopped by a signal: the clean-up below gets a few seconds, no more
	 * (a library stuck on a dead peer must not keep us alive) */
	if (ui_signal)
		sigexit_watchdog(UI_STOP_S);
	endwin();
	ui_stop_workers(&a);
	ui_signals_restore(old);
	sampler_stop(a.sm);
	ui_stderr_restore(&quiet, rc != 0);
	if (rc == 3) {
		ui_why(a.st.err, why, sizeof(why));
		fprintf(stderr,
			"ibconsole: no RDMA port found: %s \xe2\x80\x94 load the HCA driver, check /dev/infiniband permissions, or try ibconsole --demo\n",
			why);
	} else if (rc == 5) {
		fprintf(stderr, "ibconsole: reading the ports failed: %s\n",
			a.st.err);
	}
	snapshot_release(a.snap);
	free(a.snap);
	sigexit_note(ui_signal);	/* main dies of it: 130 / 143 / 129 */
	return rc;
}
