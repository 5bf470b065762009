// SPDX-License-Identifier: MIT
/* The console's counter monitor on a fixture sysfs tree (real threads,
 * the real sysfs reader): changing the interval 0.5 s -> 2 s -> 0.5 s
 * marks no sample as a gap, and shortening it cuts the wait short; a
 * snapshot collected meanwhile leaves the sysfs root alone. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/base/sysfs.h"
#include "core/base/worker.h"
#include "core/counters/monitor.h"

static char root[64];
static struct snapshot snap;
static struct port_info snap_ports[1];
static struct ctr_model model;

static void put_file(const char *rel, const char *text)
{
	char path[256], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* Waits up to limit_s for a sample newer than model.gen; returns when it
 * came (seconds), or fails. */
static double next_sample(struct monitor *m, double limit_s)
{
	double t0 = worker_now();
	unsigned long gen = model.gen;

	while (worker_now() - t0 < limit_s) {
		struct pollfd pfd = { .fd = monitor_fd(m), .events = POLLIN };

		poll(&pfd, 1, 50);
		monitor_drain(m);
		monitor_get(m, &model);
		if (model.gen != gen)
			return worker_now() - t0;
	}
	fail_msg("no sample within %.1f s", limit_s);
	return -1;
}

static void assert_no_gap(void)
{
	assert_int_equal(model.n, 1);
	for (int i = 0; i < model.dp[0].n; i++)
		if (model.dp[0].c[i].state == DELTA_GAP)
			fail_msg("%s marked as a gap (dt %.2f s, interval %.2f s)",
				 model.dp[0].c[i].name, model.dp[0].dt, model.interval_s);
}

static void test_interval_change(void **state)
{
	struct monitor *m;
	char err[200];
	double waited;

	m = monitor_start(0.5, NULL, NULL, err, sizeof(err));
	assert_non_null(m);
	monitor_set_targets(m, &snap);
	for (int i = 0; i < 3; i++)
		next_sample(m, 3.0);
	assert_true(model.dp[0].n > 0);
	/* slower: samples 2 s apart are not gaps */
	monitor_set_interval(m, 2.0);
	for (int i = 0; i < 2; i++) {
		next_sample(m, 4.0);
		assert_no_gap();
	}
	/* faster right after a sample: the next one comes in about 0.5 s,
	 * not after the rest of the old 2 s */
	monitor_set_interval(m, 0.5);
	waited = next_sample(m, 4.0);
	if (waited > 1.2)
		fail_msg("the shorter interval waited %.2f s", waited);
	assert_no_gap();
	for (int i = 0; i < 3; i++) {
		next_sample(m, 3.0);
		assert_no_gap();
	}
	monitor_stop(m);
}

static int setup(void **state)
{
	snprintf(root, sizeof(root), "/tmp/ibc-monitor-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put_file("sys/class/infiniband/fx0/ports/1/counters/port_rcv_errors", "3");
	put_file("sys/class/infiniband/fx0/ports/1/counters/port_xmit_data", "1000");
	put_file("sys/class/infiniband/fx0/ports/1/hw_counters/out_of_sequence", "0");
	sysfs_set_root(root);
	snap.ports = snap_ports;
	snap.cap = 1;
	snap.nports = 1;
	snprintf(snap.ports[0].dev, sizeof(snap.ports[0].dev), "fx0");
	snap.ports[0].port = 1;
	snprintf(snap.ports[0].link_layer, sizeof(snap.ports[0].link_layer), "Ethernet");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

/* The sampler collects snapshots while the monitor reads counters: a
 * collection must leave the root main set alone. */
static void test_collect_keeps_root(void **state)
{
	static struct snapshot s;
	struct snap_opts o = { .no_smp = true, .no_verbs = true };
	struct monitor *m;
	char err[200];

	memset(&model, 0, sizeof(model));
	m = monitor_start(0.5, NULL, NULL, err, sizeof(err));
	assert_non_null(m);
	monitor_set_targets(m, &snap);
	while (model.n != 1)		/* a sample before the targets came */
		next_sample(m, 3.0);
	for (int i = 0; i < 3; i++) {
		snapshot_collect(&s, &o, err, sizeof(err));
		assert_string_equal(sysfs_root(), root);
		next_sample(m, 3.0);
		assert_true(model.port[0].valid);
	}
	monitor_stop(m);
	snapshot_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_change),
		cmocka_unit_test(test_collect_keeps_root),
	};

	return cmocka_run_group_tests_name("monitor", tests, setup, teardown);
}
