/* SPDX-License-Identifier: MIT */
/* Inside the agent: the one test session on the RDMA side (session.c),
 * started and joined by the handshake loop (agent.c). */
#ifndef IBC_AGENT_SESSION_H
#define IBC_AGENT_SESSION_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "core/agent/agent.h"
#include "core/agent/proto.h"
#include "core/counters/testctr.h"
#include "core/engine/engine.h"

/* The one test on the RDMA side, run by the worker thread. The main
 * thread reads only what is set before the thread starts (peer, started,
 * setup) and closes fd after joining it. */
struct sess {
	const struct agent_opts *o;
	int fd;
	struct eng *e;
	bool phase_end;
	uint64_t next_ctr, t0;
	uint32_t ctr_ms;
	struct testctr base;
	char peer[PROTO_PEER];
	struct proto_msg setup;
	long long started;	/* ms, monotonic */
	int status;
	char why[ENG_ERR];
	atomic_bool done;
	atomic_int cancel;	/* an order: stop its test (over time, or stopping) */
	atomic_bool finishing;	/* said its last word (BYE came, result or ERROR sent) */
	int wake;		/* write end of the main loop's pipe */
};

/* The session thread: a client's test (SETUP) or an order (ORDER); sets
 * status and why, then done, and wakes the main loop. */
void *session_main(void *arg);
/* How long an order may run before it is stopped, in ms (agent.c). */
unsigned agent_order_cap_ms(void);
/* One line to the agent's log, when it has one. */
void agent_logf(const struct agent_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
