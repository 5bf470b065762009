// SPDX-License-Identifier: MIT
/* Key table: every key of every screen, one row each. The console looks
 * keys up here, the help screen lists these rows and the man page's KEYS
 * section is generated from them at build time (src/ui/keys_man.c). */
#include "config.h"
#include "keymap.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#define CTRL_KEY(c) ((c) & 0x1f)

const struct keymap_entry keymap_table[] = {
	/* every screen */
	{ KEYS_ALL, { KEY_UP, 'k' }, { 0 }, UI_ACT_UP,
	  "select the previous port or row (lists: scroll up)", "select" },
	{ KEYS_ALL, { KEY_DOWN, 'j' }, { 0 }, UI_ACT_DOWN,
	  "select the next port or row (lists: scroll down)", NULL },
	{ KEYS_ALL, { KEY_HOME, 'g' }, { 0 }, UI_ACT_FIRST,
	  "select the first port or row", NULL },
	{ KEYS_ALL, { KEY_END, 'G' }, { 0 }, UI_ACT_LAST,
	  "select the last port or row", NULL },
	{ KEYS_ALL, { KEY_PPAGE, 'u' }, { 0 }, UI_ACT_PAGE_UP,
	  "scroll the detail pane (lists: a page) up", "details" },
	{ KEYS_ALL, { KEY_NPAGE, 'd', ' ' }, { 0 }, UI_ACT_PAGE_DOWN,
	  "scroll the detail pane (lists: a page) down", NULL },
	{ KEYS_ALL, { '+' }, { '=' }, UI_ACT_SLOWER,
	  "longer refresh interval (up to 60 s)", "interval" },
	{ KEYS_ALL, { '-' }, { '_' }, UI_ACT_FASTER,
	  "shorter refresh interval (down to 0.5 s)", NULL },
	{ KEYS_ALL, { KEY_F(1), '?', 'h' }, { 0 }, UI_ACT_HELP,
	  "this help (any key returns)", "help" },
	{ KEYS_ALL, { CTRL_KEY('l') }, { 0 }, UI_ACT_REDRAW,
	  "redraw the screen", NULL },
	{ KEYS_ALL, { 'c' }, { 0 }, UI_ACT_COUNTERS,
	  "counters panel of the selected port", NULL },
	{ KEYS_ALL, { 'e' }, { 0 }, UI_ACT_EVENTS,
	  "event log of error-counter increments", NULL },
	{ KEYS_ALL, { 'x' }, { 0 }, UI_ACT_SWEEP,
	  "fabric-wide error sweep", NULL },
	{ KEYS_ALL, { 'a' }, { 0 }, UI_ACT_ACK,
	  "acknowledge highlighted error increments", NULL },
	{ KEYS_ALL, { 'm' }, { 0 }, UI_ACT_MARK,
	  "set the mark: totals count from now", NULL },
	{ KEYS_ALL, { 'C' }, { 0 }, UI_ACT_CLEAR,
	  "clear the selected port's counters (asks first: y clears)", NULL },
	{ KEYS_ALL, { 'f', KEY_F(3) }, { 0 }, UI_ACT_FABRIC,
	  "fabric screen: discovery, link health", "fabric" },
	{ KEYS_ALL, { 't' }, { 0 }, UI_ACT_TEST,
	  "test screen: bw / lat / rate / tcp against the peer's agent", "test" },
	{ KEYS_ALL, { 'T', KEY_F(4) }, { 0 }, UI_ACT_TRIAGE,
	  "triage screen: the seven-step walk of the selected port", "triage" },
	{ KEYS_ALL, { 'A', KEY_F(5) }, { 0 }, UI_ACT_ACCEPT,
	  "acceptance screen: every local card against the peer's agent as the reference "
	  "(F5 also from the test screen's form)", "accept" },
	{ KEYS_ALL, { 'q', KEY_F(10) }, { 'Q' }, UI_ACT_QUIT, "quit", "quit" },
	{ KEYS_ALL, { 'F' }, { 0 }, UI_ACT_DEMO,
	  "RoCE demo (--demo roce) only: the menu of planted faults", "faults" },
	/* counters panel */
	{ KEYS_COUNTERS, { 'c', KEYMAP_ESC }, { 0 }, UI_ACT_BACK,
	  "back to the ports", NULL },
	/* event log */
	{ KEYS_EVENTS, { 'e', KEYMAP_ESC }, { 0 }, UI_ACT_BACK,
	  "back to the ports", NULL },
	/* sweep */
	{ KEYS_SWEEP, { 'x' }, { 0 }, UI_ACT_SWEEP_NOW, "sweep again now", NULL },
	{ KEYS_SWEEP, { KEYMAP_ESC }, { 0 }, UI_ACT_BACK, "back to the ports", NULL },
	/* fabric screen */
	{ KEYS_FABRIC, { 'f', KEYMAP_ESC }, { 0 }, UI_ACT_BACK,
	  "back to the ports", NULL },
	{ KEYS_FABRIC, { 'r' }, { 0 }, UI_ACT_REDISCOVER, "rediscover now", NULL },
	{ KEYS_FABRIC, { '/' }, { 0 }, UI_ACT_FILTER,
	  "filter rows (Enter keeps, Esc drops)", NULL },
	{ KEYS_FABRIC, { 's' }, { 0 }, UI_ACT_SORT,
	  "next sort (severity, name, rate, LID)", NULL },
	{ KEYS_FABRIC, { 'v', '\t' }, { 0 }, UI_ACT_VIEW,
	  "problems first / switches and HCAs", NULL },
	{ KEYS_FABRIC, { 'p' }, { 0 }, UI_ACT_PEER,
	  "mark the selected HCA port as the test peer", NULL },
	/* test screen; on the form, text fields take the printable keys
	 * (Space included: it never cycles a text field) */
	{ KEYS_TEST, { '\n' }, { KEY_ENTER, '\r' }, UI_ACT_START,
	  "form: start the test; compare list: pick", NULL },
	{ KEYS_TEST, { KEYMAP_ESC }, { 0 }, UI_ACT_BACK,
	  "run: Esc, then Esc again within 3 s, cancels it (both ends free it); "
	  "after it: the form; form: back", NULL },
	{ KEYS_TEST, { '\t' }, { 0 }, UI_ACT_PANE,
	  "run: result / counters / latency (histogram, p50 / p99 / p99.9 live); "
	  "form: next field", NULL },
	{ KEYS_TEST, { 'r' }, { 0 }, UI_ACT_AGAIN, "run the same test again", NULL },
	{ KEYS_TEST, { 'c' }, { 0 }, UI_ACT_COMPARE,
	  "compare with an earlier record of the test to the same peer", NULL },
	{ KEYS_TEST, { KEY_BTAB }, { 0 }, UI_ACT_UP,
	  "form: the previous field (Up too; Down and Tab: the next)", NULL },
	{ KEYS_TEST, { KEY_LEFT }, { 0 }, UI_ACT_CHOICE_PREV,
	  "form: the previous choice (Peer: the previous recent peer)", NULL },
	{ KEYS_TEST, { KEY_RIGHT, ' ' }, { 0 }, UI_ACT_CHOICE_NEXT,
	  "form: the next choice (Peer: the next recent peer; Space not there)", NULL },
	{ KEYS_TEST, { KEY_BACKSPACE }, { 127, 8 }, UI_ACT_ERASE,
	  "form: erase the text field's last character", NULL },
	{ KEYS_TEST, { CTRL_KEY('u') }, { 0 }, UI_ACT_ERASE_ALL,
	  "form: empty the text field", NULL },
	/* triage screen */
	{ KEYS_TRIAGE, { KEY_ENTER }, { '\r', '\n' }, UI_ACT_TRI_EVIDENCE,
	  "show / hide the selected step's raw evidence", "evidence" },
	{ KEYS_TRIAGE, { 'n' }, { 0 }, UI_ACT_TRI_NEXT,
	  "next step (its evidence opens when this one's was open)", "next/prev step" },
	{ KEYS_TRIAGE, { 'p' }, { 0 }, UI_ACT_TRI_PREV, "previous step", NULL },
	{ KEYS_TRIAGE, { 'r' }, { 0 }, UI_ACT_TRI_RERUN,
	  "re-run the selected step (on ENV: the whole walk)", "re-run step" },
	{ KEYS_TRIAGE, { 'R' }, { 0 }, UI_ACT_TRI_WALK,
	  "re-run the whole walk, from any row (T from another screen does too "
	  "when the last walk is over a minute old or stale)", "re-run walk" },
	{ KEYS_TRIAGE, { 'w' }, { 0 }, UI_ACT_TRI_WRITE,
	  "write the report (Markdown + JSON) to the records folder", "write report" },
	{ KEYS_TRIAGE, { 'T', KEYMAP_ESC }, { 0 }, UI_ACT_BACK,
	  "back to the ports", "back" },
	/* acceptance screen */
	{ KEYS_ACCEPT, { '\n' }, { KEY_ENTER, '\r' }, UI_ACT_ACC_EVIDENCE,
	  "open / close the evidence: cards, the selected card's (before a run: start it); "
	  "heat map, the pair under the cursor's", "evidence" },
	{ KEYS_ACCEPT, { 'r' }, { 0 }, UI_ACT_ACC_RUN,
	  "run the acceptance (again) against the peer's agent", "run" },
	{ KEYS_ACCEPT, { '\t', 'v' }, { 0 }, UI_ACT_ACC_VIEW,
	  "cards / the pair heat map of --accept-results DIR", "cards/heat map" },
	{ KEYS_ACCEPT, { KEY_LEFT }, { 0 }, UI_ACT_ACC_LEFT,
	  "heat map: the cell to the left (Up / Down: the row above / below; PgUp / PgDn "
	  "a page; the map scrolls with the cursor)", "cell" },
	{ KEYS_ACCEPT, { KEY_RIGHT }, { 0 }, UI_ACT_ACC_RIGHT,
	  "heat map: the cell to the right", NULL },
	{ KEYS_ACCEPT, { KEYMAP_ESC }, { 0 }, UI_ACT_BACK,
	  "close the evidence; during a run Esc, then Esc again within 3 s, cancels it; "
	  "else back to the ports", "back" },
	/* RoCE demo menu */
	{ KEYS_DEMO, { '\n', ' ' }, { KEY_ENTER, '\r' }, UI_ACT_DEMO_TOGGLE,
	  "switch the selected fault on (the others off) or off", NULL },
	{ KEYS_DEMO, { '0' }, { 0 }, UI_ACT_DEMO_OFF,
	  "every fault off: a clean wire", NULL },
	{ KEYS_DEMO, { 'F', KEYMAP_ESC }, { 0 }, UI_ACT_BACK,
	  "back to the ports", NULL },
	/* help (modal: any other key returns) */
	{ KEYS_HELP, { KEY_DOWN }, { 0 }, UI_ACT_DOWN, "one line down", NULL },
	{ KEYS_HELP, { KEY_NPAGE, ' ' }, { 0 }, UI_ACT_PAGE_DOWN,
	  "ten lines down", NULL },
	{ KEYS_HELP, { KEY_UP }, { 0 }, UI_ACT_UP, "one line up", NULL },
	{ KEYS_HELP, { KEY_PPAGE }, { 0 }, UI_ACT_PAGE_UP, "ten lines up", NULL },
};

const int keymap_count = sizeof(keymap_table) / sizeof(keymap_table[0]);

static const char *const keymap_titles[KEYS_SCREEN_N] = {
	[KEYS_ALL] = "Every screen",
	[KEYS_PORTS] = "Ports",
	[KEYS_COUNTERS] = "Counters panel",
	[KEYS_EVENTS] = "Event log",
	[KEYS_SWEEP] = "Fabric sweep",
	[KEYS_FABRIC] = "Fabric screen",
	[KEYS_TEST] = "Test screen",
	[KEYS_TRIAGE] = "Triage screen",
	[KEYS_ACCEPT] = "Acceptance screen",
	[KEYS_DEMO] = "RoCE demo menu (--demo roce only)",
	[KEYS_HELP] = "Help (any other key returns)",
};

bool keymap_demo_only(const struct keymap_entry *e)
{
	return e->screen == KEYS_DEMO || e->action == UI_ACT_DEMO;
}

const char *keymap_screen_title(enum keys_screen s)
{
	return s >= 0 && s < KEYS_SCREEN_N && keymap_titles[s] ?
		       keymap_titles[s] : "";
}

static enum ui_action keymap_find(enum keys_screen s, int key)
{
	int i, k;

	for (i = 0; i < keymap_count; i++) {
		const struct keymap_entry *e = &keymap_table[i];

		if (e->screen != s)
			continue;
		for (k = 0; k < KEYMAP_MAX_KEYS && e->keys[k]; k++)
			if (e->keys[k] == key)
				return e->action;
		for (k = 0; k < KEYMAP_MAX_QUIET && e->quiet[k]; k++)
			if (e->quiet[k] == key)
				return e->action;
	}
	return UI_ACT_NONE;
}

enum ui_action keymap_lookup(enum keys_screen s, int key)
{
	enum ui_action a = keymap_find(s, key);

	if (a != UI_ACT_NONE || s == KEYS_HELP || s == KEYS_ALL)
		return a;
	return keymap_find(KEYS_ALL, key);
}

const char *keymap_key_name(int key, char *buf, int len)
{
	static const struct { int key; const char *name; } named[] = {
		{ KEY_UP, "Up" }, { KEY_DOWN, "Down" }, { KEY_LEFT, "Left" },
		{ KEY_RIGHT, "Right" }, { KEY_HOME, "Home" }, { KEY_END, "End" },
		{ KEY_PPAGE, "PgUp" }, { KEY_NPAGE, "PgDn" },
		{ KEY_ENTER, "Enter" }, { '\n', "Enter" }, { '\t', "Tab" },
		{ ' ', "Space" }, { KEYMAP_ESC, "Esc" }, { KEY_BTAB, "Shift-Tab" },
		{ KEY_BACKSPACE, "Backspace" }, { 127, "Backspace" },
	};
	size_t i;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (named[i].key == key) {
			snprintf(buf, len, "%s", named[i].name);
			return buf;
		}
	if (key >= KEY_F(1) && key <= KEY_F(12))
		snprintf(buf, len, "F%d", key - KEY_F0);
	else if (key > 0 && key < 32)
		snprintf(buf, len, "Ctrl-%c", key + '@');
	else if (key > 32 && key < 127)
		snprintf(buf, len, "%c", key);
	else
		snprintf(buf, len, "%s", "");
	return buf;
}

static const struct keymap_entry *keymap_row(enum keys_screen s, enum ui_action a)
{
	for (int pass = 0; pass < 2; pass++, s = KEYS_ALL)
		for (int i = 0; i < keymap_count; i++)
			if (keymap_table[i].screen == s && keymap_table[i].action == a)
				return &keymap_table[i];
	return NULL;
}

/* The key a footer shows for a row: its first listed key that is not a
 * function key (F1 help is also ?). */
static int keymap_footer_key(const struct keymap_entry *e)
{
	for (int k = 0; k < KEYMAP_MAX_KEYS && e->keys[k]; k++)
		if (e->keys[k] < KEY_F0 || e->keys[k] > KEY_F(63))
			return e->keys[k];
	return e->keys[0];
}

char *keymap_footer(enum keys_screen s, const struct keymap_hint *h, int n,
		    bool demo, char *buf, int len)
{
	int used = 0;
	char name[16], keys[48];

	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++) {
		const struct keymap_entry *e = keymap_row(s, h[i].a);
		const struct keymap_entry *b = h[i].b ? keymap_row(s, h[i].b) : NULL;

		if (!e || !e->brief || (!demo && keymap_demo_only(e)))
			continue;
		if (b == e) {
			keys[0] = '\0';
			for (int k = 0, m = 0; k < KEYMAP_MAX_KEYS && e->keys[k]; k++)
				m += snprintf(keys + m, sizeof(keys) - (size_t)m, "%s%s", k ? "/" : "",
					      keymap_key_name(e->keys[k], name, sizeof(name)));
		} else {
			snprintf(keys, sizeof(keys), "%s",
				 keymap_key_name(keymap_footer_key(e), name, sizeof(name)));
			if (b) {
				size_t m = strlen(keys);

				snprintf(keys + m, sizeof(keys) - m, "/%s",
					 keymap_key_name(keymap_footer_key(b), name, sizeof(name)));
			}
		}
		used += snprintf(buf + used, (size_t)(len - used), " %s %s ", keys, e->brief);
	}
	return buf;
}

char *keymap_row_keys(const struct keymap_entry *e, char *buf, int len)
{
	int k, n = 0;
	char name[16];

	buf[0] = '\0';
	for (k = 0; k < KEYMAP_MAX_KEYS && e->keys[k] && n < len; k++)
		n += snprintf(buf + n, len - n, "%s%s", k ? ", " : "",
			      keymap_key_name(e->keys[k], name, sizeof(name)));
	return buf;
}
