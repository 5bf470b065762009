// SPDX-License-Identifier: MIT
/* Answers that come after their queries timed out, on ibsim. PMA: with
 * ibsim stopped (SIGSTOP) a round of PMA queries times out; the counter
 * reader (reader_release) or the fabric sweep (sweep_query) then lets go
 * of its PMA agent; ibsim resumes (SIGCONT) and answers the queries it
 * holds. SMP: the same for the snapshot's SMP reads of the local port,
 * the port state poll and libibnetdisc's discovery. Under umad2sim an
 * answer that finds no agent of its class crashes the process, so the
 * probe stays alive until a query of the other class (sent after the
 * resume, on an agent that cannot have taken the late answers) has its
 * answer: ibsim answers in order, so by then every late answer has come.
 *   late_probe reader|sweep|snapshot|poll|fabric stopped|running IBSIM_PID LID
 * "stopped": the agent is let go while ibsim is still stopped (an SMP
 * agent is then parked, and let go by the next read's fence);
 * "running": ibsim resumes first, during the fence. Prints what it did;
 * exits 0 when the process survived and the last query was answered, 1
 * otherwise. */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/mad.h>

#include "core/base/umadlock.h"
#include "core/counters/counters.h"
#include "core/counters/reader.h"
#include "core/fabric/fabric.h"
#include "core/fabric/sweeper.h"
#include "core/port/events.h"
#include "core/port/snapshot.h"

static int ibsim;

static void pause_sim(bool stop)
{
	if (kill(ibsim, stop ? SIGSTOP : SIGCONT)) {
		perror("late_probe: kill ibsim");
		exit(1);
	}
}

/* The reader: one good read, then one that times out. */
static int via_reader(bool stopped, unsigned lid)
{
	struct ctr_reader *r = reader_open();
	struct ctr_target t;
	struct counter_set cs;

	memset(&t, 0, sizeof(t));
	snprintf(t.label, sizeof(t.label), "lid %u port 1", lid);
	snprintf(t.dev, sizeof(t.dev), "ibsim0");
	t.port = 1;
	t.lid = lid;
	t.pma_port = 1;
	t.remote = true;
	if (!r || reader_read(r, &t, &cs) || !cs.valid) {
		printf("FAIL: the first read, ibsim running: %s\n", r ? cs.why : "out of memory");
		return 1;
	}
	pause_sim(true);
	if (!reader_read(r, &t, &cs) && cs.valid) {
		printf("FAIL: a read answered while ibsim was stopped\n");
		return 1;
	}
	printf("ok: read timed out with ibsim stopped (%s)\n", cs.why);
	if (!stopped)
		pause_sim(false);
	reader_release(r);
	if (stopped)
		pause_sim(false);
	reader_close(r);
	return 0;
}

/* Resumes ibsim arg (an intptr_t) ms from now. */
static void *resume_later(void *arg)
{
	intptr_t ms = (intptr_t)arg;
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
	pause_sim(false);
	return NULL;
}

/* The fabric sweep: one round discovers and reads, the next times out. */
static int via_sweep(bool stopped)
{
	struct sweeper_opts o = { .so = { .dev = "ibsim0", .port = 1 } };
	struct sweeper *s = sweeper_open(&o);
	char err[300] = "";
	int rc;

	if (!s || sweeper_query(s, err, sizeof(err))) {
		printf("FAIL: the first sweep, ibsim running: %s\n", s ? err : "out of memory");
		sweeper_free(s);
		return 1;
	}
	pause_sim(true);
	if (!stopped) {
		/* resume after the round's queries have timed out (3 sends of
		 * 300 ms each), while the sweep fences */
		pthread_t th;

		if (pthread_create(&th, NULL, resume_later, (void *)(intptr_t)1500)) {
			printf("FAIL: no thread\n");
			return 1;
		}
		rc = sweeper_query(s, err, sizeof(err));
		pthread_join(th, NULL);
	} else {
		rc = sweeper_query(s, err, sizeof(err));
		pause_sim(false);
	}
	printf("ok: the sweep with ibsim stopped ended (%d: %s, %lu MADs failed)\n", rc,
	       err, sweeper_sweep(s) ? sweeper_sweep(s)->mads_failed : 0UL);
	sweeper_free(s);
	return 0;
}

/* The local port's SMP reads (the snapshot's PortInfo and neighbour):
 * 0 when they were answered. */
static int smp_snapshot(void)
{
	struct snap_opts o = { .device = "ibsim0", .port = 1 };
	struct snapshot s;
	char err[300] = "";
	int rc;

	memset(&s, 0, sizeof(s));
	rc = snapshot_collect(&s, &o, err, sizeof(err)) || s.nports != 1 ||
	     strcmp(s.ports[0].mtu_source, "smp");
	printf("  snapshot: %s\n", rc ? "no SMP answer" : "PortInfo by SMP");
	snapshot_release(&s);
	return rc;
}

/* The port state poll (the monitor's port events): its SMP falls back
 * on sysfs, so the time it took tells. */
static int smp_poll(void)
{
	int state, phys;

	return events_poll_state("ibsim0", 1, false, &state, &phys);
}

/* libibnetdisc's discovery. */
static int smp_fabric(void)
{
	struct fab_opts o = { .ca = "ibsim0", .ca_port = 1, .timeout_ms = 300, .retries = 2 };
	char err[320] = "";
	struct fabric *f = fabric_discover(&o, err, sizeof(err));

	printf("  fabric: %s\n", f ? "discovered" : err);
	fabric_free(f);
	return f ? 0 : 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* SMP reads: one answered with ibsim running, then one whose SMP times
 * out (it waits at least the shortest time-out, 300 ms). "running":
 * ibsim resumes resume_ms after the stop, once that time-out is over,
 * while the reader lets go. */
static int via_smp(int (*read)(void), const char *what, bool stopped, bool must_answer,
		   int resume_ms)
{
	pthread_t th;
	double t;

	if (read() && must_answer) {
		printf("FAIL: the first %s, ibsim running\n", what);
		return 1;
	}
	pause_sim(true);
	if (!stopped && pthread_create(&th, NULL, resume_later, (void *)(intptr_t)resume_ms)) {
		pause_sim(false);
		printf("FAIL: no thread\n");
		return 1;
	}
	t = now_s();
	if (!read() && must_answer) {
		printf("FAIL: a %s answered while ibsim was stopped\n", what);
		stopped = true;
	}
	t = now_s() - t;
	if (stopped)
		pause_sim(false);
	else
		pthread_join(th, NULL);
	if (t < 0.3) {
		printf("FAIL: the %s with ibsim stopped took %.0f ms: no SMP waited\n", what, t * 1e3);
		return 1;
	}
	printf("ok: %s with ibsim stopped waited %.1f s\n", what, t);
	/* resumed in time, a fence let the agent go; else it is kept */
	if (umadlock_parked() != (stopped ? 1 : 0)) {
		printf("FAIL: %d SMP agents parked, want %d\n", umadlock_parked(), stopped ? 1 : 0);
		return 1;
	}
	printf("ok: %s\n", stopped ? "its agent parked" : "fenced, its agent closed");
	/* ibsim answers again: the next read's fence lets the parked one go */
	if (stopped && (read() && must_answer)) {
		printf("FAIL: a %s after the resume\n", what);
		return 1;
	}
	if (umadlock_parked()) {
		printf("FAIL: %d SMP agents still parked after a %s answered\n", umadlock_parked(), what);
		return 1;
	}
	return 0;
}

/* An SMP agent registered after the late answers would take them, so
 * the mark that they have all come is a PMA answer, on an agent opened
 * before any SMP was sent (a descriptor opened afterwards could take
 * the slot of the one the answers look for). */
static int smp_case(const char *how, bool stopped, unsigned lid)
{
	uint8_t buf[IB_PC_DATA_SZ];
	char why[300] = "";
	struct pma_client *c = pma_open("ibsim0", 1, 5000, why, sizeof(why));
	int rc;

	if (!c) {
		printf("FAIL: no PMA agent: %s\n", why);
		return 1;
	}
	if (!strcmp(how, "snapshot"))
		rc = via_smp(smp_snapshot, "snapshot", stopped, true, 700);
	else if (!strcmp(how, "poll"))
		rc = via_smp(smp_poll, "port state poll", stopped, false, 1000);
	else
		rc = via_smp(smp_fabric, "fabric discovery", stopped, true, 700);
	if (!rc) {
		rc = pma_get(c, lid, 1, CLASS_PORT_INFO, buf, why, sizeof(why)) ? 1 : 0;
		printf("%s: PMA ClassPortInfo of LID %u after the late answers %s\n", rc ? "FAIL" : "ok",
		       lid, why);
	}
	pma_close(c);
	return rc;
}

/* The PMA cases' mark: an SMP answer, sent after the resume. */
static int pma_case(const char *how, bool stopped, unsigned lid)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	uint8_t ni[IB_SMP_DATA_SIZE];
	struct ibmad_port *mp;
	ib_portid_t id;
	int rc = !strcmp(how, "reader") ? via_reader(stopped, lid) : via_sweep(stopped);

	if (rc)
		return rc;
	/* the late answers come before this one's */
	mp = mad_rpc_open_port("ibsim0", 1, classes, 2);
	if (!mp) {
		printf("FAIL: no SMP agent\n");
		return 1;
	}
	memset(&id, 0, sizeof(id));
	id.lid = (int)lid;
	rc = smp_query_via(ni, &id, IB_ATTR_NODE_INFO, 0, 5000, mp) ? 0 : 1;
	mad_rpc_close_port(mp);
	printf("%s: NodeInfo of LID %u after the late answers\n", rc ? "FAIL" : "ok", lid);
	return rc;
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "reader", "sweep", "snapshot", "poll", "fabric" };
	int m = 0;

	while (argc == 5 && m < 5 && strcmp(argv[1], modes[m]))
		m++;
	if (argc != 5 || m == 5 || (strcmp(argv[2], "stopped") && strcmp(argv[2], "running"))) {
		fprintf(stderr, "usage: late_probe reader|sweep|snapshot|poll|fabric stopped|running IBSIM_PID LID\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);	/* what it did, up to a crash */
	ibsim = atoi(argv[3]);
	if (m < 2)
		return pma_case(argv[1], !strcmp(argv[2], "stopped"), (unsigned)atoi(argv[4]));
	return smp_case(argv[1], !strcmp(argv[2], "stopped"), (unsigned)atoi(argv[4]));
}
