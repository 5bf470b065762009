/* SPDX-License-Identifier: MIT */
/* The ports screen's two rooms share this: the table (screen_ports.c)
 * and the detail pane of the selected port (screen_ports_detail.c). Not
 * for other screens. */
#ifndef IBC_SCREEN_PORTS_INT_H
#define IBC_SCREEN_PORTS_INT_H

#include <stdbool.h>

#include "screen.h"
#include "layout.h"

/* The console's context of the last draw (the counter cells read it). */
extern const struct ui_ctx *ports_ctx;
const char *ports_state_short(int st);	/* "Active", "n/a" */
bool ports_is_ib(const struct port_info *p);	/* not RoCE */

/* Draws the pane of snapshot port sel in frame f; m (may be NULL) gives
 * the link's bit error rates. */
void ports_detail_draw(WINDOW *win, const struct layout_frame *f,
		       const struct snapshot *s, int sel, const struct ctr_model *m);
/* Scrolls by pages (negative: up); the draw clamps the bottom. */
void ports_detail_scroll(int pages);
/* Back to the pane's top (a new port, a resize). */
void ports_detail_home(void);

#endif
