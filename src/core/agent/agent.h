/* SPDX-License-Identifier: MIT */
/* The peer agent (`ibconsole serve`): greets many clients at once, runs
 * one test at a time on the RDMA side (the others are answered BUSY), runs
 * its side of the test and streams its counter deltas; with a shared
 * secret it also runs a test ordered by a coordinator against another
 * agent (accept --hosts) and returns the result. */
#ifndef IBC_AGENT_AGENT_H
#define IBC_AGENT_AGENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AGENT_DEFAULT_PORT 18516	/* perftest's 18515 + 1: both can run */
#define AGENT_BACKLOG 1024		/* listen(2); the kernel caps it at somaxconn */
#define AGENT_MAX_PENDING 512		/* handshakes in progress at once */
#define AGENT_MAX_PER_ADDR 16		/* of those, from one address */
#define AGENT_LOG_WINDOW_MS 10000	/* dropped connections: a summary per window */
#define AGENT_LOG_BURST 5		/* ... after this many logged one by one */

struct agent_opts {
	const char *bind;	/* NULL: all addresses */
	int port;		/* 0: AGENT_DEFAULT_PORT */
	const char *secret;	/* NULL: no authentication, and no test orders */
	const struct hostlist *order_to;	/* test orders only towards these
						 * agents; NULL: any (the secret decides) */
	const char *device;
	int ib_port;
	int gid_index;		/* -1 automatic */
	int timeout_ms;		/* the whole greeting (accept to SETUP), then
				 * every wait of a session (default 10000) */
	uint64_t max_mem;	/* bytes a client may make us lock (default 1 GiB) */
	int sessions;		/* serve this many tests, then return; 0 forever
				 * (a connection refused before its test starts
				 * does not count) */
	volatile sig_atomic_t *stop;	/* set by a signal handler: return */
	void (*log)(void *arg, const char *line);
	void *log_arg;
};

struct hostlist;

/* Serves until *stop, or after `sessions` sessions. Returns 0, or an exit
 * status with err filled (cannot listen, or the last session failed when
 * sessions == 1). Never prints: lines go to o->log, from the calling
 * thread and from the session's worker thread (one call per line). */
int agent_serve(const struct agent_opts *o, char *err, size_t errlen);

#endif
