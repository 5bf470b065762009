/* SPDX-License-Identifier: MIT */
/* PortSamplesControl: read once per port (reader_pma_get) for its Tick,
 * the length of a PortXmitWait tick (it differs between device
 * generations). */
#ifndef IBC_COUNTERS_SAMPLES_H
#define IBC_COUNTERS_SAMPLES_H

#include <stdint.h>

#define SAMPLES_DATA_SZ 192	/* the PerfMgt attribute data */

/* The Tick field of PortSamplesControl data (IBA vol. 1, PerfMgt
 * PortSamplesControl: byte 2), -1 when psc is NULL. */
int samples_tick(const uint8_t *psc);

#endif
