// SPDX-License-Identifier: MIT
/* Error details: which attribute, which libibmad fields, decoding. */
#include "config.h"
#include "core/counters/details.h"

#include <stdio.h>
#include <string.h>
#include <infiniband/mad.h>

static const struct {
	const char *attr, *total;
	int id;
	enum MAD_FIELDS first, last;	/* libibmad fields [first, last) */
} groups[DET_GROUPS] = {
	[DET_RCV_ERR] = { "PortRcvErrorDetails", "PortRcvErrors",
			  IB_GSI_PORT_RCV_ERROR_DETAILS,
			  IB_PC_RCV_LOCAL_PHY_ERR_F, IB_PC_RCV_ERR_LAST_F },
	[DET_XMIT_DISC] = { "PortXmitDiscardDetails", "PortXmitDiscards",
			    IB_GSI_PORT_XMIT_DISCARD_DETAILS,
			    IB_PC_XMT_INACT_DISC_F, IB_PC_XMT_DISC_LAST_F },
	[DET_VL_WAIT] = { "PortVLXmitWaitCounters", "PortXmitWait",
			  IB_GSI_PORT_PORT_VL_XMIT_WAIT_COUNTERS,
			  IB_PC_PORT_VL_XMIT_WAIT0_F, IB_PC_PORT_VL_XMIT_WAIT_COUNTERS_LAST_F },
};

const char *details_attr_name(enum det_group g)
{
	return groups[g].attr;
}

int details_attr_id(enum det_group g)
{
	return groups[g].id;
}

const char *details_total_name(enum det_group g)
{
	return groups[g].total;
}

int details_count(enum det_group g)
{
	int n = (int)groups[g].last - (int)groups[g].first;

	return n > DET_MAX_FIELDS ? DET_MAX_FIELDS : n;
}

const char *details_field_name(enum det_group g, int i)
{
	return mad_field_name((enum MAD_FIELDS)(groups[g].first + i));
}

void details_decode(struct det_values *dv, enum det_group g, const uint8_t *data)
{
	dv->n = details_count(g);
	for (int i = 0; i < dv->n; i++)
		dv->v[i] = mad_get_field((void *)data, 0,
					 (enum MAD_FIELDS)(groups[g].first + i));
	dv->asked = dv->valid = true;
	dv->why[0] = '\0';
}

void details_text(const struct det_values *dv, enum det_group g, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	if (!dv->valid) {
		snprintf(buf, len, "n/a (%s)", dv->why[0] ? dv->why : "not read");
		return;
	}
	for (int i = 0; i < dv->n && o < len; i++) {
		int k;

		if (!dv->v[i])
			continue;
		k = snprintf(buf + o, len - o, "%s%s %llu", o ? ", " : "",
			     details_field_name(g, i), (unsigned long long)dv->v[i]);
		if (k < 0)
			break;
		o += (size_t)k;
	}
	if (!o)
		snprintf(buf, len, "all 0");
}
