/* SPDX-License-Identifier: MIT */
/* Verdict of a test, rule by rule from the reference procedure's tables:
 * each rule names its source, the operations and sizes it was written for,
 * and judges against the port's data rate after encoding. */
#ifndef IBC_TESTVERDICT_H
#define IBC_TESTVERDICT_H

#include <stdbool.h>
#include <stddef.h>

enum tv_state { TV_NONE = 0, TV_PASS, TV_WARN, TV_FAIL };

/* The numbers behind the rules; defaults from the reference procedure, a
 * site may override each one in the config file (tv_settings). */
struct tv_limits {
	double bw_large_healthy, bw_large_abnormal;	/* fraction of the data rate */
	double bidir_healthy, bidir_abnormal;		/* fraction of twice it */
	double stability;				/* (peak - avg) / peak */
	double bw4k_healthy_gbps, bw4k_abnormal_gbps;	/* at bw4k_ref_gbps */
	double bw4k_ref_gbps;
	double lat2b_healthy_us, lat2b_abnormal_us;	/* median */
	double latp99_healthy_us, latp99_abnormal_us;	/* p99 */
	double rate_healthy_mpps, rate_abnormal_mpps;
	double rate_ref_gbps, rate_ref_size;		/* where the reference holds */
	double accept;					/* fraction of the data rate */
	double accept_fleet_bw;				/* accept --hosts: of the best pair */
	double accept_fleet_lat;			/* accept --hosts: times the best */
	double fabric_rediscover_s;			/* export --fabric: model's age */
	double large_min;				/* bytes: large-message rules */
	double bw64k_healthy, bw64k_abnormal;		/* fraction of the data rate */
	double bw64k_size;				/* bytes: the 64 KiB rule's size */
	double accept_min;				/* bytes: smallest size --accept judges */
	double hdr_healthy_gbps, hdr_cc_gbps, hdr_link_gbps;	/* HDR table, absolute */
	double hdr_ref_gbps;				/* the data rate they hold for */
	double small_lat_max;				/* bytes: latency rules */
};

/* The rule table: every rule the verdicts apply, what it judges, which
 * table of the reference procedure its numbers come from and the config
 * keys that hold them. The man page's TEST VERDICT section describes the
 * same rows (a unit test holds the two together). */
struct tv_rule {
	const char *id;		/* "bw-large", … as in verdicts */
	const char *source;	/* the reference table it comes from */
	const char *applies;	/* operations and sizes */
	const char *keys[5];	/* its numbers' config keys, NULL-ended */
};
extern const struct tv_rule tv_rules[];
extern const int tv_nrules;
const struct tv_rule *tv_rule_find(const char *id);

/* One configurable number: key = value in the config file. */
struct tv_setting {
	const char *key;
	size_t offset;		/* into struct tv_limits */
	double min, max;
	const char *help;
};
extern const struct tv_setting tv_settings[];
extern const int tv_nsettings;

void tv_limits_defaults(struct tv_limits *l);
/* Sets the number named key from text; 0, 1 when key is not one of
 * tv_settings, -1 when the value is not a number in range. */
int tv_limits_set(struct tv_limits *l, const char *key, const char *value);

struct tv_input {
	int kind, op;		/* proto.h KIND_*, OP_* */
	bool bidir;
	unsigned long long size;
	double data_gbps;	/* the port's data rate (or --line-rate), 0 unknown */
	double bw_avg_gbps, bw_peak_gbps, mpps;
	bool lat_valid;
	double lat_median_us, lat_p99_us;
	bool accept;		/* judge by the acceptance line alone */
};

/* One rule as it applied (or not) to the test. */
struct tv_rule_result {
	const char *rule;	/* "bw-large", "lat-2b", … */
	const char *source;	/* where its numbers come from */
	enum tv_state state;	/* TV_NONE: reported, not judged */
	char text[360];
	/* the rule's lines in the measured unit (Gb/s, us, Mpps), 0 none */
	double healthy, abnormal, pass;
	const char *unit;
};

#define TV_MAX_RESULTS 6
struct tv_verdict {
	enum tv_state state;	/* the worst rule */
	const char *rule;	/* id of the deciding rule, "" none */
	const char *source;	/* its source, "" none */
	char text[360];		/* the deciding rule's line */
	double healthy, abnormal, pass;	/* its lines, 0 none */
	const char *unit;
	int n;
	struct tv_rule_result r[TV_MAX_RESULTS];
};

/* l NULL: the defaults. */
void tv_eval(const struct tv_input *in, const struct tv_limits *l,
	     struct tv_verdict *v);
const char *tv_state_name(enum tv_state s);

#endif
