/* SPDX-License-Identifier: MIT */
/* PCIe link of an HCA: current vs maximum speed and width, the usable
 * bandwidth they give (whether that carries the line rate is judged in
 * src/diag/pcielimit.c). */
#ifndef IBC_PORT_PCIE_H
#define IBC_PORT_PCIE_H

#include "core/port/port.h"

/* Usable Gb/s per direction after line encoding; 0 for unknown input. */
double pcie_usable_gbps(double gts, int width);
/* "16.0 GT/s PCIe", "8 GT/s", "Unknown" → GT/s, or 0 when unknown. */
double pcie_parse_speed(const char *s);
/* PCIe generation for a GT/s figure (1..6), 0 unknown. */
int pcie_gen(double gts);
/* Reads DEV's PCI function under the sysfs root into *pc. */
void pcie_read(struct pcie_info *pc, const char *dev);

#endif
