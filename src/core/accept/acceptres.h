/* SPDX-License-Identifier: MIT */
/* The results of `accept --hosts` read back: a results directory's
 * accept.json (schema ibconsole/accept/1, mode "hosts") into the hosts,
 * the pairs and their verdicts, for the console's heat map. */
#ifndef IBC_ACCEPT_ACCEPTRES_H
#define IBC_ACCEPT_ACCEPTRES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/accept/hostlist.h"

struct acceptres_pair {
	int a, b;		/* host indexes */
	bool ok;		/* measured: bw_gbps and lat_p99_us hold figures */
	bool bad;		/* the run's verdict */
	bool retested;
	double bw_gbps, lat_p99_us;
	char why[200];		/* the bad verdict's reason, or the error */
};

struct acceptres {
	char path[512];		/* the accept.json read */
	char time[32], bw_op[8];
	uint64_t bw_size;	/* bytes */
	double accept_pct, fleet_bw_pct;	/* -1 absent */
	int nhosts;
	char host[HOSTLIST_MAX][PROTO_PEER + 8];	/* as the run named them: host:port */
	bool host_bad[HOSTLIST_MAX];
	char host_why[HOSTLIST_MAX][200];
	int npairs;
	struct acceptres_pair *pairs;	/* npairs, NULL when none */
};

/* Reads DIR/accept.json (or the file itself when path names one) into a
 * new struct; NULL with a one-line "what — what to do" in err. */
struct acceptres *acceptres_load(const char *path, char *err, size_t errlen);
void acceptres_free(struct acceptres *r);
/* The pair of hosts a and b (either order), or NULL. */
const struct acceptres_pair *acceptres_pair_of(const struct acceptres *r, int a, int b);
/* The best measured pair's bandwidth, 0 when none. */
double acceptres_best_gbps(const struct acceptres *r);

#endif
