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
	struct sampler *sm;	/* the port sampler (module reads on request) */
};

enum screen_flags {
	SCREEN_HANDLED = 1 << 0,
	SCREEN_REDRAW = 1 << 1,
	SCREEN_QUIT = 1 << 2,
	SCREEN_CLOSE = 1 << 3,	/* back to the previous screen */
};

/* Draw only draws: threads, requests, judgements and stderr belong in
 * enter / leave / update / on_key, which say when the screen must be
 * drawn again; the app's loop is the one place that draws. Hooks other
 * than draw and on_key may be NULL. */
struct screen {
	const char *name;
	enum keys_screen keys;	/* its rows in the key table */
	/* Draws below the header line (row 0 belongs to the app). */
	void (*draw)(WINDOW *win, const struct ui_ctx *c);
	/* A key and its action on this screen (keymap_lookup); returns
	 * SCREEN_* flags, 0 when the app should act on it. */
	int (*on_key)(int key, enum ui_action a, const struct ui_ctx *c);
	void (*on_resize)(int w, int h);
	/* It becomes the current screen / stops being it. */
	void (*enter)(const struct ui_ctx *c);
	void (*leave)(const struct ui_ctx *c);
	/* While current, after every wake-up (worker fd, key, timer): takes
	 * what its workers published; true when it must be drawn again. */
	bool (*update)(const struct ui_ctx *c);
	/* While current, a worker descriptor the app polls with the keys
	 * (readable when the worker published), or -1; drained by update. */
	int (*wake_fd)(void);
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

/* Test screen: the form, the live run on its worker and the result. */
extern const struct screen screen_test;
void screen_test_shutdown(void);	/* cancels a run, frees */
/* Triage screen: the options for its walks before the first draw; the
 * walk starts when the screen is first shown. poll takes a finished walk
 * (true when anything changed); last is its conclusion ("" none). */
struct snap_opts;
extern const struct screen screen_triage;
void screen_triage_configure(const struct snap_opts *o, const char *config);
bool screen_triage_poll(void);
/* The last walk's conclusion with its age ("MTU (step 4), 3 min ago:
 * …"); *stale when something it depends on changed since. "" none. */
const char *screen_triage_last(bool *stale);
/* Each new snapshot: a port's state, MTU or GID changing makes the walk
 * stale. */
void screen_triage_watch(const struct snapshot *s);
/* The walk is stale for another reason (a demo fault switched): why in
 * the triage title, brief in the status line. */
void screen_triage_stale(const char *why, const char *brief);
void screen_triage_shutdown(void);
/* Acceptance screen: every local card against the peer's agent on a
 * worker, and the pair heat map of an accept --hosts results directory
 * (results: DIR or its accept.json, NULL none). configure reads the
 * site's acceptance line and the results, and takes the run's iterations
 * or duration (0: accept's defaults); -1 with a one-line err when the
 * results cannot be read. */
extern const struct screen screen_accept;
int screen_accept_configure(const struct snap_opts *o, const char *config, const char *results,
			    long long iters, double duration_s, char *err, size_t errlen);
bool screen_accept_has_results(void);
void screen_accept_shutdown(void);
/* RoCE demo menu: the planted faults of --demo roce, switched by the
 * script IBCONSOLE_DEMO_FAULTS names; active when that is set. */
extern const struct screen screen_demo;
bool screen_demo_active(void);
/* The RoCE demo's measured line rate (Gb/s, 0 none), which the test and
 * acceptance screens judge against, and the line that says so. */
double screen_demo_line_rate(void);
void screen_demo_line_note(double port_gbps, char *buf, int len);
/* Starts the fabric's discovery before the screen is first shown; the
 * newest judged discovery's findings (false before one exists). */
void screen_fabric_prefetch(void);
enum fab_known { FAB_DISCOVERING, FAB_KNOWN, FAB_FAILED };
enum fab_known screen_fabric_problems(int *errors, int *warns);

#endif
