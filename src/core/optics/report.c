// SPDX-License-Identifier: MIT
/* The module's readings written out: JSON, Prometheus gauges, text. */
#include "config.h"
#include "core/optics/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/base/json.h"
#include "core/export/expo.h"

static const struct {
	unsigned bit;
	const char *json, *words;
} judged_names[] = {
	{ OPTICS_NEAR_LOW_RX, "near_low_rx_alarm", "near the low receive-power alarm" },
	{ OPTICS_DARK, "dark", "dark while the link is up" },
	{ OPTICS_ALARM, "alarm", "alarm flag set" },
	{ OPTICS_WARN, "warning", "warning flag set" },
};
#define NJUDGED (sizeof(judged_names) / sizeof(judged_names[0]))

static const struct {
	unsigned bit;
	const char *name;
} module_bits[] = {
	{ OPTICS_HIGH_ALARM, "high_alarm" }, { OPTICS_LOW_ALARM, "low_alarm" },
	{ OPTICS_HIGH_WARN, "high_warning" }, { OPTICS_LOW_WARN, "low_warning" },
};

static const char *layout_name(enum optics_layout l)
{
	switch (l) {
	case OPTICS_SFF8472: return "SFF-8472";
	case OPTICS_SFF8636: return "SFF-8636";
	case OPTICS_CMIS: return "CMIS";
	case OPTICS_UNKNOWN: break;
	}
	return "unknown";
}

static void num(struct json *j, const char *key, bool have, double v)
{
	json_num_or_null(j, key, have && isfinite(v), v);
}

static void level_json(struct json *j, const char *key, const struct optics_level *l)
{
	json_obj_begin(j, key);
	num(j, "value", l->valid, l->value);
	num(j, "high_alarm", l->thr_valid, l->high_alarm);
	num(j, "low_alarm", l->thr_valid, l->low_alarm);
	num(j, "high_warning", l->thr_valid, l->high_warn);
	num(j, "low_warning", l->thr_valid, l->low_warn);
	if (l->have_flags) {
		json_arr_begin(j, "flags");
		for (size_t i = 0; i < sizeof(module_bits) / sizeof(module_bits[0]); i++)
			if (l->flags & module_bits[i].bit)
				json_str(j, NULL, module_bits[i].name);
		json_arr_end(j);
	} else {
		json_null(j, "flags");
	}
	json_obj_end(j);
}

static void judged_json(struct json *j, unsigned judged)
{
	json_arr_begin(j, "flags");
	for (size_t i = 0; i < NJUDGED; i++)
		if (judged & judged_names[i].bit)
			json_str(j, NULL, judged_names[i].json);
	json_arr_end(j);
}

void optics_json(struct json *j, const char *key, const struct optics_port *p)
{
	const struct optics_module *m = &p->m;
	char text[96];

	json_obj_begin(j, key);
	json_bool(j, "readable", p->readable);
	if (!p->readable) {
		json_str(j, "why", p->why);
		json_obj_end(j);
		return;
	}
	json_str(j, "type", m->type);
	json_int(j, "identifier", m->id);
	json_str(j, "layout", layout_name(m->layout));
	json_str(j, "vendor", m->vendor);
	json_str(j, "part", m->part);
	json_str(j, "serial", m->serial);
	json_bool(j, "monitoring", m->ddm);
	if (m->layout == OPTICS_SFF8472)
		json_bool(j, "externally_calibrated", m->ext_cal);
	level_json(j, "temperature_c", &m->temp);
	level_json(j, "supply_v", &m->vcc);
	json_arr_begin(j, "lanes");
	for (int i = 0; i < m->nlanes; i++) {
		const struct optics_lane *l = &m->lane[i];

		json_obj_begin(j, NULL);
		json_int(j, "lane", i + 1);
		level_json(j, "rx_power_dbm", &l->rx);
		num(j, "rx_power_mw", l->rx.valid, l->rx_mw);
		level_json(j, "tx_power_dbm", &l->tx);
		level_json(j, "bias_ma", &l->bias);
		if (l->los_valid)
			json_bool(j, "rx_los", l->rx_los);
		else
			json_null(j, "rx_los");
		num(j, "rx_margin_db", l->margin_valid, l->margin_db);
		optics_margin_text(l, text, sizeof(text));
		json_str(j, "rx_margin", l->margin_valid ? text : NULL);
		judged_json(j, l->judged);
		json_obj_end(j);
	}
	json_arr_end(j);
	judged_json(j, m->judged);
	json_str(j, "note", m->note[0] ? m->note : NULL);
	json_obj_end(j);
}

static void lane_family(struct expo_buf *b, const struct optics_port *const *p,
			const char *const *labels, int n, int what)
{
	static const char *const names[] = {
		"ibconsole_module_rx_power_dbm", "ibconsole_module_tx_power_dbm",
		"ibconsole_module_rx_margin_db", "ibconsole_module_bias_amperes",
	};
	static const char *const help[] = {
		"Receive power per lane as the module reads it (dBm; -Inf: no light)",
		"Transmit power per lane as the module reads it (dBm)",
		"Receive power's distance to the nearest of the module's own alarms (dB; negative: past it)",
		"Laser bias current per lane (amperes)",
	};
	char lane[8];

	expo_family(b, names[what], "gauge", help[what]);
	for (int i = 0; i < n; i++) {
		const struct optics_module *m = &p[i]->m;

		if (!p[i]->readable)
			continue;
		for (int k = 0; k < m->nlanes; k++) {
			const struct optics_lane *l = &m->lane[k];
			bool have = what == 0 ? l->rx.valid : what == 1 ? l->tx.valid
				    : what == 2 ? l->margin_valid : l->bias.valid;
			double v = what == 0 ? l->rx.value : what == 1 ? l->tx.value
				   : what == 2 ? l->margin_db : l->bias.value / 1000.0;

			if (!have)
				continue;
			snprintf(lane, sizeof(lane), "%d", k + 1);
			expo_sample(b, names[what], labels[i], "lane", lane, v);
		}
	}
}

void optics_expo(struct expo_buf *b, const struct optics_port *const *p,
		 const char *const *labels, int n)
{
	char lane[8];

	expo_family(b, "ibconsole_module_readable", "gauge",
		    "1 when the port's pluggable module could be read through the kernel's ethtool interface");
	for (int i = 0; i < n; i++)
		expo_sample(b, "ibconsole_module_readable", labels[i], NULL, NULL, p[i]->readable);
	expo_family(b, "ibconsole_module_temperature_celsius", "gauge",
		    "Module temperature as the module reads it");
	for (int i = 0; i < n; i++)
		if (p[i]->readable && p[i]->m.temp.valid)
			expo_sample(b, "ibconsole_module_temperature_celsius", labels[i], NULL,
				    NULL, p[i]->m.temp.value);
	for (int what = 0; what < 4; what++)
		lane_family(b, p, labels, n, what);
	expo_family(b, "ibconsole_module_lane_flag", "gauge",
		    "1 when the lane has the flag: near_low_rx_alarm, dark, alarm, warning");
	for (int i = 0; i < n; i++) {
		if (!p[i]->readable)
			continue;
		for (int k = 0; k < p[i]->m.nlanes; k++) {
			struct expo_buf x;
			bool first = false;

			snprintf(lane, sizeof(lane), "%d", k + 1);
			expo_init(&x);
			expo_printf(&x, "%s", labels[i]);
			expo_label(&x, &first, "lane", lane);
			for (size_t f = 0; f < NJUDGED; f++)
				expo_sample(b, "ibconsole_module_lane_flag", x.p ? x.p : "", "flag",
					    judged_names[f].json,
					    (p[i]->m.lane[k].judged & judged_names[f].bit) != 0);
			expo_free(&x);
		}
	}
}

void optics_flag_words(unsigned judged, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NJUDGED && used < n; i++)
		if (judged & judged_names[i].bit)
			used += (size_t)snprintf(buf + used, n - used, "%s%s",
						 used ? ", " : "", judged_names[i].words);
}

static void fmt_val(char *buf, size_t n, bool have, double v, const char *unit)
{
	if (!have)
		snprintf(buf, n, "n/a");
	else if (isinf(v) && v < 0)
		snprintf(buf, n, "no light");
	else
		snprintf(buf, n, "%.2f %s", v, unit);
}

void optics_lane_text(const struct optics_lane *l, char *buf, size_t n)
{
	char a[32], b[32], text[96], words[128];

	fmt_val(a, sizeof(a), l->rx.valid, l->rx.value, "dBm");
	fmt_val(b, sizeof(b), l->tx.valid, l->tx.value, "dBm");
	optics_margin_text(l, text, sizeof(text));
	optics_flag_words(l->judged, words, sizeof(words));
	snprintf(buf, n, "rx %s, tx %s%s%s%s%s", a, b, text[0] ? ", " : "", text,
		 words[0] ? " — " : "", words);
}

int optics_lines(const struct optics_port *p, char (*line)[OPTICS_LINE], int max)
{
	const struct optics_module *m = &p->m;
	char a[32], b[32], lane[300];
	int n = 0;

	if (max <= 0)
		return 0;
	if (!p->readable) {
		snprintf(line[n++], OPTICS_LINE, "module: %s", p->why);
		return n;
	}
	snprintf(line[n++], OPTICS_LINE, "module: %s %s %s, serial %s", m->type,
		 m->vendor[0] ? m->vendor : "(no vendor)", m->part, m->serial);
	if (n < max) {
		fmt_val(a, sizeof(a), m->temp.valid, m->temp.value, "°C");
		fmt_val(b, sizeof(b), m->vcc.valid, m->vcc.value, "V");
		snprintf(line[n++], OPTICS_LINE, "  temperature %s, supply %s", a, b);
	}
	for (int i = 0; i < m->nlanes && n < max; i++) {
		optics_lane_text(&m->lane[i], lane, sizeof(lane));
		snprintf(line[n++], OPTICS_LINE, "  lane %d: %s", i + 1, lane);
	}
	if (m->note[0] && n < max)
		snprintf(line[n++], OPTICS_LINE, "  (%s)", m->note);
	return n;
}
