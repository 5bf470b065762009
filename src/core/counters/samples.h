/* SPDX-License-Identifier: MIT */
/* PortSamplesControl: read once per port for its Tick, the length of a
 * PortXmitWait tick (it differs between device generations). */
#ifndef IBC_COUNTERS_SAMPLES_H
#define IBC_COUNTERS_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#define SAMPLES_DATA_SZ 192	/* the PerfMgt attribute data */

/* PerfGet(PortSamplesControl) to lid / pma_port, sent from local port
 * dev/port: 0 with the attribute data in data, or -1 with a reason in
 * why (no umad access, no answer within timeout_ms). */
int samples_control_get(const char *dev, int port, unsigned lid, int pma_port,
			int timeout_ms, uint8_t data[SAMPLES_DATA_SZ],
			char *why, size_t whylen);

/* The Tick field of PortSamplesControl data (IBA vol. 1, PerfMgt
 * PortSamplesControl: byte 2), -1 when psc is NULL. */
int samples_tick(const uint8_t *psc);

#endif
