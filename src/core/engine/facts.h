/* SPDX-License-Identifier: MIT */
/* Host facts for test records: device, firmware, driver, PCIe, NUMA, CPU
 * frequency and governor — what both ends of a test report. */
#ifndef IBC_ENGINE_FACTS_H
#define IBC_ENGINE_FACTS_H

#include "core/engine/engine.h"

/* Fills f about this host and the engine's device and port. */
void facts_collect(struct proto_facts *f, const struct eng *e);

#endif
