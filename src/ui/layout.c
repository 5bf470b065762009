// SPDX-License-Identifier: MIT
/* Layout maths for the console: column fitting, pane split, scrolling,
 * interval ladder and the few number formats the screens share. */
#include "config.h"
#include "layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const double layout_ladder[] = {
	0.5, 1, 2, 3, 5, 10, 15, 30, 60
};

#define LADDER_N ((int)(sizeof(layout_ladder) / sizeof(layout_ladder[0])))

int layout_clamp(int v, int lo, int hi)
{
	if (v > hi)
		v = hi;
	if (v < lo)
		v = lo;
	return v;
}

static int layout_need(const struct layout_col *cols, int n, int gap,
		       int max_drop)
{
	int i, need = 0, shown = 0;

	for (i = 0; i < n; i++) {
		if (cols[i].drop > max_drop)
			continue;
		need += cols[i].width + (shown ? gap : 0);
		shown++;
	}
	return need;
}

int layout_columns(const struct layout_col *cols, int n, int width, int gap,
		   int x[], int w[])
{
	int i, max_drop = 0, spare, pos, shown = 0;

	for (i = 0; i < n; i++)
		if (cols[i].drop > max_drop)
			max_drop = cols[i].drop;
	/* Drop ranks one at a time until the rest fits; rank 0 stays even
	 * when it does not fit (it is cut at the edge instead). */
	while (max_drop > 0 && layout_need(cols, n, gap, max_drop) > width)
		max_drop--;

	spare = width - layout_need(cols, n, gap, max_drop);
	pos = 0;
	for (i = 0; i < n; i++) {
		if (cols[i].drop > max_drop) {
			x[i] = -1;
			w[i] = 0;
			continue;
		}
		w[i] = cols[i].width;
		if (spare > 0 && cols[i].max_width > cols[i].width) {
			int grow = cols[i].max_width - cols[i].width;

			if (grow > spare)
				grow = spare;
			w[i] += grow;
			spare -= grow;
		}
		if (shown)
			pos += gap;
		x[i] = pos;
		pos += w[i];
		shown++;
	}
	return shown;
}

void layout_frame(int w, int h, int nports, struct layout_frame *f)
{
	int avail, rows;

	memset(f, 0, sizeof(*f));
	f->w = w;
	f->h = h;
	if (w < LAYOUT_MIN_W || h < LAYOUT_MIN_H) {
		f->too_small = true;
		return;
	}
	f->header_y = 0;
	f->table_y = 1;			/* column titles */
	f->footer_y = h - 1;
	/* Between the titles and the footer: table rows, then the detail
	 * pane's title and at least 4 lines of it. The table keeps up to
	 * a third of the room when there are many ports. */
	avail = h - 3;			/* header, titles, footer */
	rows = nports < 1 ? 1 : nports;
	if (rows > avail - 5)
		rows = avail - 5;
	if (nports > 3 && rows > avail / 3 && avail / 3 >= 3)
		rows = avail / 3;
	if (rows < 1)
		rows = 1;
	f->table_h = rows;
	f->detail_y = f->table_y + 1 + rows;
	f->detail_h = f->footer_y - f->detail_y - 1;
	f->detail_cols = w >= 110 ? 2 : 1;
}

int layout_scroll(int sel, int top, int rows, int n)
{
	if (rows < 1)
		rows = 1;
	if (sel < top)
		top = sel;
	if (sel >= top + rows)
		top = sel - rows + 1;
	if (top > n - rows)
		top = n - rows;
	if (top < 0)
		top = 0;
	return top;
}

double layout_interval_step(double cur, int dir)
{
	int i;

	if (dir > 0) {
		for (i = 0; i < LADDER_N; i++)
			if (layout_ladder[i] > cur + 1e-9)
				return layout_ladder[i];
		return layout_ladder[LADDER_N - 1];
	}
	if (dir < 0) {
		for (i = LADDER_N - 1; i >= 0; i--)
			if (layout_ladder[i] < cur - 1e-9)
				return layout_ladder[i];
		return layout_ladder[0];
	}
	return cur;
}

/* %.1f without a trailing ".0" */
static char *layout_fmt_num(double v, char *buf, int len)
{
	char *dot;

	snprintf(buf, len, "%.1f", v);
	dot = strchr(buf, '.');
	if (dot && strcmp(dot, ".0") == 0)
		*dot = '\0';
	return buf;
}

char *layout_fmt_interval(double s, char *buf, int len)
{
	char num[32];

	snprintf(buf, len, "%s s", layout_fmt_num(s, num, sizeof(num)));
	return buf;
}

char *layout_fmt_gbps(double v, char *buf, int len)
{
	char num[32];

	if (!(v > 0))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%s Gb/s",
			 layout_fmt_num(v, num, sizeof(num)));
	return buf;
}

int layout_pcie_gen(double gts)
{
	static const double gen_gts[] = { 2.5, 5, 8, 16, 32, 64 };
	int i;

	for (i = 0; i < 6; i++)
		if (gts > gen_gts[i] - 0.1 && gts < gen_gts[i] + 0.1)
			return i + 1;
	return 0;
}

int layout_wrap(const char *text, int width, int *next)
{
	int len = (int)strlen(text), cut, i;

	if (width < 1)
		width = 1;
	if (len <= width) {
		*next = len;
		return len;
	}
	/* Break at the last space that fits; a word longer than the line
	 * is cut hard. */
	cut = -1;
	for (i = width; i > 0; i--) {
		if (text[i] == ' ') {
			cut = i;
			break;
		}
	}
	if (cut <= 0) {
		*next = width;
		return width;
	}
	i = cut;
	while (text[i] == ' ')
		i++;
	*next = i;
	return cut;
}

int layout_hist_group(const unsigned *counts, int n, int rows, int *first, int *group)
{
	int lo = -1, hi = -1, g = 1;

	for (int i = 0; i < n; i++)
		if (counts[i]) {
			if (lo < 0)
				lo = i;
			hi = i;
		}
	*first = 0;
	*group = 1;
	if (lo < 0 || rows < 1)
		return 0;
	while (hi / g - lo / g + 1 > rows && g < n)
		g *= 2;
	*first = lo / g * g;
	*group = g;
	return hi / g - lo / g + 1;
}

int layout_addf(char *buf, size_t size, int n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (n < 0 || (size_t)n + 1 >= size)
		return n < 0 ? 0 : n;
	va_start(ap, fmt);
	k = vsnprintf(buf + n, size - (size_t)n, fmt, ap);
	va_end(ap);
	if (k < 0)
		return n;
	return (size_t)n + (size_t)k >= size ? (int)size - 1 : n + k;
}
