// SPDX-License-Identifier: MIT
/* Widgets: palette with monochrome fallback and clipped-text helpers,
 * so screens draw with roles, never with raw colour pairs. */
#include "config.h"
#include "widgets.h"

#include <string.h>

static attr_t widgets_attrs[UI_ROLE_COUNT];
static bool widgets_use_color;

struct widgets_pal {
	enum ui_role role;
	short fg, bg;
	attr_t color_extra;	/* added to the colour pair */
	attr_t mono;		/* used instead without colour */
};

static const struct widgets_pal widgets_pal[] = {
	{ UI_HEADER, COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	{ UI_TITLE, COLOR_CYAN, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	{ UI_SELECTED, COLOR_BLACK, COLOR_WHITE, 0, A_REVERSE },
	{ UI_LABEL, COLOR_CYAN, -1, 0, A_BOLD },
	{ UI_GOOD, COLOR_GREEN, -1, 0, A_NORMAL },
	{ UI_WARN, COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	{ UI_BAD, COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	{ UI_DIM, COLOR_BLUE, -1, A_BOLD, A_DIM },
	{ UI_FOOTER, COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
};

void widgets_palette_init(bool want_color)
{
	size_t i;

	widgets_use_color = want_color && has_colors() &&
			    start_color() == OK;
	if (widgets_use_color)
		use_default_colors();
	memset(widgets_attrs, 0, sizeof(widgets_attrs));
	for (i = 0; i < sizeof(widgets_pal) / sizeof(widgets_pal[0]); i++) {
		const struct widgets_pal *p = &widgets_pal[i];

		if (widgets_use_color && (int)i + 1 < COLOR_PAIRS) {
			init_pair((short)(i + 1), p->fg, p->bg);
			widgets_attrs[p->role] =
				COLOR_PAIR((int)i + 1) | p->color_extra;
		} else {
			widgets_attrs[p->role] = p->mono;
		}
	}
}

bool widgets_palette_color(void)
{
	return widgets_use_color;
}

attr_t widgets_attr(enum ui_role r)
{
	if (r < 0 || r >= UI_ROLE_COUNT)
		return A_NORMAL;
	return widgets_attrs[r];
}

int widgets_text(WINDOW *win, int y, int x, int w, const char *s,
		 enum ui_role r, bool right, bool pad)
{
	int len = (int)strlen(s), n, lead = 0, maxx = getmaxx(win);

	if (x >= maxx || w <= 0)
		return 0;
	if (x + w > maxx)
		w = maxx - x;
	n = len < w ? len : w;
	if (right && n < w)
		lead = w - n;
	wattron(win, widgets_attr(r));
	if (pad || right)
		mvwhline(win, y, x, ' ', pad ? w : lead);
	mvwaddnstr(win, y, x + lead, s, n);
	wattroff(win, widgets_attr(r));
	return pad ? w : lead + n;
}

void widgets_bar(WINDOW *win, int y, int w, enum ui_role r)
{
	wattron(win, widgets_attr(r));
	mvwhline(win, y, 0, ' ', w);
	wattroff(win, widgets_attr(r));
}

void widgets_message(WINDOW *win, const char *const *lines, int n,
		     enum ui_role r)
{
	int h = getmaxy(win), w = getmaxx(win), i, y0;

	y0 = (h - n) / 2;
	if (y0 < 0)
		y0 = 0;
	for (i = 0; i < n && y0 + i < h; i++) {
		int len = (int)strlen(lines[i]), x = (w - len) / 2;

		if (x < 0)
			x = 0;
		widgets_text(win, y0 + i, x, w - x, lines[i], r, false,
			     false);
	}
}
