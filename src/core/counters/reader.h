/* SPDX-License-Identifier: MIT */
/* Counter sampling for a list of targets (local ports, remote LIDs):
 * picks PMA or sysfs per target and keeps one PMA client per local port. */
#ifndef IBC_COUNTERS_READER_H
#define IBC_COUNTERS_READER_H

#include <stdbool.h>
#include <stddef.h>
#include "core/counters/counters.h"
#include "core/port/snapshot.h"

/* The local ports (and their neighbours) a command keeps in a fixed
 * table; watch allocates its targets to what is asked instead. */
#define CTRS_MAX_TARGETS 64

struct ctr_target {
	char label[64];		/* "ibsim0/1", "lid 3 port 1" */
	char dev[64];		/* local port the queries leave from */
	int port;
	unsigned lid;		/* PMA target LID, 0: sysfs */
	int pma_port;		/* PMA PortSelect */
	bool remote;
	/* the node behind the PMA, for what its PortXmitWait tick means:
	 * NodeInfo NodeType (1 CA, 2 switch; 0 unknown), VendorID and
	 * DeviceID (0 unknown), the link's lanes (0 unknown) */
	int node_type;
	unsigned vendid, devid;
	int lanes;
	char netdev[32];	/* RoCE: for pause / PFC statistics */
	/* an IB port whose MADs this user may not send: read from sysfs
	 * counters/ instead, and this says why and what would help */
	char no_mad[CTR_WHY_LONG];
};

struct ctr_reader;

struct ctr_reader *reader_open(void);
void reader_close(struct ctr_reader *s);

/* Local ports of s as targets: IB ports with a LID on the real system
 * use the PMA, everything else sysfs — an IB port whose umad device
 * does not open too (the kernel's counters/ come from the same PMA).
 * Returns the count. */
int reader_targets_local(const struct snapshot *s, struct ctr_target *t, int max);
/* The data rate of one lane of local target t's port in s (Gb/s after
 * encoding), 0 for a remote target or an unknown speed. */
double reader_target_lane_gbps(const struct snapshot *s, const struct ctr_target *t);
/* The neighbour of local port p (its PMA at peer.lid / peer.port,
 * reached through p) as a remote target. Returns 0, or -1 when p has no
 * known neighbour with a LID or counters are not read over the PMA. */
int reader_target_peer(const struct port_info *p, struct ctr_target *t);
/* How many ports a "LID[:PORT][,LID[:PORT]…]" list names (an upper
 * bound when it is malformed): what reader_targets_remote() needs. */
int reader_remote_count(const char *spec);
/* Parses "LID[:PORT][,LID[:PORT]…]" into remote targets reached through
 * the first IB port of s. Returns the count, -1 with err on bad input
 * or when the list names more than max ports (never a silent cut). */
int reader_targets_remote(const char *spec, const struct snapshot *s,
			struct ctr_target *t, int max, char *err, size_t errlen);

/* One sample of each of t[0..n) into cs[0..n): sysfs targets one by
 * one, PMA targets as one pipelined round per local port (pma_sample_many).
 * Returns 0, or -1 when any could not be read (its cs->valid false and
 * cs->why). */
int reader_read_many(struct ctr_reader *s, const struct ctr_target *t,
		     struct counter_set *cs, int n);
/* One sample of target t into cs (cs->valid false and cs->why on error). */
int reader_read(struct ctr_reader *s, const struct ctr_target *t,
		struct counter_set *cs);
/* Closes the PMA clients (they reopen on the next sample): under
 * umad2sim a kept-open client breaks other users of its class. */
void reader_release(struct ctr_reader *s);
/* One PerfMgt Get of attr (PortSamplesControl …) for PMA target t on
 * the same client as its counters: 0 with the attribute data (192
 * bytes) in out, or -1 with why. */
int reader_pma_get(struct ctr_reader *s, const struct ctr_target *t, int attr,
		   uint8_t *out, char *why, size_t whylen);
/* reader_pma_get() of attr for each of t[0..n), the Gets of a local
 * port in flight together: ok[i] 1 with t[i]'s attribute data at out +
 * i x IB_PC_DATA_SZ, 0 when sysfs-read, refused or unanswered. Returns
 * 0, or -1 out of memory (every ok[i] 0). */
int reader_pma_get_many(struct ctr_reader *s, const struct ctr_target *t, int n,
			int attr, uint8_t *out, int *ok);
/* Clears every PMA counter of t. */
int reader_clear(struct ctr_reader *s, const struct ctr_target *t, char *err,
	       size_t errlen);

#endif
