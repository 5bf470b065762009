// SPDX-License-Identifier: MIT
/* `ibconsole events [--since T] [--json]`: reads the events file back;
 * watch and the console write it. */
#include "config.h"
#include "cmd_events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/json.h"
#include "core/port/events.h"

#define EVENTS_SHOW_MAX 10000

int cmd_events(const struct cli *c, const struct snap_opts *o)
{
	char path[512], err[700];
	struct port_event *ev;
	struct timespec ts;
	double since = 0;
	int n, bad = 0;

	(void)o;
	clock_gettime(CLOCK_REALTIME, &ts);
	if (c->since && events_parse_since(c->since, (double)ts.tv_sec, &since)) {
		fprintf(stderr, "ibconsole: bad --since '%s': not a duration or a time — give e.g. 15m, 2h, 7d or 2026-12-01T12:00\n",
			c->since);
		return 2;
	}
	if (!events_path(path, sizeof(path))) {
		fprintf(stderr, "ibconsole: no state directory: neither XDG_STATE_HOME nor HOME is set — set one of them\n");
		return 3;
	}
	ev = calloc(EVENTS_SHOW_MAX, sizeof(*ev));
	if (!ev) {
		fprintf(stderr, "ibconsole: out of memory\n");
		return 5;
	}
	n = events_load(path, since, ev, EVENTS_SHOW_MAX, &bad, err, sizeof(err));
	if (n < 0) {
		fprintf(stderr, "ibconsole: %s — check the file's permissions\n", err);
		free(ev);
		return 3;
	}
	if (c->json) {
		struct json j;

		json_init(&j, stdout);
		json_obj_begin(&j, NULL);
		json_str(&j, "schema", "ibconsole/events/1");
		json_str(&j, "file", path);
		json_int(&j, "damaged_lines", bad);
		json_arr_begin(&j, "events");
		for (int i = 0; i < n; i++)
			events_json(&j, &ev[i]);
		json_arr_end(&j);
		json_obj_end(&j);
	} else {
		if (!n)
			printf("no port events%s in %s\n", c->since ? " in that time" : "", path);
		for (int i = 0; i < n; i++) {
			char line[240];

			events_text(&ev[i], line, sizeof(line));
			printf("%s\n", line);
		}
		if (bad)
			printf("(%d damaged lines skipped)\n", bad);
	}
	free(ev);
	if (ferror(stdout) || fflush(stdout)) {
		fprintf(stderr, "ibconsole: cannot write the output: stdout failed — check the pipe or disk\n");
		return 5;
	}
	return 0;
}

/* ---- the command line: the options of events and its entry (see cli.h) ---- */

static const struct cli_option opt_since = {
	"since", NULL, 0, "T",
	"events: only those since T (15m, 2h, 7d, or 2026-12-01T12:00; Z for UTC)",
	.type = OT_STR, .off = CLI_AT(since) };

/* declared elsewhere: --json (cli.c) */
static const struct cli_option *const events_opts[] = {
	&cli_opt_json, &opt_since, NULL
};

const struct cli_command cmd_events_entry = {
	"events",
	"[--since T] [--json]",
	"port events kept across runs: link state changes, LinkDowned and LinkErrorRecovery increments",
	events_opts, NULL, cmd_events
};
