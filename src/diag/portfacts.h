/* SPDX-License-Identifier: MIT */
/* One judge of a port's facts: after every collection, each consumer
 * (snapshot, console, accept, triage, exporter) hands its snapshot here,
 * so the PCIe limit (usable Gb/s after encoding and TLP overhead against
 * the data rate of the function's active ports) is the same number
 * everywhere — in step 2 of the triage, its fingerprint and an
 * acceptance card's cause. */
#ifndef IBC_DIAG_PORTFACTS_H
#define IBC_DIAG_PORTFACTS_H

#include "core/port/port.h"
#include "core/port/snapshot.h"

/* Judges every port of s (the PCIe limit, pcielimit.h). */
void portfacts_judge(struct snapshot *s);

/* What the PCIe link carries for data: after TLP overhead where
 * MaxPayload was read, else after encoding; 0 unknown. */
double portfacts_pcie_usable(const struct pcie_info *pc);

#endif
