/* SPDX-License-Identifier: MIT */
/* Port counters around a test: one sample of a port's counters/ and
 * hw_counters/ files, and the deltas between two samples. */
#ifndef IBC_COUNTERS_TESTCTR_H
#define IBC_COUNTERS_TESTCTR_H

#include <stdint.h>

/* At most this many counters a sample; a name fits TESTCTR_NAME bytes.
 * The agent protocol carries them as they are (its COUNTERS message). */
#define TESTCTR_MAX 48
#define TESTCTR_NAME 32

struct testctr_value {
	char name[TESTCTR_NAME];
	uint64_t delta;
};

struct testctr {
	uint64_t taken_ns;	/* CLOCK_MONOTONIC of the sample */
	long lifespan_ms;	/* driver's hw_counters cache time, 0 none */
	uint32_t n;
	struct testctr_value c[TESTCTR_MAX];	/* delta holds the value */
};

void testctr_sample(struct testctr *t, const char *dev, int port);
/* Samples again once the driver's counter cache (hw_counters/lifespan,
 * as base read it) can no longer hold a value from before this call, so
 * a short test does not read stale values.  Sleeps up to ~25 ms: for the
 * end of a run, not for a loop. */
void testctr_sample_after(struct testctr *t, const struct testctr *base,
			  const char *dev, int port);
/* out = now − base per name; a counter that went down (reset) or is
 * missing from base counts from zero. */
void testctr_delta(const struct testctr *base, const struct testctr *now, struct testctr *out);

#endif
