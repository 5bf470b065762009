/* SPDX-License-Identifier: MIT */
/* One TCP connect for every client of a peer (our agent, its TCP
 * baseline, a perftest server): name resolution, a bounded non-blocking
 * connect per address and, where the server may start a moment after us,
 * retries until the time-out; and the one listening socket of the agent
 * and its TCP baseline. */
#ifndef IBC_AGENT_DIAL_H
#define IBC_AGENT_DIAL_H

#include <stdatomic.h>
#include <stddef.h>

enum {
	DIAL_RETRY = 1,		/* retry refused / unreachable every 250 ms */
	DIAL_NODELAY = 2,	/* TCP_NODELAY: small messages go at once */
};

enum dial_status {
	DIAL_OK = 0,
	DIAL_NO_NAME = -1,	/* err says why the name did not resolve */
	DIAL_NO_ANSWER = -2,	/* *eno: the last attempt's error */
	DIAL_CANCELLED = -3,	/* *cancel was set while retrying */
};

struct dial_result {
	int fd;			/* connected, non-blocking, close-on-exec */
	int eno;		/* DIAL_NO_ANSWER: errno of the last attempt */
	int tries;		/* rounds over the addresses */
};

/* Connects to host:port within timeout_ms; cancel may be NULL. */
enum dial_status dial_tcp(const char *host, int port, int timeout_ms, int flags,
			  atomic_int *cancel, struct dial_result *r, char *err, size_t errlen);

/* Listens on bind_addr (NULL: every address) and port: the first address
 * that binds, non-blocking, close-on-exec, SO_REUSEADDR. Returns the
 * descriptor, or -1 with *gai (getaddrinfo()'s error, for gai_strerror)
 * or else *eno (the last socket / bind / listen errno). */
int dial_listen(const char *bind_addr, int port, int backlog, int *gai, int *eno);

#endif
