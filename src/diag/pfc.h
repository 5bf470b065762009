/* SPDX-License-Identifier: MIT */
/* Per-priority PFC judged: pauses rising on a priority that carries no
 * RoCE traffic (a misconfigured lossless class), and pause frames this
 * host sends itself (a slow receiver here, not the fabric). */
#ifndef IBC_DIAG_PFC_H
#define IBC_DIAG_PFC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/counters/pfc.h"


struct pfc_delta {
	bool valid;		/* both samples had per-priority counters */
	bool have_dur;
	bool has[PFC_PRIOS];
	uint64_t rx[PFC_PRIOS], tx[PFC_PRIOS];
	uint64_t rx_dur[PFC_PRIOS], tx_dur[PFC_PRIOS];
};

/* cur - prev per priority (a counter that went down counts from 0). */
void pfc_diff(const struct pfc_sample *prev, const struct pfc_sample *cur,
	      struct pfc_delta *d);

#define PFC_MAX_FLAGS 16

/* The flags of one interval, one line each into flag[] (up to max);
 * roce_prio -1 when not known (then only the sending flag can fire).
 * Returns how many. */
int pfc_judge(const struct pfc_delta *d, int roce_prio, char flag[][160], int max);

#endif
