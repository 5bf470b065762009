/* SPDX-License-Identifier: MIT */
/* Counter views' shared pieces: the ports table's counter cells, number
 * and rate formatting, sparklines and the thresholds the console uses. */
#ifndef IBC_CTRVIEW_H
#define IBC_CTRVIEW_H

#include <stdbool.h>
#include <stdint.h>
#include "screen.h"
#include "widgets.h"
#include "diag/rules.h"
#include "diag/thresholds.h"

enum ctrview_col { CTRVIEW_TX, CTRVIEW_RX, CTRVIEW_ERR, CTRVIEW_PEER_ERR };

/* Loads thresholds once (defaults + config file); returns a message
 * when the file is bad ("" otherwise). */
const char *ctrview_load(const char *config);
const char *ctrview_load_error(void);	/* the last ctrview_load() message */
const struct thresholds *ctrview_thresholds(void);

/* The effective bit error rate of d since its first sample (its
 * SymbolErrorCounter over lanes x lane signalling rate x seconds) as text
 * ("5e-09 over 5 s", "< 1.2e-13 over 10 min"), with the role of its level
 * (ber_watch / ber_act); false when the counter was not read. */
bool ctrview_ber(const struct delta_port *d, int lanes, double lane_gbps, char *buf, int len,
		 enum ui_role *role);

/* Judges a new counter model once (each port's verdict, the sweep's rows
 * worst first); the app calls it when the worker published one, so no
 * draw runs a rule. */
void ctrview_judge(const struct ctr_model *m);
/* The verdict of the model's port i, from the last ctrview_judge(). */
const struct verdict *ctrview_verdict(int i);
/* The verdict of port i's neighbour (level OK when it is not sampled). */
const struct verdict *ctrview_peer_verdict(int i);
/* The sweep's listed ports, worst verdict first: index into m->flag. */
struct ctrview_sweep_row {
	int idx;
	struct verdict v;
};
int ctrview_sweep_rows(const struct ctrview_sweep_row **rows);

/* Index of the model's port dev/port, -1 when absent. */
int ctrview_find(const struct ctr_model *m, const char *dev, int port);

/* Ports-table cells: TX / RX Gb/s, errors in the 10-minute window (the
 * port's own, or its neighbour's: "n/a" when it has none sampled). */
enum ui_role ctrview_cell(const struct ui_ctx *c, const struct port_info *p,
			  enum ctrview_col col, char *b, int len);

/* 1234 → "1234", 123456 → "123k", 12345678 → "12.3M". */
char *ctrview_num(uint64_t v, char *b, int len);
/* Sparkline of the newest width deltas into out (UTF-8 blocks when
 * utf8, else " .:-=+*#"), scaled to their maximum. */
void ctrview_spark(const struct delta_ctr *c, int width, bool utf8, char *out,
		   int outlen);
bool ctrview_utf8(void);

#endif
