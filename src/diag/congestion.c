// SPDX-License-Identifier: MIT
/* Congestion units and the RoCE counter table. */
#include "config.h"
#include "diag/congestion.h"

#include <stddef.h>
#include <string.h>

#include "core/counters/delta.h"


double congestion_tick_ns(int tick, double lane_gbps)
{
	if (tick < 0 || tick > 255 || !(lane_gbps > 0))
		return 0;
	/* (Tick + 1) byte times (IBTA PortSamplesControl.Tick: 0x00 = one
	 * symbol time, a byte on one lane, 4 ns at SDR); lane_gbps is the
	 * rate the device times them at — a lane's for Switch-X / Switch-IB,
	 * the port's for Quantum (NVIDIA ibdiagnet User Manual, "Congestion
	 * Assessment on InfiniBand Links"; portcong_tick_gbps), 0 where no
	 * source documents the device */
	return (tick + 1) * (8.0 / lane_gbps);
}

double congestion_wait_share(uint64_t xmit_wait_delta, int tick, double lane_gbps,
			     double interval_s, bool *clamped)
{
	double ns = congestion_tick_ns(tick, lane_gbps), share;

	if (clamped)
		*clamped = false;
	if (!(ns > 0) || !(interval_s > 0))
		return -1;
	share = (double)xmit_wait_delta * ns / (interval_s * 1e9);
	if (share > 1) {
		share = 1;
		if (clamped)
			*clamped = true;
	}
	return share;
}

/* mlx5 and rxe names (both spellings of rxe's across kernels). */
static const struct {
	const char *name;
	enum roce_class cls;
	const char *meaning;
} roce_table[] = {
	{ "np_cnp_sent", ROCE_CLASS_CONGESTION, "CNPs this host sent: ECN-marked packets arrived, the fabric is congested towards us" },
	{ "np_ecn_marked_roce_packets", ROCE_CLASS_CONGESTION, "RoCE packets that arrived ECN-marked by a congested switch" },
	{ "rp_cnp_handled", ROCE_CLASS_CONGESTION, "CNPs received and acted on: our sending was slowed by congestion control" },
	{ "rp_cnp_ignored", ROCE_CLASS_CONGESTION, "CNPs received and ignored" },
	{ "out_of_sequence", ROCE_CLASS_LOSS, "packets that arrived out of sequence: one before them was lost" },
	{ "out_of_seq_request", ROCE_CLASS_LOSS, "requests that arrived out of sequence: one before them was lost" },
	{ "packet_seq_err", ROCE_CLASS_LOSS, "NAKs for a sequence error received: the peer saw a packet missing" },
	{ "implied_nak_seq_err", ROCE_CLASS_LOSS, "responses implying a lost request (implied NAK)" },
	{ "rcvd_seq_err", ROCE_CLASS_LOSS, "NAKs for a sequence error received: the peer saw a packet missing" },
	{ "local_ack_timeout_err", ROCE_CLASS_LOSS, "ACK time-outs: a packet or its ACK was lost, the request was resent" },
	{ "duplicate_request", ROCE_CLASS_LOSS, "requests received twice: our ACK was lost or late, the peer resent" },
	{ "retry_exceeded_err", ROCE_CLASS_LOSS, "transport retries exhausted: loss the retransmissions did not recover" },
	{ "completer_retry_err", ROCE_CLASS_LOSS, "requests retried by the completer after loss" },
	{ "roce_adp_retrans", ROCE_CLASS_LOSS, "adaptive retransmissions: packets resent after loss" },
	{ "roce_adp_retrans_to", ROCE_CLASS_LOSS, "adaptive retransmission time-outs" },
	{ "roce_slow_restart", ROCE_CLASS_LOSS, "slow restarts after repeated loss" },
};
#define NROCE (sizeof(roce_table) / sizeof(*roce_table))

/* hw_counter's row, or -1. Asked for every counter of every port each
 * interval (watch --json): the first letter rules out most rows without
 * a call (IB counters' names start in capitals, these do not). */
static int roce_row(const char *hw_counter)
{
	for (size_t i = 0; hw_counter && i < NROCE; i++)
		if (roce_table[i].name[0] == hw_counter[0] &&
		    !strcmp(roce_table[i].name, hw_counter))
			return (int)i;
	return -1;
}

enum roce_class congestion_roce_class(const char *hw_counter)
{
	int i = roce_row(hw_counter);

	return i < 0 ? ROCE_CLASS_NONE : roce_table[i].cls;
}

const char *congestion_roce_meaning(const char *hw_counter)
{
	int i = roce_row(hw_counter);

	return i < 0 ? NULL : roce_table[i].meaning;
}

const char *congestion_roce_class_name(enum roce_class c)
{
	switch (c) {
	case ROCE_CLASS_CONGESTION: return "congestion";
	case ROCE_CLASS_LOSS: return "loss";
	default: return NULL;
	}
}

bool congestion_port_wait(const struct delta_port *d, int tick, double lane_gbps,
			  double interval_s, uint64_t *ticks, double *share, bool *clamped)
{
	const struct delta_ctr *c = delta_find(d, "PortXmitWait");

	*clamped = false;
	*share = -1;
	*ticks = 0;
	if (!c || !c->have || c->state != DELTA_OK)
		return false;
	*ticks = c->delta;
	*share = congestion_wait_share(c->delta, tick, lane_gbps,
				       d->dt > 0 ? d->dt : interval_s, clamped);
	return true;
}
