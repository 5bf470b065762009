// SPDX-License-Identifier: MIT
/* PCIe limit: whether an HCA's PCIe link (as the snapshot read it) can
 * carry its port's line rate, and by how much it falls short. */
#include "config.h"
#include "diag/pcielimit.h"

void pcielimit_judge(struct port_info *p)
{
	p->pcie_limits = false;
	p->pcie_shortfall_gbps = 0;
	if (!p->pcie.v.valid || !p->rate_gbps || !p->pcie.cur_gbps)
		return;
	if (p->pcie.cur_gbps < p->rate_gbps) {
		p->pcie_limits = true;
		p->pcie_shortfall_gbps = p->rate_gbps - p->pcie.cur_gbps;
	}
}

void pcielimit_judge_snapshot(struct snapshot *s)
{
	for (int i = 0; i < s->nports; i++)
		pcielimit_judge(&s->ports[i]);
}
