/* SPDX-License-Identifier: MIT */
/* The test screen's rooms share this: the form (screen_test_form.c), the
 * live run (screen_test_run.c), the result and compare (screen_test_result.c)
 * and the screen itself (screen_test.c). Not for other screens. */
#ifndef IBC_SCREEN_TEST_INT_H
#define IBC_SCREEN_TEST_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "screen.h"
#include "core/testrun/testjob.h"
#include "diag/testverdict.h"
#include "widgets.h"

enum field {
	F_PEER, F_KIND, F_OP, F_CONN, F_SIZE, F_SWEEP, F_QPS, F_BIDIR,
	F_ITERS, F_DUR, F_GID, F_PORT, F_SECRET, F_PTEST, F_N
};

enum mode { M_FORM, M_RUN, M_PICK };

struct tscreen {
	bool init;
	enum mode mode;
	int field;
	/* the form */
	char peer[128], size[24], qps[8], iters[16], dur[16], gid[8], port[8], secret[256];
	int kind, op, conn, sweep, bidir, ptest;
	bool op_set;		/* the user chose the op: kind changes keep it */
	char recent[TJ_MAX_PEERS][128];
	int nrecent, recent_i;
	char from_dev[32];
	int from_port;
	/* the run */
	struct testjob *job;
	struct tj_view *v;
	bool handled;		/* end-of-run work (verdict, record) done */
	int pane;		/* 0 result (when over), 1 counters, 2 latency */
	char record[512];
	enum tv_state vstate;
	char vline[400];
	char demo_line[160];	/* the RoCE demo's line rate, "" none */
	/* compare */
	struct tj_record_ref refs[TJ_MAX_RECORDS];
	int nrefs, refsel;
	struct record_diff *diff;
	char diffpath[512];
	double esc_at;		/* a first Esc during a run asked to cancel (mono_s) */
	bool split_seq;		/* inside an escape sequence that came split: Esc, '[' ... */
	/* one line for the user: an error with its remedy, or a note */
	char msg[480];
	enum ui_role msg_role;
};

/* The one test screen's state: its form, its run, its compare. */
extern struct tscreen tscreen;

/* screen_test.c: what every room uses */
bool tscreen_demo(void);	/* the demo fabric: no test runs */
void tscreen_note(enum ui_role r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *tscreen_human_count(uint64_t v, char *buf, size_t len);

/* screen_test_form.c: the form and starting a run from it */
void tscreen_form_init(void);
void tscreen_fabric_peer(void);
void tscreen_start(void);
void tscreen_form_draw(WINDOW *win, int w, int h);
int tscreen_form_key(int key, enum ui_action a);

/* screen_test_run.c: the live run, its panes and its keys */
void tscreen_run_draw(WINDOW *win, int w, int h);
int tscreen_run_key(int key, enum ui_action a);

/* screen_test_result.c: the verdict, the record and the compare */
void tscreen_finish(void);
void tscreen_compare_pick(void);
void tscreen_result_draw(WINDOW *win, int y, int rows, int w, const struct tj_view *v);
void tscreen_pick_draw(WINDOW *win, int y, int rows, int w);
int tscreen_pick_key(enum ui_action a);

#endif
