// SPDX-License-Identifier: MIT
/* PCIe limit: whether an HCA's PCIe link (as the snapshot read it) can
 * carry the data rate of the active ports behind its PCI function. */
#include "config.h"
#include "diag/pcielimit.h"

#include <stdio.h>
#include <string.h>

#include "core/port/pcie.h"

/*
 * The ports of one PCI function share its link, so their data rates add up;
 * a port that is down needs nothing. The link is "not enough" when what it
 * carries is below the acceptance line (90 % of that data rate): even a
 * perfect port could not pass the reference procedure's acceptance test.
 * Between that line and the full data rate it is reported, not flagged —
 * TLP overhead alone keeps a matched link (QDR on Gen2 x8) a few per cent
 * short.
 */
bool pcielimit_short(double usable_gbps, double need_gbps)
{
	return usable_gbps < PCIE_ACCEPT_FRACTION * need_gbps;
}

void pcielimit_judge_ports(struct port_info *ports, int n)
{
	for (int i = 0; i < n; i++) {
		struct port_info *p = &ports[i];
		double need = 0;
		int shared = 0;

		p->pcie_limits = false;
		p->pcie_shortfall_gbps = p->pcie_need_gbps = 0;
		p->pcie_ports = 0;
		p->pcie_why[0] = '\0';
		if (!p->pcie.v.valid || !(p->data_rate_gbps > 0) || !p->pcie.usable_gbps)
			continue;
		for (int k = 0; k < n; k++) {
			const struct port_info *q = &ports[k];

			if (strcmp(q->pcie.address, p->pcie.address) || !q->pcie.v.valid)
				continue;
			if (k != i && (q->state == 1 || !(q->data_rate_gbps > 0)))
				continue;	/* down, or rate unknown */
			need += q->data_rate_gbps;
			shared++;
		}
		p->pcie_need_gbps = need;
		p->pcie_ports = shared;
		if (p->pcie.usable_gbps < need)
			p->pcie_shortfall_gbps = need - p->pcie.usable_gbps;
		p->pcie_limits = pcielimit_short(p->pcie.usable_gbps, need);
		snprintf(p->pcie_why, sizeof(p->pcie_why),
			 "Gen%d x%d carries %.1f of the %.4g Gb/s data rate%s (%g GT/s x%d, usable after encoding and TLP overhead): %s",
			 pcie_gen(p->pcie.cur_gts), p->pcie.cur_width, p->pcie.usable_gbps,
			 need, shared > 1 ? " of its active ports" : "",
			 p->pcie.cur_gts, p->pcie.cur_width,
			 p->pcie_limits ? "below 90 %, not enough" :
			 p->pcie_shortfall_gbps > 0 ? "90 % or more, enough" : "enough");
	}
}

void pcielimit_judge_snapshot(struct snapshot *s)
{
	pcielimit_judge_ports(s->ports, s->nports);
}
