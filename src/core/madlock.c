// SPDX-License-Identifier: MIT
/* Serialises umad users under umad2sim. Its fake file table and sysfs are
 * shared process state with no lock of their own, as far as we can tell
 * [B]; with the sampler and the discovery thread both in it the console
 * once died (SIGSEGV) mid-discovery on ibsim. Real libibumad is per fd and
 * needs none, so the lock is a no-op there and the sampler never waits. */
#include "config.h"
#include "madlock.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t madlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t madlock_once = PTHREAD_ONCE_INIT;
static bool madlock_on;

static void madlock_init(void)
{
	const char *p = getenv("LD_PRELOAD");

	madlock_on = p && strstr(p, "umad2sim");
}

void madlock_acquire(void)
{
	pthread_once(&madlock_once, madlock_init);
	if (madlock_on)
		pthread_mutex_lock(&madlock);
}

void madlock_release(void)
{
	if (madlock_on)
		pthread_mutex_unlock(&madlock);
}
