/* SPDX-License-Identifier: MIT */
/* Congestion in units people understand: PortXmitWait as the share of
 * the interval the port waited, from the port's own PortSamplesControl
 * Tick; and the RoCE drivers' hw_counters sorted into congestion (CNP /
 * ECN) and loss (sequence errors, retransmissions, time-outs). */
#ifndef IBC_DIAG_CONGESTION_H
#define IBC_DIAG_CONGESTION_H

#include <stdbool.h>
#include <stdint.h>


/* One PortXmitWait tick in ns: (Tick + 1) byte times at lane_gbps (IBA,
 * PortSamplesControl.Tick: 0x00 = 1 symbol time, a byte on one lane, 4 ns
 * at SDR; 0xFF = 256). lane_gbps is the rate those bytes are timed at, as
 * the device's vendor documents its counting (portcong_tick_gbps in
 * src/core/counters/portcong.c, after NVIDIA's ibdiagnet User Manual,
 * "Congestion Assessment on InfiniBand Links"): a lane's data rate after
 * encoding (SDR 2, QDR 8, EDR 25 …) for Switch-X / Switch-IB, which count
 * 32 bytes per lane, the whole port's for Quantum, which counts 8 bytes
 * per port. 0 when either is unknown — for a device no source documents,
 * the share is "n/a (tick unknown for this device)". */
double congestion_tick_ns(int tick, double lane_gbps);

/* The share (0..1) of interval_s the port spent waiting with data to
 * send, from a PortXmitWait delta; *clamped when the arithmetic passed 1
 * (a tick the port misreports). -1 when the tick or lane rate is
 * unknown or interval_s is not positive. */
double congestion_wait_share(uint64_t xmit_wait_delta, int tick, double lane_gbps,
			     double interval_s, bool *clamped);

struct delta_port;
/* The last interval of port d: *ticks its PortXmitWait delta, *share
 * the wait share (-1 unknown, see above). false when d has no usable
 * PortXmitWait delta (absent, first sample, reset, saturated). */
bool congestion_port_wait(const struct delta_port *d, int tick, double lane_gbps,
			  double interval_s, uint64_t *ticks, double *share, bool *clamped);

enum roce_class {
	ROCE_CLASS_NONE,	/* not a congestion / loss counter */
	ROCE_CLASS_CONGESTION,	/* the fabric asked to slow down (CNP, ECN) */
	ROCE_CLASS_LOSS,	/* packets were lost and retransmitted */
};

/* A RoCE hw_counters name (mlx5, rxe, …) in the table, else NONE. */
enum roce_class congestion_roce_class(const char *hw_counter);
const char *congestion_roce_class_name(enum roce_class c);	/* "congestion", "loss", NULL */
/* What a rise of this counter means, one line; NULL when not in the table. */
const char *congestion_roce_meaning(const char *hw_counter);

#endif
