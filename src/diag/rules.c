// SPDX-License-Identifier: MIT
/* Counter rules: error counts against thresholds, worst counter wins;
 * every verdict carries the counter, the count, the level and the rule. */
#include "config.h"
#include "rules.h"

#include <stdio.h>
#include <string.h>

const char *verdict_name(enum verdict_level l)
{
	switch (l) {
	case VERDICT_OK: return "ok";
	case VERDICT_WATCH: return "watch";
	case VERDICT_ACT: return "act";
	}
	return "?";
}

static void consider(struct verdict *v, const struct thresholds *th,
		     const char *counter, uint64_t count, bool lb,
		     const char *rule, const char *span)
{
	uint64_t watch, act;
	const char *origin = thresholds_get(th, counter, &watch, &act);
	enum verdict_level l = VERDICT_OK;
	uint64_t level = 0;

	if (count > act) {
		l = VERDICT_ACT;
		level = act;
	} else if (watch && count >= watch) {
		l = VERDICT_WATCH;
		level = watch;
	}
	if (l < v->level || (l == v->level && (l == VERDICT_OK || count <= v->count)))
		return;
	v->level = l;
	v->count = count;
	v->lower_bound = lb;
	v->threshold = level;
	snprintf(v->counter, sizeof(v->counter), "%s", counter);
	snprintf(v->rule, sizeof(v->rule), "%s", rule);
	snprintf(v->text, sizeof(v->text), "%s %s%llu %s %s %llu (%s): %s",
		 counter, lb ? "at least " : "", (unsigned long long)count, span,
		 l == VERDICT_ACT ? ">" : ">=", (unsigned long long)level, origin,
		 l == VERDICT_ACT ? "check the optic / cable now" :
				    "keep an eye on it; compare with the baseline");
}

static void start(struct verdict *v, const char *rule)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->rule, sizeof(v->rule), "%s", rule);
	snprintf(v->text, sizeof(v->text), "no error counter over its watch level");
}

void rules_eval_delta(const struct delta_port *d, const struct thresholds *th,
		      double now, struct verdict *v)
{
	char span[48];

	start(v, "errors-in-window");
	if (th->window_s >= 60 && (int)th->window_s % 60 == 0)
		snprintf(span, sizeof(span), "in %d min", (int)th->window_s / 60);
	else
		snprintf(span, sizeof(span), "in %g s", th->window_s);
	for (int i = 0; i < d->n; i++) {
		const struct delta_ctr *c = &d->c[i];

		if (c->cls != CTR_ERROR)
			continue;
		consider(v, th, c->name, delta_window(c, now, th->window_s),
			 c->total_lb, "errors-in-window", span);
	}
}

void rules_eval_values(const struct counter_set *cs,
		       const struct thresholds *th, struct verdict *v)
{
	start(v, "errors-since-clear");
	for (int i = 0; i < cs->n; i++) {
		const struct ctr_value *c = &cs->c[i];
		bool sat;

		if (c->cls != CTR_ERROR || !c->valid)
			continue;
		sat = c->saturates && c->bits < 64 &&
		      c->value == (UINT64_C(1) << c->bits) - 1;
		consider(v, th, c->name, c->value, sat, "errors-since-clear",
			 "since last clear");
	}
}
