/* SPDX-License-Identifier: MIT */
/* Serialises umad use under ibsim's umad2sim preload, which routes every
 * answer of a management class to the one descriptor that registered it
 * last and crashes when that one has closed: with the sampler, the
 * counter worker and the sweep in one process, only one may talk at a
 * time there. On real devices spans cost nothing. */
#ifndef IBC_BASE_UMADLOCK_H
#define IBC_BASE_UMADLOCK_H

#include <stdbool.h>

/* True when running under the umad2sim preload. */
bool umadlock_sim(void);
/* A span of umad use (open … queries … close); recursive; a no-op
 * outside the simulator. */
void umadlock_span_begin(void);
void umadlock_span_end(void);

/*
 * Late answers. Under umad2sim an answer that arrives after the agent of
 * its class has closed crashes the process: umad2sim's receiver thread
 * looks up the class's descriptor, finds none, and locks through a NULL
 * pointer. ibsim answers MADs one at a time in the order they came, so
 * once a query sent after all the others has its answer, and was sent
 * only once (answered within its time-out, so no retry is left in
 * flight), no earlier query can still be answered: a fence. A handle
 * that cannot be fenced is parked, its agents left registered so that
 * its late answers find one, until a later fence proves they have all
 * come. Real devices need none of this: the kernel drops answers for a
 * closed agent.
 */
/* May the handle whose queries were late (some unanswered, or answered
 * only after their time-out) be closed? fence(arg) sends one query after
 * all the others and returns 0 when it is answered; up to 4 are sent,
 * each given timeout_ms. Always true off the simulator, and for a handle
 * that was not late; it then sends a fence only while handles are
 * parked. A fence answered in time closes the parked handles. */
bool umadlock_fenced(bool late, int timeout_ms, int (*fence)(void *arg), void *arg);
/* close(h) when fenced, else h is parked (closed by a later fence). */
void umadlock_let_go(void *h, void (*close)(void *h), bool fenced);
/* How many handles are parked. */
int umadlock_parked(void);

#endif
