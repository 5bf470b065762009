/* SPDX-License-Identifier: MIT */
/* Port counters: the declarative counter table (name, class, unit) and a
 * counter_set per port read from the PMA (IB) or sysfs (RoCE). */
#ifndef IBC_COUNTERS_COUNTERS_H
#define IBC_COUNTERS_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/counters/details.h"

#define CTR_MAX 64		/* counters per port */
#define CTR_NAME 40
#define CTR_WHY_LONG 256	/* a reason with what to do about it */

enum ctr_class { CTR_TRAFFIC = 0, CTR_CONGESTION, CTR_ERROR };

enum ctr_unit {
	CTR_COUNT = 0,		/* events */
	CTR_WORDS4,		/* 4-octet words (PortXmitData / PortRcvData) */
	CTR_PACKETS,
	CTR_BYTES,
};

/* One row of the table of known counters. */
struct ctr_def {
	const char *name;	/* PMA name as perfquery prints it */
	const char *sysfs;	/* kernel counters/ file name, NULL none */
	enum ctr_class cls;
	enum ctr_unit unit;
	unsigned classic_bits;	/* width in PortCounters, 0: extended only */
	const char *help;
};

extern const struct ctr_def ctr_table[];
extern const int ctr_table_count;

/* Rows of ctr_table by index, in table order: code that knows which
 * counter it wants addresses it so, without comparing names. */
enum ctr_idx {
	CTR_IDX_SYMBOL_ERROR = 0,
	CTR_IDX_LINK_RECOVERY,
	CTR_IDX_LINK_DOWNED,
	CTR_IDX_RCV_ERRORS,
	CTR_IDX_RCV_REMOTE_PHYS,
	CTR_IDX_RCV_SWITCH_RELAY,
	CTR_IDX_XMIT_DISCARDS,
	CTR_IDX_XMIT_CONSTRAINT,
	CTR_IDX_RCV_CONSTRAINT,
	CTR_IDX_LOCAL_LINK_INTEGRITY,
	CTR_IDX_EXCESSIVE_OVERRUN,
	CTR_IDX_VL15_DROPPED,
	CTR_IDX_XMIT_WAIT,
	CTR_IDX_XMIT_DATA,
	CTR_IDX_RCV_DATA,
	CTR_IDX_XMIT_PKTS,
	CTR_IDX_RCV_PKTS,
	CTR_IDX_UNICAST_XMIT_PKTS,
	CTR_IDX_UNICAST_RCV_PKTS,
	CTR_IDX_MULTICAST_XMIT_PKTS,
	CTR_IDX_MULTICAST_RCV_PKTS,
	CTR_IDX_COUNT
};

/* The row index of a PMA or kernel counters/ name, -1 when unknown. */
int ctr_index(const char *name);
/* The known row for a PMA or kernel counters/ name, NULL when unknown. */
const struct ctr_def *ctr_lookup(const char *name);
/* Class of any counter name, including driver hw_counters (a few exact
 * names, then patterns: *_err*, *error*, *retry*, *seq*, duplicate*,
 * *discard* are errors;
 * *cnp*, *ecn*, *pause*, *pfc*, *wait* congestion; the rest traffic). */
enum ctr_class ctr_classify(const char *name);
const char *ctr_class_name(enum ctr_class c);	/* "traffic" ... */
const char *ctr_unit_name(enum ctr_unit u);	/* "count", "words4" ... */

struct ctr_value {
	char name[CTR_NAME];
	uint8_t cls;		/* enum ctr_class */
	uint8_t unit;		/* enum ctr_unit */
	uint8_t bits;		/* field width: 4 … 64 */
	bool saturates;		/* IB semantics: stops at all-ones */
	bool valid;
	uint64_t value;
};

enum ctr_source { CTR_SRC_NONE = 0, CTR_SRC_PMA, CTR_SRC_SYSFS };

/* Every counter of one port at one instant. */
struct counter_set {
	char label[64];		/* "mlx5_0/1", "lid 7 port 3" */
	char dev[64];		/* local device, "" for a remote port */
	int port;		/* local port, or the PMA port number */
	unsigned lid;		/* PMA target, 0 for sysfs */
	uint64_t guid;		/* node GUID when known */
	char node_desc[72];	/* remote node description when known */

	enum ctr_source source;
	/* Which counters are in use, in words: "PortCountersExtended
	 * (64-bit data) + PortCounters (classic errors)". */
	char mode[96];
	bool extended;		/* 64-bit data / packet counters in use */
	bool ext_errors;	/* 64-bit error counters in use */
	uint16_t pma_cap;	/* ClassPortInfo CapabilityMask, host order */
	uint32_t pma_cap2;

	bool valid;
	char why[160];		/* when !valid */
	double t_mono;		/* CLOCK_MONOTONIC seconds at the read */
	/* PMA ports with errors: what the error counters are made of */
	struct ctr_details det;
	/* read from sysfs because MADs cannot be sent: why ("" else) */
	char no_mad[CTR_WHY_LONG];

	int n;
	struct ctr_value c[CTR_MAX];
};

/* PMA ClassPortInfo CapabilityMask bits (the IB_PM_* constants live in
 * an uninstalled rdma-core header). */
#define PMA_CAP_ALL_PORT_SELECT 0x0100u
#define PMA_CAP_EXT_WIDTH 0x0200u
#define PMA_CAP_EXT_NOIETF 0x0400u
#define PMA_CAP_XMIT_WAIT 0x1000u
#define PMA_CAP2_EXT_ERRORS 0x0002u	/* CapabilityMask2 bit 1 */

/* Decodes ClassPortInfo data (the MAD's data area, 192 bytes). */
void counters_parse_cpi(const uint8_t *cpi, uint16_t *cap, uint32_t *cap2);

/* The raw value of every row of the counter table in PortCounters data
 * pc and, when not NULL, PortCountersExtended data pce, each from the
 * attribute the capability masks choose; 0 for a row the port lacks. */
void counters_pma_values(const uint8_t *pc, const uint8_t *pce, uint16_t cap,
			 uint32_t cap2, uint64_t v[CTR_IDX_COUNT]);
/* Fills cs->c from such values (has_pce: PortCountersExtended was read),
 * the rows the masks give the port, and mode / extended / ext_errors. */
void counters_from_values(struct counter_set *cs, const uint64_t *v,
			  bool has_pce, uint16_t cap, uint32_t cap2);
/* Both: fills cs->c from PortCounters data pc and, when not NULL,
 * PortCountersExtended data pce, as the capability masks allow; sets
 * mode / extended / ext_errors. Pure: unit-tested. */
void counters_from_pma(struct counter_set *cs, const uint8_t *pc,
		       const uint8_t *pce, uint16_t cap, uint32_t cap2);

/* Adds (or updates) one counter; returns it, NULL when the set is full. */
struct ctr_value *counters_put(struct counter_set *cs, const char *name,
			       uint64_t value);
/* The counter called name, NULL when absent. */
const struct ctr_value *counters_find(const struct counter_set *cs,
				      const char *name);
/* The same, looking at slot hint first: two sets read from the same
 * kind of port hold their counters in the same order, so walking one
 * set and finding each name in the other costs one comparison each. */
const struct ctr_value *counters_find_near(const struct counter_set *cs,
					   const char *name, int hint);

double counters_now(void);	/* CLOCK_MONOTONIC seconds */
/* src into dst of size n (n > 0), cut to fit and always terminated:
 * snprintf(dst, n, "%s", src) without printf's parsing, for the copies
 * made for every port on every interval. */
void counters_copy_str(char *dst, size_t n, const char *src);

/* --- sources --- */

/* A PMA client: one umad port (agent for the performance class). */
struct pma_client;

struct pma_client *pma_open(const char *dev, int port, int timeout_ms,
			    char *err, size_t errlen);
void pma_close(struct pma_client *c);
/* ClassPortInfo then PortCounters (+ PortCountersExtended) of LID/port,
 * then, where a total is not 0, its details (cs->det): PortRcvErrors →
 * PortRcvErrorDetails, PortXmitDiscards → PortXmitDiscardDetails,
 * PortXmitWait → PortVLXmitWaitCounters when ClassPortInfo says the port
 * counts PortXmitWait. An attribute the port refuses or leaves
 * unanswered is not asked again. Returns 0, or -1 with cs->why filled
 * (cs->valid false). */
int pma_sample(struct pma_client *c, unsigned lid, int port,
	       struct counter_set *cs);
/* One target of a round: its LID and PortSelect, and where its sample
 * goes. */
struct pma_sample_req {
	unsigned lid;
	int port;
	struct counter_set *cs;
};
/* pma_sample() of n targets as one round: each step's MADs (ClassPortInfo
 * of LIDs not met before, the counters, the details) in flight together
 * through the pipe. Returns 0, or -1 when any target could not be read
 * (its cs->why says why). */
int pma_sample_many(struct pma_client *c, struct pma_sample_req *q, int n);
/* A Get of attr for each of q[0..n) (q[i].cs unused), in flight
 * together: status[i] 0 with the attribute data at out + i x
 * IB_PC_DATA_SZ, the MAD status when refused, -1 unanswered. Returns 0,
 * or -1 with errno when the local port cannot send. */
int pma_get_many(struct pma_client *c, const struct pma_sample_req *q, int n,
		 int attr, uint8_t *out, int *status);
/* One Get of attr for LID/port on the client's pipe: 0 with the
 * attribute data (IB_PC_DATA_SZ bytes) in out, -1 with why. */
int pma_get(struct pma_client *c, unsigned lid, int port, int attr, uint8_t *out,
	    char *why, size_t whylen);
/* PortCounters (+Extended) reset of every counter on LID/port. */
int pma_clear(struct pma_client *c, unsigned lid, int port, char *err,
	      size_t errlen);

/* RoCE (or any port with a kernel counters/ tree): reads
 * ports/N/counters/, hw_counters/ under the sysfs root and, on the real
 * root, the netdev's pause / PFC statistics through ethtool. Returns 0,
 * or -1 with cs->why filled. */
int counters_sysfs_sample(const char *dev, int port, const char *netdev,
			  struct counter_set *cs);

#endif
