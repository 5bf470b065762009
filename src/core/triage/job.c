// SPDX-License-Identifier: MIT
/* The console's triage worker: one thread per walk (or per re-run step),
 * a pipe that wakes the UI, the result handed over once. */
#include "config.h"
#include "core/triage/job.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tri_job {
	pthread_t th;
	pthread_mutex_t lock;
	int pipe[2];
	/* copies of the options and their strings */
	struct tri_opts o;
	struct snap_opts so;
	char root[512], dev[64], peer[256], config[512], secret[256];
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
	pthread_mutex_lock(&j->lock);
	snprintf(j->phase, sizeof(j->phase), "%s", p);
	j->done = done;
	pthread_mutex_unlock(&j->lock);
	if (write(j->pipe[1], "", 1) < 0 && errno != EAGAIN) {
		/* the UI polls on time-outs too: a lost wake-up only delays */
	}
}

static void *job_main(void *arg)
{
	struct tri_job *j = arg;
	struct tri_evidence *ev = calloc(1, sizeof(*ev));
	char err[512] = "";
	int st;

	if (!ev) {
		pthread_mutex_lock(&j->lock);
		j->st = 5;
		snprintf(j->err, sizeof(j->err), "out of memory");
		pthread_mutex_unlock(&j->lock);
		set_phase(j, "failed", true);
		return NULL;
	}
	set_phase(j, "reading the ports, limits and the link's other end ...", false);
	st = tri_gather_local(ev, &j->o, err, sizeof(err));
	if (st) {
		free(ev);
		pthread_mutex_lock(&j->lock);
		j->st = st;
		snprintf(j->err, sizeof(j->err), "%s", err);
		pthread_mutex_unlock(&j->lock);
		set_phase(j, "failed", true);
		return NULL;
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
	pthread_mutex_lock(&j->lock);
	j->ev = ev;
	pthread_mutex_unlock(&j->lock);
	set_phase(j, "done", true);
	return NULL;
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
	j->so.sysfs_root = keep(j->root, sizeof(j->root), o->snap->sysfs_root);
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
	pthread_mutex_init(&j->lock, NULL);
	if (pipe2(j->pipe, O_CLOEXEC | O_NONBLOCK)) {
		snprintf(err, errlen, "cannot start the triage: pipe: %s", strerror(errno));
		free(j->prev);
		free(j);
		return NULL;
	}
	if (pthread_create(&j->th, NULL, job_main, j)) {
		snprintf(err, errlen, "cannot start the triage: no thread");
		close(j->pipe[0]);
		close(j->pipe[1]);
		free(j->prev);
		free(j);
		return NULL;
	}
	return j;
}

int tri_job_fd(const struct tri_job *j)
{
	return j ? j->pipe[0] : -1;
}

bool tri_job_poll(struct tri_job *j, char *phase, size_t len)
{
	char buf[64];
	bool done;

	while (read(j->pipe[0], buf, sizeof(buf)) > 0)
		;
	pthread_mutex_lock(&j->lock);
	snprintf(phase, len, "%s", j->phase);
	done = j->done;
	pthread_mutex_unlock(&j->lock);
	return done;
}

struct tri_evidence *tri_job_take(struct tri_job *j, int *st, char *err, size_t errlen)
{
	struct tri_evidence *ev;

	pthread_mutex_lock(&j->lock);
	ev = j->ev;
	j->ev = NULL;
	*st = j->st;
	snprintf(err, errlen, "%s", j->err);
	pthread_mutex_unlock(&j->lock);
	return ev;
}

void tri_job_free(struct tri_job *j)
{
	if (!j)
		return;
	pthread_join(j->th, NULL);
	close(j->pipe[0]);
	close(j->pipe[1]);
	pthread_mutex_destroy(&j->lock);
	free(j->ev);
	free(j->prev);
	free(j);
}
