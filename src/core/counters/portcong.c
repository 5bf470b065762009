// SPDX-License-Identifier: MIT
/* A port's tick and pause statistics, read for watch and the console. */
#include "config.h"
#include "core/counters/portcong.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mad.h>

#include "core/base/sysfs.h"
#include "core/counters/samples.h"

/*
 * What a PortXmitWait tick is, per device. The IBTA (vol. 1, Performance
 * Management, PortSamplesControl.Tick) times a tick as (Tick + 1) symbol
 * times, a symbol time being one byte on one lane (Tick 0x00 = 4 ns at
 * SDR), and leaves the multiplier to the implementer. NVIDIA's ibdiagnet
 * User Manual ("Congestion Assessment on InfiniBand Links", v2.13) says the
 * increment differs by device generation:
 *   Switch-X, Switch-IB, Switch-IB 2: every 32 bytes per lane, Tick 31 —
 *     the IBTA's lane symbol times;
 *   Quantum, Quantum-2, Quantum-3: every 8 bytes per port regardless of
 *     the width, Tick 7 — so a tick is (Tick + 1) bytes at the port's rate,
 *     a quarter of the IBTA reading on a 4X link.
 * No source at hand documents it for host channel adapters or other
 * switches: their share of time is "n/a", not a figure that may be 4x off.
 * The DeviceIDs are NodeInfo's, as infiniband-diags' ibdiag_common.c lists
 * these families (with Bull's OEM IDs) and the PCI ID database names them
 * (15b3:c738 SwitchX-2, cb20 Switch-IB, cf08 Switch-IB 2, d2f0 Quantum,
 * d2f2 Quantum-2, d2f4 Quantum-3).
 */
enum tick_unit { TICK_UNKNOWN, TICK_LANE_BYTES, TICK_PORT_BYTES };

static enum tick_unit tick_unit(int node_type, unsigned vendid, unsigned devid)
{
	static const struct { unsigned vendid, lo, hi; enum tick_unit u; } known[] = {
		{ 0x02c9, 0xc738, 0xc73b, TICK_LANE_BYTES },	/* SwitchX, SwitchX-2 */
		{ 0x02c9, 0xcb20, 0xcb20, TICK_LANE_BYTES },	/* Switch-IB */
		{ 0x02c9, 0xcf08, 0xcf08, TICK_LANE_BYTES },	/* Switch-IB 2 */
		{ 0x02c9, 0xd2f0, 0xd2f0, TICK_PORT_BYTES },	/* Quantum */
		{ 0x02c9, 0xd2f2, 0xd2f2, TICK_PORT_BYTES },	/* Quantum-2 */
		{ 0x02c9, 0xd2f4, 0xd2f4, TICK_PORT_BYTES },	/* Quantum-3 */
		{ 0x119f, 0x1b02, 0x1b02, TICK_LANE_BYTES },	/* Bull SwitchX */
		{ 0x119f, 0x1b50, 0x1b50, TICK_LANE_BYTES },	/* Bull SwitchX */
		{ 0x119f, 0x1ba0, 0x1ba0, TICK_LANE_BYTES },	/* Bull Switch-IB / IB 2 */
		{ 0x119f, 0x1bd0, 0x1bd5, TICK_LANE_BYTES },	/* Bull Switch-IB / IB 2 */
		{ 0x119f, 0x1bf0, 0x1bf0, TICK_PORT_BYTES },	/* Bull Quantum */
	};

	if (node_type != 2)
		return TICK_UNKNOWN;
	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
		if (vendid == known[i].vendid && devid >= known[i].lo && devid <= known[i].hi)
			return known[i].u;
	return TICK_UNKNOWN;
}

double portcong_tick_gbps(int node_type, unsigned vendid, unsigned devid, int lanes,
			  double lane_gbps, char *why, size_t whylen)
{
	enum tick_unit u = tick_unit(node_type, vendid, devid);

	why[0] = '\0';
	if (u == TICK_UNKNOWN) {
		snprintf(why, whylen, "n/a (tick unknown for this device)");
		return 0;
	}
	if (!(lane_gbps > 0) || (u == TICK_PORT_BYTES && lanes <= 0)) {
		snprintf(why, whylen, "n/a (the port's link speed is not known here)");
		return 0;
	}
	return u == TICK_PORT_BYTES ? lanes * lane_gbps : lane_gbps;
}

static void portcong_why(struct portcong *pc)
{
	pc->why[0] = '\0';
	pc->lane_gbps = 0;
	if (pc->tick < 0)
		snprintf(pc->why, sizeof(pc->why), "n/a (the port does not report its tick)");
	else
		pc->lane_gbps = portcong_tick_gbps(pc->node_type, pc->vendid, pc->devid, pc->lanes,
						   pc->link_lane_gbps, pc->why, sizeof(pc->why));
}

/* Everything but the tick, which the caller asks (or not). */
static void portcong_init(struct portcong *pc, const struct ctr_target *t, double lane_gbps)
{
	memset(pc, 0, sizeof(*pc));
	pc->tick = -1;
	pc->roce_prio = -1;
	pc->link_lane_gbps = lane_gbps;
	pc->lanes = t->lanes;
	pc->node_type = t->node_type;
	pc->vendid = t->vendid;
	pc->devid = t->devid;
	if (!t->remote && t->netdev[0]) {
		pc->pfc_on = true;
		pc->roce_prio = pfc_roce_priority(t->dev, t->port, pc->prio_how, sizeof(pc->prio_how));
	}
}

void portcong_open(struct portcong *pc, const struct ctr_target *t, double lane_gbps,
		   struct ctr_reader *rd)
{
	uint8_t psc[SAMPLES_DATA_SZ];
	char why[300];

	portcong_init(pc, t, lane_gbps);
	if (!t->lid)
		return;		/* sysfs counters: no tick to ask for */
	if (!reader_pma_get(rd, t, IB_GSI_PORT_SAMPLES_CONTROL, psc, why, sizeof(why)))
		pc->tick = samples_tick(psc);
	portcong_why(pc);
}

int portcong_open_many(struct portcong *pc, const struct ctr_target *t,
		       const double *lane_gbps, int n, struct ctr_reader *rd)
{
	uint8_t *psc = calloc((size_t)n + 1, SAMPLES_DATA_SZ);
	int *ok = calloc((size_t)n + 1, sizeof(*ok));
	int rc = psc && ok ? reader_pma_get_many(rd, t, n, IB_GSI_PORT_SAMPLES_CONTROL, psc, ok) : -1;

	for (int i = 0; i < n; i++) {
		portcong_init(&pc[i], &t[i], lane_gbps[i]);
		if (!t[i].lid)
			continue;
		if (!rc && ok[i])
			pc[i].tick = samples_tick(psc + (size_t)i * SAMPLES_DATA_SZ);
		portcong_why(&pc[i]);
	}
	free(psc);
	free(ok);
	return rc;
}

void portcong_set_lane(struct portcong *pc, double lane_gbps)
{
	if (pc->link_lane_gbps > 0 || !(lane_gbps > 0))
		return;
	pc->link_lane_gbps = lane_gbps;
	if (pc->why[0])
		portcong_why(pc);
}

void portcong_tick(struct portcong *pc, const struct ctr_target *t)
{
	if (!pc->pfc_on)
		return;
	pc->prev = pc->cur;
	if (!sysfs_is_real_root()) {
		memset(&pc->cur, 0, sizeof(pc->cur));
		snprintf(pc->cur.why, sizeof(pc->cur.why), "not read under --sysfs-root");
		return;
	}
	pfc_read(t->netdev, &pc->cur);
}

const char *portcong_pfc_none(const struct portcong *pc)
{
	if (!pc->cur.read)
		return pc->cur.why[0] ? pc->cur.why : "the ethtool statistics could not be read";
	if (!pc->cur.per_prio)
		return PFC_NO_COUNTERS;
	return NULL;
}
