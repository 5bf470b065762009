/* SPDX-License-Identifier: MIT */
/* Event log: every error-counter increment (and every reset or
 * saturation) with time, port, counter and delta, and the ports' link
 * state changes, in a bounded ring. */
#ifndef IBC_COUNTERS_EVENTLOG_H
#define IBC_COUNTERS_EVENTLOG_H

#include <stdint.h>
#include <time.h>
#include "core/counters/delta.h"

#define EVENTLOG_MAX 512

struct event {
	unsigned long seq;	/* 1, 2, … never reused */
	struct timespec when;	/* CLOCK_REALTIME */
	char port[64];
	char counter[CTR_NAME];
	uint8_t cls;
	uint64_t delta, value;
	uint8_t state;		/* enum delta_state */
	char text[96];		/* a port event (no counter delta): e.g.
				 * "Active/LinkUp -> Down/Polling (poll)" */
};

struct eventlog {
	unsigned long next_seq;
	unsigned long acked;	/* events up to this seq are acknowledged */
	int n, head;		/* head: where the next one goes */
	struct event ev[EVENTLOG_MAX];
};

void eventlog_init(struct eventlog *l);
/* Records the error-class counters of d that moved, were reset or
 * saturated in its last sample. Returns how many were added. */
int eventlog_add_from(struct eventlog *l, const struct delta_port *d,
		      const struct timespec *when);
/* A port event that is not a counter delta (a link state change, a
 * verbs asynchronous event): what in the counter column, text beside. */
void eventlog_add_text(struct eventlog *l, const char *port, const char *what,
		       const char *text, const struct timespec *when);
/* i-th newest event (0 = newest), NULL past the end. */
const struct event *eventlog_get(const struct eventlog *l, int i);
/* Unacknowledged events of port/counter (counter NULL: any). */
int eventlog_unacked(const struct eventlog *l, const char *port,
		     const char *counter);
void eventlog_ack(struct eventlog *l);

#endif
