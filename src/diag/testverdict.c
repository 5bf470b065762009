// SPDX-License-Identifier: MIT
/* Verdict of a test against the port's line rate (the reference procedure's rules): which
 * rule applied, healthy / warn / fail, and why, in one line. */
#include "config.h"
#include "testverdict.h"

#include <stdio.h>

#include "core/agent/proto.h"

/* The reference procedure: generation-independent rules, as fractions of the line rate. */
static const struct tv_rule {
	const char *id;
	double healthy, abnormal;	/* bw: fraction of line; lat: µs; rate: Mpps per Gb/s */
	const char *what;
} rules[] = {
	{ "bw-large", 0.95, 0.85, "large-message bandwidth vs line rate" },
	{ "bw-bidir", 0.90, 0.80, "bidirectional bandwidth vs twice the line rate" },
	{ "lat-p99", 2.0, 5.0, "latency p99" },
	/* HDR's 90 / 70 Mpps at 200 Gb/s, scaled to the port's rate */
	{ "rate-scaled", 0.45, 0.35, "message rate (HDR reference scaled to the line rate)" },
	{ "bw-stability", 0.01, 0.01, "BW peak vs average" },
};

#define LARGE_MIN (64u << 10)	/* perftest's default bw size and up */

const char *tv_state_name(enum tv_state s)
{
	return s == TV_PASS ? "pass" : s == TV_WARN ? "warn" : s == TV_FAIL ? "fail" : "none";
}

void tv_eval(const struct tv_input *in, struct tv_verdict *v)
{
	const struct tv_rule *r = NULL;
	double val = 0, ref = 0;

	v->state = TV_NONE;
	v->rule = "";
	if (in->kind == KIND_LAT) {
		if (!in->lat_valid) {
			snprintf(v->text, sizeof(v->text), "no latency samples: no rule applies");
			return;
		}
		r = &rules[2];
		val = in->lat_p99_us;
		v->rule = r->id;
		v->state = val <= r->healthy ? TV_PASS : val > r->abnormal ? TV_FAIL : TV_WARN;
		snprintf(v->text, sizeof(v->text), "%s %.2f us: healthy <= %.1f us, abnormal > %.1f us",
			 r->what, val, r->healthy, r->abnormal);
		return;
	}
	if (in->line_gbps <= 0) {
		snprintf(v->text, sizeof(v->text), "line rate unknown: no rule applies (give --line-rate)");
		return;
	}
	if (in->kind == KIND_RATE) {
		r = &rules[3];
		ref = in->line_gbps;
		val = in->mpps;
		v->rule = r->id;
		v->state = val >= r->healthy * ref ? TV_PASS : val < r->abnormal * ref ? TV_FAIL : TV_WARN;
		snprintf(v->text, sizeof(v->text), "%s: %.3f Mpps, healthy >= %.1f, abnormal < %.1f at %g Gb/s",
			 r->what, val, r->healthy * ref, r->abnormal * ref, ref);
		return;
	}
	if (in->size < LARGE_MIN) {
		snprintf(v->text, sizeof(v->text), "%llu B is below the large-message rules (>= 64 KiB): no rule applies",
			 in->size);
		return;
	}
	r = in->bidir ? &rules[1] : &rules[0];
	ref = in->line_gbps * (in->bidir ? 2 : 1);
	val = in->bw_avg_gbps / ref;
	v->rule = r->id;
	v->state = val >= r->healthy ? TV_PASS : val < r->abnormal ? TV_FAIL : TV_WARN;
	snprintf(v->text, sizeof(v->text), "%s: %.1f %% of %g Gb/s, healthy >= %.0f %%, abnormal < %.0f %%",
		 r->what, val * 100, ref, r->healthy * 100, r->abnormal * 100);
	if (v->state == TV_PASS && in->bw_peak_gbps > 0 &&
	    (in->bw_peak_gbps - in->bw_avg_gbps) / in->bw_peak_gbps > rules[4].healthy) {
		v->state = TV_WARN;
		v->rule = rules[4].id;
		snprintf(v->text, sizeof(v->text), "%s differ by %.1f %% (> 1 %%): unstable link",
			 rules[4].what, (in->bw_peak_gbps - in->bw_avg_gbps) / in->bw_peak_gbps * 100);
	}
}
