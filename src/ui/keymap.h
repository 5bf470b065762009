/* SPDX-License-Identifier: MIT */
/* Key map: one table that decides what every key does and writes the
 * help screen, so the two cannot disagree. Curses key codes, no drawing. */
#ifndef IBC_KEYMAP_H
#define IBC_KEYMAP_H

enum ui_action {
	UI_ACT_NONE = 0,
	UI_ACT_UP,
	UI_ACT_DOWN,
	UI_ACT_FIRST,
	UI_ACT_LAST,
	UI_ACT_DETAIL_UP,
	UI_ACT_DETAIL_DOWN,
	UI_ACT_SLOWER,
	UI_ACT_FASTER,
	UI_ACT_HELP,
	UI_ACT_REDRAW,
	UI_ACT_QUIT,
	UI_ACT_FABRIC,		/* fabric screen */
	UI_ACT_TEST,		/* test screen */
	/* counters */
	UI_ACT_COUNTERS,
	UI_ACT_EVENTS,
	UI_ACT_SWEEP,
	UI_ACT_ACK,
	UI_ACT_MARK,
	UI_ACT_CLEAR,
};

#define KEYMAP_MAX_KEYS 4

struct keymap_entry {
	int keys[KEYMAP_MAX_KEYS];	/* 0-terminated when shorter */
	const char *names;		/* how the help screen spells them */
	enum ui_action action;
	const char *help;
};

extern const struct keymap_entry keymap_table[];
extern const int keymap_count;

/* UI_ACT_NONE when the key is not bound. */
enum ui_action keymap_lookup(int key);

/* Line i (0-based) of the help text into buf; returns -1 past the end,
 * else the length written. */
int keymap_help_line(int i, char *buf, int len);

#endif
