// SPDX-License-Identifier: MIT
/* The console's triage worker: one worker thread per walk (or per re-run
 * step), its descriptor wakes the UI, the result handed over once. */
#include "config.h"
#include "core/triage/job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/worker.h"

struct tri_job {
	struct worker w;		/* its lock guards the fields below */
	/* copies of the options and their strings */
	struct tri_opts o;
	struct snap_opts so;
	char dev[64], peer[256], config[512], secret[256];
	unsigned runs;
	bool (*env_ok)(const struct tri_evidence *);
	/* under lock */
	char phase[96];
	bool done;
	int st;
	char err[512];
	struct tri_evidence *ev, *prev;
};

static void set_phase(struct tri_job *j, const char *p, bool done)
{
	worker_lock(&j->w);
	snprintf(j->phase, sizeof(j->phase), "%s", p);
	j->done = done;
	worker_unlock(&j->w);
	worker_notify(&j->w);
}

static void job_main(struct worker *w, void *arg)
{
	struct tri_job *j = arg;
	struct tri_evidence *ev = calloc(1, sizeof(*ev));
	char err[512] = "";
	int st;

	(void)w;

	if (!ev) {
		worker_lock(&j->w);
		j->st = 5;
		snprintf(j->err, sizeof(j->err), "out of memory");
		worker_unlock(&j->w);
		set_phase(j, "failed", true);
		return;
	}
	set_phase(j, "reading the ports, limits and the link's other end ...", false);
	st = tri_gather_local(ev, &j->o, err, sizeof(err));
	if (st) {
		free(ev);
		worker_lock(&j->w);
		j->st = st;
		snprintf(j->err, sizeof(j->err), "%s", err);
		worker_unlock(&j->w);
		set_phase(j, "failed", true);
		return;
	}
	if (j->prev) {
		/* a re-run keeps the earlier walk's other traffic runs */
		if (!(j->runs & TRI_RUN_BW1))
			ev->bw1 = j->prev->bw1;
		if (!(j->runs & TRI_RUN_BW8))
			ev->bw8 = j->prev->bw8;
		if (!(j->runs & TRI_RUN_LOAD))
			ev->load = j->prev->load;
		if (j->prev->peer_facts_valid && !j->runs) {
			ev->peer_facts_valid = true;
			ev->peer_facts = j->prev->peer_facts;
			ev->local_facts = j->prev->local_facts;
		}
	}
	if (j->runs && j->env_ok(ev)) {
		set_phase(j, j->o.peer ? "traffic runs against the peer's agent ..." :
			  "no peer: the traffic steps are skipped", false);
		tri_gather_traffic(ev, &j->o, j->runs);
	} else if (j->runs) {
		const char *why = "not run: the environment check failed";

		snprintf(ev->bw1.err, sizeof(ev->bw1.err), "%s", why);
		snprintf(ev->bw8.err, sizeof(ev->bw8.err), "%s", why);
		snprintf(ev->load.err, sizeof(ev->load.err), "%s", why);
	}
	worker_lock(&j->w);
	j->ev = ev;
	worker_unlock(&j->w);
	set_phase(j, "done", true);
}

static const char *keep(char *buf, size_t len, const char *s)
{
	if (!s)
		return NULL;
	snprintf(buf, len, "%s", s);
	return buf;
}

struct tri_job *tri_job_start(const struct tri_opts *o, const struct tri_evidence *prev,
			      unsigned runs, bool (*env_ok)(const struct tri_evidence *),
			      char *err, size_t errlen)
{
	struct tri_job *j = calloc(1, sizeof(*j));

	if (!j) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	j->o = *o;
	j->so = *o->snap;
	j->so.device = keep(j->dev, sizeof(j->dev), o->snap->device);
	j->o.snap = &j->so;
	j->o.peer = keep(j->peer, sizeof(j->peer), o->peer);
	j->o.config = keep(j->config, sizeof(j->config), o->config);
	j->o.secret = keep(j->secret, sizeof(j->secret), o->secret);
	j->runs = runs;
	j->env_ok = env_ok;
	if (prev && !(j->prev = malloc(sizeof(*prev)))) {
		free(j);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (prev)
		memcpy(j->prev, prev, sizeof(*prev));
	if (worker_init(&j->w, NULL, "triage", err, errlen)) {
		free(j->prev);
		free(j);
		return NULL;
	}
	if (worker_start(&j->w, job_main, j, "triage", err, errlen)) {
		worker_stop(&j->w);
		free(j->prev);
		free(j);
		return NULL;
	}
	return j;
}

int tri_job_fd(const struct tri_job *j)
{
	return j ? worker_fd(&j->w) : -1;
}

bool tri_job_poll(struct tri_job *j, char *phase, size_t len)
{
	bool done;

	worker_drain(&j->w);
	worker_lock(&j->w);
	snprintf(phase, len, "%s", j->phase);
	done = j->done;
	worker_unlock(&j->w);
	return done;
}

struct tri_evidence *tri_job_take(struct tri_job *j, int *st, char *err, size_t errlen)
{
	struct tri_evidence *ev;

	worker_lock(&j->w);
	ev = j->ev;
	j->ev = NULL;
	*st = j->st;
	snprintf(err, errlen, "%s", j->err);
	worker_unlock(&j->w);
	return ev;
}

void tri_job_free(struct tri_job *j)
{
	if (!j)
		return;
	/* a walk in flight finishes first (its steps have their own time-outs) */
	worker_stop(&j->w);
	free(j->ev);
	free(j->prev);
	free(j);
}
