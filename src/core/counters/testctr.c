// SPDX-License-Identifier: MIT
/* Port counters around a test: one sample of a port's counters/ and
 * hw_counters/ files through the counters room's sysfs reader, and the
 * deltas between two samples by the delta engine's rule. */
#include "config.h"
#include "core/counters/testctr.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/sysfs.h"
#include "core/counters/counters.h"
#include "core/counters/delta.h"
#include "core/base/clock.h"

/* The counters/ files carry the PMA's names in the reader's sample; a
 * test record names every counter by its file, as it always has. */
static const char *file_name(const struct ctr_value *v)
{
	const struct ctr_def *d = ctr_lookup(v->name);

	return d && d->sysfs && !strcmp(d->name, v->name) ? d->sysfs : v->name;
}

/* Appends the counters of cs from one directory (hw_counters/ or
 * counters/, told apart by the reader's saturates flag). */
static void add_from(struct testctr *t, const struct counter_set *cs, bool from_counters)
{
	for (int i = 0; i < cs->n; i++) {
		const struct ctr_value *v = &cs->c[i];
		const char *name = file_name(v);

		if (v->saturates != from_counters || !v->valid)
			continue;
		if (t->n >= TESTCTR_MAX || strlen(name) >= TESTCTR_NAME ||
		    v->value > (uint64_t)LONG_MAX)
			continue;
		snprintf(t->c[t->n].name, TESTCTR_NAME, "%s", name);
		t->c[t->n].delta = v->value;
		t->n++;
	}
}

void testctr_sample(struct testctr *t, const char *dev, int port)
{
	struct counter_set *cs = calloc(1, sizeof(*cs));

	t->n = 0;
	t->taken_ns = mono_ns();
	if (sysfs_read_long(&t->lifespan_ms, "/sys/class/infiniband/%s/ports/%d/hw_counters/lifespan",
			    dev, port) || t->lifespan_ms < 0 || t->lifespan_ms > 10000)
		t->lifespan_ms = 0;
	if (!cs)
		return;
	/* the counters room's sysfs reader, as watch reads the port */
	counters_sysfs_sample(dev, port, NULL, cs);
	add_from(t, cs, false);		/* hw_counters/ first, then counters/ */
	add_from(t, cs, true);
	free(cs);
}

void testctr_sample_after(struct testctr *t, const struct testctr *base,
			  const char *dev, int port)
{
	/* The kernel keeps a hw_counters value until jiffies pass its
	 * timestamp + lifespan, so a value may be a jiffy older than the
	 * lifespan says (10 ms at HZ=100); and any reader of the device
	 * (the other end of a loopback test) renews that cache.  Waiting
	 * twice the lifespan and 5 ms more from now makes whatever the
	 * kernel hands back younger than everything done before this call. */
	uint64_t wait = base->lifespan_ms ? (uint64_t)(2 * base->lifespan_ms + 5) * 1000000u : 0;
	struct timespec ts = { (time_t)(wait / 1000000000u), (long)(wait % 1000000000u) };

	if (wait)
		nanosleep(&ts, NULL);
	testctr_sample(t, dev, port);
}

void testctr_delta(const struct testctr *base, const struct testctr *now, struct testctr *out)
{
	out->n = 0;
	for (uint32_t i = 0; i < now->n; i++) {
		uint64_t b = 0;
		bool lower_bound;

		for (uint32_t j = 0; j < base->n; j++)
			if (!strcmp(base->c[j].name, now->c[i].name)) {
				b = base->c[j].delta;
				break;
			}
		out->c[out->n] = now->c[i];
		/* watch's rule for a 64-bit kernel counter: one that went
		 * down was reset and counts from zero */
		delta_pair(b, now->c[i].delta, 64, false, &out->c[out->n].delta,
			   &lower_bound);
		out->n++;
	}
}
