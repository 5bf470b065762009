// SPDX-License-Identifier: MIT
/* RoCE demo menu (--demo roce): the planted faults, which one is on, and
 * Enter to switch one. The script IBCONSOLE_DEMO_FAULTS names does the
 * switching (tc / ip in this VM, the peer agent's options); it runs as a
 * child the app's loop polls, so keys and redraws go on meanwhile. */
#include "config.h"
#include "screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/spawn.h"
#include "widgets.h"

#define DEMO_MAX 8
#define DEMO_TIMEOUT_S 30	/* the agent restart (gid) is the slow one */

static struct demo_menu {
	struct { char name[16], text[120]; bool on; } f[DEMO_MAX];
	int n;
	char note[200];
	enum ui_role note_role;
	struct widgets_list list;
	struct spawn job;
	bool listing;		/* the job is "list", else a switch */
} dm = { .list = { .sel = 0 }, .job = { .fd = -1 } };

/* The RoCE demo's line rate: what its emulated wire carried at boot
 * (roce-demo.sh measures it and sets IBCONSOLE_DEMO_LINE_RATE, Gb/s, and
 * IBCONSOLE_DEMO_LINE_MEASURED), not the 2.5 Gb/s rxe reports, which
 * the emulator never carries. 0: none. */
double screen_demo_line_rate(void)
{
	const char *s = getenv("IBCONSOLE_DEMO_LINE_RATE");
	char *end;
	double v;

	if (!screen_demo_active() || !s || !*s)
		return 0;
	v = strtod(s, &end);
	return *end || !(v > 0) || v > 100000 ? 0 : v;
}

void screen_demo_line_note(double port_gbps, char *buf, int len)
{
	const char *m = getenv("IBCONSOLE_DEMO_LINE_MEASURED");
	double rate = screen_demo_line_rate();

	buf[0] = '\0';
	if (rate <= 0)
		return;
	int n = snprintf(buf, (size_t)len, "demo line rate %.3g Gb/s, measured at boot%s%s%s", rate,
			 m && *m ? " (" : "", m && *m ? m : "", m && *m ? ")" : "");

	if (port_gbps > 0 && n > 0 && n < len)
		snprintf(buf + n, (size_t)(len - n), "; port data rate %.3g", port_gbps);
}

bool screen_demo_active(void)
{
	const char *s = getenv("IBCONSOLE_DEMO_FAULTS");

	return s && *s;
}

static void demo_run(const char *verb, const char *name)
{
	char *argv[] = { getenv("IBCONSOLE_DEMO_FAULTS"), (char *)verb, (char *)name, NULL };

	dm.listing = !strcmp(verb, "list");
	if (spawn_start(&dm.job, argv, DEMO_TIMEOUT_S) < 0) {
		snprintf(dm.note, sizeof(dm.note), "cannot run the fault script: %.160s", dm.job.out);
		dm.note_role = UI_BAD;
	}
}

/* "NAME on|off TEXT" lines of the script's list. */
static void demo_parse(char *out)
{
	char *line, *save = NULL;

	dm.n = 0;
	for (line = strtok_r(out, "\n", &save); line && dm.n < DEMO_MAX;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[16], state[8];
		int off = 0;

		if (sscanf(line, "%15s %7s %n", name, state, &off) != 2 || !off)
			continue;
		snprintf(dm.f[dm.n].name, sizeof(dm.f[dm.n].name), "%s", name);
		snprintf(dm.f[dm.n].text, sizeof(dm.f[dm.n].text), "%s", line + off);
		dm.f[dm.n].on = !strcmp(state, "on");
		dm.n++;
	}
}

/* A finished job: the list, or a switch (its first line is the note,
 * then the list again). */
static void demo_done(int rc)
{
	char *nl = strchr(dm.job.out, '\n');

	if (dm.listing && rc == 0) {
		demo_parse(dm.job.out);
		if (dm.note_role == UI_WARN)	/* "still reading": over */
			dm.note[0] = '\0';
		return;
	}
	if (nl)
		*nl = '\0';
	if (dm.listing)
		snprintf(dm.note, sizeof(dm.note), "the fault script failed (%d): %.150s", rc, dm.job.out);
	else
		snprintf(dm.note, sizeof(dm.note), "%.190s", dm.job.out);
	dm.note_role = rc == 0 ? UI_GOOD : UI_BAD;
	if (!dm.listing)
		demo_run("list", NULL);
}

static void demo_row(WINDOW *win, int y, int i, bool sel, void *arg)
{
	char buf[200];

	(void)arg;
	snprintf(buf, sizeof(buf), " %s %-5s %s", dm.f[i].on ? "[ON ]" : "[off]",
		 dm.f[i].name, dm.f[i].text);
	widgets_text(win, y, 0, getmaxx(win), buf,
		     sel ? UI_SELECTED : dm.f[i].on ? UI_BAD : UI_NORMAL, false, true);
}

static void demo_draw(WINDOW *win, const struct ui_ctx *c)
{
	int w = getmaxx(win), h = getmaxy(win);
	const char *on = NULL;
	char buf[160];

	(void)c;
	for (int i = 0; i < dm.n; i++)
		if (dm.f[i].on)
			on = dm.f[i].name;
	snprintf(buf, sizeof(buf), " RoCE demo: planted faults \xe2\x80\x94 %s%s%s",
		 on ? "active: " : "none active, the wire is clean", on ? on : "",
		 dm.job.running ? (dm.listing ? "  (reading ...)" : "  (switching ...)") : "");
	widgets_bar(win, 1, w, UI_TITLE);
	widgets_text(win, 1, 0, w, buf, UI_TITLE, false, false);
	widgets_list_draw(win, &dm.list, 3, h - 7, dm.n, demo_row, NULL);
	widgets_text(win, h - 3, 1, w - 2,
		     "Then run a test (t) or the triage (T): the fault shows where a real one would.",
		     UI_DIM, false, false);
	if (dm.note[0])
		widgets_text(win, h - 2, 1, w - 2, dm.note, dm.note_role, false, true);
	widgets_bar(win, h - 1, w, UI_FOOTER);
	widgets_text(win, h - 1, 0, w,
		     " Enter/Space switch on/off (one at a time)  0 all off  Esc/F back",
		     UI_FOOTER, false, false);
}

static int demo_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	bool sw = a == UI_ACT_DEMO_OFF ||
		  (a == UI_ACT_DEMO_TOGGLE && dm.list.sel >= 0 && dm.list.sel < dm.n);

	(void)key;
	(void)c;
	if (widgets_list_key(&dm.list, a))
		return SCREEN_HANDLED | SCREEN_REDRAW;
	if (!sw)
		return 0;
	if (dm.job.running) {
		snprintf(dm.note, sizeof(dm.note), "still %s \xe2\x80\x94 a moment",
			 dm.listing ? "reading the faults" : "switching");
		dm.note_role = UI_WARN;
	} else if (a == UI_ACT_DEMO_OFF) {
		demo_run("off", "all");
		screen_triage_stale("a demo fault was switched", "fault switched");
	} else {
		demo_run(dm.f[dm.list.sel].on ? "off" : "on", dm.f[dm.list.sel].name);
		screen_triage_stale("a demo fault was switched", "fault switched");
	}
	return SCREEN_HANDLED | SCREEN_REDRAW;
}

static void demo_enter(const struct ui_ctx *c)
{
	(void)c;
	if (!dm.job.running)
		demo_run("list", NULL);
}

static bool demo_update(const struct ui_ctx *c)
{
	int rc;

	(void)c;
	if (!spawn_poll(&dm.job, &rc))
		return false;
	demo_done(rc);
	return true;
}

static int demo_wake_fd(void)
{
	return dm.job.running ? dm.job.fd : -1;
}

static void demo_on_resize(int w, int h)
{
	(void)w;
	(void)h;
}

const struct screen screen_demo = {
	.name = "demo",
	.keys = KEYS_DEMO,
	.draw = demo_draw,
	.on_key = demo_on_key,
	.on_resize = demo_on_resize,
	.enter = demo_enter,
	.update = demo_update,
	.wake_fd = demo_wake_fd,
};
