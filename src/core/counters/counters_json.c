// SPDX-License-Identifier: MIT
/* JSON writers for counters: plain values (snapshot, sweep) and the
 * delta engine's view (watch); missing values are null, never 0. */
#include "config.h"
#include "core/counters/counters_json.h"

#include <stdint.h>
#include <string.h>

/* Every counter exact to the last of its 64 bits: a wrapped or
 * saturated 64-bit counter is 18446744073709551615, not 1.8e+19. */
static void u64(struct json *j, const char *k, uint64_t v)
{
	json_u64(j, k, v);
}

/* What a counter is and its value: the fields every counter object
 * starts with, in a sample and in a delta alike. */
static void counter_head(struct json *j, const char *name, unsigned cls,
			 unsigned unit, unsigned bits, uint64_t value)
{
	json_str(j, "name", name);
	json_str(j, "class", ctr_class_name((enum ctr_class)cls));
	json_str(j, "unit", ctr_unit_name((enum ctr_unit)unit));
	json_int(j, "bits", bits);
	u64(j, "value", value);
}

static const char *src_name(enum ctr_source s)
{
	return s == CTR_SRC_PMA ? "pma" : s == CTR_SRC_SYSFS ? "sysfs" : NULL;
}

void counters_json_set(struct json *j, const struct counter_set *cs)
{
	if (!cs->valid) {
		json_null(j, "counters");
		json_str(j, "counters_error", cs->why[0] ? cs->why : "not read");
		return;
	}
	json_obj_begin(j, "counters");
	json_str(j, "source", src_name(cs->source));
	json_str(j, "mode", cs->mode);
	json_bool(j, "extended", cs->extended);
	json_arr_begin(j, "values");
	for (int i = 0; i < cs->n; i++) {
		const struct ctr_value *v = &cs->c[i];

		json_obj_begin(j, NULL);
		counter_head(j, v->name, v->cls, v->unit, v->bits, v->value);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static const struct delta_ctr *first_of(const struct delta_port *d,
					const char *a, const char *b)
{
	const struct delta_ctr *c = delta_find(d, a);

	return c ? c : b ? delta_find(d, b) : NULL;
}

void counters_rates(const struct delta_port *d, struct ctr_rates *r)
{
	const struct delta_ctr *c;

	r->tx_gbps = r->rx_gbps = r->tx_pps = r->rx_pps = -1;
	c = first_of(d, "PortXmitData", NULL);
	if (c && c->rate_valid)
		r->tx_gbps = delta_gbps(c);
	c = first_of(d, "PortRcvData", NULL);
	if (c && c->rate_valid)
		r->rx_gbps = delta_gbps(c);
	c = first_of(d, "PortXmitPkts", "sent_pkts");
	if (c && c->rate_valid)
		r->tx_pps = c->rate;
	c = first_of(d, "PortRcvPkts", "rcvd_pkts");
	if (c && c->rate_valid)
		r->rx_pps = c->rate;
}

static void num_or_null(struct json *j, const char *k, double v)
{
	if (v < 0)
		json_null(j, k);
	else
		json_num(j, k, v);
}

void counters_json_delta(struct json *j, const struct delta_port *d,
			 const struct counter_set *cs, double now)
{
	struct ctr_rates r;

	counters_rates(d, &r);
	json_num(j, "interval_s", d->dt);
	num_or_null(j, "tx_gbps", r.tx_gbps);
	num_or_null(j, "rx_gbps", r.rx_gbps);
	num_or_null(j, "tx_pps", r.tx_pps);
	num_or_null(j, "rx_pps", r.rx_pps);
	u64(j, "errors_interval", delta_errors_window(d, now, DELTA_WIN_INTERVAL));
	u64(j, "errors_1min", delta_errors_window(d, now, DELTA_WIN_MINUTE));
	u64(j, "errors_10min", delta_errors_window(d, now, DELTA_WIN_10MIN));
	json_arr_begin(j, "counters");
	for (int i = 0; i < d->n; i++) {
		const struct delta_ctr *c = &d->c[i];
		bool first = c->state == DELTA_FIRST;
		bool missing = c->state == DELTA_MISSING;

		json_obj_begin(j, NULL);
		counter_head(j, c->name, c->cls, c->unit, c->bits, c->value);
		json_str(j, "state", delta_state_name(c->state));
		if (first || missing)
			json_null(j, "delta");
		else
			u64(j, "delta", c->delta);
		json_bool(j, "delta_lower_bound", c->lower_bound);
		json_num_or_null(j, "per_s", c->rate_valid, c->rate);
		if (c->unit == CTR_WORDS4 || c->unit == CTR_BYTES) {
			if (!first && !missing)
				u64(j, "bytes", delta_bytes(c, c->delta));
			else
				json_null(j, "bytes");
			num_or_null(j, "gbps", delta_gbps(c));
		}
		u64(j, "total", c->total);
		u64(j, "total_since_mark", c->total_mark);
		json_bool(j, "total_lower_bound", c->total_lb);
		u64(j, "window_1min", delta_window(c, now, DELTA_WIN_MINUTE));
		u64(j, "window_10min", delta_window(c, now, DELTA_WIN_10MIN));
		json_int(j, "resets", c->resets);
		json_int(j, "saturations", c->saturations);
		json_obj_end(j);
	}
	json_arr_end(j);
	(void)cs;
}

void counters_json_details(struct json *j, const struct counter_set *cs)
{
	if (!cs->valid || cs->source != CTR_SRC_PMA) {
		char why[CTR_WHY_LONG + 128];

		snprintf(why, sizeof(why), "%s%s", cs->no_mad[0] ? "the error details need MADs: " :
			 !cs->valid ? "no counter sample" :
			 "counters come from sysfs: the error details need the PMA (InfiniBand)",
			 cs->no_mad);
		json_null(j, "error_details");
		json_str(j, "error_details_error", why);
		return;
	}
	json_arr_begin(j, "error_details");
	for (int g = 0; g < DET_GROUPS; g++) {
		const struct det_values *dv = &cs->det.g[g];

		json_obj_begin(j, NULL);
		json_str(j, "attribute", details_attr_name(g));
		json_str(j, "detail_of", details_total_name(g));
		json_bool(j, "asked", dv->asked);
		if (dv->valid) {
			json_arr_begin(j, "counters");
			for (int i = 0; i < dv->n; i++) {
				json_obj_begin(j, NULL);
				json_str(j, "name", details_field_name(g, i));
				u64(j, "value", dv->v[i]);
				json_obj_end(j);
			}
			json_arr_end(j);
		} else {
			json_null(j, "counters");
			json_str(j, "counters_error", dv->why[0] ? dv->why : "not read");
		}
		json_obj_end(j);
	}
	json_arr_end(j);
}
