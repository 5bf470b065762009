/* SPDX-License-Identifier: MIT */
/* The console's fabric sweeper: one discovery's port list, every port's
 * PMA counters each round (sweep.c), each port judged by a listing rule
 * against its previous round's sample, which it then keeps. It runs on
 * the counter monitor's sweep worker (monitor_sweeper), so the counters
 * room needs nothing of the fabric room. */
#ifndef IBC_FABRIC_SWEEPER_H
#define IBC_FABRIC_SWEEPER_H

#include "core/counters/monitor.h"
#include "core/port/snapshot.h"

struct sweeper;

/* The sweeper of the device and port in o (NULL: the first); listed
 * says which swept ports the console lists. NULL out of memory. */
struct sweeper *sweeper_new(const struct snap_opts *o, monitor_listing_rule listed);
void sweeper_free(struct sweeper *s);
/* For monitor_start(): the sweeper's round as a monitor_sweeper. */
struct monitor_sweeper sweeper_for_monitor(struct sweeper *s);

#endif
