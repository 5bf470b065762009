/* SPDX-License-Identifier: MIT */
/* The peer agent (`ibconsole serve`): accepts one test client at a time
 * over TCP, runs its side of the test and streams its counter deltas. */
#ifndef IBC_AGENT_AGENT_H
#define IBC_AGENT_AGENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AGENT_DEFAULT_PORT 18516	/* perftest's 18515 + 1: both can run */

struct agent_opts {
	const char *bind;	/* NULL: all addresses */
	int port;		/* 0: AGENT_DEFAULT_PORT */
	const char *secret;	/* NULL: no authentication */
	const char *device;
	int ib_port;
	int gid_index;		/* -1 automatic */
	int timeout_ms;		/* every handshake wait (default 10000) */
	uint64_t max_mem;	/* bytes a client may make us lock (default 1 GiB) */
	int sessions;		/* serve this many sessions, then return; 0 forever */
	volatile sig_atomic_t *stop;	/* set by a signal handler: return */
	void (*log)(void *arg, const char *line);
	void *log_arg;
};

/* Serves until *stop, or after `sessions` sessions. Returns 0, or an exit
 * status with err filled (cannot listen, or the last session failed when
 * sessions == 1). Never prints: lines go to o->log. */
int agent_serve(const struct agent_opts *o, char *err, size_t errlen);

#endif
