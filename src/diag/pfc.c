// SPDX-License-Identifier: MIT
/* The PFC rules. */
#include "config.h"
#include "diag/pfc.h"

#include <stdio.h>
#include <string.h>

static uint64_t up(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : cur;	/* reset: count from 0 */
}

void pfc_diff(const struct pfc_sample *prev, const struct pfc_sample *cur,
	      struct pfc_delta *d)
{
	memset(d, 0, sizeof(*d));
	if (!prev->read || !cur->read || !prev->per_prio || !cur->per_prio)
		return;
	d->valid = true;
	d->have_dur = cur->have_dur && prev->have_dur;
	for (int p = 0; p < PFC_PRIOS; p++) {
		d->has[p] = cur->has[p] && prev->has[p];
		if (!d->has[p])
			continue;
		d->rx[p] = up(prev->rx[p], cur->rx[p]);
		d->tx[p] = up(prev->tx[p], cur->tx[p]);
		d->rx_dur[p] = up(prev->rx_dur[p], cur->rx_dur[p]);
		d->tx_dur[p] = up(prev->tx_dur[p], cur->tx_dur[p]);
	}
}

int pfc_judge(const struct pfc_delta *d, int roce_prio, char flag[][160], int max)
{
	int n = 0;

	if (!d->valid)
		return 0;
	for (int p = 0; p < PFC_PRIOS && n < max; p++) {
		if (!d->has[p])
			continue;
		if (d->tx[p] && n < max)
			snprintf(flag[n++], 160,
				 "this host sent %llu pause frames on priority %d: a slow receiver here (host, PCIe or memory), not the fabric",
				 (unsigned long long)d->tx[p], p);
		if (roce_prio >= 0 && p != roce_prio && (d->rx[p] || d->tx[p]) && n < max)
			snprintf(flag[n++], 160,
				 "pauses on priority %d (%llu received, %llu sent), which carries no RoCE traffic (RoCE uses %d): lossless on the wrong class",
				 p, (unsigned long long)d->rx[p], (unsigned long long)d->tx[p], roce_prio);
	}
	return n;
}
