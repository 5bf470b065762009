// SPDX-License-Identifier: MIT
/* One round of an all-pairs acceptance: each pair's first agent is
 * ordered to test the second (bandwidth, then latency), every pair of
 * the round at once, each on its own thread. */
#include "config.h"
#include "core/accept/allpairs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/worker.h"

struct job {
	struct worker w;
	const struct allpairs_opts *o;
	struct allpairs_pair *p;
	bool inited;
};

static int order(const struct allpairs_opts *o, const struct allpairs_pair *p,
		 const struct proto_params *par, const char *what,
		 struct proto_order_result *r, bool *refused, char *err, size_t errlen)
{
	const struct hostlist_entry *a = &o->hosts->h[p->a], *b = &o->hosts->h[p->b];
	struct client_order_opts co = { .agent = a->host, .tcp_port = a->port, .secret = o->secret,
					.target = b->host, .target_port = b->port, .p = *par,
					.timeout_ms = o->timeout_ms, .busy_wait_ms = o->timeout_ms,
					.run_ms = o->run_ms };
	char why[ENG_ERR - 16];	/* room for "bandwidth: " */
	int st = client_order(&co, r, refused, why, sizeof(why));

	if (st)
		snprintf(err, errlen, "%s: %s", what, why);
	return st;
}

static void pair_main(struct worker *w, void *arg)
{
	struct job *j = arg;
	struct allpairs_pair *p = j->p;

	(void)w;
	p->status = order(j->o, p, &j->o->bw, "bandwidth", &p->bw, &p->refused,
			  p->err, sizeof(p->err));
	if (!p->status)
		p->status = order(j->o, p, &j->o->lat, "latency", &p->lat,
				  &p->refused, p->err, sizeof(p->err));
}

int allpairs_round(const struct allpairs_opts *o, struct allpairs_pair *pairs, int n,
		   char *err, size_t errlen)
{
	struct job *jobs = calloc((size_t)(n > 0 ? n : 1), sizeof(*jobs));
	int rc = 0;

	if (!jobs) {
		snprintf(err, errlen, "out of memory");
		for (int i = 0; i < n; i++) {
			pairs[i].status = 5;
			snprintf(pairs[i].err, sizeof(pairs[i].err), "out of memory");
		}
		return -1;
	}
	for (int i = 0; i < n; i++) {
		jobs[i].o = o;
		jobs[i].p = &pairs[i];
		pairs[i].status = 0;
		pairs[i].err[0] = '\0';
		jobs[i].inited = !worker_init(&jobs[i].w, NULL, "pair", err, errlen);
		if (!jobs[i].inited ||
		    worker_start(&jobs[i].w, pair_main, &jobs[i], "pair", err, errlen)) {
			pairs[i].status = 5;
			snprintf(pairs[i].err, sizeof(pairs[i].err), "%s", err);
			rc = -1;
		}
	}
	for (int i = 0; i < n; i++)
		if (jobs[i].inited)
			worker_stop(&jobs[i].w);	/* joins */
	free(jobs);
	return rc;
}
