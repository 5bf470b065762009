// SPDX-License-Identifier: MIT
/* Port counters around a test: one sample of a port's counters/ and
 * hw_counters/ files, and the deltas between two samples. */
#include "config.h"
#include "core/agent/testctr.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/base/sysfs.h"

struct walk {
	struct testctr *t;
	const char *dir;
};

static void one(const char *name, void *arg)
{
	struct walk *w = arg;
	long v;

	if (w->t->n >= PROTO_MAX_COUNTERS || strlen(name) >= PROTO_NAME || !strcmp(name, "lifespan"))
		return;
	if (sysfs_read_long(&v, "%s/%s", w->dir, name) || v < 0)
		return;
	snprintf(w->t->c[w->t->n].name, PROTO_NAME, "%s", name);
	w->t->c[w->t->n].delta = (uint64_t)v;
	w->t->n++;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void testctr_sample(struct testctr *t, const char *dev, int port)
{
	char dir[256];
	struct walk w = { .t = t, .dir = dir };

	t->n = 0;
	t->taken_ns = mono_ns();
	if (sysfs_read_long(&t->lifespan_ms, "/sys/class/infiniband/%s/ports/%d/hw_counters/lifespan",
			    dev, port) || t->lifespan_ms < 0 || t->lifespan_ms > 10000)
		t->lifespan_ms = 0;
	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%d/hw_counters", dev, port);
	sysfs_list(dir, one, &w);
	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%d/counters", dev, port);
	sysfs_list(dir, one, &w);
}

void testctr_sample_after(struct testctr *t, const struct testctr *base,
			  const char *dev, int port)
{
	uint64_t fresh = base->taken_ns + (uint64_t)base->lifespan_ms * 1000000u + 1000000u;
	uint64_t now = mono_ns();

	if (base->lifespan_ms && now < fresh) {
		struct timespec ts = { 0, (long)(fresh - now) };

		while (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		nanosleep(&ts, NULL);
	}
	testctr_sample(t, dev, port);
}

void testctr_delta(const struct testctr *base, const struct testctr *now, struct testctr *out)
{
	out->n = 0;
	for (uint32_t i = 0; i < now->n; i++) {
		uint64_t b = 0;

		for (uint32_t j = 0; j < base->n; j++)
			if (!strcmp(base->c[j].name, now->c[i].name)) {
				b = base->c[j].delta;
				break;
			}
		out->c[out->n] = now->c[i];
		out->c[out->n].delta = now->c[i].delta >= b ? now->c[i].delta - b : now->c[i].delta;
		out->n++;
	}
}
