// SPDX-License-Identifier: MIT
/* Counter rules: error counts against thresholds, worst counter wins;
 * every verdict carries the counter, the count, the level, the rule and
 * the window it judged. */
#include "config.h"
#include "rules.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ctrclass.h"

const char *verdict_name(enum verdict_level l)
{
	switch (l) {
	case VERDICT_OK: return "ok";
	case VERDICT_WATCH: return "watch";
	case VERDICT_ACT: return "act";
	}
	return "?";
}

bool verdict_same(const struct verdict *a, const struct verdict *b)
{
	return a->level == b->level && a->count == b->count &&
	       a->lower_bound == b->lower_bound && a->threshold == b->threshold &&
	       a->per_window == b->per_window &&
	       !memcmp(&a->span_s, &b->span_s, sizeof(a->span_s)) &&
	       !strcmp(a->counter, b->counter) && !strcmp(a->rule, b->rule) &&
	       !strcmp(a->window, b->window) && !strcmp(a->text, b->text) &&
	       !strcmp(a->cls_counter, b->cls_counter);
}

/* The advice of the counter's class at act (for the port's sum, the
 * class of its largest contributor, named by the caller). */
static const char *hint(enum verdict_level l, const char *counter)
{
	return l == VERDICT_ACT ? ctr_fault_advice(counter) :
				  "keep an eye on it; compare with the baseline";
}

/* 2400 -> "2,400" */
static const char *grouped(uint64_t n, char *buf, size_t len)
{
	char d[32];
	size_t k = 0, nd = (size_t)snprintf(d, sizeof(d), "%llu", (unsigned long long)n);

	for (size_t i = 0; i < nd && k + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = d[i];
	}
	buf[k] = '\0';
	return buf;
}

static void window_name(char *buf, size_t len, double s)
{
	if (s >= 60 && s == (double)(long long)s && (long long)s % 60 == 0)
		snprintf(buf, len, "%lld min", (long long)s / 60);
	else if (s == (double)(long long)s || s >= 10)
		snprintf(buf, len, "%.0f s", s);
	else
		snprintf(buf, len, "%.1f s", s);
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
	snprintf(v->cls_counter, sizeof(v->cls_counter), "%s", counter);
	snprintf(v->rule, sizeof(v->rule), "%s", rule);
}

/* The reference's levels are per window (10 minutes): a count seen over
 * span_s seconds is judged by the count it implies per window. A span
 * shorter than the window says act only when its own count also reaches
 * the watch level (one stray error in a second is no emergency). span_s
 * 0: the count is the window's (levels since the last clear). */
static enum verdict_level level_for(uint64_t count, double span_s, double window_s,
				    uint64_t watch, uint64_t act, uint64_t *per, uint64_t *level)
{
	double p = (double)count;

	if (span_s > 0 && window_s > 0 && fabs(span_s - window_s) > 1e-6)
		p = (double)count * window_s / span_s;
	*per = p >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(p);
	if (*per > act && (!(span_s > 0) || span_s >= window_s - 1e-6 ||
			   count >= (watch ? watch : 1))) {
		*level = act;
		return VERDICT_ACT;
	}
	if (watch && *per >= watch && count) {
		*level = watch;
		return VERDICT_WATCH;
	}
	*level = 0;
	return VERDICT_OK;
}

/* count (over span_s, 0: the rule's own window) against watch (>= watch,
 * 0: never) / act (> act); advice from the class of advice_of. */
static void consider_span(struct verdict *v, const char *counter, const char *advice_of,
			  uint64_t count, bool lb, double span_s, double window_s,
			  uint64_t watch, uint64_t act, const char *origin, const char *rule)
{
	uint64_t level, per;
	enum verdict_level l = level_for(count, span_s, window_s, watch, act, &per, &level);
	char c[32], pw[32], w[24];

	if (!better_than(v, l, count))
		return;
	set(v, l, counter, count, lb, level, rule);
	snprintf(v->cls_counter, sizeof(v->cls_counter), "%s", advice_of);
	v->per_window = per;
	v->span_s = span_s;
	if (span_s > 0 && fabs(span_s - window_s) > 1e-6) {
		window_name(w, sizeof(w), window_s);
		snprintf(v->text, sizeof(v->text), "%s %s%s %s, %s per %s: %s (%s %llu, %s): %s",
			 counter, lb ? "at least " : "", grouped(count, c, sizeof(c)), v->window,
			 grouped(per, pw, sizeof(pw)), w, verdict_name(l),
			 l == VERDICT_ACT ? ">" : ">=", (unsigned long long)level, origin,
			 hint(l, advice_of));
		return;
	}
	snprintf(v->text, sizeof(v->text), "%s %s%llu %s %s %llu (%s): %s",
		 counter, lb ? "at least " : "", (unsigned long long)count, v->window,
		 l == VERDICT_ACT ? ">" : ">=", (unsigned long long)level, origin,
		 hint(l, advice_of));
}

static void consider_levels(struct verdict *v, const char *counter, uint64_t count,
			    bool lb, uint64_t watch, uint64_t act, const char *origin,
			    const char *rule)
{
	consider_span(v, counter, counter, count, lb, 0, 0, watch, act, origin, rule);
}

static void consider(struct verdict *v, const struct thresholds *th,
		     const char *counter, uint64_t count, bool lb, double span_s,
		     const char *rule)
{
	uint64_t watch, act;
	const char *origin = thresholds_get(th, counter, &watch, &act);

	consider_span(v, counter, counter, count, lb, span_s, th->window_s, watch, act,
		      origin, rule);
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
static enum verdict_level sum_level(const struct thresholds *th, uint64_t sum,
				    double span_s)
{
	uint64_t per, level;

	return level_for(sum, span_s, th->window_s, th->watch, th->act, &per, &level);
}

static void start(struct verdict *v, const char *rule, const char *window)
{
	/* the last one started (per thread): most ports' of an interval */
	static _Thread_local struct verdict last;

	if (last.rule[0] && !strcmp(last.rule, rule) && !strcmp(last.window, window)) {
		*v = last;
		return;
	}
	memset(v, 0, sizeof(*v));
	snprintf(v->rule, sizeof(v->rule), "%s", rule);
	snprintf(v->window, sizeof(v->window), "%s", window);
	snprintf(v->text, sizeof(v->text), "no error counter over its watch level (%s)", window);
	last = *v;
}

/* "in 42 s". Every port of a watch interval has the same span: the
 * last one's text is kept (per thread) rather than printed again. */
static void span_text(char *buf, size_t len, double s)
{
	static _Thread_local double last_s = -1;
	static _Thread_local char last[48];
	char w[24];

	if (memcmp(&s, &last_s, sizeof(s))) {
		window_name(w, sizeof(w), s);
		snprintf(last, sizeof(last), "in %s", w);
		last_s = s;
	}
	snprintf(buf, len, "%s", last);
}

void rules_eval_delta(const struct delta_port *d, const struct thresholds *th,
		      double now, struct verdict *v)
{
	char span[48];
	uint64_t sum = 0, top = 0;
	bool sum_lb = false;
	const char *top_name = "";
	/* the time the window really covers: since the first sample when
	 * that is less than the window */
	double seen = d->samples > 1 ? now - d->t_first : 0;
	double span_s = seen > 0 && seen < th->window_s ? seen : th->window_s;

	span_text(span, sizeof(span), span_s);
	start(v, "errors-in-window", span);
	for (int i = 0; i < d->n; i++) {
		const struct delta_ctr *c = &d->c[i];
		uint64_t n;

		if (c->cls != CTR_ERROR)
			continue;
		n = delta_window(c, now, th->window_s);
		sum += n;
		sum_lb |= c->total_lb;
		if (n > top)
			top = n, top_name = c->name;
		consider(v, th, c->name, n, c->total_lb, span_s, "errors-in-window");
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
	if (sum_level(th, sum, span_s) > v->level)
		consider_span(v, "all error counters", top_name, sum, sum_lb, span_s,
			      th->window_s, th->watch, th->act, th->origin,
			      "errors-in-window-port");
}

void rules_eval_interval(const struct counter_set *prev, const struct counter_set *cur,
			 const struct thresholds *th, double interval_s,
			 struct verdict *v)
{
	char span[48];
	uint64_t sum = 0, top = 0;
	bool sum_lb = false;
	const char *top_name = "";

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
		if (d > top)
			top = d, top_name = c->name;
		consider(v, th, c->name, d, lb, interval_s, "errors-in-interval");
		if (d && !strcmp(c->name, "LinkDownedCounter") && v->level < VERDICT_WATCH) {
			set(v, VERDICT_WATCH, c->name, d, lb, 1, "link-downed");
			snprintf(v->text, sizeof(v->text),
				 "LinkDownedCounter rose by %llu %s: the link went down — check both ends' logs and the cable",
				 (unsigned long long)d, span);
		}
		if (st == DELTA_SATURATED)
			consider_saturated(v, c->name, c->value, c->bits);
	}
	if (sum_level(th, sum, interval_s) > v->level)
		consider_span(v, "all error counters", top_name, sum, sum_lb, interval_s,
			      th->window_s, th->watch, th->act, th->origin,
			      "errors-in-interval-port");
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
