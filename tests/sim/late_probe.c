// SPDX-License-Identifier: MIT
/* Answers that come after their PMA queries timed out, on ibsim: with
 * ibsim stopped (SIGSTOP) a round of PMA queries times out; the counter
 * reader (reader_release) or the fabric sweep (sweep_query) then lets go
 * of its PMA agent; ibsim resumes (SIGCONT) and answers the queries it
 * holds. Under umad2sim an answer that finds no agent of its class
 * crashes the process, so the probe stays alive, with no PMA agent of
 * its own, until an SMP sent after the resume has its answer: ibsim
 * answers in order, so by then every late PMA answer has arrived.
 *   late_probe reader|sweep stopped|running IBSIM_PID LID
 * "stopped": the agent is let go while ibsim is still stopped;
 * "running": ibsim resumes first. Prints what it did; exits 0 when the
 * process survived and the SMP was answered, 1 otherwise. */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/mad.h>

#include "core/counters/counters.h"
#include "core/counters/reader.h"
#include "core/fabric/sweeper.h"

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

static void *resume_later(void *arg)
{
	struct timespec ts = { 1, 500000000 };

	(void)arg;
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

		if (pthread_create(&th, NULL, resume_later, NULL)) {
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

int main(int argc, char **argv)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	uint8_t ni[IB_SMP_DATA_SIZE];
	struct ibmad_port *mp;
	ib_portid_t id;
	unsigned lid;
	bool stopped;
	int rc;

	if (argc != 5 || (strcmp(argv[1], "reader") && strcmp(argv[1], "sweep")) ||
	    (strcmp(argv[2], "stopped") && strcmp(argv[2], "running"))) {
		fprintf(stderr, "usage: late_probe reader|sweep stopped|running IBSIM_PID LID\n");
		return 2;
	}
	stopped = !strcmp(argv[2], "stopped");
	ibsim = atoi(argv[3]);
	lid = (unsigned)atoi(argv[4]);
	rc = !strcmp(argv[1], "reader") ? via_reader(stopped, lid) : via_sweep(stopped);
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
