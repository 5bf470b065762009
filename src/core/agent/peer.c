// SPDX-License-Identifier: MIT
/* The chosen test peer, shared between the fabric screen (writer) and
 * the test engine (reader) under one lock. */
#include "config.h"
#include "core/agent/peer.h"

#include <pthread.h>
#include <string.h>

static pthread_mutex_t peer_lock = PTHREAD_MUTEX_INITIALIZER;
static struct test_peer peer_cur;
static bool peer_isset;

void peer_set(const struct test_peer *p)
{
	pthread_mutex_lock(&peer_lock);
	peer_isset = p != NULL;
	if (p)
		peer_cur = *p;
	else
		memset(&peer_cur, 0, sizeof(peer_cur));
	pthread_mutex_unlock(&peer_lock);
}

bool peer_get(struct test_peer *p)
{
	bool set;

	pthread_mutex_lock(&peer_lock);
	set = peer_isset;
	if (set)
		*p = peer_cur;
	pthread_mutex_unlock(&peer_lock);
	return set;
}
