/* SPDX-License-Identifier: MIT */
/* Screen interface: every screen is one const struct of functions that
 * draw the shared model and react to keys; app.c owns the loop. */
#ifndef IBC_SCREEN_H
#define IBC_SCREEN_H

#include <curses.h>
#include "core/port/sampler.h"
#include "core/port/snapshot.h"
#include "keymap.h"
#include "core/counters/monitor.h"

/* What the app hands every screen: the newest snapshot and how fresh. */
struct ui_ctx {
	const struct snapshot *snap;
	const struct sampler_state *st;
	double interval_s;
	const char *source;	/* header's data-source label */
	/* counters — the counter model and its worker (requests) */
	const struct ctr_model *ctr;
	struct monitor *cw;
};

enum screen_flags {
	SCREEN_HANDLED = 1 << 0,
	SCREEN_REDRAW = 1 << 1,
	SCREEN_QUIT = 1 << 2,
	SCREEN_CLOSE = 1 << 3,	/* back to the previous screen */
};

struct screen {
	const char *name;
	/* Draws below the header line (row 0 belongs to the app). */
	void (*draw)(WINDOW *win, const struct ui_ctx *c);
	int (*on_key)(int key, enum ui_action a, const struct ui_ctx *c);
	void (*on_resize)(int w, int h);
};

extern const struct screen screen_ports;
extern const struct screen screen_help;
/* counters */
extern const struct screen screen_counters;
extern const struct screen screen_events;
extern const struct screen screen_sweep;
/* The port selected on the ports screen ("" when none). */
void screen_ports_selected(char *dev, int len, int *port);

/* Fabric screen: discovery options before the first draw; the
 * discovery thread starts when the screen is first shown. */
struct fab_opts;
extern const struct screen screen_fabric;
void screen_fabric_configure(const struct fab_opts *o, double rediscover_s);
void screen_fabric_shutdown(void);
/* The fabric screen was left: its worker stops reading live counters. */
void screen_fabric_leave(void);

#endif
