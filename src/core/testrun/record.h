/* SPDX-License-Identifier: MIT */
/* Test records: one JSON document per run (schema ibconsole/test/1) with
 * the parameters, both ends' facts and the results; read back to compare. */
#ifndef IBC_TESTRUN_RECORD_H
#define IBC_TESTRUN_RECORD_H

#include <stdbool.h>
#include <stdio.h>
#include "core/agent/client.h"

#define RECORD_MAX_CMP 64

struct record_verdict {
	const char *state, *rule, *text;
	const char *source;		/* the rule's source, NULL none */
	double line_gbps;
	double healthy, abnormal, pass;	/* the rule's lines, 0 none */
	const char *unit;
};

/* One metric of one phase, before (the saved record) and now. */
struct record_cmp {
	uint64_t size;
	const char *metric;	/* "bw_avg_gbps", "lat_p99_us", … */
	double before, after, change_pct;
};

struct record_diff {
	const char *path;
	int n;
	struct record_cmp c[RECORD_MAX_CMP];
};

/* What a saved record says: its parameters and per-phase metrics. */
struct record_saved {
	struct proto_params p;
	bool have_params;
	char peer[128];
	int tcp_port;
	bool perftest;		/* params.peer_kind "perftest" */
	int nphases;
	struct {
		uint64_t size;
		double bw_avg_gbps, bw_peak_gbps, msg_rate_mpps, lat_median_us, lat_p99_us;
	} ph[TESTRUN_MAX_PHASES];
};

struct json;
/* One end's facts as a JSON object (records, the triage's report). */
void record_facts_json(struct json *j, const char *key, const struct proto_facts *f);

void record_write(FILE *f, const struct client_opts *o, const struct client_result *r,
		  const struct record_verdict *v, const struct record_diff *d,
		  const char *status_error);

/* Parses a saved record (text) into *s; 0 or -1 with why. */
int record_parse(const char *text, size_t len, struct record_saved *s, char *why, size_t whylen);
/* Fills d from a saved record and this run. */
void record_compare(const struct record_saved *s, const struct client_result *r,
		    struct record_diff *d);

#endif
