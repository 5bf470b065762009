/* SPDX-License-Identifier: MIT */
/* The test peer: the host whose agent the console's tests and triage talk
 * to — chosen with `console --peer HOST`, typed on the test screen or
 * marked on the fabric screen — and the secret its agent wants, kept
 * where every screen and the engine can read them (thread-safe, one per
 * process). */
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

/* The agents' shared secret, kept apart from the peer (marking another
 * port keeps it): the file `console --secret-file` or the test form's
 * Secret field names, which the test, the acceptance and the triage all
 * send. NULL or "" clears it. */
void peer_set_secret_file(const char *path);
/* The secret file's path into out ("" when none). */
void peer_secret_file(char *out, size_t len);
/* The secret itself, read from that file now: 0 none set (buf ""), 1
 * read, -1 with a one-line "what — what to do" in err. */
int peer_secret(char *buf, size_t len, char *err, size_t errlen);

#endif
