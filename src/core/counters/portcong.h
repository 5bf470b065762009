/* SPDX-License-Identifier: MIT */
/* What a port's congestion is read from beside its counters: the
 * PortXmitWait tick from PortSamplesControl (asked once) with the lanes'
 * data rate, and the netdev's per-priority pauses (every interval), for
 * watch and the console alike. The judging is src/diag's. */
#ifndef IBC_COUNTERS_PORTCONG_H
#define IBC_COUNTERS_PORTCONG_H

#include <stdbool.h>
#include "core/counters/pfc.h"
#include "core/counters/reader.h"

struct portcong {
	int tick;		/* PortSamplesControl Tick, -1 not reported */
	double lane_gbps;	/* lane data rate, 0 unknown */
	char why[120];		/* why no wait share can be given */

	bool pfc_on;		/* a local RoCE port with a netdev */
	int roce_prio;		/* -1: not shown by the driver */
	char prio_how[96];
	struct pfc_sample prev, cur;
};

/* For target t whose lanes run at lane_gbps (0 unknown): asks the tick
 * through rd's PMA client when t is read there, notes the RoCE priority. */
void portcong_open(struct portcong *pc, const struct ctr_target *t, double lane_gbps,
		   struct ctr_reader *rd);
/* The neighbour's end of the cable runs at the local port's speed. */
void portcong_set_lane(struct portcong *pc, double lane_gbps);
/* One interval: the netdev's pause statistics again. */
void portcong_tick(struct portcong *pc, const struct ctr_target *t);
/* Why there are no per-priority numbers, or NULL when there are. */
const char *portcong_pfc_none(const struct portcong *pc);

#endif
