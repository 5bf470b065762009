// SPDX-License-Identifier: MIT
/* One judge of a port's facts (see portfacts.h). */
#include "config.h"
#include "diag/portfacts.h"

#include "diag/pcielimit.h"

void portfacts_judge(struct snapshot *s)
{
	pcielimit_judge_snapshot(s);
}

double portfacts_pcie_usable(const struct pcie_info *pc)
{
	return pc->usable_gbps > 0 ? pc->usable_gbps : pc->cur_gbps;
}
