// SPDX-License-Identifier: MIT
/* Build-time tool: copies the man page template to stdout and puts the
 * key table, as roff, where the template has a line "@KEYS@", so the man
 * page lists exactly the keys the console binds.
 * Usage: keys-man TEMPLATE > ibconsole.8 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "keymap.h"

/* roff-safe text: backslash and minus escaped, no control line. */
static void roff_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

static void roff_keys(FILE *f)
{
	char name[16];
	int s, i, k;

	for (s = 0; s < KEYS_SCREEN_N; s++) {
		bool titled = false;

		for (i = 0; i < keymap_count; i++) {
			const struct keymap_entry *e = &keymap_table[i];

			if (e->screen != (enum keys_screen)s)
				continue;
			if (!titled) {
				fputs(".PP\n.I \"", f);
				roff_text(f, keymap_screen_title(s));
				fputs("\"\n", f);
				titled = true;
			}
			fputs(".TP\n", f);
			for (k = 0; k < KEYMAP_MAX_KEYS && e->keys[k]; k++) {
				fputs(k ? "\\fR, \\fB" : "\\fB", f);
				roff_text(f, keymap_key_name(e->keys[k], name, sizeof(name)));
			}
			fputs("\\fR\n", f);
			roff_text(f, e->help);
			fputs(".\n", f);
		}
	}
}

int main(int argc, char **argv)
{
	char line[4096];
	FILE *in;
	int found = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: keys-man TEMPLATE > PAGE\n");
		return 2;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (strcmp(line, "@KEYS@\n") == 0) {
			roff_keys(stdout);
			found++;
		} else {
			fputs(line, stdout);
		}
	}
	fclose(in);
	if (found != 1) {
		fprintf(stderr, "keys-man: %s has %d @KEYS@ lines, want 1\n",
			argv[1], found);
		return 1;
	}
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
