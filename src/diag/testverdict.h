/* SPDX-License-Identifier: MIT */
/* Verdict of a test against the port's line rate (the reference procedure's rules): which
 * rule applied, healthy / warn / fail, and why, in one line. */
#ifndef IBC_TESTVERDICT_H
#define IBC_TESTVERDICT_H

#include <stdbool.h>

enum tv_state { TV_NONE = 0, TV_PASS, TV_WARN, TV_FAIL };

struct tv_input {
	int kind, op;		/* proto.h KIND_*, OP_* */
	bool bidir;
	unsigned long long size;
	double line_gbps;	/* 0 unknown */
	double bw_avg_gbps, bw_peak_gbps, mpps;
	bool lat_valid;
	double lat_p99_us;
};

struct tv_verdict {
	enum tv_state state;
	const char *rule;	/* id of the rule, "" none */
	char text[256];
};

void tv_eval(const struct tv_input *in, struct tv_verdict *v);
const char *tv_state_name(enum tv_state s);

#endif
