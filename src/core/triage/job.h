/* SPDX-License-Identifier: MIT */
/* The console's triage worker: gathers the evidence on its own thread
 * (the local part, then the traffic runs when the environment allows),
 * and signals a descriptor the UI polls when it is done. */
#ifndef IBC_TRIAGE_JOB_H
#define IBC_TRIAGE_JOB_H

#include <stdbool.h>
#include "core/triage/gather.h"

struct tri_job;

/* Starts a job. o is copied (its strings too). prev: evidence of an
 * earlier walk whose traffic runs not in `runs` are kept (NULL: none).
 * env_ok decides whether the traffic may run. NULL with err on failure. */
struct tri_job *tri_job_start(const struct tri_opts *o, const struct tri_evidence *prev,
			      unsigned runs, bool (*env_ok)(const struct tri_evidence *),
			      char *err, size_t errlen);
/* Readable when the job finished (or changed phase); drain with tri_job_poll. */
int tri_job_fd(const struct tri_job *j);
/* The phase in words ("reading the ports", "traffic 2 of 3 ..."), and
 * whether it finished. */
bool tri_job_poll(struct tri_job *j, char *phase, size_t len);
/* After it finished: the evidence (the caller frees it) or NULL with the
 * gathering's error in err and its exit-style status returned in *st. */
struct tri_evidence *tri_job_take(struct tri_job *j, int *st, char *err, size_t errlen);
/* Joins the thread (waits for a running traffic run to time out) and frees. */
void tri_job_free(struct tri_job *j);

#endif
