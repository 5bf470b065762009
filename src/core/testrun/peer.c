// SPDX-License-Identifier: MIT
/* The chosen test peer, shared between the screens that set it (fabric
 * mark, test form, --peer) and those that use it, under one lock. */
#include "config.h"
#include "core/testrun/peer.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/testrun/testjob.h"

static pthread_mutex_t peer_lock = PTHREAD_MUTEX_INITIALIZER;
static struct test_peer peer_cur;
static bool peer_isset;
static char peer_secret_path[256];

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

void peer_set_host(const char *host)
{
	struct test_peer p = { 0 };

	if (!host || !host[0]) {
		peer_set(NULL);
		return;
	}
	snprintf(p.host, sizeof(p.host), "%s", host);
	peer_set(&p);
}

void peer_host(char *out, size_t len)
{
	struct test_peer p;

	if (!len)
		return;
	out[0] = '\0';
	if (peer_get(&p))
		snprintf(out, len, "%s", p.host);
}

void peer_set_secret_file(const char *path)
{
	pthread_mutex_lock(&peer_lock);
	snprintf(peer_secret_path, sizeof(peer_secret_path), "%s", path ? path : "");
	pthread_mutex_unlock(&peer_lock);
}

void peer_secret_file(char *out, size_t len)
{
	if (!len)
		return;
	pthread_mutex_lock(&peer_lock);
	snprintf(out, len, "%s", peer_secret_path);
	pthread_mutex_unlock(&peer_lock);
}

int peer_secret(char *buf, size_t len, char *err, size_t errlen)
{
	char path[sizeof(peer_secret_path)];

	peer_secret_file(path, sizeof(path));
	if (len)
		buf[0] = '\0';
	if (!path[0])
		return 0;
	return testjob_read_secret(path, buf, len, err, errlen) ? -1 : 1;
}
