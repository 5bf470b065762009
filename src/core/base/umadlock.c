// SPDX-License-Identifier: MIT
/* Process-wide serialisation of umad use under umad2sim, and the fences
 * that let go of an agent only once no late answer can come (see
 * umadlock.h). */
#include "config.h"
#include "core/base/umadlock.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/clock.h"

static pthread_mutex_t umadlock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

bool umadlock_sim(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p && strstr(p, "umad2sim");
}

void umadlock_span_begin(void)
{
	if (umadlock_sim())
		pthread_mutex_lock(&umadlock);
}

void umadlock_span_end(void)
{
	if (umadlock_sim())
		pthread_mutex_unlock(&umadlock);
}

/* The parked handles and how each closes. */
struct parked {
	void *h;
	void (*close)(void *h);
};

static pthread_mutex_t parked_lock = PTHREAD_MUTEX_INITIALIZER;
static struct parked *parked;
static int nparked;

int umadlock_parked(void)
{
	int n;

	pthread_mutex_lock(&parked_lock);
	n = nparked;
	pthread_mutex_unlock(&parked_lock);
	return n;
}

/* A fence was answered: every parked handle's answers have come. */
static void close_parked(void)
{
	struct parked *p;
	int n;

	pthread_mutex_lock(&parked_lock);
	p = parked;
	n = nparked;
	parked = NULL;
	nparked = 0;
	pthread_mutex_unlock(&parked_lock);
	for (int i = 0; i < n; i++)
		p[i].close(p[i].h);
	free(p);
}

bool umadlock_fenced(bool late, int timeout_ms, int (*fence)(void *arg), void *arg)
{
	if (!umadlock_sim() || (!late && !umadlock_parked()))
		return true;
	/* not late: one try, for the parked handles' sake */
	for (int i = 0; i < (late ? 4 : 1); i++) {
		double t0 = mono_s();

		if (!fence(arg) && mono_s() - t0 < timeout_ms / 1000.0) {
			close_parked();
			return true;
		}
	}
	return !late;
}

void umadlock_let_go(void *h, void (*close)(void *h), bool fenced)
{
	struct parked *p;

	if (fenced) {
		close(h);
		return;
	}
	pthread_mutex_lock(&parked_lock);
	p = realloc(parked, ((size_t)nparked + 1) * sizeof(*p));
	if (p) {
		parked = p;
		parked[nparked].h = h;
		parked[nparked++].close = close;
	}
	/* out of memory: h stays open, unreferenced */
	pthread_mutex_unlock(&parked_lock);
}
