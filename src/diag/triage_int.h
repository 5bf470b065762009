/* SPDX-License-Identifier: MIT */
/* Triage internals shared by the step families (triage_env.c,
 * triage_rate.c, triage_ends.c, triage_load.c) and triage.c. */
#ifndef IBC_DIAG_TRIAGE_INT_H
#define IBC_DIAG_TRIAGE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "diag/triage.h"

/* snprintf for lines that may be cut: evidence lines are bounded. */
void tri_fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
/* Appends one evidence line (dropped past TRI_LINES). */
void tri_line(struct tri_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Raises the state; the first reason at the highest state stays. */
void tri_judge(struct tri_result *r, enum tri_state s, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
bool tri_is_roce(const struct tri_evidence *ev);
/* No port under triage: judges the step n/a saying why, returns true. */
bool tri_no_port(const struct tri_evidence *ev, struct tri_result *r);
/* One of the two runs a step compares did not complete: judges it (warn
 * when it ran, n/a naming what it needs when not), returns true. */
bool tri_runs_missing(const struct tri_traffic *a, const struct tri_traffic *b,
		      const char *what, struct tri_result *r);

/* One rule per step, by family. */
void tri_step_env(const struct tri_evidence *ev, struct tri_result *r);	/* triage_env.c */
void tri_step_rate(const struct tri_evidence *ev, struct tri_result *r);	/* triage_rate.c */
void tri_step_pcie(const struct tri_evidence *ev, struct tri_result *r);
void tri_step_gid(const struct tri_evidence *ev, struct tri_result *r);	/* triage_ends.c */
void tri_step_mtu(const struct tri_evidence *ev, struct tri_result *r);
void tri_step_lossless(const struct tri_evidence *ev, struct tri_result *r);	/* triage_load.c */
void tri_step_numa(const struct tri_evidence *ev, struct tri_result *r);
void tri_step_qps(const struct tri_evidence *ev, struct tri_result *r);

#endif
