/* SPDX-License-Identifier: MIT */
/* Host facts for test records: device, firmware, driver, PCIe, NUMA, CPU
 * frequency and governor — what both ends of a test report. */
#ifndef IBC_FACTS_H
#define IBC_FACTS_H

#include "engine.h"
#include "proto.h"

/* Fills f about this host and the engine's device and port. */
void facts_collect(struct proto_facts *f, const struct eng *e);

#endif
