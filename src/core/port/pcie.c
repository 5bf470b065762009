// SPDX-License-Identifier: MIT
/* PCIe link of an HCA: current vs maximum speed and width, the usable
 * bandwidth they give after encoding and TLP overhead (whether that carries
 * the ports' data rate is judged in src/diag/pcielimit.c). */
#include "config.h"
#include "core/port/pcie.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/sysfs.h"

/*
 * Per-lane data rate after line encoding (PCIe Base Specification):
 * 8b/10b for Gen1-2, 128b/130b for Gen3-5, and for Gen6 the FLIT: of each
 * 256-byte flit 236 bytes carry TLPs (the rest is DLLP, CRC and FEC).
 * tlp_overhead is what each TLP adds to its payload on the wire: framing,
 * sequence number, a 4-DW header (64-bit addresses) and LCRC — 1 + 2 + 16
 * + 4 + 1 for Gen1-2, a 4-byte STP token + 16 + 4 for Gen3-5, the 16-byte
 * header alone in FLIT mode (sequence and CRC live in the flit).
 */
static const struct {
	double gts, lane_gbps;
	int tlp_overhead;
} gens[] = {
	{ 2.5, 2.5 * 8 / 10, 24 }, { 5.0, 5.0 * 8 / 10, 24 },
	{ 8.0, 8.0 * 128 / 130, 24 }, { 16.0, 16.0 * 128 / 130, 24 },
	{ 32.0, 32.0 * 128 / 130, 24 }, { 64.0, 64.0 * 236 / 256, 16 },
};
#define NGENS (int)(sizeof(gens) / sizeof(*gens))

int pcie_gen(double gts)
{
	for (int i = 0; i < NGENS; i++)
		if (gts > gens[i].gts * 0.99 && gts < gens[i].gts * 1.01)
			return i + 1;
	return 0;
}

double pcie_usable_gbps(double gts, int width)
{
	int g = pcie_gen(gts);

	return g && width > 0 ? gens[g - 1].lane_gbps * width : 0;
}

double pcie_tlp_efficiency(double gts, int mps)
{
	int g = pcie_gen(gts);

	if (!g || mps <= 0)
		return 0;
	return (double)mps / (mps + gens[g - 1].tlp_overhead);
}

double pcie_parse_speed(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return end != s && v > 0 ? v : 0;
}

int pcie_config_mps(const uint8_t *cfg, size_t len)
{
	unsigned ptr, guard = 0;

	if (len < 0x40 || !(cfg[0x06] & 0x10))	/* Status: capabilities list */
		return 0;
	for (ptr = cfg[0x34] & 0xfc; ptr && guard < 48; guard++) {
		if (ptr + 12 > len)
			return 0;	/* beyond what we could read */
		if (cfg[ptr] == 0x10) {	/* PCI Express capability */
			unsigned devctl = cfg[ptr + 8] | cfg[ptr + 9] << 8;
			unsigned code = (devctl >> 5) & 7;

			return code <= 5 ? 128 << code : 0;
		}
		ptr = cfg[ptr + 1] & 0xfc;
	}
	return 0;
}

/* Device Control's MaxPayloadSize from the function's config space; the
 * kernel shows an unprivileged reader only the first 64 bytes. */
static void read_mps(struct pcie_info *pc, const char *dev)
{
	uint8_t cfg[256];
	int n = sysfs_read_bin(cfg, sizeof(cfg), "/sys/class/infiniband/%s/device/config", dev);

	pc->mps = n > 0 ? pcie_config_mps(cfg, (size_t)n) : 0;
	if (pc->mps) {
		snprintf(pc->mps_source, sizeof(pc->mps_source), "config space");
		return;
	}
	pc->mps = PCIE_MPS_ASSUMED;
	snprintf(pc->mps_source, sizeof(pc->mps_source), "assumed: %s",
		 n < 0 ? "config space unreadable" :
		 n > 0 && n <= 64 ? "config space beyond 64 bytes needs root" :
		 "no PCI Express capability found");
}

void pcie_read(struct pcie_info *pc, const char *dev)
{
	char buf[64];
	long w;
	int rc;

	memset(pc, 0, sizeof(*pc));
	rc = sysfs_link_name(pc->address, sizeof(pc->address),
			     "/sys/class/infiniband/%s/device", dev);
	if (rc) {
		snprintf(pc->v.why, sizeof(pc->v.why),
			 "no PCI function behind %s (%s)", dev,
			 rc == -2 ? "software device" : strerror(-rc));
		return;
	}
	if (!sysfs_read(buf, sizeof(buf), "/sys/class/infiniband/%s/device/current_link_speed", dev))
		pc->cur_gts = pcie_parse_speed(buf);
	if (!sysfs_read(buf, sizeof(buf), "/sys/class/infiniband/%s/device/max_link_speed", dev))
		pc->max_gts = pcie_parse_speed(buf);
	if (!sysfs_read_long(&w, "/sys/class/infiniband/%s/device/current_link_width", dev))
		pc->cur_width = (int)w;
	if (!sysfs_read_long(&w, "/sys/class/infiniband/%s/device/max_link_width", dev))
		pc->max_width = (int)w;
	if (!pc->cur_gts || !pc->cur_width) {
		snprintf(pc->v.why, sizeof(pc->v.why),
			 "%s reports no usable PCIe link status (speed %s)",
			 pc->address, pc->cur_gts ? "known" : "Unknown");
		return;
	}
	pc->v.valid = true;
	read_mps(pc, dev);
	pc->cur_gbps = pcie_usable_gbps(pc->cur_gts, pc->cur_width);
	pc->max_gbps = pcie_usable_gbps(pc->max_gts, pc->max_width);
	pc->tlp_eff = pcie_tlp_efficiency(pc->cur_gts, pc->mps);
	pc->usable_gbps = pc->cur_gbps * pc->tlp_eff;
	pc->max_usable_gbps = pc->max_gbps * pcie_tlp_efficiency(pc->max_gts, pc->mps);
	pc->degraded = (pc->max_gts && pc->cur_gts < pc->max_gts * 0.99) ||
		       (pc->max_width && pc->cur_width < pc->max_width);
}
