/* SPDX-License-Identifier: MIT */
/* The seven-step triage of the reference procedure: the environment check
 * and steps 1-7 as one table of pure rules over the gathered evidence,
 * each giving pass / info / warn / fail / n/a with reason and evidence
 * lines, and a conclusion naming the most likely cause and what to do.
 *
 * Where each part lives:
 *   the step table, state names, line helpers,
 *   data rate, counter classes                 triage_lines.c
 *   environment                                triage_env.c
 *   1 port rate, 2 PCIe (the path's capacity)  triage_rate.c
 *   3 GID, 4 MTU (what both ends must agree)   triage_ends.c
 *   5 lossless, 6 NUMA, 7 more QPs (traffic)   triage_load.c
 *   fingerprints                               fingerprint.c
 *   the walk over the steps, conclusion        triage.c
 *   JSON / Markdown / text                     triage_report.c
 * The calls go one way: the walk calls the steps and the fingerprints,
 * they call triage_lines.c, which calls none of them. */
#ifndef IBC_DIAG_TRIAGE_H
#define IBC_DIAG_TRIAGE_H

#include <stdbool.h>
#include "core/triage/evidence.h"

enum tri_step {
	TRI_ENV = 0,		/* environment checks, before any test */
	TRI_RATE,		/* 1 port rate */
	TRI_PCIE,		/* 2 PCIe enough */
	TRI_GID,		/* 3 right GID (RoCE) */
	TRI_MTU,		/* 4 MTU equal on both ends */
	TRI_LOSSLESS,		/* 5 lossless configuration (RoCE) */
	TRI_NUMA,		/* 6 NUMA placement */
	TRI_QPS,		/* 7 more QPs */
	TRI_NSTEPS
};

/* Ordered by how much they say: a worse state sorts higher. */
enum tri_state { TRI_NA = 0, TRI_PASS, TRI_INFO, TRI_WARN, TRI_FAIL };

#define TRI_LINES 12
#define TRI_LINE 200

struct tri_step_def {
	enum tri_step step;
	const char *id;		/* JSON name, snake_case */
	const char *title;	/* screen column */
	const char *cause;	/* what a failed step's conclusion names
				 * ("lossless configuration"); a warning's
				 * names the title */
	const char *question;	/* the procedure's question */
	const char *evidence;	/* what it looks at */
	const char *hint;	/* what to do when it fails */
	bool traffic;		/* needs the peer's agent for its full answer */
};

extern const struct tri_step_def tri_steps[TRI_NSTEPS];

struct tri_result {
	enum tri_state state;
	char reason[TRI_LINE];		/* one line: the finding */
	char hint[TRI_LINE];		/* what to do ("" when nothing) */
	int nlines;
	char lines[TRI_LINES][TRI_LINE];	/* raw evidence */
};

enum tri_fp { FP_NONE = 0, FP_PCIE, FP_LINK_RATE, FP_LOSSLESS };

struct tri_fingerprint {
	enum tri_fp id;
	enum tri_step step;		/* the step it points at */
	double ratio;			/* measured / reference, 0 unknown */
	char text[TRI_LINE];
};

struct tri_conclusion {
	enum tri_step step;		/* TRI_NSTEPS: nothing found */
	enum tri_state state;
	char text[TRI_LINE];		/* "PCIe (step 2): …" */
	char action[TRI_LINE];
	int nlines;
	char lines[4][TRI_LINE];	/* the evidence lines that decided */
};

struct triage {
	struct tri_result r[TRI_NSTEPS];
	struct tri_fingerprint fp;
	struct tri_conclusion c;
	bool any_fail;
};

const char *triage_state_name(enum tri_state s);	/* "pass", "n/a" … */
/* The data rate of a port after line encoding, in Gb/s (0 unknown): the
 * one place that turns the signalling "Rate" into what traffic can carry. */
double triage_data_rate_gbps(const struct port_info *p);

/* One step's rule. */
void triage_step(const struct tri_evidence *ev, enum tri_step s, struct tri_result *out);
/* True when the environment allows tests (no fail in TRI_ENV). */
bool triage_env_ok(const struct tri_evidence *ev);
/* Every step, the fingerprint and the conclusion. */
void triage_eval(const struct tri_evidence *ev, struct triage *t);

/* Counter names around a test, as the procedure classes them. */
bool triage_counter_is_retrans(const char *name);
bool triage_counter_is_pause(const char *name);
/* A receiver saw a packet missing (out of sequence, NAK sequence error):
 * the evidence of loss, where retries alone may only mean late acks. */
bool triage_counter_is_gap(const char *name);
/* Sum of the retransmission (or pause / CNP) deltas of a run, both ends;
 * moved[] lists which moved ("rcvd_seq_err +560 here"). */
uint64_t triage_traffic_sum(const struct tri_traffic *t, bool pause,
			    char *moved, int len);
/* Sum of the sequence-gap counters of a run, both ends. */
uint64_t triage_traffic_gaps(const struct tri_traffic *t);

#endif
