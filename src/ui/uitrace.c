// SPDX-License-Identifier: MIT
/* IBCONSOLE_UI_TRACE: one line per busy turn of the console's loop.
 * Line: "T MONO_S WALL_MS CPU_MS keys=W/C models=W/C update=W/C
 * draw=W/C runq=MS wake=MS screen=NAME k=K,K" (W wall, C thread CPU, in
 * milliseconds; runq: how long the thread waited for a CPU in the turn,
 * wake: from poll() saying ready to the turn's start, both from
 * /proc/thread-self/schedstat, -1 unknown). Wall above CPU and runq is
 * time it was blocked: a lock, or a write to the terminal. */
#include "config.h"
#include "uitrace.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define UITRACE_KEYS_MAX 16
#define UITRACE_MIN_MS 1.0

static const char *const phase_names[UITRACE_N] = { "keys", "models", "update", "draw" };

static struct {
	FILE *out;
	bool open;		/* begun, not ended */
	double w0, c0, wl, cl;	/* begin and last mark: wall, CPU */
	double w[UITRACE_N], c[UITRACE_N];
	double rq0;		/* run delay at begin, ms; < 0 unknown */
	double rq_end;		/* and at the end of the turn before */
	double wake;		/* the difference: waiting to run after poll */
	int keys[UITRACE_KEYS_MAX], nkeys;
} ut;

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The thread's total wait for a CPU so far (ms), -1 unknown. */
static double run_delay_ms(void)
{
	unsigned long long run, delay;
	FILE *f = fopen("/proc/thread-self/schedstat", "re");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu", &run, &delay);
	fclose(f);
	return n == 2 ? (double)delay / 1e6 : -1;
}

void uitrace_open(void)
{
	const char *path = getenv("IBCONSOLE_UI_TRACE");

	if (!path || !path[0] || ut.out)
		return;
	ut.out = fopen(path, "we");
	ut.rq_end = -1;
}

void uitrace_close(void)
{
	if (ut.out)
		fclose(ut.out);
	memset(&ut, 0, sizeof(ut));
}

void uitrace_begin(void)
{
	if (!ut.out)
		return;
	ut.open = true;
	ut.w0 = ut.wl = clock_s(CLOCK_MONOTONIC);
	ut.c0 = ut.cl = clock_s(CLOCK_THREAD_CPUTIME_ID);
	ut.rq0 = run_delay_ms();
	ut.wake = ut.rq0 >= 0 && ut.rq_end >= 0 ? ut.rq0 - ut.rq_end : -1;
	memset(ut.w, 0, sizeof(ut.w));
	memset(ut.c, 0, sizeof(ut.c));
	ut.nkeys = 0;
}

void uitrace_mark(enum uitrace_phase p)
{
	double w, c;

	if (!ut.out)
		return;
	if (!ut.open)	/* the first turn starts without a poll */
		uitrace_begin();
	w = clock_s(CLOCK_MONOTONIC);
	c = clock_s(CLOCK_THREAD_CPUTIME_ID);
	ut.w[p] += w - ut.wl;
	ut.c[p] += c - ut.cl;
	ut.wl = w;
	ut.cl = c;
}

void uitrace_key(int key)
{
	if (ut.out && ut.open && ut.nkeys < UITRACE_KEYS_MAX)
		ut.keys[ut.nkeys++] = key;
}

void uitrace_end(const char *screen)
{
	double wall, rq;

	if (!ut.out || !ut.open)
		return;
	ut.open = false;
	ut.rq_end = rq = run_delay_ms();
	wall = (ut.wl - ut.w0) * 1e3;
	if (!ut.nkeys && wall < UITRACE_MIN_MS)
		return;
	fprintf(ut.out, "T %.6f %.3f %.3f", ut.w0, wall, (ut.cl - ut.c0) * 1e3);
	for (int p = 0; p < UITRACE_N; p++)
		fprintf(ut.out, " %s=%.3f/%.3f", phase_names[p], ut.w[p] * 1e3, ut.c[p] * 1e3);
	fprintf(ut.out, " runq=%.3f wake=%.3f screen=%s k=", rq >= 0 && ut.rq0 >= 0 ? rq - ut.rq0 : -1,
		ut.wake, screen);
	for (int i = 0; i < ut.nkeys; i++)
		fprintf(ut.out, "%s%d", i ? "," : "", ut.keys[i]);
	fputc('\n', ut.out);
	fflush(ut.out);
}
