/* SPDX-License-Identifier: MIT */
/* Sampler: a worker thread that collects a snapshot every interval and
 * publishes the newest one, so the UI thread never touches rdma-core. */
#ifndef IBC_PORT_SAMPLER_H
#define IBC_PORT_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include "core/port/snapshot.h"

#define SAMPLER_MIN_INTERVAL 0.5
#define SAMPLER_MAX_INTERVAL 60.0

struct sampler;

/* What the last collection attempt produced. The snapshot handed out by
 * sampler_get() is always the newest *good* one; status/err describe the
 * newest attempt, which may have failed after an earlier success. */
struct sampler_state {
	unsigned long gen;		/* attempts published, 0 = none yet */
	unsigned long good_gen;		/* generation of the snapshot copied */
	enum snap_status status;	/* of the newest attempt */
	char err[256];			/* "" when status is SNAP_OK */
	double collect_s;		/* how long the newest attempt took */
	unsigned long module_reads;	/* attempts that read the modules */
};

/* Starts the worker; the first collection begins at once. Returns NULL
 * and fills err when the thread or its memory cannot be had. */
struct sampler *sampler_start(const struct snap_opts *o, double interval_s,
			      char *err, size_t errlen);

/* Copies the newest state into *st and, when a good snapshot newer than
 * st->good_gen on entry exists, the snapshot into *dst. Returns true when
 * anything changed since st->gen on entry. */
bool sampler_get(struct sampler *s, struct snapshot *dst,
		 struct sampler_state *st);

/* Blocks until an attempt newer than gen is published or timeout_ms
 * passes (-1: forever). Returns true when one is there. */
bool sampler_wait(struct sampler *s, unsigned long gen, int timeout_ms);

/* A descriptor that becomes readable when a new attempt is published, so
 * a poll() loop can wait for keys and data together. Drain it with
 * sampler_drain(). */
int sampler_fd(const struct sampler *s);
void sampler_drain(struct sampler *s);

/* Clamped to [SAMPLER_MIN_INTERVAL, SAMPLER_MAX_INTERVAL]; takes effect
 * at once (the worker's wait is cut short). Returns the value used. */
double sampler_set_interval(struct sampler *s, double interval_s);
double sampler_interval(struct sampler *s);

/* The modules (snap_opts.modules) are read on a slow timer, every
 * every_s seconds (<= 0: on every collection), and when asked; the
 * collections between keep each port's last reading. The first
 * collection reads them. */
void sampler_set_module_every(struct sampler *s, double every_s);
/* The next collection reads the modules, and it starts now. */
void sampler_read_modules(struct sampler *s);

/* Stops and joins the worker, frees everything. NULL is fine. */
void sampler_stop(struct sampler *s);

#endif
