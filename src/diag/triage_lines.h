/* SPDX-License-Identifier: MIT */
/* What every triage step builds its result with (triage_lines.c): the
 * line and judgement helpers. The steps (triage_env.c, triage_rate.c,
 * triage_ends.c, triage_load.c), the fingerprints and the walk include
 * this; it includes nothing of theirs. The shared table, state names,
 * data rate and counter classes it also defines are declared in triage.h,
 * where the console and the commands find them. */
#ifndef IBC_DIAG_TRIAGE_LINES_H
#define IBC_DIAG_TRIAGE_LINES_H

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

#endif
