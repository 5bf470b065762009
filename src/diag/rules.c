// SPDX-License-Identifier: MIT
/* Counter rules: error counts against thresholds, worst counter wins;
 * every verdict carries the counter, the count, the level, the rule and
 * the window it judged. */
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

static const char *hint(enum verdict_level l)
{
	return l == VERDICT_ACT ? "check the optic / cable now" :
				  "keep an eye on it; compare with the baseline";
}

/* Replaces *v when this finding is worse (or as bad with a larger count). */
static bool better_than(const struct verdict *v, enum verdict_level l, uint64_t count)
{
	return l > v->level || (l == v->level && l != VERDICT_OK && count > v->count);
}

static void set(struct verdict *v, enum verdict_level l, const char *counter,
		uint64_t count, bool lb, uint64_t level, const char *rule)
{
	v->level = l;
	v->count = count;
	v->lower_bound = lb;
	v->threshold = level;
	snprintf(v->counter, sizeof(v->counter), "%s", counter);
	snprintf(v->rule, sizeof(v->rule), "%s", rule);
}

/* count against watch (>= watch, 0: never) / act (> act). */
static void consider_levels(struct verdict *v, const char *counter, uint64_t count,
			    bool lb, uint64_t watch, uint64_t act, const char *origin,
			    const char *rule)
{
	enum verdict_level l = VERDICT_OK;
	uint64_t level = 0;

	if (count > act) {
		l = VERDICT_ACT;
		level = act;
	} else if (watch && count >= watch) {
		l = VERDICT_WATCH;
		level = watch;
	}
	if (!better_than(v, l, count))
		return;
	set(v, l, counter, count, lb, level, rule);
	snprintf(v->text, sizeof(v->text), "%s %s%llu %s %s %llu (%s): %s",
		 counter, lb ? "at least " : "", (unsigned long long)count, v->window,
		 l == VERDICT_ACT ? ">" : ">=", (unsigned long long)level, origin, hint(l));
}

static void consider(struct verdict *v, const struct thresholds *th,
		     const char *counter, uint64_t count, bool lb, const char *rule)
{
	uint64_t watch, act;
	const char *origin = thresholds_get(th, counter, &watch, &act);

	consider_levels(v, counter, count, lb, watch, act, origin, rule);
}

/* A saturated classic counter: every later error goes uncounted, so a
 * delta of 0 proves nothing — at least watch. */
static void consider_saturated(struct verdict *v, const char *counter, uint64_t value,
			       unsigned bits)
{
	if (!better_than(v, VERDICT_WATCH, value))
		return;
	set(v, VERDICT_WATCH, counter, value, true, value, "counter-saturated");
	snprintf(v->text, sizeof(v->text),
		 "%s saturated at %llu (%u-bit): new errors cannot be counted — clear the counters and watch again",
		 counter, (unsigned long long)value, bits);
}

/* The port's sum against the default levels. */
static enum verdict_level sum_level(const struct thresholds *th, uint64_t sum)
{
	return sum > th->act ? VERDICT_ACT :
	       th->watch && sum >= th->watch ? VERDICT_WATCH : VERDICT_OK;
}

static void start(struct verdict *v, const char *rule, const char *window)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->rule, sizeof(v->rule), "%s", rule);
	snprintf(v->window, sizeof(v->window), "%s", window);
	snprintf(v->text, sizeof(v->text), "no error counter over its watch level (%s)", window);
}

static void span_text(char *buf, size_t len, double s)
{
	if (s >= 60 && (long long)s % 60 == 0)
		snprintf(buf, len, "in %lld min", (long long)s / 60);
	else
		snprintf(buf, len, "in %g s", s);
}

void rules_eval_delta(const struct delta_port *d, const struct thresholds *th,
		      double now, struct verdict *v)
{
	char span[48];
	uint64_t sum = 0;
	bool sum_lb = false;

	span_text(span, sizeof(span), th->window_s);
	start(v, "errors-in-window", span);
	for (int i = 0; i < d->n; i++) {
		const struct delta_ctr *c = &d->c[i];
		uint64_t n;

		if (c->cls != CTR_ERROR)
			continue;
		n = delta_window(c, now, th->window_s);
		sum += n;
		sum_lb |= c->total_lb;
		consider(v, th, c->name, n, c->total_lb, "errors-in-window");
		/* the link went down in the window: at least watch */
		if (n && !strcmp(c->name, "LinkDownedCounter") && v->level < VERDICT_WATCH) {
			set(v, VERDICT_WATCH, c->name, n, c->total_lb, 1, "link-downed");
			snprintf(v->text, sizeof(v->text),
				 "LinkDownedCounter rose by %llu %s: the link went down — check both ends' logs and the cable",
				 (unsigned long long)n, span);
		}
		if (c->state == DELTA_SATURATED && c->saturates)
			consider_saturated(v, c->name, c->value, c->bits);
	}
	/* the reference's thresholds also hold for the port as a whole */
	if (sum_level(th, sum) > v->level)
		consider_levels(v, "all error counters", sum, sum_lb, th->watch, th->act,
				th->origin, "errors-in-window-port");
}

void rules_eval_interval(const struct counter_set *prev, const struct counter_set *cur,
			 const struct thresholds *th, double interval_s,
			 struct verdict *v)
{
	char span[48];
	uint64_t sum = 0;
	bool sum_lb = false;

	span_text(span, sizeof(span), interval_s);
	start(v, "errors-in-interval", span);
	for (int i = 0; i < cur->n; i++) {
		const struct ctr_value *c = &cur->c[i];
		const struct ctr_value *p;
		uint64_t d = 0;
		bool lb = false;
		enum delta_state st;

		if (c->cls != CTR_ERROR || !c->valid ||
		    !(p = counters_find_near(prev, c->name, i)) || !p->valid)
			continue;
		st = delta_pair(p->value, c->value, c->bits, c->saturates, &d, &lb);
		sum += d;
		sum_lb |= lb;
		consider(v, th, c->name, d, lb, "errors-in-interval");
		if (d && !strcmp(c->name, "LinkDownedCounter") && v->level < VERDICT_WATCH) {
			set(v, VERDICT_WATCH, c->name, d, lb, 1, "link-downed");
			snprintf(v->text, sizeof(v->text),
				 "LinkDownedCounter rose by %llu %s: the link went down — check both ends' logs and the cable",
				 (unsigned long long)d, span);
		}
		if (st == DELTA_SATURATED)
			consider_saturated(v, c->name, c->value, c->bits);
	}
	if (sum_level(th, sum) > v->level)
		consider_levels(v, "all error counters", sum, sum_lb, th->watch, th->act,
				th->origin, "errors-in-interval-port");
}

void rules_eval_values(const struct counter_set *cs,
		       const struct thresholds *th, struct verdict *v)
{
	start(v, "errors-since-clear", "since last clear");
	for (int i = 0; i < cs->n; i++) {
		const struct ctr_value *c = &cs->c[i];
		bool sat;

		if (c->cls != CTR_ERROR || !c->valid)
			continue;
		sat = c->saturates && c->bits < 64 &&
		      c->value == (UINT64_C(1) << c->bits) - 1;
		consider_levels(v, c->name, c->value, sat, th->life_watch, th->life_act,
				"lifetime levels", "errors-since-clear");
		if (sat)
			consider_saturated(v, c->name, c->value, c->bits);
	}
}
