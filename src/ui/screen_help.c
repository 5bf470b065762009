// SPDX-License-Identifier: MIT
/* Help screen: the key list generated from the key map table, plus what
 * the table's flags and colours mean. Any key returns. */
#include "config.h"
#include "screen.h"

#include <stdio.h>

#include "widgets.h"

static const char *const help_notes[] = {
	"FLAGS column:",
	"  R  link runs below the rate its enabled/supported width and speed allow",
	"  P  PCIe slot runs below its capability or cannot carry the line rate",
	"  D  port is not Active",
	"Unknown values read \"n/a (why)\", never 0.",
	"Colours: NO_COLOR=1 or --no-color for monochrome.",
};

static void help_draw(WINDOW *win, const struct ui_ctx *c)
{
	int h = getmaxy(win), w = getmaxx(win), y = 2, i;
	char buf[160];

	widgets_text(win, 1, 0, w, " Keys", UI_TITLE, false, true);
	for (i = 0; keymap_help_line(i, buf, sizeof(buf)) >= 0 && y < h - 1;
	     i++)
		widgets_text(win, y++, 2, w - 2, buf, UI_NORMAL, false, false);
	y++;
	for (i = 0; i < (int)(sizeof(help_notes) / sizeof(help_notes[0])) &&
		    y < h - 1;
	     i++)
		widgets_text(win, y++, 2, w - 2, help_notes[i],
			     i == 0 ? UI_LABEL : UI_NORMAL, false, false);
	widgets_bar(win, h - 1, w, UI_FOOTER);
	widgets_text(win, h - 1, 0, w, " Press any key to return", UI_FOOTER,
		     false, false);
}

static int help_on_key(int key, enum ui_action a, const struct ui_ctx *c)
{
	/* Any key, q included, only closes the help. */
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
