// SPDX-License-Identifier: MIT
/* The effective bit error rate, computed the way ibdiagnet's BER test
 * does (bit errors over the bits transferred in the interval). */
#include "config.h"
#include "diag/ber.h"

#include <math.h>
#include <stdio.h>

#include "core/base/json.h"
#include "core/counters/delta.h"

void ber_compute(struct ber *b, uint64_t errors, int lanes, double lane_gbps, double seconds)
{
	*b = (struct ber){ .errors = errors, .seconds = seconds };
	if (lanes <= 0 || !(lane_gbps > 0) || !(seconds > 0))
		return;
	b->bits = lanes * lane_gbps * 1e9 * seconds;
	b->valid = true;
	if (errors > 0) {
		b->rate = (double)errors / b->bits;
	} else {
		/* Zero errors in N bits: the true rate is below 3/N with 95 %
		 * confidence (-ln 0.05 = 3.0, the "rule of three" of BER
		 * testing). */
		b->rate = -log(0.05) / b->bits;
		b->bound = true;
	}
}

bool ber_since_start(struct ber *b, const struct delta_port *d, int lanes, double lane_gbps)
{
	const struct delta_ctr *c = delta_find(d, "SymbolErrorCounter");

	if (!c || !c->have)
		return false;
	ber_compute(b, c->total, lanes, lane_gbps, d->t_last - d->t_first);
	return true;
}

void ber_judge(struct ber *b, double watch, double act)
{
	b->level = BER_OK;
	if (!b->valid || b->bound)
		return;
	if (b->rate > act)
		b->level = BER_ACT;
	else if (b->rate > watch)
		b->level = BER_WATCH;
}

void ber_window_text(double s, char *buf, size_t n)
{
	if (s < 120)
		snprintf(buf, n, "%.0f s", s);
	else if (s < 2 * 3600)
		snprintf(buf, n, "%.3g min", s / 60);
	else
		snprintf(buf, n, "%.3g h", s / 3600);
}

void ber_text(const struct ber *b, char *buf, size_t n)
{
	char w[32];

	if (!b->valid) {
		snprintf(buf, n, "n/a");
		return;
	}
	ber_window_text(b->seconds, w, sizeof(w));
	snprintf(buf, n, "%s%.2g over %s", b->bound ? "< " : "", b->rate, w);
}

void ber_json(struct json *j, const struct ber *b, const char *why, bool errors_at_least,
	      int lanes, double lane_gbps)
{
	char text[64];

	json_obj_begin(j, "ber");
	if (why || !b || !b->valid) {
		json_null(j, "rate");
		json_str(j, "why", why ? why : "the link's width or lane rate is not known");
		json_obj_end(j);
		return;
	}
	ber_text(b, text, sizeof(text));
	json_num(j, "rate", b->rate);
	json_bool(j, "bound", b->bound);
	json_u64(j, "symbol_errors", b->errors);
	json_bool(j, "symbol_errors_at_least", errors_at_least);
	json_num(j, "window_s", b->seconds);
	json_int(j, "lanes", lanes);
	json_num(j, "lane_gbps", lane_gbps);
	json_num(j, "bits", b->bits);
	json_str(j, "level", b->level == BER_ACT ? "act" : b->level == BER_WATCH ? "watch" : "ok");
	json_str(j, "text", text);
	json_obj_end(j);
}
