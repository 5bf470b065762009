/* SPDX-License-Identifier: MIT */
/* The triage steps' rules, one per step, by family; the walk (triage.c)
 * calls them in the table's order. Each builds its result with
 * triage_lines.h and calls no other step. */
#ifndef IBC_DIAG_TRIAGE_STEPS_H
#define IBC_DIAG_TRIAGE_STEPS_H

#include "diag/triage.h"

void tri_step_env(const struct tri_evidence *ev, struct tri_result *r);	/* triage_env.c */
void tri_step_rate(const struct tri_evidence *ev, struct tri_result *r);	/* triage_rate.c */
void tri_step_pcie(const struct tri_evidence *ev, struct tri_result *r);
void tri_step_gid(const struct tri_evidence *ev, struct tri_result *r);	/* triage_ends.c */
void tri_step_mtu(const struct tri_evidence *ev, struct tri_result *r);
void tri_step_lossless(const struct tri_evidence *ev, struct tri_result *r);	/* triage_load.c */
void tri_step_numa(const struct tri_evidence *ev, struct tri_result *r);
void tri_step_qps(const struct tri_evidence *ev, struct tri_result *r);

#endif
