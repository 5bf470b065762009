/* SPDX-License-Identifier: MIT */
/* Acceptance judgements, pure: one card against a reference (pass at the
 * acceptance line, cause from the local evidence), the all-pairs schedule
 * (n-1 rounds of n/2 disjoint pairs), pairs bad against the absolute line
 * or the fleet, and localisation (a bad host, or a bad path). */
#ifndef IBC_DIAG_ACCEPT_H
#define IBC_DIAG_ACCEPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/accept/accept.h"

struct proto_facts;

/* Site-settable numbers (config keys in testverdict's table). */
struct acc_limits {
	double accept;		/* fraction of the data rate: absolute line (0.90) */
	double fleet_bw;	/* fraction of the best pair's bandwidth (0.93) */
	double fleet_lat;	/* multiple of the best pair's latency (2.1) */
};
void acc_limits_defaults(struct acc_limits *l);

/* ---- one card against the reference ---- */

/* struct acc_evidence: what the console read about the local port
 * (core/accept/accept.h, beside the run that gathers it). */

struct acc_card_in {
	bool have_result;		/* false: no measurement (err says why) */
	const char *err;		/* why there is no result */
	double gbps;			/* measured average */
	double data_gbps;		/* the line it is judged against, 0 unknown */
	const struct acc_evidence *ev;	/* NULL: none read */
};

struct acc_card {
	bool pass;
	double pct;			/* of the data rate, -1 unknown */
	double line_gbps;		/* data_gbps * accept */
	char cause[600];		/* "" when passed */
};

void acc_card_judge(const struct acc_card_in *in, const struct acc_limits *l,
		    struct acc_card *out);
/* The local causes alone ("" when the card looks healthy); used by the
 * card verdict and by a bad host of the all-pairs run. */
void acc_local_cause(const struct acc_evidence *ev, char *out, size_t len);
/* A tested (or untestable) card of core/agent/accept judged: its
 * figures and evidence into acc_card_judge. */
void acc_card_verdict(const struct accept_card *c, const struct acc_limits *l,
		      struct acc_card *out);

/* The console's table order: failing cards first — those with no result,
 * then the lowest share of the data rate — then the passing ones, lowest
 * share first; equal cards keep their order. order[] gets n indexes. */
void acc_order(const struct acc_card *cards, int n, int *order);

/* ---- all pairs ---- */

#define ACC_MAX_HOSTS 256

/* Round-robin (circle method): n hosts, n-1 rounds (n even) or n rounds
 * (n odd, one host idle per round); pairs[r * (n/2) + k] = {a, b}, a < b.
 * Returns the number of rounds, -1 when n < 2 or too many. Every pair
 * appears exactly once, no host twice in a round. */
int acc_schedule(int n, int (*pairs)[2], int maxpairs, int *per_round);

/* One pair's measurement. */
struct acc_pair {
	int a, b;
	bool ok;		/* measured (else err) */
	double bw_gbps, lat_us;	/* lat_us 0: not measured */
	double data_gbps;	/* the lower of both ends, 0 unknown */
	bool bad;		/* after judge (and re-test) */
	char why[200];
};

/* Marks each pair bad: no result, below the absolute line, below
 * fleet_bw of the best pair's bandwidth, or above fleet_lat times the best
 * latency. Returns how many are bad. */
int acc_pairs_judge(struct acc_pair *p, int np, const struct acc_limits *l);

/* Localisation: a host bad with more than half of its measured partners
 * (and with at least two bad partners) is a bad host; a bad pair with
 * neither end a bad host is a bad path. host_bad has n entries. Returns
 * the number of bad hosts; *npaths the number of bad paths, whose indexes
 * into p go to paths. */
int acc_localise(int n, const struct acc_pair *p, int np, bool *host_bad,
		 int *paths, int *npaths);

/* A bad host's local evidence from its agent's facts: what could slow
 * every pair it is in (PCIe below its capability, a CPU governor other
 * than performance, an MTU other than the fleet's), then the facts that
 * identify it. fleet_mtu 0: unknown. */
/* Heat-map bands of the all-pairs matrix, from a pair's bandwidth as a
 * share of the best pair's (pct) and its verdict: the unmeasured, then
 * the judged-bad, are their own bands whatever the number; a good pair below
 * the fleet line (fleet_pct, e.g. 93) is LOW, up to halfway from the
 * fleet line to 100 % MID, above TOP. */
enum acc_band {
	ACC_BAND_TOP = 0,
	ACC_BAND_MID,
	ACC_BAND_LOW,
	ACC_BAND_BAD,
	ACC_BAND_NONE,		/* no result */
	ACC_BAND_N
};
enum acc_band acc_heat_band(bool ok, bool bad, double pct, double fleet_pct);
/* The lower bound (% of the best pair) of a band; -1 for BAD and NONE. */
double acc_band_floor(enum acc_band b, double fleet_pct);

void acc_host_evidence(const struct proto_facts *f, uint32_t fleet_mtu, char *out, size_t len);

#endif
