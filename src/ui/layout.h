/* SPDX-License-Identifier: MIT */
/* Layout maths for the console: which columns fit, where the panes go,
 * scrolling and interval steps. No curses here, so it is unit-tested. */
#ifndef IBC_LAYOUT_H
#define IBC_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#define LAYOUT_MIN_W 40
#define LAYOUT_MIN_H 10

struct layout_col {
	const char *title;
	int width;		/* minimum width */
	int max_width;		/* grows up to this with spare room */
	int drop;		/* 0: always shown; higher drops first */
	bool right;		/* right-aligned */
};

/* Picks the columns that fit in width (gap spaces between columns, left
 * margin included in width by the caller), dropping the highest drop
 * rank first; fills x[] with each visible column's start and w[] with
 * its width (spare room goes to columns with max_width > width, in
 * table order). Hidden columns get w = 0. Returns the number shown. */
int layout_columns(const struct layout_col *cols, int n, int width, int gap,
		   int x[], int w[]);

/* The ports screen: header line, table (title + rows), a detail pane,
 * one footer line. */
struct layout_frame {
	bool too_small;
	int w, h;
	int header_y;
	int table_y, table_h;	/* table_h rows of ports below the title */
	int detail_y, detail_h;	/* detail_y is the pane's title line */
	int footer_y;
	int detail_cols;	/* 1 or 2 columns of fields */
};

void layout_frame(int w, int h, int nports, struct layout_frame *f);

/* New first visible row so that sel stays visible in a window of rows. */
int layout_scroll(int sel, int top, int rows, int n);

int layout_clamp(int v, int lo, int hi);

/* Next refresh interval up (dir > 0) or down (dir < 0) the ladder
 * 0.5, 1, 2, 3, 5, 10, 15, 30, 60 s; off-ladder values snap to the
 * nearest step in that direction. */
double layout_interval_step(double cur, int dir);

/* "0.5 s", "1 s", "2.5 s", "10 s" */
char *layout_fmt_interval(double s, char *buf, int len);

/* "10 Gb/s", "2.5 Gb/s", "56 Gb/s"; "n/a" when v <= 0 */
char *layout_fmt_gbps(double v, char *buf, int len);

/* PCIe generation from a transfer rate in GT/s (2.5 → 1 … 64 → 6), 0
 * when unknown. */
int layout_pcie_gen(double gts);

/* Greedy word wrap of text into lines of at most width columns: returns
 * the number of characters of text that go on the first line (skipping
 * no characters) and sets *next to where the following line starts. */
int layout_wrap(const char *text, int width, int *next);

/* Appends printf-style to buf (size bytes, n of them used) and returns
 * the new length, which stays below size however long the text: a line
 * that does not fit is cut, and later appends add nothing. */
int layout_addf(char *buf, size_t size, int n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Rows of a histogram: the occupied buckets of counts[0..n) grouped by
 * a power of two (so groups of log-linear buckets keep their octave
 * boundaries) small enough that at most rows groups span them. Sets
 * *first (a multiple of *group) and *group; returns the number of rows,
 * 0 when every count is 0. */
int layout_hist_group(const unsigned *counts, int n, int rows, int *first, int *group);

#endif
