/* SPDX-License-Identifier: MIT */
/* The test peer: the host whose agent the console's tests and triage talk
 * to — chosen with `console --peer HOST`, typed on the test screen or
 * marked on the fabric screen — kept where every screen and the engine
 * can read it (thread-safe, one per process). */
#ifndef IBC_TESTRUN_PEER_H
#define IBC_TESTRUN_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct test_peer {
	char host[128];		/* the agent's host name or address */
	char node[65];		/* node name (node-name map or description), or "" */
	uint64_t node_guid;
	uint64_t port_guid;
	int port;		/* port number on that node */
	unsigned lid;
};

/* Sets the peer (NULL clears it). */
void peer_set(const struct test_peer *p);
/* Copies the peer into *p; false when none is set. */
bool peer_get(struct test_peer *p);
/* Sets a peer known only by its agent's host (typed, or --peer). */
void peer_set_host(const char *host);
/* The peer's agent host into out ("" when no peer is set). */
void peer_host(char *out, size_t len);

#endif
