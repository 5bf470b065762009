/* SPDX-License-Identifier: MIT */
/* The test client: reaches the agent over TCP, agrees the parameters,
 * exchanges QPs, runs every phase (one per size) and gathers both ends. */
#ifndef IBC_AGENT_CLIENT_H
#define IBC_AGENT_CLIENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/engine/engine.h"
#include "core/agent/proto.h"
#include "core/counters/testctr.h"

#define TESTRUN_MAX_PHASES 24	/* 2 B … 8 MiB */

struct client_opts {
	const char *peer;	/* host or address of the agent */
	int tcp_port;		/* 0: AGENT_DEFAULT_PORT */
	const char *secret;	/* NULL: none */
	const char *device;
	int ib_port;
	int gid_index;		/* -1 automatic */
	struct proto_params p;	/* p.size: the size, or the largest of a sweep */
	int timeout_ms;		/* connect (with retries) and every handshake wait */
	int busy_wait_ms;	/* an agent busy with another test: try again
				 * this long (0: fail at once) */
	int stall_ms;
	bool perftest;		/* the peer is a perftest server, not the agent */
	bool report_gbits;	/* --report_gbits: a perftest peer prints our report in Gb/s */
	eng_progress_fn progress;
	void *progress_arg;
	atomic_int *cancel;	/* non-zero: stop now (the console's Esc); NULL none */
};

struct client_phase {
	struct eng_result local;
	bool peer_valid;	/* the agent's own side (bidirectional) */
	uint64_t peer_bytes, peer_msgs, peer_ns;
	double peer_peak_gbps;
	double total_avg_gbps, total_peak_gbps;	/* summed over both sides when bidir */
	double total_mpps;
};

struct client_result {
	struct proto_facts local, peer;
	struct eng_info info;
	int nphases;
	struct client_phase ph[TESTRUN_MAX_PHASES];
	struct testctr local_ctr, peer_ctr;	/* deltas over the whole run */
	uint32_t peer_ctr_t_ms;
	uint32_t peer_ctr_msgs;	/* COUNTERS messages received */
	char started[32];	/* ISO-8601 UTC */
};

/* The sizes of a run: p.size alone, or 2, 4 … p.size for a sweep. */
int client_sizes(const struct proto_params *p, uint32_t mtu_cap, uint64_t *sizes, int max);
/* Runs the whole test; 0 or an exit status with err filled. */
int client_run(const struct client_opts *o, struct client_result *r, char *err, size_t errlen);

/* A test order (accept --hosts): tells the agent at agent:tcp_port to run
 * p against the agent at target:target_port and waits for the result
 * (run_ms plus the time-out). 0, or an exit status with err filled: the
 * ordered agent's refusal (*refused set: wrong secret, target not in its
 * list, over its limits), or its test's failure, or ours. */
struct client_order_opts {
	const char *agent;
	int tcp_port;
	const char *secret;	/* required: it authenticates the order */
	const char *target;
	int target_port;
	struct proto_params p;
	int timeout_ms;
	int busy_wait_ms;	/* as in client_opts */
	int run_ms;		/* how long the test may take */
};
int client_order(const struct client_order_opts *o, struct proto_order_result *r,
		 bool *refused, char *err, size_t errlen);

#endif
