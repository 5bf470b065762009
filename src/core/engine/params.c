// SPDX-License-Identifier: MIT
/* The test engine's parameters: the limits a run must keep (pure). */
#include "config.h"
#include "core/engine/params.h"

#include <stdio.h>

int eng_check_params(const struct proto_params *p, char *why, size_t whylen)
{
	const char *bad = NULL;

	if (p->kind > KIND_RATE)
		bad = "unknown test kind";
	else if (p->op > OP_SEND)
		bad = "unknown operation";
	else if (p->conn > CONN_UD)
		bad = "unknown connection type";
	else if (p->flags & ~PARAM_FLAGS_ALL)
		bad = "unknown flags";
	else if (p->conn == CONN_UD && p->op != OP_SEND)
		bad = "UD supports send only";
	else if (p->qps < 1 || p->qps > PROTO_MAX_QPS)
		bad = "qps must be 1..64";
	else if (p->size < PROTO_MIN_SIZE || p->size > PROTO_MAX_SIZE)
		bad = "size must be 2 B .. 8 MiB";
	else if (p->iters < 1 || p->iters > PROTO_MAX_ITERS)
		bad = "iterations must be 1 .. 100000000";
	else if (p->duration_ms > PROTO_MAX_DURATION_MS)
		bad = "duration must be at most 3600 s";
	else if (p->tx_depth < 1 || p->tx_depth > PROTO_MAX_TX_DEPTH)
		bad = "tx depth must be 1..8192";
	else if (p->inline_size > PROTO_MAX_INLINE)
		bad = "inline size must be at most 1024";
	else if (p->cq_mod < 1 || p->cq_mod > p->tx_depth)
		bad = "CQ moderation must be 1..tx depth";
	else if (p->counter_ms < 100 || p->counter_ms > 60000)
		bad = "counter interval must be 100..60000 ms";
	if (bad) {
		snprintf(why, whylen, "%s", bad);
		return -1;
	}
	return 0;
}
