/* SPDX-License-Identifier: MIT */
/* Port events: link state changes (seen by polling or reported by the
 * device's verbs asynchronous events) and LinkDowned / LinkErrorRecovery
 * counter increments, time-stamped and kept in a bounded JSON Lines file
 * in the state directory, so a flap survives a restart of the console. */
#ifndef IBC_PORT_EVENTS_H
#define IBC_PORT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The file is rotated to <file>.1 when it grows past this; at most two
 * files (about twice this much) are kept. */
#define EVENTS_MAX_BYTES (1024 * 1024)

struct port_event {
	double t;		/* CLOCK_REALTIME seconds */
	char port[64];		/* "mlx5_0/1" */
	char kind[24];		/* "state", "link_downed", "link_error_recovery",
				 * "port_err", "port_active", "lid_change",
				 * "sm_change", … */
	char source[8];		/* "poll", "counter", "verbs" */
	char from[40], to[40];	/* state: port state names, else "" */
	uint64_t delta;		/* counter: the increment, else 0 */
};

/* $XDG_STATE_HOME/ibconsole/events.jsonl (else ~/.local/state/…;
 * demo-events.jsonl under --demo); NULL when neither variable is set. */
const char *events_path(char *buf, size_t len);

/* One line of JSON (no newline) for e; the file's format. */
int events_format(const struct port_event *e, char *buf, size_t len);
/* Parses a line events_format wrote: 0, or -1 for anything else. */
int events_parse(const char *line, struct port_event *e);

/* Appends e to path (creating its directories), rotating the file first
 * when it is past EVENTS_MAX_BYTES. 0, or -1 with a reason in err. */
int events_append(const char *path, const struct port_event *e, char *err,
		  size_t errlen);

/* The events of path.1 and path not older than since (CLOCK_REALTIME
 * seconds), oldest first, the newest max kept. Returns how many, or -1
 * with a reason in err (a missing file is no events, not an error).
 * Damaged lines are skipped and counted in *bad. */
int events_load(const char *path, double since, struct port_event *out,
		int max, int *bad, char *err, size_t errlen);

/* One port's last known state, for turning polls into changes. */
struct port_track {
	char port[64];
	int state, phys;	/* IBA PortInfo codes; 0: not known yet */
};

/* Feeds one poll of port (state / phys codes, 0 = unknown) at t. Fills
 * *e and returns true when the state changed since the previous poll;
 * the first poll only sets the baseline. */
bool events_track(struct port_track *tr, const char *port, int state,
		  int phys, double t, struct port_event *e);

/* Fills *e for a LinkDowned / LinkErrorRecovery increment (counter is
 * the PMA name); false for any other counter or a zero delta. */
bool events_from_counter(const char *port, const char *counter,
			 uint64_t delta, double t, struct port_event *e);

/* The live state of a local port: the port's own SMP PortInfo when it
 * is InfiniBand and the umad device opens (no_smp false), else sysfs.
 * 0, or -1 when neither answered. */
int events_poll_state(const char *dev, int port, bool no_smp, int *state,
		      int *phys);

/* --since T: a duration back from now ("90", "90s", "15m", "2h", "7d")
 * or a time "YYYY-MM-DD[THH:MM[:SS]]" (local time; UTC with a trailing
 * Z). Sets *since (CLOCK_REALTIME seconds); 0, or -1. */
int events_parse_since(const char *s, double now, double *since);

struct json;
/* e as a JSON object (in an array): time, t_ms (Unix milliseconds), port, event, source, and
 * from / to (state changes) or delta (counters), the others null. */
void events_json(struct json *j, const struct port_event *e);
/* One line for people: "2026-…Z mlx5_0/1 state Active/LinkUp -> Down/Polling (poll)". */
void events_text(const struct port_event *e, char *buf, size_t len);

/* "2026-12-01T12:40:18.123Z" */
void events_iso(double t, char *buf, size_t len);

#endif
