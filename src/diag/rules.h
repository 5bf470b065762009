/* SPDX-License-Identifier: MIT */
/* Counter rules: a verdict per port (ok / watch / act) that names the
 * counter and the rule that produced it. */
#ifndef IBC_RULES_H
#define IBC_RULES_H

#include <stdint.h>
#include "core/counters/counters.h"
#include "core/counters/delta.h"
#include "thresholds.h"

enum verdict_level { VERDICT_OK = 0, VERDICT_WATCH, VERDICT_ACT };

struct verdict {
	enum verdict_level level;
	char counter[CTR_NAME];	/* "" when ok */
	uint64_t count;		/* errors the rule counted */
	bool lower_bound;	/* count is "at least" (saturated / reset) */
	uint64_t threshold;	/* the level it crossed */
	char rule[32];		/* "errors-in-window", "errors-since-clear" */
	char text[240];		/* one line for people */
};

const char *verdict_name(enum verdict_level l);	/* "ok" "watch" "act" */

/* Live rule (the reference procedure): error-counter increments in the last
 * th->window_s seconds against each counter's watch / act levels. */
void rules_eval_delta(const struct delta_port *d, const struct thresholds *th,
		      double now, struct verdict *v);

/* One-shot rule (the sweep): each error counter's value since it was
 * last cleared against the same levels. */
void rules_eval_values(const struct counter_set *cs,
		       const struct thresholds *th, struct verdict *v);

#endif
