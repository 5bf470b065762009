/* SPDX-License-Identifier: MIT */
/* PCIe link of an HCA: current vs maximum speed and width, the usable
 * bandwidth they give after encoding and TLP overhead (whether that carries
 * the ports' data rate is judged in src/diag/pcielimit.c). */
#ifndef IBC_PORT_PCIE_H
#define IBC_PORT_PCIE_H

#include <stddef.h>
#include <stdint.h>
#include "core/port/port.h"

/* MaxPayloadSize taken when config space cannot be read (common default). */
#define PCIE_MPS_ASSUMED 256
/* Gb/s per direction after line encoding; 0 for unknown input. */
double pcie_usable_gbps(double gts, int width);
/* Payload share of each TLP at MaxPayload mps bytes for this speed's
 * framing (0 for unknown input). */
double pcie_tlp_efficiency(double gts, int mps);
/* MaxPayloadSize in bytes from raw config space (Device Control of the PCI
 * Express capability), 0 when not found within len bytes. */
int pcie_config_mps(const uint8_t *cfg, size_t len);
/* "16.0 GT/s PCIe", "8 GT/s", "Unknown" → GT/s, or 0 when unknown. */
double pcie_parse_speed(const char *s);
/* PCIe generation for a GT/s figure (1..6), 0 unknown. */
int pcie_gen(double gts);
/* Reads DEV's PCI function under the sysfs root into *pc. */
void pcie_read(struct pcie_info *pc, const char *dev);

#endif
