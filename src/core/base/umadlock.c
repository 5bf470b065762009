// SPDX-License-Identifier: MIT
/* Process-wide serialisation of umad use under umad2sim (see umadlock.h). */
#include "config.h"
#include "core/base/umadlock.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
