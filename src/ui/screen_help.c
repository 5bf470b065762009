// SPDX-License-Identifier: MIT
/* Help screen: the key table's rows, screen by screen, plus what the
 * table's flags and colours mean. Scrolls when it outgrows the terminal;
 * any other key returns. */
#include "config.h"
#include "screen.h"

#include <stdbool.h>
#include <stdio.h>

#include "widgets.h"

static const char *const help_notes[] = {
	"FLAGS column:",
	"  R  link runs below the rate its enabled/supported width and speed allow",
	"  P  PCIe slot runs below its capability or carries < 90 % of the data rate",
	"  D  port is not Active",
	"TEST screen: Enter runs the form's test against the agent ('ibconsole serve') on the peer;",
	"  while it runs: Gb/s and Mpps each second, both ends' counters (! an error rose),",
	"  Tab the latency histogram with p50 / p99 / p99.9 (us); Esc, Esc again cancels;",
	"  at the end: the result, the verdict and its rule, the record; c compare, r again.",
	"ACCEPTANCE screen (A, F5): every local card against the peer's agent, pass at 90 % of",
	"  the data rate; failing cards first, Enter a card's evidence; --accept-results DIR:",
	"  the pairs of accept --hosts as a heat map (% of the best pair: = top, ~ fleet line,",
	"  - below it, ! bad, x no result).",
	"Unknown values read \"n/a (why)\", never 0.",
	"Colours: NO_COLOR=1 or --no-color for monochrome.",
};
#define HELP_NOTES (int)(sizeof(help_notes) / sizeof(help_notes[0]))

/* Scrolled by ten lines a page, as it always was. */
static struct widgets_list help_list = { .sel = -1, .page = 10 };

/* Line i of the help text into buf: each screen's title and rows (a
 * screen without rows of its own has no title), a blank line, the
 * notes. Returns the line's role, or -1 past the end. */
static int help_line(int i, char *buf, size_t len)
{
	char keys[64];
	int s, k;

	for (s = 0; s < KEYS_SCREEN_N; s++) {
		bool titled = false;

		for (k = 0; k < keymap_count; k++) {
			const struct keymap_entry *e = &keymap_table[k];

			if (e->screen != (enum keys_screen)s ||
			    (keymap_demo_only(e) && !screen_demo_active()))
				continue;
			if (!titled) {
				titled = true;
				if (i-- == 0) {
					snprintf(buf, len, "%s", keymap_screen_title(s));
					return UI_LABEL;
				}
			}
			if (i-- == 0) {
				snprintf(buf, len, "  %-16s %s",
					 keymap_row_keys(e, keys, sizeof(keys)),
					 e->help);
				return UI_NORMAL;
			}
		}
	}
	if (i == 0) {
		buf[0] = '\0';
		return UI_NORMAL;
	}
	if (--i < HELP_NOTES) {
		snprintf(buf, len, "%s", help_notes[i]);
		return i == 0 ? UI_LABEL : UI_NORMAL;
	}
	return -1;
}

static void help_row(WINDOW *win, int y, int i, bool sel, void *arg)
{
	char buf[160];
	int attr = help_line(i, buf, sizeof(buf));

	(void)sel;
	(void)arg;
	widgets_text(win, y, 2, getmaxx(win) - 2, buf, attr, false, false);
}

static void help_draw(WINDOW *win, const struct ui_ctx *c)
{
	int h = getmaxy(win), w = getmaxx(win), n = 0;
	char buf[160];

	(void)c;
	while (help_line(n, buf, sizeof(buf)) >= 0)
		n++;
	widgets_text(win, 1, 0, w, " Keys", UI_TITLE, false, true);
	widgets_list_draw(win, &help_list, 2, h - 3, n, help_row, NULL);
	widgets_bar(win, h - 1, w, UI_FOOTER);
	widgets_text(win, h - 1, 0, w,
		     widgets_list_more(&help_list) || help_list.top ?
			     " Down/PgDn more, Up/PgUp back, any other key returns" :
			     " Press any key to return",
		     UI_FOOTER, false, false);
}

static int help_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	bool down = a == UI_ACT_DOWN || a == UI_ACT_PAGE_DOWN;

	(void)key;
	(void)c;
	if ((down && widgets_list_more(&help_list)) ||
	    (!down && a != UI_ACT_NONE && help_list.top)) {
		widgets_list_key(&help_list, a);
		return SCREEN_HANDLED | SCREEN_REDRAW;
	}
	/* Any other key, q included, only closes the help. */
	help_list.top = 0;
	return SCREEN_HANDLED | SCREEN_CLOSE | SCREEN_REDRAW;
}

static void help_on_resize(int w, int h)
{
	(void)w;
	(void)h;
}

const struct screen screen_help = {
	.name = "help",
	.keys = KEYS_HELP,
	.draw = help_draw,
	.on_key = help_on_key,
	.on_resize = help_on_resize,
};
