/* SPDX-License-Identifier: MIT */
/* Key table: one row per (screen, keys, action, help text). It decides
 * what every key does on every screen and is the only source of the help
 * screen's key list and of the man page's KEYS section, so the three
 * cannot disagree. Curses key codes, no drawing, no curses calls. */
#ifndef IBC_KEYMAP_H
#define IBC_KEYMAP_H

#include <stdbool.h>

enum ui_action {
	UI_ACT_NONE = 0,
	/* moving in a list or pane */
	UI_ACT_UP,
	UI_ACT_DOWN,
	UI_ACT_FIRST,
	UI_ACT_LAST,
	UI_ACT_PAGE_UP,
	UI_ACT_PAGE_DOWN,
	/* every screen */
	UI_ACT_SLOWER,
	UI_ACT_FASTER,
	UI_ACT_HELP,
	UI_ACT_REDRAW,
	UI_ACT_QUIT,
	UI_ACT_BACK,		/* to the ports screen */
	UI_ACT_FABRIC,
	UI_ACT_TEST,		/* test screen */
	UI_ACT_ACCEPT,		/* acceptance screen */
	UI_ACT_COUNTERS,
	UI_ACT_EVENTS,
	UI_ACT_SWEEP,
	UI_ACT_ACK,
	UI_ACT_MARK,
	UI_ACT_CLEAR,
	/* sweep screen */
	UI_ACT_SWEEP_NOW,
	/* fabric screen */
	UI_ACT_REDISCOVER,
	UI_ACT_FILTER,
	UI_ACT_SORT,
	UI_ACT_VIEW,
	UI_ACT_PEER,
	/* test screen */
	UI_ACT_START,
	UI_ACT_PANE,
	UI_ACT_AGAIN,
	UI_ACT_COMPARE,
	UI_ACT_CHOICE_PREV,	/* form: a choice field's previous value */
	UI_ACT_CHOICE_NEXT,
	UI_ACT_ERASE,		/* form: a text field's last character */
	UI_ACT_ERASE_ALL,	/* form: the whole text field */
	/* triage screen */
	UI_ACT_TRIAGE,
	UI_ACT_TRI_EVIDENCE,
	UI_ACT_TRI_NEXT,
	UI_ACT_TRI_PREV,
	UI_ACT_TRI_RERUN,
	UI_ACT_TRI_WALK,	/* the whole walk, from any row */
	UI_ACT_TRI_WRITE,
	/* acceptance screen */
	UI_ACT_ACC_RUN,
	UI_ACT_ACC_EVIDENCE,
	UI_ACT_ACC_VIEW,
	UI_ACT_ACC_LEFT,	/* heat map: the cell to the left / right */
	UI_ACT_ACC_RIGHT,
	/* RoCE demo menu */
	UI_ACT_DEMO,
	UI_ACT_DEMO_TOGGLE,
	UI_ACT_DEMO_OFF,
	UI_ACT_N		/* the count; not an action */
};

/* Where a row applies. KEYS_ALL rows work on every screen except the
 * modal help screen; a screen's own rows come first, so a screen may give
 * a key of KEYS_ALL another meaning there (c on the counters panel goes
 * back). Within one scope (KEYS_ALL, or one screen) a key is bound once. */
enum keys_screen {
	KEYS_ALL = 0,
	KEYS_PORTS,
	KEYS_COUNTERS,
	KEYS_EVENTS,
	KEYS_SWEEP,
	KEYS_FABRIC,
	KEYS_TEST,
	KEYS_TRIAGE,
	KEYS_ACCEPT,
	KEYS_DEMO,		/* only with --demo roce */
	KEYS_HELP,		/* modal: only its own rows, any other key returns */
	KEYS_SCREEN_N
};

#define KEYMAP_ESC 27
#define KEYMAP_MAX_KEYS 4
#define KEYMAP_MAX_QUIET 2

struct keymap_entry {
	enum keys_screen screen;
	int keys[KEYMAP_MAX_KEYS];	/* listed in help; 0-terminated */
	int quiet[KEYMAP_MAX_QUIET];	/* also accepted, not listed
					 * (= beside +, Q beside q) */
	enum ui_action action;
	const char *help;
	const char *brief;	/* a footer's word or two; NULL: in no footer */
};

/* One item of a footer: a's keys and brief ("t test"); b set: a's
 * first key, "/", b's ("n/p next/prev step"); b == a: every listed key
 * of a's row ("T/Esc back"). */
struct keymap_hint {
	enum ui_action a, b;
};

extern const struct keymap_entry keymap_table[];
extern const int keymap_count;

/* The action of key on screen s: the screen's rows, then (unless the
 * screen is modal) the KEYS_ALL rows; UI_ACT_NONE when unbound. */
enum ui_action keymap_lookup(enum keys_screen s, int key);

/* How help and the man page spell one key ("Up", "PgDn", "F1", "Ctrl-L",
 * "Space", "q"); "" for a code without a name. */
const char *keymap_key_name(int key, char *buf, int len);
/* A row's listed keys, joined with ", ". */
char *keymap_row_keys(const struct keymap_entry *e, char *buf, int len);

/* A footer from the key table: the hints' keys and briefs, two spaces
 * apart, for screen s (its rows, then KEYS_ALL); demo false leaves out
 * the demo-only rows. Returns buf. */
char *keymap_footer(enum keys_screen s, const struct keymap_hint *h, int n,
		    bool demo, char *buf, int len);

/* Rows of the RoCE demo menu (its key and its screen): help lists them
 * only in the demo, the man page always. */
bool keymap_demo_only(const struct keymap_entry *e);

/* The heading of a screen's rows in help and the man page. */
const char *keymap_screen_title(enum keys_screen s);

#endif
