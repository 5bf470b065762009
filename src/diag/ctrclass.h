/* SPDX-License-Identifier: MIT */
/* What an error counter points at, and what to do about it: one table of
 * counter -> class and class -> advice. "Check the optic / cable" is the
 * physical class's advice alone (the reference procedure gives it for
 * physical-layer counters; discards point at congestion or a port that
 * went down, VL15Dropped at subnet management traffic, constraint errors
 * at partition configuration — IBTA spec vol. 1, PortCounters). */
#ifndef IBC_CTRCLASS_H
#define IBC_CTRCLASS_H

enum ctr_fault {
	FAULT_PHYSICAL = 0,	/* the link itself: optic, cable, connector */
	FAULT_REMOTE_PHYSICAL,	/* a bad link upstream (packet marked EBP) */
	FAULT_RECEIVE,		/* receive errors, cause in their details */
	FAULT_CONGESTION,	/* discards: congestion or the port went down */
	FAULT_CONFIG,		/* partition / routing configuration */
	FAULT_SM,		/* subnet management traffic */
	FAULT_BUFFER,		/* local receive buffer / flow control */
	FAULT_TRANSPORT,	/* RoCE / driver transport: loss and retries */
	FAULT_NCLASSES
};

struct ctr_fault_class {
	const char *name;	/* "physical link", … */
	const char *advice;	/* what to do at act */
};
extern const struct ctr_fault_class ctr_fault_classes[FAULT_NCLASSES];

/* The class of an error counter by any of its names (PMA, counters/
 * file, driver hw_counters); unknown error counters are transport. */
enum ctr_fault ctr_fault_of(const char *counter);
const char *ctr_fault_name(const char *counter);
const char *ctr_fault_advice(const char *counter);

#endif
