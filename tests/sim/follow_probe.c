// SPDX-License-Identifier: MIT
/* Drives the console's sweep beside a running discovery worker on the
 * simulated fabric: the sweep must take the worker's model (no discovery
 * of its own), and a new model of the worker (discovery_request, as the
 * fabric screen's r) must reach the next sweep. Prints one line per
 * check; exits 0 when all hold, 1 otherwise. sweeper-follow.test counts
 * the NodeInfo SMPs ibsim delivered meanwhile. */
#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/base/sysfs.h"
#include "core/base/umadlock.h"
#include "core/base/worker.h"
#include "core/counters/monitor.h"
#include "core/fabric/discovery.h"
#include "core/fabric/sweeper.h"
#include "diag/sweeplisting.h"

static struct ctr_model model;

/* the sweeper's slow timer in this probe, s */
#define SLOW_S 4.0

/* Waits up to 30 s for the worker's view gen (or newer) with a model:
 * its node count, or -1. */
static int wait_view(struct discovery *w, unsigned gen)
{
	double t0 = worker_now();

	do {
		struct fabric_view *v = discovery_get(w);
		int n = v && v->gen >= gen && v->fabric ? v->fabric->nnodes : -1;

		if (v)
			discovery_put(w, v);
		if (n >= 0)
			return n;
		poll(NULL, 0, 100);
	} while (worker_now() - t0 < 30);
	return -1;
}

/* Waits up to 30 s for a sweep newer than gen. */
static bool sweep_wait(struct monitor *m, unsigned long gen)
{
	double t0 = worker_now();

	do {
		monitor_get(m, &model);
		if (model.sweep_gen > gen && !model.sweep_busy)
			return true;
		poll(NULL, 0, 100);
	} while (worker_now() - t0 < 30);
	return false;
}

/* Requests a sweep and waits up to 30 s for one newer than gen. */
static bool sweep_once(struct monitor *m, unsigned long gen)
{
	monitor_sweep(m);
	return sweep_wait(m, gen);
}

static int check(struct sweeper *swp, int nodes, unsigned long taken)
{
	struct sweeper_stats st;

	sweeper_stats(swp, &st);
	if (model.sweep_err[0] || model.sweep_nodes != nodes || st.discoveries ||
	    st.taken != taken) {
		printf("FAIL: sweep of %d nodes (worker's %d), err '%s', %lu own discoveries, %lu models taken (want 0, %lu)\n",
		       model.sweep_nodes, nodes, model.sweep_err, st.discoveries, st.taken, taken);
		return 1;
	}
	printf("ok: the sweep read %d ports of the worker's model %lu (%d nodes), no discovery of its own\n",
	       model.sweep_ports, taken, nodes);
	return 0;
}

int main(void)
{
	struct fab_opts fo = { 0 };
	struct discovery *w;
	struct monitor *m = NULL;
	struct sweeper *swp = NULL;
	struct monitor_sweeper ms;
	char err[320] = "out of memory";
	int nodes, bad = 0;

	sysfs_set_root("/");
	/* The console starts the worker's discovery and, when the sweep
	 * screen is opened at once, the first sweep while that discovery
	 * runs: held here (umad use is one span at a time under the
	 * simulator) until the sweep's first round has begun, so it meets
	 * the worker's discovery under way and must wait for its model. */
	umadlock_span_begin();
	w = discovery_start(&fo, 0, err, sizeof(err));
	swp = sweeper_new(NULL, sweeplisting_listed);
	if (swp)	/* the slow timer, short enough to see run out */
		sweeper_set_rediscover_s(swp, SLOW_S);
	ms = sweeper_for_monitor(swp);
	m = w && swp ? monitor_start(1.0, NULL, &ms, err, sizeof(err)) : NULL;
	if (m)
		monitor_sweep(m);
	poll(NULL, 0, 500);
	umadlock_span_end();
	if (!m || (nodes = wait_view(w, 1)) < 0 || !sweep_wait(m, 0)) {
		printf("FAIL: the worker's first model and the first sweep: %s\n",
		       m ? "not within 30 s" : err);
		bad = 1;
		goto out;
	}
	bad |= check(swp, nodes, 1);
	/* the worker discovers again (the fabric screen's r): the next
	 * sweep takes that model */
	discovery_request(w);
	if ((nodes = wait_view(w, 2)) < 0 || !sweep_once(m, model.sweep_gen)) {
		printf("FAIL: no second model or sweep within 30 s\n");
		bad = 1;
		goto out;
	}
	bad |= check(swp, nodes, 2);
	/* no --rediscover on the worker: once the slow timer has run out,
	 * a sweep asks the worker for a discovery and the next takes it */
	poll(NULL, 0, (int)(SLOW_S * 1000) + 500);
	if (!sweep_once(m, model.sweep_gen) || (nodes = wait_view(w, 3)) < 0 ||
	    !sweep_once(m, model.sweep_gen)) {
		printf("FAIL: the slow timer: no third model or sweep within 30 s\n");
		bad = 1;
		goto out;
	}
	bad |= check(swp, nodes, 3);
out:
	monitor_stop(m);
	sweeper_free(swp);
	discovery_stop(w);
	return bad;
}
