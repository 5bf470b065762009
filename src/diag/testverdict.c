// SPDX-License-Identifier: MIT
/* Verdict of a test, rule by rule from the reference procedure's tables:
 * each rule names its source, the operations and sizes it was written for,
 * and judges against the port's data rate after encoding. */
#include "config.h"
#include "testverdict.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agent/proto.h"
#include "core/base/parse.h"

#define EPS 1e-9

void tv_limits_defaults(struct tv_limits *l)
{
	*l = (struct tv_limits){
		.bw_large_healthy = 0.95, .bw_large_abnormal = 0.85,
		.bidir_healthy = 0.90, .bidir_abnormal = 0.80,
		.stability = 0.01,
		.bw4k_healthy_gbps = 90, .bw4k_abnormal_gbps = 70, .bw4k_ref_gbps = 200,
		.lat2b_healthy_us = 2.0, .lat2b_abnormal_us = 5.0,
		.latp99_healthy_us = 2.5, .latp99_abnormal_us = 5.0,
		.rate_healthy_mpps = 90, .rate_abnormal_mpps = 70,
		.rate_ref_gbps = 200, .rate_ref_size = 4,
		.accept = 0.90,
		.accept_fleet_bw = 0.93, .accept_fleet_lat = 2.1,
		/* ibconsole's own choice: no source gives a number */
		.fabric_rediscover_s = 600,
		.large_min = 1 << 20,
		.small_lat_max = 64,
		/* the NDR example: 370 .. 390 of 400 Gb/s normal, below 350
		 * investigate — 92.5 % and 87.5 % of the data rate */
		.bw64k_healthy = 0.925, .bw64k_abnormal = 0.875, .bw64k_size = 65536,
		.accept_min = 65536,	/* perftest's default size, as the acceptance loop */
		.hdr_healthy_gbps = 195, .hdr_cc_gbps = 190, .hdr_link_gbps = 180,
		.hdr_ref_gbps = 200,
	};
}

#define OFF(f) offsetof(struct tv_limits, f)
const struct tv_setting tv_settings[] = {
	{ "test_bw_large_healthy_pct", OFF(bw_large_healthy), 1, 100, "write / read bandwidth, large messages: healthy at or above this % of the data rate (95)" },
	{ "test_bw_large_abnormal_pct", OFF(bw_large_abnormal), 1, 100, "… abnormal below this % (85)" },
	{ "test_bw_bidir_healthy_pct", OFF(bidir_healthy), 1, 100, "bidirectional bandwidth: healthy at or above this % of twice the data rate (90)" },
	{ "test_bw_bidir_abnormal_pct", OFF(bidir_abnormal), 1, 100, "… abnormal below this % (80)" },
	{ "test_bw_stability_pct", OFF(stability), 0.01, 100, "BW peak and average may differ by this % (1)" },
	{ "test_bw_4k_healthy_gbps", OFF(bw4k_healthy_gbps), 0.001, 100000, "write bandwidth at 4 KiB: healthy at or above (90 at 200 Gb/s, scaled by data rate)" },
	{ "test_bw_4k_abnormal_gbps", OFF(bw4k_abnormal_gbps), 0.001, 100000, "… abnormal below (70 at 200 Gb/s)" },
	{ "test_bw_4k_ref_gbps", OFF(bw4k_ref_gbps), 0.001, 100000, "the data rate the 4 KiB numbers were written for (200)" },
	{ "test_lat_2b_healthy_us", OFF(lat2b_healthy_us), 0.001, 1e6, "write / read latency at small sizes, median: healthy at or below (2)" },
	{ "test_lat_2b_abnormal_us", OFF(lat2b_abnormal_us), 0.001, 1e6, "… abnormal above (5)" },
	{ "test_lat_p99_healthy_us", OFF(latp99_healthy_us), 0.001, 1e6, "write latency p99 at small sizes: healthy at or below (2.5)" },
	{ "test_lat_p99_abnormal_us", OFF(latp99_abnormal_us), 0.001, 1e6, "… abnormal above (5)" },
	{ "test_lat_small_max_bytes", OFF(small_lat_max), 2, 8 << 20, "largest size the latency rules judge (64)" },
	{ "test_rate_healthy_mpps", OFF(rate_healthy_mpps), 0.001, 1e6, "message rate: healthy at or above (90)" },
	{ "test_rate_abnormal_mpps", OFF(rate_abnormal_mpps), 0.001, 1e6, "… abnormal below (70)" },
	{ "test_rate_ref_gbps", OFF(rate_ref_gbps), 0.001, 100000, "the data rate the message-rate numbers hold for (200)" },
	{ "test_rate_ref_size", OFF(rate_ref_size), 1, 8 << 20, "the message size they hold for (4)" },
	{ "test_accept_pct", OFF(accept), 1, 100, "acceptance line: pass at or above this % of the data rate (90)" },
	{ "accept_fleet_bw_pct", OFF(accept_fleet_bw), 1, 100, "accept --hosts: a pair is bad below this % of the best pair's bandwidth (93, as ClusterKit)" },
	{ "accept_fleet_lat_ratio", OFF(accept_fleet_lat), 1, 1000, "accept --hosts: a pair is bad above this multiple of the best pair's latency (2.1, as ClusterKit)" },
	{ "fabric_rediscover_s", OFF(fabric_rediscover_s), 0, 86400, "export --fabric: discover the fabric again after this many seconds, 0 only when a sweep meets a changed port (600, ibconsole's own choice)" },
	{ "test_bw_large_min_bytes", OFF(large_min), 2, 8 << 20, "smallest size the large-message rules judge (1048576)" },
	{ "test_bw_64k_healthy_pct", OFF(bw64k_healthy), 1, 100, "bandwidth at 64 KiB: healthy at or above this % of the data rate (92.5)" },
	{ "test_bw_64k_abnormal_pct", OFF(bw64k_abnormal), 1, 100, "… investigate below this % (87.5)" },
	{ "test_bw_64k_bytes", OFF(bw64k_size), 2, 8 << 20, "the size the 64 KiB rule judges (65536)" },
	{ "test_accept_min_bytes", OFF(accept_min), 2, 8 << 20, "smallest size --accept judges (65536)" },
	{ "test_bw_hdr_healthy_gbps", OFF(hdr_healthy_gbps), 0.001, 100000, "HDR write bandwidth, large messages: healthy at or above (195)" },
	{ "test_bw_hdr_cc_gbps", OFF(hdr_cc_gbps), 0.001, 100000, "… below this: check adaptive routing / congestion control (190)" },
	{ "test_bw_hdr_link_gbps", OFF(hdr_link_gbps), 0.001, 100000, "… below this: inspect the link (180)" },
	{ "test_bw_hdr_ref_gbps", OFF(hdr_ref_gbps), 0.001, 100000, "the data rate the HDR figures hold for (200)" },
};
const int tv_nsettings = sizeof(tv_settings) / sizeof(*tv_settings);

static bool is_pct(const char *key)
{
	size_t n = strlen(key);

	return n > 4 && !strcmp(key + n - 4, "_pct");
}

int tv_limits_set(struct tv_limits *l, const char *key, const char *value)
{
	for (int i = 0; i < tv_nsettings; i++) {
		const struct tv_setting *s = &tv_settings[i];
		double v;

		if (strcmp(key, s->key))
			continue;
		if (parse_num(value, s->min, s->max, &v))
			return -1;
		*(double *)((char *)l + s->offset) = is_pct(key) ? v / 100 : v;
		return 0;
	}
	return 1;
}

const char *tv_state_name(enum tv_state s)
{
	return s == TV_PASS ? "pass" : s == TV_WARN ? "warn" : s == TV_FAIL ? "fail" : "none";
}

static struct tv_rule_result *add(struct tv_verdict *v, const char *rule,
				  const char *source)
{
	struct tv_rule_result *r;

	if (v->n >= TV_MAX_RESULTS)
		return NULL;
	r = &v->r[v->n++];
	memset(r, 0, sizeof(*r));
	r->rule = rule;
	r->source = source;
	return r;
}

/* at or above healthy: pass; below abnormal: fail; between: warn */
static enum tv_state higher_better(double val, double healthy, double abnormal)
{
	return val >= healthy - EPS ? TV_PASS : val < abnormal - EPS ? TV_FAIL : TV_WARN;
}

/* at or below healthy: pass; above abnormal: fail; between: warn */
static enum tv_state lower_better(double val, double healthy, double abnormal)
{
	return val <= healthy + EPS ? TV_PASS : val > abnormal + EPS ? TV_FAIL : TV_WARN;
}

#define SRC_GENERIC "reference procedure, generation-independent rules"
#define SRC_HDR "reference procedure, HDR table"
#define SRC_NDR "reference procedure, NDR example"
#define SRC_ACCEPT "reference procedure, acceptance of new machines"

const struct tv_rule tv_rules[] = {
	{ "bw-large", SRC_GENERIC, "write / read bandwidth, one direction, 1 MiB and up",
	  { "test_bw_large_healthy_pct", "test_bw_large_abnormal_pct", "test_bw_large_min_bytes" } },
	{ "bw-large-hdr", SRC_HDR, "write bandwidth, one direction, 1 MiB and up, on a 200 Gb/s data rate",
	  { "test_bw_hdr_healthy_gbps", "test_bw_hdr_cc_gbps", "test_bw_hdr_link_gbps", "test_bw_hdr_ref_gbps" } },
	{ "bw-64k", SRC_NDR, "write / read / send bandwidth, one direction, 64 KiB (perftest's default)",
	  { "test_bw_64k_healthy_pct", "test_bw_64k_abnormal_pct", "test_accept_pct", "test_bw_64k_bytes" } },
	{ "bw-bidir", SRC_GENERIC, "bidirectional bandwidth, 1 MiB and up",
	  { "test_bw_bidir_healthy_pct", "test_bw_bidir_abnormal_pct" } },
	{ "bw-4k", SRC_HDR, "write bandwidth, 4 KiB",
	  { "test_bw_4k_healthy_gbps", "test_bw_4k_abnormal_gbps", "test_bw_4k_ref_gbps" } },
	{ "bw-stability", SRC_GENERIC, "wherever a bandwidth rule judged",
	  { "test_bw_stability_pct" } },
	{ "lat-2b", SRC_GENERIC, "write / read latency, median, 2 B up to 64 B",
	  { "test_lat_2b_healthy_us", "test_lat_2b_abnormal_us", "test_lat_small_max_bytes" } },
	{ "lat-p99", SRC_HDR, "write latency p99, 2 B up to 64 B",
	  { "test_lat_p99_healthy_us", "test_lat_p99_abnormal_us" } },
	{ "msg-rate", SRC_HDR, "send message rate, 4 B, on a 200 Gb/s data rate",
	  { "test_rate_healthy_mpps", "test_rate_abnormal_mpps", "test_rate_ref_gbps", "test_rate_ref_size" } },
	{ "accept", SRC_ACCEPT, "with --accept: bandwidth at 64 KiB and up",
	  { "test_accept_pct", "test_accept_min_bytes" } },
};
const int tv_nrules = sizeof(tv_rules) / sizeof(*tv_rules);

const struct tv_rule *tv_rule_find(const char *id)
{
	for (int i = 0; i < tv_nrules; i++)
		if (!strcmp(tv_rules[i].id, id))
			return &tv_rules[i];
	return NULL;
}

/* A result of the rule id (from the table: its source with it). */
static struct tv_rule_result *add_rule(struct tv_verdict *v, const char *id)
{
	const struct tv_rule *t = tv_rule_find(id);

	return add(v, t->id, t->source);
}

static void lines(struct tv_rule_result *r, double healthy, double abnormal,
		  double pass, const char *unit)
{
	r->healthy = healthy;
	r->abnormal = abnormal;
	r->pass = pass;
	r->unit = unit;
}

static const char *op_name(int op)
{
	return op == OP_READ ? "read" : op == OP_SEND ? "send" : "write";
}

/* HDR table, absolute: >= 195 healthy, < 190 check adaptive routing /
 * congestion control, < 180 inspect the link — on a 200 Gb/s data rate. */
static void judge_hdr(const struct tv_input *in, const struct tv_limits *l,
		      struct tv_verdict *v, const char *lim)
{
	struct tv_rule_result *r;
	double b = in->bw_avg_gbps;
	const char *what;

	if (in->op != OP_WRITE || fabs(in->data_gbps - l->hdr_ref_gbps) > 0.01 * l->hdr_ref_gbps)
		return;
	r = add_rule(v, "bw-large-hdr");
	if (b >= l->hdr_healthy_gbps - EPS) {
		r->state = TV_PASS;
		what = "healthy";
	} else if (b < l->hdr_link_gbps - EPS) {
		r->state = TV_FAIL;
		what = "inspect the link";
	} else if (b < l->hdr_cc_gbps - EPS) {
		r->state = TV_WARN;
		what = "check adaptive routing / congestion control";
	} else {
		r->state = TV_WARN;
		what = "below healthy";
	}
	lines(r, l->hdr_healthy_gbps, l->hdr_link_gbps, 0, "Gb/s");
	snprintf(r->text, sizeof(r->text),
		 "write bandwidth %.1f Gb/s on %g Gb/s: %s (healthy >= %g, < %g check adaptive routing / congestion control, < %g inspect the link) [%s; write, %s and up]",
		 b, in->data_gbps, what, l->hdr_healthy_gbps, l->hdr_cc_gbps,
		 l->hdr_link_gbps, SRC_HDR, lim);
}

/* The 64 KiB run (perftest's default): healthy / investigate bands of the
 * NDR example as fractions of the data rate, and the acceptance line. */
static void judge_64k(const struct tv_input *in, const struct tv_limits *l,
		      struct tv_verdict *v)
{
	struct tv_rule_result *r = add_rule(v, "bw-64k");
	double d = in->data_gbps, f = in->bw_avg_gbps / d;

	r->state = higher_better(f, l->bw64k_healthy, l->bw64k_abnormal);
	lines(r, d * l->bw64k_healthy, d * l->bw64k_abnormal, d * l->accept, "Gb/s");
	snprintf(r->text, sizeof(r->text),
		 "%s bandwidth at 64 KiB %.1f of %g Gb/s data rate = %.1f %%: %s (healthy >= %g %% = %.4g Gb/s, investigate < %g %% = %.4g Gb/s; pass line %g %% = %.4g Gb/s: %s) [%s, acceptance line; one direction, 64 KiB]",
		 op_name(in->op), in->bw_avg_gbps, d, f * 100,
		 r->state == TV_PASS ? "healthy" : r->state == TV_FAIL ? "investigate" : "between the bands",
		 l->bw64k_healthy * 100, d * l->bw64k_healthy,
		 l->bw64k_abnormal * 100, d * l->bw64k_abnormal,
		 l->accept * 100, d * l->accept, f >= l->accept - EPS ? "passed" : "missed", SRC_NDR);
}

static void judge_bw(const struct tv_input *in, const struct tv_limits *l,
		     struct tv_verdict *v)
{
	struct tv_rule_result *r;
	char sz[32], lim[32], amin[32];
	bool judged = false;
	double d = in->data_gbps;

	parse_size_name(in->size, sz, sizeof(sz));
	parse_size_name((uint64_t)l->large_min, lim, sizeof(lim));
	parse_size_name((uint64_t)l->accept_min, amin, sizeof(amin));
	if (!(d > 0)) {
		r = add(v, "data-rate", "the port");
		snprintf(r->text, sizeof(r->text),
			 "data rate unknown: bandwidth not judged (give --line-rate)");
		return;
	}
	if (in->accept) {
		double ref = d * (in->bidir ? 2 : 1), f = in->bw_avg_gbps / ref;

		r = add_rule(v, "accept");
		if (in->size + EPS < l->accept_min) {
			snprintf(r->text, sizeof(r->text),
				 "acceptance judges %s and up, not %s: run with --size 64K or larger",
				 amin, sz);
			return;
		}
		r->state = f >= l->accept - EPS ? TV_PASS : TV_FAIL;
		lines(r, 0, 0, ref * l->accept, "Gb/s");
		snprintf(r->text, sizeof(r->text),
			 "acceptance: %.1f of %g Gb/s%s = %.1f %%, pass >= %g %% = %.4g Gb/s [%s; %s and up]",
			 in->bw_avg_gbps, ref, in->bidir ? " (twice the data rate)" : "",
			 f * 100, l->accept * 100, ref * l->accept, SRC_ACCEPT, amin);
		judged = true;
	}
	if (in->bidir && in->size + EPS >= l->large_min) {
		double f = in->bw_avg_gbps / (2 * d);

		r = add_rule(v, "bw-bidir");
		r->state = higher_better(f, l->bidir_healthy, l->bidir_abnormal);
		lines(r, 2 * d * l->bidir_healthy, 2 * d * l->bidir_abnormal, 0, "Gb/s");
		snprintf(r->text, sizeof(r->text),
			 "bidirectional bandwidth %.1f of %g Gb/s (twice the data rate) = %.1f %%: healthy >= %.0f %%, abnormal < %.0f %% [%s; %s and up]",
			 in->bw_avg_gbps, 2 * d, f * 100, l->bidir_healthy * 100,
			 l->bidir_abnormal * 100, SRC_GENERIC, lim);
		judged = true;
	} else if (!in->bidir && in->size + EPS >= l->large_min &&
		   (in->op == OP_WRITE || in->op == OP_READ)) {
		double f = in->bw_avg_gbps / d;

		judge_hdr(in, l, v, lim);	/* first: on a tie the specific rule speaks */
		r = add_rule(v, "bw-large");
		r->state = higher_better(f, l->bw_large_healthy, l->bw_large_abnormal);
		lines(r, d * l->bw_large_healthy, d * l->bw_large_abnormal, 0, "Gb/s");
		snprintf(r->text, sizeof(r->text),
			 "%s bandwidth %.1f of %g Gb/s data rate = %.1f %%: healthy >= %.0f %%, abnormal < %.0f %% [%s; write / read, %s and up]",
			 op_name(in->op), in->bw_avg_gbps, d, f * 100,
			 l->bw_large_healthy * 100, l->bw_large_abnormal * 100, SRC_GENERIC, lim);
		judged = true;
	} else if (!in->bidir && in->size == (unsigned long long)l->bw64k_size) {
		judge_64k(in, l, v);
		judged = true;
	} else if (!in->bidir && in->size == 4096 && in->op == OP_WRITE) {
		double k = d / l->bw4k_ref_gbps;
		double h = l->bw4k_healthy_gbps * k, a = l->bw4k_abnormal_gbps * k;

		r = add_rule(v, "bw-4k");
		r->state = higher_better(in->bw_avg_gbps, h, a);
		lines(r, h, a, 0, "Gb/s");
		snprintf(r->text, sizeof(r->text),
			 "write bandwidth at 4 KiB %.1f Gb/s: healthy >= %.1f, abnormal < %.1f (%g / %g at %g Gb/s, scaled to %g) [%s; write, 4 KiB]",
			 in->bw_avg_gbps, h, a, l->bw4k_healthy_gbps, l->bw4k_abnormal_gbps,
			 l->bw4k_ref_gbps, d, SRC_HDR);
		judged = true;
	} else if (!judged) {
		r = add(v, "bw-none", "");
		snprintf(r->text, sizeof(r->text),
			 "%s%s bandwidth at %s: no rule for this size or operation (rules: write / read at %s and up, any operation at 64 KiB, write at 4 KiB, bidirectional at %s and up) — reported, not judged",
			 in->bidir ? "bidirectional " : "", op_name(in->op), sz, lim, lim);
	}
	if (judged && in->bw_peak_gbps > 0) {
		double gap = (in->bw_peak_gbps - in->bw_avg_gbps) / in->bw_peak_gbps;

		r = add_rule(v, "bw-stability");
		r->state = gap <= l->stability + EPS ? TV_PASS : TV_WARN;
		snprintf(r->text, sizeof(r->text),
			 "BW peak %.1f vs average %.1f Gb/s differ by %.2f %% (healthy < %.0f %%%s) [%s]",
			 in->bw_peak_gbps, in->bw_avg_gbps, gap * 100, l->stability * 100,
			 r->state == TV_WARN ? ": unstable link" : "", SRC_GENERIC);
	}
}

static void judge_lat(const struct tv_input *in, const struct tv_limits *l,
		      struct tv_verdict *v)
{
	struct tv_rule_result *r;
	char sz[32], lim[32];

	parse_size_name(in->size, sz, sizeof(sz));
	parse_size_name((uint64_t)l->small_lat_max, lim, sizeof(lim));
	if (!in->lat_valid) {
		r = add(v, "lat-none", "");
		snprintf(r->text, sizeof(r->text), "no latency samples: no rule applies");
		return;
	}
	if (in->size > l->small_lat_max + EPS) {
		r = add(v, "lat-none", "");
		snprintf(r->text, sizeof(r->text),
			 "latency at %s (p99 %.2f us): no rule for this size — the latency rules were written for small messages (up to %s); reported, not judged",
			 sz, in->lat_p99_us, lim);
		return;
	}
	if (in->op == OP_WRITE || in->op == OP_READ) {
		r = add_rule(v, "lat-2b");
		r->state = lower_better(in->lat_median_us, l->lat2b_healthy_us, l->lat2b_abnormal_us);
		lines(r, l->lat2b_healthy_us, l->lat2b_abnormal_us, 0, "us");
		snprintf(r->text, sizeof(r->text),
			 "%s latency median %.2f us: healthy <= %g us, abnormal > %g us [%s; write / read, 2 B .. %s]",
			 in->op == OP_READ ? "read" : "write", in->lat_median_us,
			 l->lat2b_healthy_us, l->lat2b_abnormal_us, SRC_GENERIC, lim);
	}
	if (in->op == OP_WRITE) {
		r = add_rule(v, "lat-p99");
		r->state = lower_better(in->lat_p99_us, l->latp99_healthy_us, l->latp99_abnormal_us);
		lines(r, l->latp99_healthy_us, l->latp99_abnormal_us, 0, "us");
		snprintf(r->text, sizeof(r->text),
			 "write latency p99 %.2f us: healthy <= %g us, abnormal > %g us (congestion or routing) [%s; write, 2 B .. %s]",
			 in->lat_p99_us, l->latp99_healthy_us, l->latp99_abnormal_us, SRC_HDR, lim);
	}
	if (in->op != OP_WRITE && in->op != OP_READ) {
		r = add(v, "lat-none", "");
		snprintf(r->text, sizeof(r->text),
			 "send latency p99 %.2f us: the latency rules are for write / read — reported, not judged",
			 in->lat_p99_us);
	}
}

static void judge_rate(const struct tv_input *in, const struct tv_limits *l,
		       struct tv_verdict *v)
{
	struct tv_rule_result *r = add_rule(v, "msg-rate");
	char sz[32];
	bool at_ref = in->data_gbps > 0 &&
		      fabs(in->data_gbps - l->rate_ref_gbps) <= 0.01 * l->rate_ref_gbps &&
		      in->size == (unsigned long long)l->rate_ref_size;

	parse_size_name(in->size, sz, sizeof(sz));
	if (!at_ref) {
		r->rule = "msg-rate-none";
		r->source = "";
		snprintf(r->text, sizeof(r->text),
			 "message rate %.3f Mpps at %s, %g Gb/s: no reference — reported, not judged (the reference holds at %g B and %g Gb/s; set test_rate_* in the config for yours)",
			 in->mpps, sz, in->data_gbps, l->rate_ref_size, l->rate_ref_gbps);
		return;
	}
	r->state = higher_better(in->mpps, l->rate_healthy_mpps, l->rate_abnormal_mpps);
	lines(r, l->rate_healthy_mpps, l->rate_abnormal_mpps, 0, "Mpps");
	snprintf(r->text, sizeof(r->text),
		 "message rate %.3f Mpps: healthy >= %g, abnormal < %g Mpps (NIC firmware bottleneck) [%s; send, %s at %g Gb/s]",
		 in->mpps, l->rate_healthy_mpps, l->rate_abnormal_mpps, SRC_HDR, sz, l->rate_ref_gbps);
}

void tv_eval(const struct tv_input *in, const struct tv_limits *lim,
	     struct tv_verdict *v)
{
	struct tv_limits def;
	const struct tv_rule_result *worst = NULL;

	if (!lim) {
		tv_limits_defaults(&def);
		lim = &def;
	}
	memset(v, 0, sizeof(*v));
	v->rule = "";
	v->source = "";
	if (in->kind == KIND_LAT)
		judge_lat(in, lim, v);
	else if (in->kind == KIND_RATE)
		judge_rate(in, lim, v);
	else
		judge_bw(in, lim, v);
	for (int i = 0; i < v->n; i++)
		if (!worst || v->r[i].state > worst->state)
			worst = &v->r[i];
	/* acceptance is pass / fail on its line alone; the rest is evidence */
	for (int i = 0; in->accept && i < v->n; i++)
		if (!strcmp(v->r[i].rule, "accept"))
			worst = &v->r[i];
	if (!worst)
		return;
	v->state = worst->state;
	v->rule = worst->state == TV_NONE ? "" : worst->rule;
	v->source = worst->state == TV_NONE ? "" : worst->source;
	snprintf(v->text, sizeof(v->text), "%s", worst->text);
	v->healthy = worst->healthy;
	v->abnormal = worst->abnormal;
	v->pass = worst->pass;
	v->unit = worst->unit;
}
