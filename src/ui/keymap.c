// SPDX-License-Identifier: MIT
/* Key map table: drives key handling in the console and generates the
 * help screen's key list, one row per action. */
#include "config.h"
#include "keymap.h"

#include <curses.h>
#include <stdio.h>

#define CTRL_KEY(c) ((c) & 0x1f)

const struct keymap_entry keymap_table[] = {
	{ { KEY_UP, 'k' }, "Up, k", UI_ACT_UP, "select the previous port" },
	{ { KEY_DOWN, 'j' }, "Down, j", UI_ACT_DOWN, "select the next port" },
	{ { KEY_HOME, 'g' }, "Home, g", UI_ACT_FIRST, "select the first port" },
	{ { KEY_END, 'G' }, "End, G", UI_ACT_LAST, "select the last port" },
	{ { KEY_PPAGE, 'u' }, "PgUp, u", UI_ACT_DETAIL_UP,
	  "scroll the detail pane up" },
	{ { KEY_NPAGE, 'd', ' ' }, "PgDn, d, Space", UI_ACT_DETAIL_DOWN,
	  "scroll the detail pane down" },
	{ { '+', '=' }, "+", UI_ACT_SLOWER,
	  "longer refresh interval (up to 60 s)" },
	{ { '-', '_' }, "-", UI_ACT_FASTER,
	  "shorter refresh interval (down to 0.5 s)" },
	{ { KEY_F(1), '?', 'h' }, "F1, ?, h", UI_ACT_HELP,
	  "this help (any key returns)" },
	{ { CTRL_KEY('l') }, "Ctrl-L", UI_ACT_REDRAW, "redraw the screen" },
	/* counters */
	{ { 'c' }, "c", UI_ACT_COUNTERS,
	  "counters of the selected port (c again: back)" },
	{ { 'e' }, "e", UI_ACT_EVENTS, "event log of error-counter increments" },
	{ { 'x' }, "x", UI_ACT_SWEEP,
	  "fabric-wide error sweep (x again: sweep now)" },
	{ { 'a' }, "a", UI_ACT_ACK, "acknowledge highlighted error increments" },
	{ { 'm' }, "m", UI_ACT_MARK, "set the mark: totals count from now" },
	{ { 'C' }, "C", UI_ACT_CLEAR,
	  "clear the selected port's counters (asks first)" },
	{ { 'q', 'Q', KEY_F(10) }, "q, F10", UI_ACT_QUIT, "quit" },
	/* fabric screen; the rows without an action are keys the
	 * fabric screen reads itself, listed here for the help screen */
	{ { 'f', KEY_F(3) }, "f, F3", UI_ACT_FABRIC,
	  "fabric view: discovery, link health (f or Esc returns)" },
	{ { 0 }, "r", UI_ACT_NONE, "fabric: rediscover now" },
	{ { 0 }, "/", UI_ACT_NONE, "fabric: filter rows (Enter keeps, Esc drops)" },
	{ { 0 }, "s", UI_ACT_NONE, "fabric: next sort (severity, name, rate, LID)" },
	{ { 0 }, "v, Tab", UI_ACT_NONE, "fabric: problems first / switches and HCAs" },
	{ { 0 }, "p", UI_ACT_NONE, "fabric: mark the selected HCA port as the test peer" },
	/* test screen; rows without an action are read by the screen */
	{ { 't' }, "t", UI_ACT_TEST,
	  "test screen: bw / lat / rate / tcp against the peer's agent" },
	{ { 0 }, "Enter", UI_ACT_NONE, "test: start (form), pick (compare list)" },
	{ { 0 }, "Esc", UI_ACT_NONE, "test: cancel the run (both ends free it); after: the form" },
	{ { 0 }, "Tab", UI_ACT_NONE, "test: result / counters / latency histogram" },
	{ { 0 }, "r", UI_ACT_NONE, "test: run the same test again" },
	{ { 0 }, "c", UI_ACT_NONE, "test: compare with an earlier record to the same peer" },
};

const int keymap_count = sizeof(keymap_table) / sizeof(keymap_table[0]);

enum ui_action keymap_lookup(int key)
{
	int i, k;

	for (i = 0; i < keymap_count; i++)
		for (k = 0; k < KEYMAP_MAX_KEYS && keymap_table[i].keys[k]; k++)
			if (keymap_table[i].keys[k] == key)
				return keymap_table[i].action;
	return UI_ACT_NONE;
}

int keymap_help_line(int i, char *buf, int len)
{
	if (i < 0 || i >= keymap_count)
		return -1;
	return snprintf(buf, len, "%-16s %s", keymap_table[i].names,
			keymap_table[i].help);
}
