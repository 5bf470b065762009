/* SPDX-License-Identifier: MIT */
/* JSON for counters: a sampled counter_set (values) and a delta_port
 * (values, deltas, rates, states, windows, totals). */
#ifndef IBC_COUNTERS_COUNTERS_JSON_H
#define IBC_COUNTERS_COUNTERS_JSON_H

#include "core/counters/counters.h"
#include "core/counters/delta.h"
#include "core/base/json.h"

/* "counters": { "source", "mode", "values": [ {name, class, unit, bits,
 * value} ] } or null with "counters_error". */
void counters_json_set(struct json *j, const struct counter_set *cs);

/* One port's counter objects as counters_json_delta last wrote them in
 * a compact document, each with what it was made of: a counter whose
 * fields and windows are what they were is written from here, not
 * formatted again (most counters of most ports, interval after
 * interval). Zeroed to start; counters_json_cache_free releases it. */
struct ctr_text;
struct ctr_json_cache {
	struct ctr_text *e;
	int n;
};
void counters_json_cache_free(struct ctr_json_cache *c);

/* The members of a watch port entry: rates, error windows and the
 * "counters" array with deltas (see man/ibconsole.8). cache: NULL, or
 * this port's (the same port's every time). */
void counters_json_delta(struct json *j, const struct delta_port *d, double now,
			 struct ctr_json_cache *cache);

/* "error_details": [ {attribute, detail_of, asked, counters: [ {name,
 * value} ] or null with counters_error} ] for a PMA port, else null
 * with "error_details_error". */
void counters_json_details(struct json *j, const struct counter_set *cs);

/* The error details counters_json_details wrote last and the sample
 * they were made from: a port whose details are the same (those of
 * most ports: nothing to detail) is written from it. Zeroed to start;
 * counters_json_details_cache_free releases it. */
struct det_json_cache {
	struct json_piece p;
	bool have, valid;
	enum ctr_source source;
	char no_mad[CTR_WHY_LONG];
	struct ctr_details det;
};
/* counters_json_details through c (NULL: none). */
void counters_json_details_cached(struct json *j, const struct counter_set *cs,
				  struct det_json_cache *c);
void counters_json_details_cache_free(struct det_json_cache *c);

/* Traffic summary of a port: TX / RX Gb/s and packets/s, < 0 unknown. */
struct ctr_rates {
	double tx_gbps, rx_gbps, tx_pps, rx_pps;
};
void counters_rates(const struct delta_port *d, struct ctr_rates *r);

#endif
