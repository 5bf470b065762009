/* SPDX-License-Identifier: MIT */
/* Fabric-wide counter sweep: the ports of a fabric model (fabric.c's
 * discovery), then every port's PMA counters with many MADs in flight. */
#ifndef IBC_FABRIC_SWEEP_H
#define IBC_FABRIC_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/counters/counters.h"

/* How one port's last query ended. */
enum sweep_result {
	SWEEP_NOT_READ = 0,
	SWEEP_NO_CPI,		/* no ClassPortInfo answer */
	SWEEP_NO_PC,		/* no PortCounters answer */
	SWEEP_NO_PCE,		/* no PortCountersExtended answer */
	SWEEP_CLEAN_SUM,	/* a switch's AllPortSelect sum: no errors */
	SWEEP_READ,		/* v[] holds the port's counters */
};

/* One swept port, compact: a large fabric holds thousands, so the port
 * keeps how it was read and where its raw values are (most switch ports
 * have none: their switch's sum said no errors); sweep_port_counters()
 * makes the full counter set. */
struct sweep_port {
	uint64_t guid;		/* node GUID */
	uint64_t port_guid;
	const char *node_desc;	/* the sweep's copy of the node's */
	unsigned lid;		/* PMA target LID (switch: port 0's) */
	int port;
	bool is_switch;
	bool has_pce;		/* PortCountersExtended read */
	/* cap and cap2 hold its node's ClassPortInfo answer, kept for the
	 * next sweep of this port list: false while none is, and again once
	 * a query to the node goes unanswered (a new port list, from a
	 * discovery, asks again) */
	bool cpi_kept;
	uint8_t result;		/* enum sweep_result */
	uint16_t cap;		/* ClassPortInfo CapabilityMask */
	uint32_t cap2;
	int vi;			/* SWEEP_READ: its row of sweep.vals */
	int fi;			/* its index in the model's ports */
	double t_mono;		/* CLOCK_MONOTONIC seconds of the query */
};

struct sweep {
	int n;
	struct sweep_port *p;
	char *descs;		/* node descriptions, p[i].node_desc points here
				 * (NULL in a copy: the original's) */
	/* CTR_IDX_COUNT raw values (counters_pma_values()) per port read */
	uint64_t *vals;
	int nvals;
	int nodes;
	double discover_s, query_s;
	unsigned long mads_sent, mads_failed;
	unsigned long mads_retried;	/* of mads_sent: asked again */
};

struct sweep_opts {
	const char *dev;	/* local CA, NULL: the first */
	int port;		/* local port, 0: the first active */
	int window;		/* MADs in flight, default 64 */
	int timeout_ms;		/* per MAD, default 300 */
	int retries;		/* default 2 */
	int max_smps;		/* discovery, default 64 */
	/* Every port's PortCounters, and PortCountersExtended wherever the
	 * PMA has 64-bit data: no AllPortSelect shortcut, traffic counters
	 * kept (the exporter's full collection). */
	bool all_counters;
	const char *node_name_map;	/* discovery's names, NULL: none */
};

struct fabric;

/* Status codes double as exit codes: 0 ok, 3 no device / permission,
 * 4 fabric unreachable, 5 internal. err gets one line. */
/* Discovers the fabric (fabric_discover() with the sweep's MAD budget)
 * and takes its port list. */
int sweep_discover(struct sweep *sw, const struct sweep_opts *o, char *err,
		   size_t errlen);
/* The same, and the fabric model itself into *f (the caller frees it). */
int sweep_discover_model(struct sweep *sw, struct fabric **f,
			 const struct sweep_opts *o, char *err, size_t errlen);
/* The port list of an existing fabric model: every port but switch port
 * 0, switches queried on their port-0 LID. 0, or 5 out of memory. */
int sweep_from_fabric(struct sweep *sw, const struct fabric *f, char *err,
		      size_t errlen);
/* Reads all counters of every discovered port (again on each call; a
 * node's ClassPortInfo only where none is kept: see cpi_kept). */
int sweep_query(struct sweep *sw, const struct sweep_opts *o, char *err,
		size_t errlen);
void sweep_free(struct sweep *sw);

/* Port i's counters as a PMA sample fills them (label, LID, port, mode,
 * values; why when the port could not be read). */
void sweep_port_counters(const struct sweep *sw, int i, struct counter_set *cs);
/* dst becomes a copy of src's ports and values (its node names stay
 * src's: keep src's port list for as long). 0, or -1 out of memory with
 * dst emptied. */
int sweep_copy(struct sweep *dst, const struct sweep *src);
/* Whether p was read (its counter set would be valid). */
bool sweep_port_valid(const struct sweep_port *p);
/* Port i's counters into cs and, when prev (NULL: none) holds a valid
 * sample of it, that sample into pcs: returns pcs, or NULL when there
 * is no previous sample to judge against. */
const struct counter_set *sweep_port_pair(const struct sweep *sw,
					  const struct sweep *prev, int i,
					  struct counter_set *cs,
					  struct counter_set *pcs);

/* A repeated sweep: one discovery's port list and the previous round's
 * samples, both or neither (have). */
struct sweep_history {
	struct sweep sw;
	struct sweep prev;	/* sw.n ports, not valid: none */
	bool have;
};

/* Discovers into h->sw and adopts it; on failure h holds nothing. */
int sweep_history_discover(struct sweep_history *h, const struct sweep_opts *o,
			   char *err, size_t errlen);
/* Allocates the previous samples for h->sw: 0 (have true) or 5 with h->sw
 * freed and have false. */
int sweep_history_adopt(struct sweep_history *h, char *err, size_t errlen);
/* This round becomes the previous one: each port's sample, or, where
 * this round could not read the port, its last one. 0, or -1 out of
 * memory with no previous round kept. */
int sweep_history_keep(struct sweep_history *h);
void sweep_history_free(struct sweep_history *h);

#endif
