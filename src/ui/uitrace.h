/* SPDX-License-Identifier: MIT */
/* The console loop's own time, for key-latency work: with
 * IBCONSOLE_UI_TRACE=FILE set, every turn of the loop that did work
 * writes one line to FILE saying how long each phase took on the UI
 * thread (wall and thread CPU time) and which keys it read. A key's
 * in-process latency is the wall time of the turn that read it, from
 * poll() returning to the draw that shows it; wall above CPU is time the
 * thread did not run: waiting for a core (the line's runq), for a lock
 * or for the terminal. Unset, every call is a test of one flag. */
#ifndef IBC_UI_UITRACE_H
#define IBC_UI_UITRACE_H

enum uitrace_phase {
	UITRACE_KEYS,		/* reading and acting on keys */
	UITRACE_MODELS,		/* taking the workers' models, judging them */
	UITRACE_UPDATE,		/* the current screen's update hook */
	UITRACE_DRAW,		/* laying out and writing the screen */
	UITRACE_N
};

/* Opens FILE from the environment (no-op when unset or unwritable). */
void uitrace_open(void);
void uitrace_close(void);
/* poll() returned: a turn's work starts. */
void uitrace_begin(void);
/* Phase p ended now (its time is since the previous mark). */
void uitrace_mark(enum uitrace_phase p);
/* A key read in this turn. */
void uitrace_key(int key);
/* The turn's work ended (the screen is drawn, poll() comes next): its
 * line is written when it read a key or took 1 ms or more. */
void uitrace_end(const char *screen);

#endif
