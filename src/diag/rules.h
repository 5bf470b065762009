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
	char rule[32];		/* "errors-in-window", "errors-since-clear" … */
	char window[48];	/* what it judged: "in 10 min", "since last clear" */
	char text[280];		/* one line for people */
	char cls_counter[CTR_NAME];	/* whose class the advice is ("" none):
					 * the counter, or a port sum's largest */
	double span_s;		/* seconds the count covers, 0: the rule's window */
	uint64_t per_window;	/* the count it implies per th->window_s */
};

const char *verdict_name(enum verdict_level l);	/* "ok" "watch" "act" */
/* Whether a and b say the same: every field a report shows. */
bool verdict_same(const struct verdict *a, const struct verdict *b);

/* Live rule (the reference procedure): error-counter increments in the last
 * th->window_s seconds against each counter's watch / act levels and, summed,
 * the port's; any LinkDownedCounter increase is at least watch; a saturated
 * classic counter is at least watch (its deltas prove nothing). */
void rules_eval_delta(const struct delta_port *d, const struct thresholds *th,
		      double now, struct verdict *v);

/* Two samples interval_s apart (the sweep with --interval): their deltas
 * against the same levels as the live rule, each judged by the count it
 * implies per th->window_s (the reference's levels are per 10 minutes);
 * a shorter interval says act only when its own count reaches watch.
 * rules_eval_delta does the same while its history is shorter than the
 * window. */
void rules_eval_interval(const struct counter_set *prev, const struct counter_set *cur,
			 const struct thresholds *th, double interval_s,
			 struct verdict *v);

/* One-shot rule (the sweep without --interval): each error counter's value
 * since it was last cleared, over an unknown time, against the lifetime
 * levels (th->life_watch / life_act) — never the 10-minute ones. */
void rules_eval_values(const struct counter_set *cs,
		       const struct thresholds *th, struct verdict *v);

#endif
