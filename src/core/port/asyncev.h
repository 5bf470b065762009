/* SPDX-License-Identifier: MIT */
/* Verbs asynchronous events (ibv_get_async_event): port error / active,
 * LID, SM, P_Key and GID changes, client re-register, device fatal, on a
 * worker thread, written to the events file as they arrive and queued
 * for the console. They catch a flap between two polls. */
#ifndef IBC_PORT_ASYNCEV_H
#define IBC_PORT_ASYNCEV_H

#include <stddef.h>
#include "core/port/events.h"

#define ASYNCEV_MAX_DEVS 16
#define ASYNCEV_QUEUE 64

struct asyncev;

/* Opens every verbs device (or only device) and starts the thread;
 * events go to events_file (NULL: none) and the queue. NULL with a reason
 * in err when no verbs device opens (ibsim has none): polling still
 * records state changes then. */
struct asyncev *asyncev_start(const char *device, const char *events_file,
			      char *err, size_t errlen);
/* Takes up to max queued events, oldest first; returns how many. */
int asyncev_take(struct asyncev *a, struct port_event *out, int max);
/* How many devices are watched. */
int asyncev_ndevs(const struct asyncev *a);
void asyncev_stop(struct asyncev *a);	/* NULL-safe */

/* The event's name in the events file ("port_err", "port_active", …),
 * NULL for events that are not about a port or device. */
const char *asyncev_kind(int ibv_event_type);

#endif
