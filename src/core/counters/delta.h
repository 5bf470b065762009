/* SPDX-License-Identifier: MIT */
/* Delta engine: per-interval deltas and rates of one port's counters,
 * with saturation, resets, wraps, gaps and clock trouble told apart. */
#ifndef IBC_COUNTERS_DELTA_H
#define IBC_COUNTERS_DELTA_H

#include <stdbool.h>
#include <stdint.h>
#include "core/counters/counters.h"

/* Windows are kept as sums over 5-second buckets, as many as the
 * longest window needs: DELTA_HISTORY_S, the 10-minute window (the
 * longest error_window_s too: thresholds refuse a longer one, naming
 * this limit). A window is exact to one bucket at its old end. */
#define DELTA_HISTORY_S 600
#define DELTA_BUCKET_SECS 5
#define DELTA_BUCKET_S ((double)DELTA_BUCKET_SECS)
#define DELTA_NBUCKETS (DELTA_HISTORY_S / DELTA_BUCKET_SECS)
#define DELTA_HIST 64		/* per-interval deltas kept for sparklines */
/* A sample later than this many nominal intervals is a gap. */
#define DELTA_GAP_FACTOR 2.5

#define DELTA_WIN_INTERVAL 0.0	/* delta_window(): the last interval */
#define DELTA_WIN_MINUTE 60.0
#define DELTA_WIN_10MIN ((double)DELTA_HISTORY_S)

enum delta_state {
	DELTA_FIRST = 0,	/* first sample: no delta, no rate */
	DELTA_OK,		/* delta and rate */
	DELTA_SATURATED,	/* at its maximum: delta is a lower bound, no rate */
	DELTA_RESET,		/* went down (cleared): delta counts since the
				 * reset, a lower bound, no rate */
	DELTA_WRAPPED,		/* non-saturating counter wrapped: delta and
				 * rate modulo its width */
	DELTA_GAP,		/* late sample (missed intervals): delta spans
				 * them, rate is their average */
	DELTA_CLOCK,		/* time did not advance: delta, no rate */
	DELTA_MISSING,		/* unreadable in this sample */
};

struct delta_ctr {
	/* what every interval reads and writes first, in two cache lines:
	 * a thousand ports' slots are read each interval (watch) */
	char name[CTR_NAME];
	uint8_t cls, unit, bits;
	bool saturates;
	bool have;		/* a previous value exists */
	bool lower_bound;	/* delta is "at least" */
	bool rate_valid;
	bool total_lb;		/* a total includes a lower bound */
	/* moved: a delta above 0 went into bucket moved_bucket, the
	 * newest such: no window that starts after it needs the ring */
	bool moved;
	bool started;		/* the slot's bucket ring has a position */
	enum delta_state state;
	uint64_t value;		/* newest value */
	uint64_t delta;		/* over the last interval */
	double rate;		/* counter units per second */
	uint64_t total;		/* since the first sample */
	uint64_t total_mark;	/* since delta_mark() */
	long long bucket_id;	/* newest bucket's index */
	long long moved_bucket;
	unsigned resets, saturations;
	int hist_n, hist_pos;
	uint64_t bucket_total;	/* running sum of bucket[] (mod 2^64) */
	uint64_t bucket[DELTA_NBUCKETS];
	uint64_t hist[DELTA_HIST];	/* newest at hist_pos - 1 */
	uint8_t hist_state[DELTA_HIST];
};

struct delta_port {
	char label[64];
	double interval;	/* nominal sampling interval, s */
	double gap_interval;	/* the next sample's gap test, s (the
				 * longer of the intervals around a change) */
	double t_first, t_last, t_mark;
	double dt;		/* length of the last interval, s */
	bool have;		/* a good sample was taken */
	/* no sparkline history (hist[]) kept: watch has no use for it */
	bool no_hist;
	unsigned samples;
	int n;
	struct delta_ctr c[CTR_MAX];
};

/* The rule for one pair of readings of a counter of the given width:
 * SATURATED, RESET, WRAPPED or OK, with the delta (a lower bound when
 * *lower_bound). Used by the engine and by the fabric sweep. */
enum delta_state delta_pair(uint64_t prev, uint64_t cur, unsigned bits,
			    bool saturates, uint64_t *delta, bool *lower_bound);

/* Only the port's own fields are cleared: a counter's slot (its bucket
 * and sparkline rings) is cleared when the counter first appears, so a
 * port's memory in use is what its counters need, not CTR_MAX slots. */
void delta_init(struct delta_port *d, const char *label, double interval_s);

/* The sampling interval changed: the next sample is judged against the
 * longer of the old and the new interval, later ones against the new. */
void delta_set_interval(struct delta_port *d, double interval_s);

/* Feeds one sample taken at t (monotonic seconds). An invalid set counts
 * as a missed sample. Returns how many counters moved (delta > 0). */
int delta_update(struct delta_port *d, const struct counter_set *cs, double t);

/* Starts the "since mark" totals at t. */
void delta_mark(struct delta_port *d, double t);

/* Sum of deltas of the last window_s seconds before now (0: the last
 * interval's delta); window_s at most DELTA_HISTORY_S (a longer one
 * would be cut to it: its callers refuse it first). */
uint64_t delta_window(const struct delta_ctr *c, double now, double window_s);
/* Sum over every error-class counter of the port. */
uint64_t delta_errors_window(const struct delta_port *d, double now,
			     double window_s);

/* Data rate in Gb/s (4-octet words × 4 × 8, or bytes × 8), -1 when the
 * counter is not a data counter or has no rate. */
double delta_gbps(const struct delta_ctr *c);
/* The rate in Gb/s of data counter name between two samples, through
 * delta_pair(): -1 when either lacks it, time did not advance, or the
 * pair is not a plain or wrapped delta (*st says which: saturated, reset). */
double delta_pair_gbps(const struct counter_set *prev,
		       const struct counter_set *now, const char *name,
		       enum delta_state *st);
/* Bytes a data counter's delta stands for (words × 4). */
uint64_t delta_bytes(const struct delta_ctr *c, uint64_t delta);

const struct delta_ctr *delta_find(const struct delta_port *d,
				   const char *name);
const char *delta_state_name(enum delta_state s);	/* "ok", "saturated" … */

#endif
