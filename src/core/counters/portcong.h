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
	/* the data rate one tick's (Tick + 1) bytes are timed at: a lane's
	 * (the IBTA symbol time) or the whole port's, as the device's
	 * vendor documents it (portcong_tick_gbps); 0 unknown */
	double lane_gbps;
	double link_lane_gbps;	/* the link's lane data rate, 0 unknown */
	int lanes;		/* the link's lanes, 0 unknown */
	int node_type;		/* of the node behind the PMA (ctr_target) */
	unsigned vendid, devid;
	char why[120];		/* why no wait share can be given */

	bool pfc_on;		/* a local RoCE port with a netdev */
	int roce_prio;		/* -1: not shown by the driver */
	char prio_how[96];
	struct pfc_sample prev, cur;
};

/* What one PortXmitWait tick is timed at for a node (NodeInfo NodeType,
 * VendorID, DeviceID) whose link has lanes lanes at lane_gbps each: the
 * rate in Gb/s that congestion_tick_ns() takes, or 0 with why ("n/a (tick
 * unknown for this device)") where no source says what the device counts. */
double portcong_tick_gbps(int node_type, unsigned vendid, unsigned devid, int lanes,
			  double lane_gbps, char *why, size_t whylen);

/* For target t whose lanes run at lane_gbps (0 unknown): asks the tick
 * through rd's PMA client when t is read there, notes the RoCE priority. */
void portcong_open(struct portcong *pc, const struct ctr_target *t, double lane_gbps,
		   struct ctr_reader *rd);
/* portcong_open() of t[0..n) (lanes at lane_gbps[i]), their ticks asked
 * together: a thousand remote ports, some of them silent, cost one
 * time-out, not a thousand. 0, or -1 out of memory (no tick known). */
int portcong_open_many(struct portcong *pc, const struct ctr_target *t,
		       const double *lane_gbps, int n, struct ctr_reader *rd);
/* The neighbour's end of the cable runs at the local port's speed. */
void portcong_set_lane(struct portcong *pc, double lane_gbps);
/* One interval: the netdev's pause statistics again. */
void portcong_tick(struct portcong *pc, const struct ctr_target *t);
/* Why there are no per-priority numbers, or NULL when there are. */
const char *portcong_pfc_none(const struct portcong *pc);

#endif
