/* SPDX-License-Identifier: MIT */
/* PCIe limit: whether an HCA's PCIe link (as the snapshot read it) can
 * carry its port's line rate, and by how much it falls short. */
#ifndef IBC_DIAG_PCIELIMIT_H
#define IBC_DIAG_PCIELIMIT_H

#include "core/port/port.h"
#include "core/port/snapshot.h"

/* Sets p->pcie_limits and p->pcie_shortfall_gbps; no verdict (false, 0)
 * when the PCIe link or the line rate is unknown. */
void pcielimit_judge(struct port_info *p);
/* The same for every port of s; call after each collection. */
void pcielimit_judge_snapshot(struct snapshot *s);

#endif
