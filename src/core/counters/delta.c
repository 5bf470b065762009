// SPDX-License-Identifier: MIT
/* Delta engine: turns successive counter samples into deltas, rates,
 * windows and totals, never into a negative or absurd rate. */
#include "config.h"
#include "core/counters/delta.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

_Static_assert(DELTA_NBUCKETS * DELTA_BUCKET_SECS == DELTA_HISTORY_S,
	       "the buckets cover the history exactly");

void delta_init(struct delta_port *d, const char *label, double interval_s)
{
	/* 1,000 ports' slots are a hundred megabytes, nearly all unused:
	 * slot_for() clears each as its counter appears */
	memset(d, 0, offsetof(struct delta_port, c));
	snprintf(d->label, sizeof(d->label), "%s", label ? label : "");
	d->interval = interval_s;
	d->gap_interval = interval_s;
}

void delta_set_interval(struct delta_port *d, double interval_s)
{
	/* the sample in flight was scheduled under the old interval */
	d->gap_interval = interval_s > d->interval ? interval_s : d->interval;
	d->interval = interval_s;
}

static uint64_t max_of(unsigned bits)
{
	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

static long long bucket_of(double t)
{
	double q = t / DELTA_BUCKET_S;
	long long b = (long long)q;

	return (double)b > q ? b - 1 : b;	/* floor, without libm */
}

/* Moves the bucket ring forward to id, zeroing the buckets skipped. A
 * time that went backwards keeps the newest bucket. */
static void bucket_add(struct delta_ctr *c, long long id, uint64_t v)
{
	/* Nothing in the ring (no delta above 0 in the last
	 * DELTA_NBUCKETS buckets) and nothing to add: the buckets it would
	 * zero are zero already. A quiet counter's ring is not touched. */
	if (!v && (!c->moved || c->bucket_id - c->moved_bucket >= DELTA_NBUCKETS)) {
		if (id > c->bucket_id)
			c->bucket_id = id;
		return;
	}
	if (id > c->bucket_id) {
		long long steps = id - c->bucket_id;

		if (steps >= DELTA_NBUCKETS) {
			memset(c->bucket, 0, sizeof(c->bucket));
			c->bucket_total = 0;
		} else {
			for (long long k = 1; k <= steps; k++) {
				uint64_t *b = &c->bucket[(c->bucket_id + k) % DELTA_NBUCKETS];

				c->bucket_total -= *b;
				*b = 0;
			}
		}
		c->bucket_id = id;
	}
	c->bucket[((c->bucket_id % DELTA_NBUCKETS) + DELTA_NBUCKETS) % DELTA_NBUCKETS] += v;
	c->bucket_total += v;
	if (v) {
		c->moved = true;
		c->moved_bucket = c->bucket_id;
	}
}

static void hist_push(struct delta_ctr *c, uint64_t v, enum delta_state st)
{
	c->hist[c->hist_pos] = v;
	c->hist_state[c->hist_pos] = (uint8_t)st;
	c->hist_pos = (c->hist_pos + 1) % DELTA_HIST;
	if (c->hist_n < DELTA_HIST)
		c->hist_n++;
}

enum delta_state delta_pair(uint64_t prev, uint64_t cur, unsigned bits,
			    bool saturates, uint64_t *delta, bool *lower_bound)
{
	uint64_t max = max_of(bits);

	*lower_bound = false;
	if (saturates && cur == max) {
		/* Stuck at the top: whatever happened is at least max - prev. */
		*delta = prev < max ? max - prev : 0;
		*lower_bound = true;
		return DELTA_SATURATED;
	}
	if (cur < prev) {
		if (!saturates && prev > max / 2 && cur <= max / 2) {
			*delta = (max - prev) + cur + 1;
			return DELTA_WRAPPED;
		}
		/* Cleared (or the device restarted): the new value counts
		 * what happened since, at least. */
		*delta = cur;
		*lower_bound = true;
		return DELTA_RESET;
	}
	*delta = cur - prev;
	return DELTA_OK;
}

static struct delta_ctr *slot_for(struct delta_port *d, const struct ctr_value *v,
				  int hint)
{
	struct delta_ctr *c;

	if (hint < d->n && !strcmp(d->c[hint].name, v->name))
		return &d->c[hint];
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->c[i].name, v->name))
			return &d->c[i];
	if (d->n >= CTR_MAX)
		return NULL;
	c = &d->c[d->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", v->name);
	return c;
}

static void delta_counter_update(struct delta_port *d, struct delta_ctr *c,
		const struct ctr_value *v, long long bid, double dt, bool gap)
{
	uint64_t max, prev = c->value;

	c->cls = v->cls;
	c->unit = v->unit;
	c->saturates = v->saturates;
	c->lower_bound = false;
	c->rate_valid = false;
	c->rate = 0;
	c->delta = 0;
	max = max_of(v->bits);
	/* A narrower field than before (extended counters lost): restart. */
	if (c->have && c->bits && v->bits != c->bits)
		c->have = false;
	c->bits = v->bits;

	if (!c->have) {
		if (!c->started)
			c->bucket_id = bid;
		c->started = true;
		c->have = true;
		c->value = v->value;
		c->state = DELTA_FIRST;
		if (c->saturates && v->value == max)
			c->state = DELTA_SATURATED;
		if (!d->no_hist)
			hist_push(c, 0, c->state);
		return;
	}
	c->value = v->value;
	c->state = delta_pair(prev, v->value, v->bits, c->saturates, &c->delta,
			      &c->lower_bound);
	if (c->state == DELTA_SATURATED)
		c->saturations += prev < max;
	else if (c->state == DELTA_RESET)
		c->resets++;
	else if (c->state == DELTA_OK && gap)
		c->state = DELTA_GAP;
	if (!(dt > 0)) {
		if (c->state == DELTA_OK || c->state == DELTA_GAP ||
		    c->state == DELTA_WRAPPED)
			c->state = DELTA_CLOCK;
	} else if (c->state == DELTA_OK || c->state == DELTA_GAP ||
		   c->state == DELTA_WRAPPED) {
		c->rate = (double)c->delta / dt;
		c->rate_valid = true;
	}
	c->total += c->delta;
	c->total_mark += c->delta;
	c->total_lb |= c->lower_bound;
	bucket_add(c, bid, c->delta);
	if (!d->no_hist)
		hist_push(c, c->delta, c->state);
}

int delta_update(struct delta_port *d, const struct counter_set *cs, double t)
{
	double dt = d->have ? t - d->t_last : 0;
	bool gap = d->have && d->gap_interval > 0 &&
		   dt > DELTA_GAP_FACTOR * d->gap_interval;
	bool seen[CTR_MAX] = { false };
	int moved = 0, hint = 0;
	long long bid = bucket_of(t);	/* the sample's bucket, every counter's */

	if (!cs->valid) {
		/* A missed sample: nothing is known about this interval (the
		 * last one's delta must not be shown again); the next good
		 * sample's dt spans the gap. */
		for (int i = 0; i < d->n; i++) {
			d->c[i].state = DELTA_MISSING;
			d->c[i].delta = 0;
			d->c[i].lower_bound = false;
			d->c[i].rate_valid = false;
		}
		return 0;
	}
	for (int i = 0; i < cs->n; i++) {
		struct delta_ctr *c;

		if (!cs->c[i].valid)
			continue;
		/* the slot after the last one met: samples come in the same
		 * order, invalid counters (not kept) or not */
		c = slot_for(d, &cs->c[i], hint);
		if (!c)
			break;
		hint = (int)(c - d->c) + 1;
		seen[c - d->c] = true;
		delta_counter_update(d, c, &cs->c[i], bid, dt, gap);
		moved += c->delta > 0;
	}
	for (int i = 0; i < d->n; i++)
		if (!seen[i]) {
			d->c[i].state = DELTA_MISSING;
			d->c[i].delta = 0;
			d->c[i].rate_valid = false;
		}
	if (!d->have) {
		d->t_first = t;
		d->t_mark = t;
	}
	d->gap_interval = d->interval;
	d->dt = dt;
	d->t_last = t;
	d->have = true;
	d->samples++;
	return moved;
}

void delta_mark(struct delta_port *d, double t)
{
	d->t_mark = t;
	for (int i = 0; i < d->n; i++)
		d->c[i].total_mark = 0;
}

static uint64_t bucket_range(const struct delta_ctr *c, long long from,
			     long long to)
{
	uint64_t sum = 0;
	/* one division for the first bucket, then the ring's next slot */
	int k = (int)(((from % DELTA_NBUCKETS) + DELTA_NBUCKETS) % DELTA_NBUCKETS);

	for (long long id = from; id <= to; id++) {
		sum += c->bucket[k];
		if (++k == DELTA_NBUCKETS)
			k = 0;
	}
	return sum;
}

uint64_t delta_window(const struct delta_ctr *c, double now, double window_s)
{
	long long first, oldest = c->bucket_id - DELTA_NBUCKETS + 1;

	if (window_s <= 0)
		return c->delta;
	/* buckets after the one holding now - window_s, up to the newest */
	first = bucket_of(now - window_s) + 1;
	if (first < oldest)
		first = oldest;
	/* no delta above 0 since the window began */
	if (first > c->bucket_id || !c->moved || c->moved_bucket < first)
		return 0;
	/* The shorter walk: the window itself, or the running sum of the
	 * whole ring less the buckets older than the window (the same
	 * value modulo 2^64, so the same even past a wrap). A 10-minute
	 * window costs nothing, a minute twelve additions. */
	if (c->bucket_id - first + 1 <= DELTA_NBUCKETS / 2)
		return bucket_range(c, first, c->bucket_id);
	return c->bucket_total - bucket_range(c, oldest, first - 1);
}

uint64_t delta_errors_window(const struct delta_port *d, double now,
			     double window_s)
{
	uint64_t sum = 0;

	for (int i = 0; i < d->n; i++)
		if (d->c[i].cls == CTR_ERROR)
			sum += delta_window(&d->c[i], now, window_s);
	return sum;
}

uint64_t delta_bytes(const struct delta_ctr *c, uint64_t delta)
{
	if (c->unit == CTR_WORDS4)
		return delta * 4;	/* IB data counters count 4-octet words */
	return delta;
}

double delta_pair_gbps(const struct counter_set *prev,
		       const struct counter_set *now, const char *name,
		       enum delta_state *st)
{
	const struct ctr_value *a, *b;
	double dt, words_or_bytes;
	uint64_t delta;
	bool lb;

	*st = DELTA_MISSING;
	if (!prev || !now || !prev->valid || !now->valid)
		return -1;
	a = counters_find(prev, name);
	b = counters_find(now, name);
	if (!a || !b || !a->valid || !b->valid || a->bits != b->bits)
		return -1;
	*st = delta_pair(a->value, b->value, b->bits, b->saturates, &delta, &lb);
	dt = now->t_mono - prev->t_mono;
	if (*st != DELTA_OK && *st != DELTA_WRAPPED)
		return -1;
	if (!(dt > 0)) {
		*st = DELTA_CLOCK;
		return -1;
	}
	if (b->unit == CTR_WORDS4)
		words_or_bytes = (double)delta * 4.0;
	else if (b->unit == CTR_BYTES)
		words_or_bytes = (double)delta;
	else
		return -1;
	return words_or_bytes * 8.0 / dt / 1e9;
}

double delta_gbps(const struct delta_ctr *c)
{
	if (!c->rate_valid)
		return -1;
	if (c->unit == CTR_WORDS4)
		return c->rate * 4.0 * 8.0 / 1e9;
	if (c->unit == CTR_BYTES)
		return c->rate * 8.0 / 1e9;
	return -1;
}

const struct delta_ctr *delta_find(const struct delta_port *d,
				   const char *name)
{
	/* the first letter rules out most slots before strcmp */
	for (int i = 0; i < d->n; i++)
		if (d->c[i].name[0] == name[0] && !strcmp(d->c[i].name, name))
			return &d->c[i];
	return NULL;
}

const char *delta_state_name(enum delta_state s)
{
	switch (s) {
	case DELTA_FIRST: return "first";
	case DELTA_OK: return "ok";
	case DELTA_SATURATED: return "saturated";
	case DELTA_RESET: return "reset";
	case DELTA_WRAPPED: return "wrapped";
	case DELTA_GAP: return "gap";
	case DELTA_CLOCK: return "clock";
	case DELTA_MISSING: return "missing";
	}
	return "?";
}
