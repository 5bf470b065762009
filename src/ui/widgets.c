// SPDX-License-Identifier: MIT
/* Widgets: palette with monochrome fallback and clipped-text helpers,
 * so screens draw with roles, never with raw colour pairs. */
#include "config.h"
#include "widgets.h"

#include <stdio.h>
#include <string.h>

#include "layout.h"

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

bool widgets_list_key(struct widgets_list *l, enum ui_action a)
{
	int page = l->page > 0 ? l->page : l->rows > 1 ? l->rows - 1 : 1;
	int *v = l->sel >= 0 ? &l->sel : &l->top;

	switch (a) {
	case UI_ACT_UP: *v -= 1; break;
	case UI_ACT_DOWN: *v += 1; break;
	case UI_ACT_PAGE_UP: *v -= page; break;
	case UI_ACT_PAGE_DOWN: *v += page; break;
	case UI_ACT_FIRST: *v = 0; break;
	case UI_ACT_LAST: *v = l->n > 0 ? l->n - 1 : 0; break;
	default: return false;
	}
	if (*v < 0)
		*v = 0;
	return true;
}

bool widgets_list_more(const struct widgets_list *l)
{
	return l->top + l->rows < l->n;
}

void widgets_list_draw(WINDOW *win, struct widgets_list *l, int y, int h,
		       int n,
		       void (*row)(WINDOW *win, int y, int i, bool sel,
				   void *arg),
		       void *arg)
{
	int r;

	l->n = n;
	l->rows = h > 0 ? h : 0;
	if (l->sel >= 0) {
		l->sel = layout_clamp(l->sel, 0, n > 0 ? n - 1 : 0);
		l->top = layout_scroll(l->sel, l->top, l->rows, n);
	} else {
		l->top = layout_clamp(l->top, 0, n > l->rows ? n - l->rows : 0);
	}
	for (r = 0; r < l->rows && l->top + r < n; r++)
		row(win, y + r, l->top + r, l->top + r == l->sel, arg);
}

void widgets_progress(WINDOW *win, int y, int x, int w, double frac)
{
	int full = (int)(frac * w + 0.5);

	if (full > w)
		full = w;
	if (full < 0)
		full = 0;
	wattron(win, widgets_attr(UI_SELECTED));
	mvwhline(win, y, x, ' ', full);
	wattroff(win, widgets_attr(UI_SELECTED));
	wattron(win, widgets_attr(UI_DIM));
	mvwhline(win, y, x + full, '.', w - full);
	wattroff(win, widgets_attr(UI_DIM));
}

void widgets_hist(WINDOW *win, int y, int x, int w, const struct widgets_bin *bins, int n)
{
	unsigned long long max = 0;
	int lw = 0, room;

	for (int i = 0; i < n; i++) {
		int l = (int)strlen(bins[i].label);

		if (bins[i].count > max)
			max = bins[i].count;
		if (l > lw)
			lw = l;
	}
	room = w - lw - 12 - 12;	/* label, count, the note */
	for (int i = 0; i < n; i++) {
		char cnt[16];
		int len = max && room > 0 ? (int)((double)bins[i].count * room / (double)max + 0.5) : 0;

		if (bins[i].count && !len && room > 0)
			len = 1;	/* a few samples still show */
		widgets_text(win, y + i, x, lw, bins[i].label, UI_NORMAL, true, true);
		snprintf(cnt, sizeof(cnt), "%llu", bins[i].count);
		widgets_text(win, y + i, x + lw + 1, 10, cnt, bins[i].count ? UI_NORMAL : UI_DIM, true, true);
		wattron(win, widgets_attr(UI_GOOD));
		mvwhline(win, y + i, x + lw + 12, '#', len);
		wattroff(win, widgets_attr(UI_GOOD));
		if (bins[i].note[0])
			widgets_text(win, y + i, x + lw + 12 + len + 1, w - lw - 13 - len, bins[i].note,
				     UI_WARN, false, false);
	}
}
