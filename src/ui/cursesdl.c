// SPDX-License-Identifier: MIT
/* Cursesdl (see cursesdl.h). The curses functions the screens call are
 * defined here with <curses.h>'s prototypes, as calls through pointers
 * that dlsym() filled (libtinfo's come through libncursesw, which needs
 * it), so nothing links ncurses. A function not defined here fails the
 * link: add it to CURSES_FUNCS and below.
 *
 * The three variables the screens read through curses.h's macros are
 * ours too, copied from the library's where it sets them: stdscr and
 * acs_map (ACS_HLINE) by initscr(), COLOR_PAIRS by start_color(); the
 * library never moves them afterwards. */
#include "config.h"
#include "cursesdl.h"

#include <string.h>

#include "core/base/dynlib.h"

#define CURSES_FUNCS(X) X(cbreak) X(curs_set) X(keypad) X(nodelay) \
	X(clearok) X(doupdate) X(has_colors) X(init_pair) X(noecho) X(nonl) \
	X(set_escdelay) X(use_default_colors) X(waddch) X(waddnstr) X(wattr_off) \
	X(wattr_on) X(werase) X(wgetch) X(whline) X(wmove) X(wnoutrefresh)

static struct {
#define CD_FIELD(f) __typeof__(f) *f;
	CURSES_FUNCS(CD_FIELD)
#undef CD_FIELD
	__typeof__(initscr) *initscr_;
	__typeof__(endwin) *endwin_;
	__typeof__(start_color) *start_color_;
	WINDOW **stdscr_;
	chtype *acs_map_;
	int *color_pairs_;
} cd;

WINDOW *stdscr;
chtype acs_map[128];
int COLOR_PAIRS;

#define CD_SYM(f) { #f, (void **)&cd.f },
static const struct dynlib_sym cd_syms[] = {
	CURSES_FUNCS(CD_SYM)
	{ "initscr", (void **)&cd.initscr_ },
	{ "endwin", (void **)&cd.endwin_ },
	{ "start_color", (void **)&cd.start_color_ },
	{ "stdscr", (void **)&cd.stdscr_ },
	{ "acs_map", (void **)&cd.acs_map_ },
	{ "COLOR_PAIRS", (void **)&cd.color_pairs_ },
};
#undef CD_SYM
static struct dynlib cd_lib = DYNLIB(NCURSES_SONAME, "ncurses", "libncursesw6", cd_syms);

int cursesdl_load(char *err, size_t errlen)
{
	return dynlib_need(&cd_lib, err, errlen);
}

WINDOW *initscr(void)
{
	WINDOW *w = cd.initscr_();

	stdscr = *cd.stdscr_;
	memcpy(acs_map, cd.acs_map_, sizeof(acs_map));
	return w;
}

int start_color(void)
{
	int rc = cd.start_color_();

	COLOR_PAIRS = *cd.color_pairs_;
	return rc;
}

/* Safe before loading: the fatal paths may call it. */
int endwin(void)
{
	return cd.endwin_ ? cd.endwin_() : ERR;
}

int cbreak(void)
{
	return cd.cbreak();
}

int curs_set(int visibility)
{
	return cd.curs_set(visibility);
}

int keypad(WINDOW *win, bool bf)
{
	return cd.keypad(win, bf);
}

int nodelay(WINDOW *win, bool bf)
{
	return cd.nodelay(win, bf);
}

int clearok(WINDOW *win, bool bf)
{
	return cd.clearok(win, bf);
}

int doupdate(void)
{
	return cd.doupdate();
}

bool has_colors(void)
{
	return cd.has_colors();
}

int init_pair(short pair, short f, short b)
{
	return cd.init_pair(pair, f, b);
}

int noecho(void)
{
	return cd.noecho();
}

int nonl(void)
{
	return cd.nonl();
}

int set_escdelay(int ms)
{
	return cd.set_escdelay(ms);
}

int use_default_colors(void)
{
	return cd.use_default_colors();
}

int waddch(WINDOW *win, const chtype ch)
{
	return cd.waddch(win, ch);
}

int waddnstr(WINDOW *win, const char *str, int n)
{
	return cd.waddnstr(win, str, n);
}

int wattr_off(WINDOW *win, attr_t attrs, void *opts)
{
	return cd.wattr_off(win, attrs, opts);
}

int wattr_on(WINDOW *win, attr_t attrs, void *opts)
{
	return cd.wattr_on(win, attrs, opts);
}

int werase(WINDOW *win)
{
	return cd.werase(win);
}

int wgetch(WINDOW *win)
{
	return cd.wgetch(win);
}

int whline(WINDOW *win, chtype ch, int n)
{
	return cd.whline(win, ch, n);
}

int wmove(WINDOW *win, int y, int x)
{
	return cd.wmove(win, y, x);
}

int wnoutrefresh(WINDOW *win)
{
	return cd.wnoutrefresh(win);
}
