// SPDX-License-Identifier: MIT
/* A port's tick and pause statistics, read for watch and the console. */
#include "config.h"
#include "core/counters/portcong.h"

#include <stdio.h>
#include <string.h>
#include <infiniband/mad.h>

#include "core/base/sysfs.h"
#include "core/counters/samples.h"

static void portcong_why(struct portcong *pc)
{
	pc->why[0] = '\0';
	if (pc->tick < 0)
		snprintf(pc->why, sizeof(pc->why), "n/a (the port does not report its tick)");
	else if (!(pc->lane_gbps > 0))
		snprintf(pc->why, sizeof(pc->why), "n/a (the port's link speed is not known here)");
}

void portcong_open(struct portcong *pc, const struct ctr_target *t, double lane_gbps,
		   struct ctr_reader *rd)
{
	uint8_t psc[SAMPLES_DATA_SZ];
	char why[300];

	memset(pc, 0, sizeof(*pc));
	pc->tick = -1;
	pc->roce_prio = -1;
	pc->lane_gbps = lane_gbps;
	if (!t->remote && t->netdev[0]) {
		pc->pfc_on = true;
		pc->roce_prio = pfc_roce_priority(t->dev, t->port, pc->prio_how, sizeof(pc->prio_how));
	}
	if (!t->lid)
		return;		/* sysfs counters: no tick to ask for */
	if (!reader_pma_get(rd, t, IB_GSI_PORT_SAMPLES_CONTROL, psc, why, sizeof(why)))
		pc->tick = samples_tick(psc);
	portcong_why(pc);
}

void portcong_set_lane(struct portcong *pc, double lane_gbps)
{
	if (pc->lane_gbps > 0 || !(lane_gbps > 0))
		return;
	pc->lane_gbps = lane_gbps;
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
