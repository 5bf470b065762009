// SPDX-License-Identifier: MIT
/* Help screen: the key list generated from the key map table, plus what
 * the table's flags and colours mean. Any key returns. */
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
	"Unknown values read \"n/a (why)\", never 0.",
	"Colours: NO_COLOR=1 or --no-color for monochrome.",
};

/* First help line shown: the key table outgrows a 24-line terminal. */
static int help_top;
static bool help_more;	/* lines below the window: scroll keys scroll */

static int help_line(int i, char *buf, size_t len)
{
	int nkeys = 0;
	char tmp[160];

	while (keymap_help_line(nkeys, tmp, sizeof(tmp)) >= 0)
		nkeys++;
	if (i < nkeys)
		return keymap_help_line(i, buf, len) >= 0 ? UI_NORMAL : -1;
	i -= nkeys;
	if (i == 0) {
		buf[0] = '\0';
		return UI_NORMAL;
	}
	if (--i < (int)(sizeof(help_notes) / sizeof(help_notes[0]))) {
		snprintf(buf, len, "%s", help_notes[i]);
		return i == 0 ? UI_LABEL : UI_NORMAL;
	}
	return -1;
}

static void help_draw(WINDOW *win, const struct ui_ctx *c)
{
	int h = getmaxy(win), w = getmaxx(win), y = 2, i, attr;
	char buf[160];

	widgets_text(win, 1, 0, w, " Keys", UI_TITLE, false, true);
	for (i = help_top; (attr = help_line(i, buf, sizeof(buf))) >= 0 && y < h - 1; i++)
		widgets_text(win, y++, 2, w - 2, buf, attr, false, false);
	help_more = attr >= 0;
	widgets_bar(win, h - 1, w, UI_FOOTER);
	widgets_text(win, h - 1, 0, w,
		     help_more || help_top ? " Down/PgDn more, Up/PgUp back, any other key returns" :
					     " Press any key to return",
		     UI_FOOTER, false, false);
}

static int help_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	if ((key == KEY_DOWN || key == KEY_NPAGE || key == ' ') && help_more) {
		help_top += key == KEY_DOWN ? 1 : 10;
		return SCREEN_HANDLED | SCREEN_REDRAW;
	}
	if ((key == KEY_UP || key == KEY_PPAGE) && help_top) {
		help_top -= key == KEY_UP ? 1 : 10;
		if (help_top < 0)
			help_top = 0;
		return SCREEN_HANDLED | SCREEN_REDRAW;
	}
	/* Any other key, q included, only closes the help. */
	help_top = 0;
	return SCREEN_HANDLED | SCREEN_CLOSE | SCREEN_REDRAW;
}

static void help_on_resize(int w, int h)
{
}

const struct screen screen_help = {
	.name = "help",
	.draw = help_draw,
	.on_key = help_on_key,
	.on_resize = help_on_resize,
};
