// SPDX-License-Identifier: MIT
/* Unit tests for the console's key table, the one source of key handling,
 * the help screen and the man page's KEYS: every row has help text and a
 * named key, no key is bound twice on one screen, every action has a key,
 * and the refresh keys say what they do. */
#include "config.h"

#include <curses.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ui/keymap.h"

static void test_every_row_has_help_and_keys(void **state)
{
	char name[16];

	(void)state;
	assert_true(keymap_count > 0);
	for (int i = 0; i < keymap_count; i++) {
		const struct keymap_entry *e = &keymap_table[i];

		if (!e->help || !e->help[0])
			fail_msg("key table row %d (%s) has no help text", i,
				 keymap_key_name(e->keys[0], name, sizeof(name)));
		if (!e->keys[0])
			fail_msg("key table row %d (\"%s\") lists no key", i, e->help);
		if (e->action == UI_ACT_NONE)
			fail_msg("key table row %d (\"%s\") has no action", i, e->help);
		if (!keymap_screen_title(e->screen)[0])
			fail_msg("key table row %d: its screen has no title", i);
		for (int k = 0; k < KEYMAP_MAX_KEYS && e->keys[k]; k++)
			if (!keymap_key_name(e->keys[k], name, sizeof(name))[0])
				fail_msg("key table row %d: key %d has no name", i, e->keys[k]);
		for (int k = 0; k < KEYMAP_MAX_QUIET && e->quiet[k]; k++)
			if (!keymap_key_name(e->quiet[k], name, sizeof(name))[0])
				fail_msg("key table row %d: key %d has no name", i, e->quiet[k]);
	}
}

/* All keys of row i, listed and quiet, into out; returns the count. */
static int row_keys(int i, int *out)
{
	const struct keymap_entry *e = &keymap_table[i];
	int n = 0;

	for (int k = 0; k < KEYMAP_MAX_KEYS && e->keys[k]; k++)
		out[n++] = e->keys[k];
	for (int k = 0; k < KEYMAP_MAX_QUIET && e->quiet[k]; k++)
		out[n++] = e->quiet[k];
	return n;
}

static void test_no_key_twice_on_one_screen(void **state)
{
	int a[KEYMAP_MAX_KEYS + KEYMAP_MAX_QUIET], b[KEYMAP_MAX_KEYS + KEYMAP_MAX_QUIET];
	char name[16];

	(void)state;
	for (int i = 0; i < keymap_count; i++) {
		int na = row_keys(i, a);

		for (int x = 0; x < na; x++)	/* within the row */
			for (int y = x + 1; y < na; y++)
				if (a[x] == a[y])
					fail_msg("row \"%s\" lists %s twice", keymap_table[i].help,
						 keymap_key_name(a[x], name, sizeof(name)));
		for (int j = i + 1; j < keymap_count; j++) {
			int nb;

			if (keymap_table[j].screen != keymap_table[i].screen)
				continue;
			nb = row_keys(j, b);
			for (int x = 0; x < na; x++)
				for (int y = 0; y < nb; y++)
					if (a[x] == b[y])
						fail_msg("%s is bound twice on \"%s\": \"%s\" and \"%s\"",
							 keymap_key_name(a[x], name, sizeof(name)),
							 keymap_screen_title(keymap_table[i].screen),
							 keymap_table[i].help, keymap_table[j].help);
		}
	}
}

static void test_every_action_has_a_key(void **state)
{
	(void)state;
	for (int a = UI_ACT_NONE + 1; a < UI_ACT_N; a++) {
		bool found = false;

		for (int i = 0; i < keymap_count && !found; i++)
			found = keymap_table[i].action == (enum ui_action)a;
		if (!found)
			fail_msg("action %d has no row in the key table", a);
	}
}

static const char *help_of(enum keys_screen s, int key)
{
	enum ui_action a = keymap_lookup(s, key);

	for (int i = 0; i < keymap_count; i++)
		if (keymap_table[i].action == a &&
		    (keymap_table[i].screen == s || keymap_table[i].screen == KEYS_ALL))
			return keymap_table[i].help;
	return "";
}

/* The man page once said + makes the refresh faster; it makes it slower. */
static void test_refresh_keys(void **state)
{
	(void)state;
	assert_int_equal(keymap_lookup(KEYS_PORTS, '+'), UI_ACT_SLOWER);
	assert_int_equal(keymap_lookup(KEYS_PORTS, '='), UI_ACT_SLOWER);
	assert_int_equal(keymap_lookup(KEYS_FABRIC, '-'), UI_ACT_FASTER);
	assert_non_null(strstr(help_of(KEYS_PORTS, '+'), "longer"));
	assert_non_null(strstr(help_of(KEYS_PORTS, '-'), "shorter"));
}

static void test_lookup_scopes(void **state)
{
	(void)state;
	/* a screen's own row wins over every screen's */
	assert_int_equal(keymap_lookup(KEYS_PORTS, 'c'), UI_ACT_COUNTERS);
	assert_int_equal(keymap_lookup(KEYS_COUNTERS, 'c'), UI_ACT_BACK);
	assert_int_equal(keymap_lookup(KEYS_FABRIC, 'f'), UI_ACT_BACK);
	assert_int_equal(keymap_lookup(KEYS_SWEEP, 'x'), UI_ACT_SWEEP_NOW);
	assert_int_equal(keymap_lookup(KEYS_FABRIC, KEYMAP_ESC), UI_ACT_BACK);
	assert_int_equal(keymap_lookup(KEYS_PORTS, KEYMAP_ESC), UI_ACT_NONE);
	/* every screen's rows reach the others */
	assert_int_equal(keymap_lookup(KEYS_FABRIC, 'q'), UI_ACT_QUIT);
	assert_int_equal(keymap_lookup(KEYS_EVENTS, KEY_DOWN), UI_ACT_DOWN);
	/* help is modal: q there only returns (the screen closes on it) */
	assert_int_equal(keymap_lookup(KEYS_HELP, 'q'), UI_ACT_NONE);
	assert_int_equal(keymap_lookup(KEYS_HELP, ' '), UI_ACT_PAGE_DOWN);
}

/* The test screen's keys are table rows: its form, run and compare list
 * act on these actions, and a key the table lacks does nothing there. */
static void test_test_screen_rows(void **state)
{
	(void)state;
	assert_int_equal(keymap_lookup(KEYS_TEST, '\n'), UI_ACT_START);
	assert_int_equal(keymap_lookup(KEYS_TEST, KEY_ENTER), UI_ACT_START);
	assert_int_equal(keymap_lookup(KEYS_TEST, '\t'), UI_ACT_PANE);
	assert_int_equal(keymap_lookup(KEYS_TEST, 'r'), UI_ACT_AGAIN);
	assert_int_equal(keymap_lookup(KEYS_TEST, 'c'), UI_ACT_COMPARE);
	assert_int_equal(keymap_lookup(KEYS_TEST, KEYMAP_ESC), UI_ACT_BACK);
	assert_int_equal(keymap_lookup(KEYS_TEST, KEY_BTAB), UI_ACT_UP);
	assert_int_equal(keymap_lookup(KEYS_TEST, KEY_UP), UI_ACT_UP);
	assert_int_equal(keymap_lookup(KEYS_TEST, KEY_DOWN), UI_ACT_DOWN);
	assert_int_equal(keymap_lookup(KEYS_TEST, KEY_LEFT), UI_ACT_CHOICE_PREV);
	assert_int_equal(keymap_lookup(KEYS_TEST, KEY_RIGHT), UI_ACT_CHOICE_NEXT);
	assert_int_equal(keymap_lookup(KEYS_TEST, ' '), UI_ACT_CHOICE_NEXT);
	assert_int_equal(keymap_lookup(KEYS_TEST, KEY_BACKSPACE), UI_ACT_ERASE);
	assert_int_equal(keymap_lookup(KEYS_TEST, 127), UI_ACT_ERASE);
	assert_int_equal(keymap_lookup(KEYS_TEST, 8), UI_ACT_ERASE);
	assert_int_equal(keymap_lookup(KEYS_TEST, 'u' & 0x1f), UI_ACT_ERASE_ALL);
	/* elsewhere Space still pages and c still opens the counters */
	assert_int_equal(keymap_lookup(KEYS_PORTS, ' '), UI_ACT_PAGE_DOWN);
	assert_int_equal(keymap_lookup(KEYS_PORTS, 'c'), UI_ACT_COUNTERS);
	assert_int_equal(keymap_lookup(KEYS_PORTS, KEY_LEFT), UI_ACT_NONE);
}

static void test_key_names(void **state)
{
	char b[16];
	const struct keymap_entry *e = NULL;

	(void)state;
	assert_string_equal(keymap_key_name(KEY_NPAGE, b, sizeof(b)), "PgDn");
	assert_string_equal(keymap_key_name(KEY_F(10), b, sizeof(b)), "F10");
	assert_string_equal(keymap_key_name('l' & 0x1f, b, sizeof(b)), "Ctrl-L");
	assert_string_equal(keymap_key_name(' ', b, sizeof(b)), "Space");
	assert_string_equal(keymap_key_name(KEY_BTAB, b, sizeof(b)), "Shift-Tab");
	assert_string_equal(keymap_key_name(KEY_BACKSPACE, b, sizeof(b)), "Backspace");
	for (int i = 0; i < keymap_count; i++)
		if (keymap_table[i].action == UI_ACT_QUIT)
			e = &keymap_table[i];
	assert_non_null(e);
	char keys[64];

	assert_string_equal(keymap_row_keys(e, keys, sizeof(keys)), "q, F10");
}

/* Footers come from the table: the keys and briefs of the hints, F only
 * in the RoCE demo, a row's every key when asked ("T/Esc back"). */
static void test_footers(void **state)
{
	static const struct keymap_hint ports[] = {
		{ UI_ACT_TEST, 0 }, { UI_ACT_TRIAGE, 0 }, { UI_ACT_ACCEPT, 0 },
		{ UI_ACT_FABRIC, 0 }, { UI_ACT_DEMO, 0 }, { UI_ACT_HELP, 0 }, { UI_ACT_QUIT, 0 },
	};
	static const struct keymap_hint tri[] = {
		{ UI_ACT_TRI_NEXT, UI_ACT_TRI_PREV }, { UI_ACT_TRI_WALK, 0 },
		{ UI_ACT_BACK, UI_ACT_BACK },
	};
	char buf[256];

	(void)state;
	assert_string_equal(keymap_footer(KEYS_PORTS, ports, 7, false, buf, sizeof(buf)),
			    " t test  T triage  A accept  f fabric  ? help  q quit ");
	assert_string_equal(keymap_footer(KEYS_PORTS, ports, 7, true, buf, sizeof(buf)),
			    " t test  T triage  A accept  f fabric  F faults  ? help  q quit ");
	assert_string_equal(keymap_footer(KEYS_TRIAGE, tri, 3, false, buf, sizeof(buf)),
			    " n/p next/prev step  R re-run walk  T/Esc back ");
	/* the triage screen's R is the whole walk; on the ports screen R is
	 * unbound */
	assert_int_equal(keymap_lookup(KEYS_TRIAGE, 'R'), UI_ACT_TRI_WALK);
	assert_int_equal(keymap_lookup(KEYS_PORTS, 'R'), UI_ACT_NONE);
	/* a short buffer stays terminated */
	keymap_footer(KEYS_PORTS, ports, 7, true, buf, 12);
	assert_true(strlen(buf) < 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row_has_help_and_keys),
		cmocka_unit_test(test_no_key_twice_on_one_screen),
		cmocka_unit_test(test_every_action_has_a_key),
		cmocka_unit_test(test_refresh_keys),
		cmocka_unit_test(test_lookup_scopes),
		cmocka_unit_test(test_test_screen_rows),
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_footers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
