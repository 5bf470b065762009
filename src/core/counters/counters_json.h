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

/* The members of a watch port entry: rates, error windows and the
 * "counters" array with deltas (see man/ibconsole.8). */
void counters_json_delta(struct json *j, const struct delta_port *d,
			 const struct counter_set *cs, double now);

/* "error_details": [ {attribute, detail_of, asked, counters: [ {name,
 * value} ] or null with counters_error} ] for a PMA port, else null
 * with "error_details_error". */
void counters_json_details(struct json *j, const struct counter_set *cs);

/* Traffic summary of a port: TX / RX Gb/s and packets/s, < 0 unknown. */
struct ctr_rates {
	double tx_gbps, rx_gbps, tx_pps, rx_pps;
};
void counters_rates(const struct delta_port *d, struct ctr_rates *r);

#endif
