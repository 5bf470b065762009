/* SPDX-License-Identifier: MIT */
/* The test peer: the HCA port chosen on the fabric screen, kept where the
 * test engine can read it (thread-safe, one per process). */
#ifndef IBC_AGENT_PEER_H
#define IBC_AGENT_PEER_H

#include <stdbool.h>
#include <stdint.h>

struct test_peer {
	char node[65];		/* node name (node-name map or description) */
	uint64_t node_guid;
	uint64_t port_guid;
	int port;		/* port number on that node */
	unsigned lid;
};

/* Sets the peer (NULL clears it). */
void peer_set(const struct test_peer *p);
/* Copies the peer into *p; false when none is set. */
bool peer_get(struct test_peer *p);

#endif
