// SPDX-License-Identifier: MIT
/* PCIe link of an HCA: current vs maximum speed and width, the usable
 * bandwidth they give (whether that carries the line rate is judged in
 * src/diag/pcielimit.c). */
#include "config.h"
#include "core/port/pcie.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/sysfs.h"

/* Per-lane usable rate after encoding (8b/10b for Gen1-2, 128b/130b for
 * Gen3-5, FLIT for Gen6); TLP overhead is not subtracted. */
static const struct { double gts; double lane_gbps; } gens[] = {
	{ 2.5, 2.0 }, { 5.0, 4.0 }, { 8.0, 8.0 * 128 / 130 },
	{ 16.0, 16.0 * 128 / 130 }, { 32.0, 32.0 * 128 / 130 }, { 64.0, 64.0 },
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

double pcie_parse_speed(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return end != s && v > 0 ? v : 0;
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
	pc->cur_gbps = pcie_usable_gbps(pc->cur_gts, pc->cur_width);
	pc->max_gbps = pcie_usable_gbps(pc->max_gts, pc->max_width);
	pc->degraded = (pc->max_gts && pc->cur_gts < pc->max_gts * 0.99) ||
		       (pc->max_width && pc->cur_width < pc->max_width);
}
