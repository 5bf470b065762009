/* SPDX-License-Identifier: MIT */
/* The detail behind a port's errors: PortRcvErrorDetails,
 * PortXmitDiscardDetails and PortVLXmitWaitCounters, decoded with
 * libibmad's field table (names as perfquery prints them). */
#ifndef IBC_COUNTERS_DETAILS_H
#define IBC_COUNTERS_DETAILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum det_group {
	DET_RCV_ERR = 0,	/* PortRcvErrorDetails: why PortRcvErrors rose */
	DET_XMIT_DISC,		/* PortXmitDiscardDetails: why PortXmitDiscards */
	DET_VL_WAIT,		/* PortVLXmitWaitCounters: PortXmitWait per VL */
	DET_GROUPS
};

#define DET_MAX_FIELDS 16

struct det_values {
	bool asked;		/* the port was queried for this attribute */
	bool valid;		/* … and answered */
	char why[120];		/* !valid: not asked because …, or no answer */
	int n;
	uint64_t v[DET_MAX_FIELDS];
};

struct ctr_details {
	struct det_values g[DET_GROUPS];
};

/* Attribute name ("PortRcvErrorDetails") and PerfMgt attribute id. */
const char *details_attr_name(enum det_group g);
int details_attr_id(enum det_group g);
/* The total counter a group details (PortRcvErrors, PortXmitDiscards,
 * PortXmitWait): the group is asked for when that counter is not 0. */
const char *details_total_name(enum det_group g);
int details_count(enum det_group g);
/* Field i's name as perfquery prints it ("PortLocalPhysicalErrors"). */
const char *details_field_name(enum det_group g, int i);
/* Decodes the attribute data (the MAD's data area) into dv. Pure. */
void details_decode(struct det_values *dv, enum det_group g, const uint8_t *data);
/* One line of the non-zero fields, "PortLocalPhysicalErrors 5,
 * PortVLMappingErrors 1", or "all 0", or why it is not there. */
void details_text(const struct det_values *dv, enum det_group g, char *buf, size_t len);

#endif
