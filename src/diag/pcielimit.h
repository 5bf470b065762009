/* SPDX-License-Identifier: MIT */
/* PCIe limit: whether an HCA's PCIe link (as the snapshot read it) can
 * carry the data rate of the active ports behind its PCI function. */
#ifndef IBC_DIAG_PCIELIMIT_H
#define IBC_DIAG_PCIELIMIT_H

#include <stdbool.h>

#include "core/port/port.h"
#include "core/port/snapshot.h"

/* PCIe must carry this share of the ports' data rate: the acceptance line. */
#define PCIE_ACCEPT_FRACTION 0.90

/* True when a link that carries usable_gbps is below the acceptance line
 * for need_gbps of data rate: the one PCIe rule the snapshot, the console
 * and the triage share. */
bool pcielimit_short(double usable_gbps, double need_gbps);

/* Judges every port's PCIe link against the data rate of all active ports
 * of the same PCI function (sets pcie_limits, shortfall, need, why; no
 * verdict when the PCIe link or the data rate is unknown). */
void pcielimit_judge_ports(struct port_info *ports, int n);
/* The same for every port of s; call after each collection. */
void pcielimit_judge_snapshot(struct snapshot *s);

#endif
