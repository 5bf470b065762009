/* SPDX-License-Identifier: MIT */
/* One round of an all-pairs acceptance: each pair's first agent is
 * ordered to test the second (bandwidth, then latency), every pair of
 * the round at once, each on its own thread. */
#ifndef IBC_ACCEPT_ALLPAIRS_H
#define IBC_ACCEPT_ALLPAIRS_H

#include "core/agent/client.h"
#include "core/accept/hostlist.h"

struct allpairs_opts {
	const struct hostlist *hosts;
	const char *secret;
	struct proto_params bw, lat;
	int timeout_ms;		/* connect and handshake */
	int run_ms;		/* how long one ordered test may take */
};

struct allpairs_pair {
	int a, b;		/* indexes into hosts: a orders, b serves */
	int status;		/* 0 both measured, else the first failure's */
	bool refused;		/* the ordered agent refused the order itself */
	char err[ENG_ERR];	/* "bandwidth: why" / "latency: why" */
	struct proto_order_result bw, lat;
};

/* Runs the n pairs at once (their hosts must be disjoint); each pair's
 * status and results are filled. 0, or -1 with err when no thread could
 * be started for a pair (that pair then carries the error too). */
int allpairs_round(const struct allpairs_opts *o, struct allpairs_pair *pairs, int n,
		   char *err, size_t errlen);

#endif
