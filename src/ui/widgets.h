/* SPDX-License-Identifier: MIT */
/* Widgets: the colour palette (with monochrome fallback) and the small
 * drawing helpers every screen shares: clipped text, bars, messages. */
#ifndef IBC_WIDGETS_H
#define IBC_WIDGETS_H

#include <stdbool.h>
#include <curses.h>
#include "keymap.h"

enum ui_role {
	UI_NORMAL = 0,
	UI_HEADER,	/* top line */
	UI_TITLE,	/* column titles, pane titles */
	UI_SELECTED,	/* selected table row */
	UI_LABEL,	/* field labels in the detail pane */
	UI_GOOD,
	UI_WARN,
	UI_BAD,
	UI_DIM,		/* n/a and other unknowns */
	UI_FOOTER,
	UI_ROLE_COUNT
};

/* Colour when the terminal has it and want_color; otherwise monochrome
 * attributes (bold / reverse / underline). Call after initscr(). */
void widgets_palette_init(bool want_color);
bool widgets_palette_color(void);
attr_t widgets_attr(enum ui_role r);

/* Text at (y, x) clipped to w columns, padded with spaces to w when pad;
 * right-aligned when right. Returns columns written. */
int widgets_text(WINDOW *win, int y, int x, int w, const char *s,
		 enum ui_role r, bool right, bool pad);

/* A whole line filled with the role's attribute. */
void widgets_bar(WINDOW *win, int y, int w, enum ui_role r);

/* Lines centred in the window (for "too small" and start-up messages). */
void widgets_message(WINDOW *win, const char *const *lines, int n,
		     enum ui_role r);

/* One row of a histogram: its range as text, its count, and a note
 * drawn after the bar ("p50 p99"), highlighted. */
struct widgets_bin {
	char label[40];
	unsigned long long count;
	char note[24];
};

/* Horizontal bars, one row per bin from line y: label, count, and a bar
 * scaled to the largest count over the columns left in w. */
/* A progress bar w cells wide at (y, x): the done fraction (0..1) filled,
 * the rest dotted. */
void widgets_progress(WINDOW *win, int y, int x, int w, double frac);
void widgets_hist(WINDOW *win, int y, int x, int w, const struct widgets_bin *bins, int n);

/* The scrolling list every list screen uses (help, event log, sweep,
 * counters panel, fabric rows). sel < 0: a plain list that scrolls;
 * otherwise a selection the view follows. */
struct widgets_list {
	int top;	/* first row shown */
	int sel;	/* selected row, or -1 for a scrolled list */
	int page;	/* rows a page key moves; 0: the rows shown less one */
	int rows;	/* rows shown, from the last draw */
	int n;		/* rows in the list, from the last draw */
};

/* Moves the list for a key's action; true when it was a list move (the
 * list is clamped at the next draw). */
bool widgets_list_key(struct widgets_list *l, enum ui_action a);
/* True when rows lie below the last row shown. */
bool widgets_list_more(const struct widgets_list *l);
/* Fits the list to n rows in h lines, then calls row() for each visible
 * row i at line y (sel: it is the selected row). */
void widgets_list_draw(WINDOW *win, struct widgets_list *l, int y, int h,
		       int n,
		       void (*row)(WINDOW *win, int y, int i, bool sel,
				   void *arg),
		       void *arg);

#endif
