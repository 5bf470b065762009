/* SPDX-License-Identifier: MIT */
/* Triage evidence gathering: the local part (snapshot, host limits and
 * settings, the link's other end, config) and the traffic part (runs
 * against the peer's agent); blocking, so the console calls it from a
 * worker thread. Judging the evidence is src/diag's business. */
#ifndef IBC_TRIAGE_GATHER_H
#define IBC_TRIAGE_GATHER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/port/snapshot.h"
#include "core/triage/evidence.h"

struct tri_opts {
	const struct snap_opts *snap;	/* sysfs root, -d, -i, --no-smp */
	const char *config;		/* --config, NULL: the default path */
	const char *peer;		/* agent host, NULL: none */
	int tcp_port;			/* 0: the agent's default */
	const char *secret;		/* NULL: none */
	double timeout_s;		/* 0: 10 s */
	int gid_index;			/* -1: automatic */
	double duration_s;		/* per traffic run, 0: 2 s */
	/* what the path is known to carry (Gb/s of data, 0: none) and where
	 * the figure comes from ("the demo's wire, measured at boot") */
	double line_gbps;
	char line_origin[96];
	/* judges the facts of the snapshot (the diag room's
	 * portfacts_judge); NULL: none */
	void (*judge)(struct snapshot *s);
	/* the host-tool probes; NULL: the real ones (tri_probes_real) */
	const struct tri_probes *probes;
};

/* NetworkManager's and the firewall's view, each asked of its own tool
 * (nmcli; nft, else iptables-save) with a time-out: fill env->nm /
 * nm_line and env->firewall / fw_line. */
struct tri_probes {
	void (*nm)(struct tri_hostenv *env, const char *netdev);
	void (*firewall)(struct tri_hostenv *env);
};
extern const struct tri_probes tri_probes_real;

/* Traffic runs: bandwidth at 1 QP, at 8 QPs, and 8 QPs both ways. */
enum { TRI_RUN_BW1 = 1, TRI_RUN_BW8 = 2, TRI_RUN_LOAD = 4, TRI_RUN_ALL = 7 };
#define TRI_LOAD_QPS 8
#define TRI_RUN_SIZE 65536

/* Fills the local evidence. Returns 0, or 3 (no device / no such port)
 * or 5 with a one-line "<what>: <why> — <what to do>" in err. */
int tri_gather_local(struct tri_evidence *ev, const struct tri_opts *o, char *err, size_t errlen);
/* Runs the chosen traffic runs against o->peer (none given: each says
 * so in its err). Call only when the environment allows tests. */
void tri_gather_traffic(struct tri_evidence *ev, const struct tri_opts *o, unsigned runs);
/* The site's expected rate from the config file ("triage.expected_rate_gbps
 * = N"); 0 when none. origin names the file and line. */
double tri_expected_rate(const char *config, char *origin, size_t len, char *err, size_t errlen);

#endif
