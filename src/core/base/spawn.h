/* SPDX-License-Identifier: MIT */
/* Spawn: run a short helper program, its output captured and its run
 * bounded by a time-out, polled from a loop (its descriptor becomes
 * readable when it wrote or ended); nothing reaches the terminal. */
#ifndef IBC_BASE_SPAWN_H
#define IBC_BASE_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SPAWN_OUT 4096

struct spawn {
	pid_t pid;
	int fd;			/* the child's stdout + stderr; -1: none */
	double deadline;	/* CLOCK_MONOTONIC s */
	size_t n;
	char out[SPAWN_OUT];	/* NUL-terminated, cut at SPAWN_OUT - 1 */
	bool running;
};

/* Starts argv[0] (a path) with argv, stdin /dev/null. Returns 0, or -1
 * with the reason in s->out. */
int spawn_start(struct spawn *s, char *const argv[], double timeout_s);
/* Reads what is there without blocking; when the child has ended (or ran
 * past its time-out: then SIGKILL) reaps it and returns true with its exit
 * status in *rc (128 + signal when a signal ended it, -1 with the reason
 * in s->out for a time-out). */
bool spawn_poll(struct spawn *s, int *rc);
/* Kills and reaps a running child. */
void spawn_cancel(struct spawn *s);

#endif
