/* SPDX-License-Identifier: MIT */
/* A port's module as the outputs show it: the "module" JSON object, the
 * exporter's per-lane gauges and the detail pane's text lines. */
#ifndef IBC_CORE_OPTICS_REPORT_H
#define IBC_CORE_OPTICS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include "core/optics/optics.h"

struct json;
struct expo_buf;

/* One port's module, read or not: when !readable, why says why (one line). */
struct optics_port {
	bool readable;
	char why[200];
	struct optics_module m;	/* judged (optics_judge) when readable */
};

/* "module": {"readable": true, "type": …, "lanes": [ … ]} or
 * {"readable": false, "why": "…"}; numbers never stand in for unknown. */
void optics_json(struct json *j, const char *key, const struct optics_port *p);

/* Families ibconsole_module_*: readable, temperature, per lane rx / tx
 * power (dBm), rx margin to the nearest alarm (dB), bias (A), and the
 * flags; labels[i] is port p[i]'s label text (device="…",port="…"). */
void optics_expo(struct expo_buf *b, const struct optics_port *const *p,
		 const char *const *labels, int n);

/* The detail pane's lines, at most max; returns how many. */
#define OPTICS_LINE 320
int optics_lines(const struct optics_port *p, char (*line)[OPTICS_LINE], int max);

/* One lane in words: "rx -12.50 dBm, tx 0.00 dBm, 1.5 dB above the low
 * receive-power alarm — near the low receive-power alarm, warning flag set". */
void optics_lane_text(const struct optics_lane *l, char *buf, size_t n);

/* "near the low receive-power alarm, dark, alarm, warning" or "". */
void optics_flag_words(unsigned judged, char *buf, size_t n);

#endif
