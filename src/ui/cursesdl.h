/* SPDX-License-Identifier: MIT */
/* Cursesdl: ncurses loaded by the console, not linked into every
 * command; the curses functions the screens call forward to it. */
#ifndef IBC_UI_CURSESDL_H
#define IBC_UI_CURSESDL_H

#include <stddef.h>
#include <curses.h>

/* Loads ncurses (NCURSES_SONAME) on the first call; later calls only
 * report the outcome. 0, or -1 with err naming the library and the
 * package. No other curses function may be called before it said 0. */
int cursesdl_load(char *err, size_t errlen);

#endif
