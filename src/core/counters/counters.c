// SPDX-License-Identifier: MIT
/* Port counters: the counter table, PMA decoding (classic vs 64-bit
 * extended, as ClassPortInfo allows) and a blocking PMA client. */
#include "config.h"
#include "core/counters/counters.h"
#include "core/base/clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>


/* Order is display order: errors first, then congestion, then traffic. */
const struct ctr_def ctr_table[] = {
	{ "SymbolErrorCounter", "symbol_error", CTR_ERROR, CTR_COUNT, 16, "minor link errors on a physical lane" },
	{ "LinkErrorRecoveryCounter", "link_error_recovery", CTR_ERROR, CTR_COUNT, 8, "link error recoveries completed" },
	{ "LinkDownedCounter", "link_downed", CTR_ERROR, CTR_COUNT, 8, "times the link went down after recovery failed" },
	{ "PortRcvErrors", "port_rcv_errors", CTR_ERROR, CTR_COUNT, 16, "received packets with errors" },
	{ "PortRcvRemotePhysicalErrors", "port_rcv_remote_physical_errors", CTR_ERROR, CTR_COUNT, 16, "packets marked with EBP by the sender" },
	{ "PortRcvSwitchRelayErrors", "port_rcv_switch_relay_errors", CTR_ERROR, CTR_COUNT, 16, "packets a switch could not relay" },
	{ "PortXmitDiscards", "port_xmit_discards", CTR_ERROR, CTR_COUNT, 16, "outbound packets discarded (port down, congestion)" },
	{ "PortXmitConstraintErrors", "port_xmit_constraint_errors", CTR_ERROR, CTR_COUNT, 8, "outbound packets not sent (filtering)" },
	{ "PortRcvConstraintErrors", "port_rcv_constraint_errors", CTR_ERROR, CTR_COUNT, 8, "inbound packets discarded (filtering)" },
	{ "LocalLinkIntegrityErrors", "local_link_integrity_errors", CTR_ERROR, CTR_COUNT, 4, "local physical errors over threshold" },
	{ "ExcessiveBufferOverrunErrors", "excessive_buffer_overrun_errors", CTR_ERROR, CTR_COUNT, 4, "consecutive receive buffer overruns" },
	{ "VL15Dropped", "VL15_dropped", CTR_ERROR, CTR_COUNT, 16, "subnet management packets dropped" },
	{ "PortXmitWait", "port_xmit_wait", CTR_CONGESTION, CTR_COUNT, 32, "ticks with data to send but no credits" },
	{ "PortXmitData", "port_xmit_data", CTR_TRAFFIC, CTR_WORDS4, 32, "data sent, in 4-octet words" },
	{ "PortRcvData", "port_rcv_data", CTR_TRAFFIC, CTR_WORDS4, 32, "data received, in 4-octet words" },
	{ "PortXmitPkts", "port_xmit_packets", CTR_TRAFFIC, CTR_PACKETS, 32, "packets sent" },
	{ "PortRcvPkts", "port_rcv_packets", CTR_TRAFFIC, CTR_PACKETS, 32, "packets received" },
	{ "PortUnicastXmitPkts", "unicast_xmit_packets", CTR_TRAFFIC, CTR_PACKETS, 0, "unicast packets sent" },
	{ "PortUnicastRcvPkts", "unicast_rcv_packets", CTR_TRAFFIC, CTR_PACKETS, 0, "unicast packets received" },
	{ "PortMulticastXmitPkts", "multicast_xmit_packets", CTR_TRAFFIC, CTR_PACKETS, 0, "multicast packets sent" },
	{ "PortMulticastRcvPkts", "multicast_rcv_packets", CTR_TRAFFIC, CTR_PACKETS, 0, "multicast packets received" },
};
const int ctr_table_count = sizeof(ctr_table) / sizeof(ctr_table[0]);
_Static_assert(sizeof(ctr_table) / sizeof(ctr_table[0]) == CTR_IDX_COUNT,
	       "enum ctr_idx names every row of ctr_table");

/* libibmad field ids per row of ctr_table: classic, 64-bit extended. */
static const struct {
	enum MAD_FIELDS classic, ext;
	bool ext_is_error;	/* needs CapabilityMask2 bit 1 */
} pma_fields[] = {
	{ IB_PC_ERR_SYM_F, IB_PC_EXT_ERR_SYM_F, true },
	{ IB_PC_LINK_RECOVERS_F, IB_PC_EXT_LINK_RECOVERS_F, true },
	{ IB_PC_LINK_DOWNED_F, IB_PC_EXT_LINK_DOWNED_F, true },
	{ IB_PC_ERR_RCV_F, IB_PC_EXT_ERR_RCV_F, true },
	{ IB_PC_ERR_PHYSRCV_F, IB_PC_EXT_ERR_PHYSRCV_F, true },
	{ IB_PC_ERR_SWITCH_REL_F, IB_PC_EXT_ERR_SWITCH_REL_F, true },
	{ IB_PC_XMT_DISCARDS_F, IB_PC_EXT_XMT_DISCARDS_F, true },
	{ IB_PC_ERR_XMTCONSTR_F, IB_PC_EXT_ERR_XMTCONSTR_F, true },
	{ IB_PC_ERR_RCVCONSTR_F, IB_PC_EXT_ERR_RCVCONSTR_F, true },
	{ IB_PC_ERR_LOCALINTEG_F, IB_PC_EXT_ERR_LOCALINTEG_F, true },
	{ IB_PC_ERR_EXCESS_OVR_F, IB_PC_EXT_ERR_EXCESS_OVR_F, true },
	{ IB_PC_VL15_DROPPED_F, IB_PC_EXT_VL15_DROPPED_F, true },
	{ IB_PC_XMT_WAIT_F, IB_PC_EXT_XMT_WAIT_F, true },
	{ IB_PC_XMT_BYTES_F, IB_PC_EXT_XMT_BYTES_F, false },
	{ IB_PC_RCV_BYTES_F, IB_PC_EXT_RCV_BYTES_F, false },
	{ IB_PC_XMT_PKTS_F, IB_PC_EXT_XMT_PKTS_F, false },
	{ IB_PC_RCV_PKTS_F, IB_PC_EXT_RCV_PKTS_F, false },
	{ 0, IB_PC_EXT_XMT_UPKTS_F, false },
	{ 0, IB_PC_EXT_RCV_UPKTS_F, false },
	{ 0, IB_PC_EXT_XMT_MPKTS_F, false },
	{ 0, IB_PC_EXT_RCV_MPKTS_F, false },
};

int ctr_index(const char *name)
{
	/* the first byte rules out most rows before any strcmp */
	for (int i = 0; i < ctr_table_count; i++)
		if ((ctr_table[i].name[0] == name[0] &&
		     !strcmp(ctr_table[i].name, name)) ||
		    (ctr_table[i].sysfs && ctr_table[i].sysfs[0] == name[0] &&
		     !strcmp(ctr_table[i].sysfs, name)))
			return i;
	return -1;
}

const struct ctr_def *ctr_lookup(const char *name)
{
	int i = ctr_index(name);

	return i < 0 ? NULL : &ctr_table[i];
}

static bool name_has(const char *name, const char *part)
{
	return strstr(name, part) != NULL;
}

/* Driver counters whose names the patterns below would misjudge. */
static const struct {
	const char *name;
	enum ctr_class cls;
} hw_known[] = {
	{ "ack_deferred", CTR_TRAFFIC },	/* rxe: an ACK coalesced */
	{ "ack_deffered", CTR_TRAFFIC },	/* older kernels' spelling */
	{ "rp_cnp_ignored", CTR_CONGESTION },
	{ "rx_icrc_encapsulated", CTR_ERROR },
	{ "roce_adp_retrans", CTR_ERROR },
	{ "roce_adp_retrans_to", CTR_ERROR },
	{ "roce_slow_restart", CTR_ERROR },
	{ "roce_slow_restart_cnps", CTR_CONGESTION },
	{ "roce_slow_restart_trans", CTR_ERROR },
};

enum ctr_class ctr_classify(const char *name)
{
	const struct ctr_def *d = ctr_lookup(name);

	if (d)
		return d->cls;
	for (size_t i = 0; i < sizeof(hw_known) / sizeof(hw_known[0]); i++)
		if (!strcmp(hw_known[i].name, name))
			return hw_known[i].cls;
	/* congestion first: "np_cnp_sent" is not an error */
	if (name_has(name, "cnp") || name_has(name, "ecn") || name_has(name, "pause") ||
	    name_has(name, "pfc") || name_has(name, "wait"))
		return CTR_CONGESTION;
	if (name_has(name, "_err") || name_has(name, "error") || name_has(name, "retry") || name_has(name, "seq") ||
	    name_has(name, "duplicate") || name_has(name, "discard") ||
	    name_has(name, "drop") || name_has(name, "out_of") || name_has(name, "timeout") ||
	    name_has(name, "retrans") || name_has(name, "slow_restart") ||
	    name_has(name, "nak") || name_has(name, "link_downed"))
		return CTR_ERROR;
	return CTR_TRAFFIC;
}

const char *ctr_class_name(enum ctr_class c)
{
	switch (c) {
	case CTR_TRAFFIC: return "traffic";
	case CTR_CONGESTION: return "congestion";
	case CTR_ERROR: return "error";
	}
	return "?";
}

const char *ctr_unit_name(enum ctr_unit u)
{
	switch (u) {
	case CTR_COUNT: return "count";
	case CTR_WORDS4: return "words4";
	case CTR_PACKETS: return "packets";
	case CTR_BYTES: return "bytes";
	}
	return "?";
}

struct ctr_value *counters_put(struct counter_set *cs, const char *name,
			       uint64_t value)
{
	const struct ctr_def *d;
	struct ctr_value *v = NULL;

	for (int i = 0; i < cs->n; i++)
		if (!strcmp(cs->c[i].name, name))
			v = &cs->c[i];
	if (!v) {
		if (cs->n >= CTR_MAX)
			return NULL;
		v = &cs->c[cs->n++];
		memset(v, 0, sizeof(*v));
		snprintf(v->name, sizeof(v->name), "%s", name);
		d = ctr_lookup(name);
		v->cls = d ? d->cls : ctr_classify(name);
		v->unit = d ? d->unit : CTR_COUNT;
		if (!d && (name_has(name, "pkts") || name_has(name, "packets") ||
			   name_has(name, "sends") || name_has(name, "recvs")))
			v->unit = CTR_PACKETS;
		if (!d && name_has(name, "bytes"))
			v->unit = CTR_BYTES;
		v->bits = 64;
	}
	v->value = value;
	v->valid = true;
	return v;
}

const struct ctr_value *counters_find(const struct counter_set *cs,
				      const char *name)
{
	/* the first letter rules out most counters before strcmp */
	for (int i = 0; i < cs->n; i++)
		if (cs->c[i].name[0] == name[0] && !strcmp(cs->c[i].name, name))
			return &cs->c[i];
	return NULL;
}

const struct ctr_value *counters_find_near(const struct counter_set *cs,
					   const char *name, int hint)
{
	if (hint >= 0 && hint < cs->n && !strcmp(cs->c[hint].name, name))
		return &cs->c[hint];
	return counters_find(cs, name);
}

void counters_copy_str(char *dst, size_t n, const char *src)
{
	size_t len = strnlen(src, n - 1);

	memmove(dst, src, len);
	dst[len] = '\0';
}

double counters_now(void)
{
	return mono_s();
}

void counters_parse_cpi(const uint8_t *cpi, uint16_t *cap, uint32_t *cap2)
{
	/* Raw big-endian bytes, as perfquery reads them: CapabilityMask at
	 * 2, CapabilityMask2 in the top 27 bits of the word at 4. */
	*cap = (uint16_t)(cpi[2] << 8 | cpi[3]);
	*cap2 = ((uint32_t)cpi[4] << 24 | (uint32_t)cpi[5] << 16 |
		 (uint32_t)cpi[6] << 8 | cpi[7]) >> 5;
}

/* Where row i of the table comes from on a port with these masks and
 * answers: -1 absent, 0 PortCounters, 1 PortCountersExtended. */
static int pma_row_source(int i, bool has_pce, uint16_t cap, uint32_t cap2)
{
	bool ext = has_pce && (cap & (PMA_CAP_EXT_WIDTH | PMA_CAP_EXT_NOIETF));
	bool all8 = ext && (cap & PMA_CAP_EXT_WIDTH);
	bool exterr = has_pce && (cap2 & PMA_CAP2_EXT_ERRORS);

	/* unicast / multicast only with the full extended set */
	if (!ctr_table[i].classic_bits && !all8 && !exterr)
		return -1;
	if (i == CTR_IDX_XMIT_WAIT && !(cap & PMA_CAP_XMIT_WAIT) && !exterr)
		return -1;	/* not supported: absent, never 0 */
	return (pma_fields[i].ext_is_error ? exterr : ext) ? 1 : 0;
}

void counters_pma_values(const uint8_t *pc, const uint8_t *pce, uint16_t cap,
			 uint32_t cap2, uint64_t v[CTR_IDX_COUNT])
{
	for (int i = 0; i < CTR_IDX_COUNT; i++) {
		int src = pma_row_source(i, pce != NULL, cap, cap2);

		v[i] = src < 0 ? 0 :
		       src ? mad_get_field64((void *)pce, 0, pma_fields[i].ext) :
			     mad_get_field((void *)pc, 0, pma_fields[i].classic);
	}
}

void counters_from_values(struct counter_set *cs, const uint64_t *v,
			  bool has_pce, uint16_t cap, uint32_t cap2)
{
	bool ext = has_pce && (cap & (PMA_CAP_EXT_WIDTH | PMA_CAP_EXT_NOIETF));
	bool exterr = has_pce && (cap2 & PMA_CAP2_EXT_ERRORS);

	cs->n = 0;
	cs->pma_cap = cap;
	cs->pma_cap2 = cap2;
	cs->extended = ext;
	cs->ext_errors = exterr;
	cs->source = CTR_SRC_PMA;
	/* Each table row lands at the next slot, filled straight from the
	 * row: the set was emptied above, so no name can be there twice, and
	 * the row already says class and unit (no lookup per counter). */
	for (int i = 0; i < ctr_table_count && cs->n < CTR_MAX; i++) {
		const struct ctr_def *d = &ctr_table[i];
		int src = pma_row_source(i, has_pce, cap, cap2);
		struct ctr_value *x;

		if (src < 0)
			continue;
		x = &cs->c[cs->n++];
		strcpy(x->name, d->name);	/* every table name fits CTR_NAME */
		x->cls = (uint8_t)d->cls;
		x->unit = (uint8_t)d->unit;
		x->bits = src ? 64 : (uint8_t)d->classic_bits;
		x->saturates = true;	/* IB: counters stop at all-ones */
		x->valid = true;
		x->value = v[i];
	}
	strcpy(cs->mode,
	       exterr ? "PortCountersExtended (64-bit data and errors)" :
	       ext ? "PortCountersExtended (64-bit data) + PortCounters (classic errors)" :
		     "PortCounters (classic: 32-bit data, 4-16-bit errors, saturating)");
	cs->valid = true;
	cs->why[0] = '\0';
}

void counters_from_pma(struct counter_set *cs, const uint8_t *pc,
		       const uint8_t *pce, uint16_t cap, uint32_t cap2)
{
	uint64_t v[CTR_IDX_COUNT];

	counters_pma_values(pc, pce, cap, cap2, v);
	counters_from_values(cs, v, pce != NULL, cap, cap2);
}
