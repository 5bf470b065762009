// SPDX-License-Identifier: MIT
/* The test screen: a short form with perftest's choices, then the run
 * live, then the result, the verdict, the record and a compare with an
 * earlier record. The run itself is a testjob on its own thread. This
 * file holds the screen (its struct, draw and key entry points, the
 * run's wake-ups) and the helpers its rooms share; the form, the run and
 * the result live beside it (screen_test_int.h). */
#include "config.h"
#include "screen_test_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tscreen tscreen;

bool tscreen_demo(void)
{
	const char *d = getenv("IBCONSOLE_DEMO");

	return d && !strcmp(d, "1");
}

void tscreen_note(enum ui_role r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tscreen.msg, sizeof(tscreen.msg), fmt, ap);
	va_end(ap);
	tscreen.msg_role = r;
}

/* 1234567 → "1.23M" */
const char *tscreen_human_count(uint64_t v, char *buf, size_t len)
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

static void test_draw(WINDOW *win, const struct ui_ctx *c)
{
	int w = getmaxx(win), h = getmaxy(win);

	(void)c;
	if (!tscreen.v || !tscreen.diff) {
		widgets_text(win, 2, 1, w - 1, "out of memory", UI_BAD, false, false);
		return;
	}
	if (tscreen.mode == M_FORM)
		tscreen_form_draw(win, w, h);
	else
		tscreen_run_draw(win, w, h);
}

static int test_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	(void)c;
	tscreen_form_init();
	if (!tscreen.v || !tscreen.diff)
		return 0;
	if (tscreen.mode == M_FORM)
		return tscreen_form_key(key, a);
	return tscreen_run_key(key, a);
}

static void test_on_resize(int w, int h)
{
	(void)w;
	(void)h;
}

static void test_enter(const struct ui_ctx *c)
{
	(void)c;
	tscreen_form_init();
	if (tscreen.mode == M_FORM)
		tscreen_fabric_peer();
}

static int test_wake_fd(void)
{
	return tscreen.job ? testjob_fd(tscreen.job) : -1;
}

/* Takes the run's newest view; the end of a run is handled here once
 * (verdict, record), never in a draw. */
static bool test_update(const struct ui_ctx *c)
{
	bool changed;

	(void)c;
	if (!tscreen.job || !tscreen.v)
		return false;
	testjob_drain(tscreen.job);
	changed = testjob_get(tscreen.job, tscreen.v);
	if (changed && tscreen.v->state >= TJ_DONE && !tscreen.handled)
		tscreen_finish();
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
	testjob_stop(tscreen.job);
	tscreen.job = NULL;
	free(tscreen.v);
	free(tscreen.diff);
	tscreen.v = NULL;
	tscreen.diff = NULL;
	tscreen.init = false;
}
