// SPDX-License-Identifier: MIT
/* Drives the console's counter monitor on the simulated fabric: a sweep
 * on request, then monitor_sweep_stop() (the sweep screen was left) must
 * stop the 10 s repeats until the next request. Prints one line per
 * check; exits 0 when all hold, 1 otherwise. */
#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/base/sysfs.h"
#include "core/base/worker.h"
#include "core/counters/monitor.h"
#include "core/fabric/sweeper.h"
#include "diag/sweeplisting.h"

static struct ctr_model model;

/* Waits up to limit_s until pred holds on the newest model. */
static bool wait_model(struct monitor *m, double limit_s,
		       bool (*pred)(const struct ctr_model *, unsigned long),
		       unsigned long arg)
{
	double t0 = worker_now();

	do {
		struct pollfd pfd = { .fd = monitor_fd(m), .events = POLLIN };

		monitor_get(m, &model);
		if (pred(&model, arg))
			return true;
		poll(&pfd, 1, 100);
		monitor_drain(m);
	} while (worker_now() - t0 < limit_s);
	monitor_get(m, &model);
	return pred(&model, arg);
}

static bool swept_beyond(const struct ctr_model *x, unsigned long gen)
{
	return x->sweep_gen > gen && !x->sweep_busy;
}

int main(void)
{
	struct monitor *m;
	struct sweeper *swp;
	struct monitor_sweeper ms;
	char err[240] = "out of memory";
	unsigned long gen;
	int bad = 0;

	sysfs_set_root("/");
	swp = sweeper_new(NULL, sweeplisting_listed);
	ms = sweeper_for_monitor(swp);
	m = swp ? monitor_start(1.0, NULL, &ms, err, sizeof(err)) : NULL;
	if (!m) {
		printf("FAIL: monitor_start: %s\n", err);
		return 1;
	}
	monitor_sweep(m);
	if (!wait_model(m, 30, swept_beyond, 0) || model.sweep_err[0] || !model.sweep_ports) {
		printf("FAIL: first sweep: gen %lu, %d ports, err '%s'\n", model.sweep_gen,
		       model.sweep_ports, model.sweep_err);
		monitor_stop(m);
		sweeper_free(swp);
		return 1;
	}
	printf("ok: first sweep: %d nodes, %d ports\n", model.sweep_nodes, model.sweep_ports);
	/* still wanted: it repeats after 10 s */
	gen = model.sweep_gen;
	if (wait_model(m, 15, swept_beyond, gen))
		printf("ok: the sweep repeats while wanted\n");
	else
		printf("FAIL: no repeat within 15 s\n"), bad++;
	/* the screen is left: nothing for 13 s */
	monitor_sweep_stop(m);
	wait_model(m, 5, swept_beyond, model.sweep_gen);	/* one in flight ends */
	gen = model.sweep_gen;
	if (wait_model(m, 13, swept_beyond, gen))
		printf("FAIL: swept again after monitor_sweep_stop (gen %lu -> %lu)\n",
		       gen, model.sweep_gen), bad++;
	else
		printf("ok: no sweep for 13 s after monitor_sweep_stop\n");
	/* a new request sweeps at once */
	monitor_sweep(m);
	if (wait_model(m, 10, swept_beyond, gen))
		printf("ok: a new request sweeps again\n");
	else
		printf("FAIL: no sweep after a new request\n"), bad++;
	monitor_stop(m);
	sweeper_free(swp);
	return bad ? 1 : 0;
}
