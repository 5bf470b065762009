/* SPDX-License-Identifier: MIT */
/* Triage evidence: everything the seven-step triage judges, as plain data
 * with a reason for every part that could not be gathered. */
#ifndef IBC_TRIAGE_EVIDENCE_H
#define IBC_TRIAGE_EVIDENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/agent/proto.h"
#include "core/counters/testctr.h"
#include "core/counters/counters.h"
#include "core/fabric/fabric.h"
#include "core/port/port.h"

#define TRI_TEXT 240
#define TRI_MAX_PORTS 16

/* One local port as the environment check sees it. */
struct tri_portstate {
	char dev[PORT_STR];
	int port;
	int state, phys_state;		/* codes, 0 unknown */
	char link_layer[24];
	char netdev[32];		/* "" none */
	bool under_test;
};

struct tri_memlock {
	bool valid;			/* limit read */
	char why[TRI_TEXT];
	bool unlimited;
	uint64_t limit_bytes;		/* soft RLIMIT_MEMLOCK */
	bool cap_ipc_lock;		/* effective CAP_IPC_LOCK */
	uint64_t need_bytes;		/* what the triage's tests lock */
};

struct tri_hostenv {
	char governor[32];		/* "performance", "" unknown */
	int gov_cpus, gov_other;	/* CPUs read, of them not on governor */
	char governor_why[TRI_TEXT];
	int irqbalance;			/* -1 unknown, 0 not running, 1 running */
	char driver[PROTO_NAME];	/* local facts (also in local_facts) */
	char driver_version[PROTO_NAME];	/* see proto_facts; "" unknown */
	/* NetworkManager and the firewall, as their own tools print them */
	int nm;				/* -1 unknown, 0 not managing it / not running, 1 managing */
	char nm_line[TRI_TEXT];
	int firewall;			/* -1 not read, 0 nothing drops UDP 4791, 1 drops it */
	char fw_line[TRI_TEXT];
};

/* The other end of the local port's link (InfiniBand, from a one-hop
 * discovery): both ends' PortInfo as libibnetdisc read them. */
struct tri_link {
	bool valid;
	char why[TRI_TEXT];
	char local_name[96], peer_name[96];	/* "node07 HCA-1"[1], "leaf02"[2] */
	struct fab_port local, peer;
};

/* One traffic run against the peer's agent. */
struct tri_traffic {
	bool ran;			/* attempted */
	bool ok;
	bool broke;			/* the transfer started and broke off (a QP
					 * error): the counters cover it up to then */
	char err[TRI_TEXT];		/* why it failed or was not run */
	uint32_t qps;
	bool bidir;
	uint64_t size;
	double gbps;			/* average, both directions summed when bidir */
	struct testctr local_ctr, peer_ctr;	/* deltas over the run */
	int numa_node;			/* the HCA's node the engine used, -1 unknown */
	bool numa_placed;		/* thread and buffers on it */
	char numa_note[128];
};

/* Both ends' error counters sampled twice, the triage's window apart
 * (step 1 judges their increments per 10 minutes, as the counter rules). */
#define TRI_ERROR_WINDOW_S 5.0
struct tri_errors {
	bool local_valid, peer_valid;
	char why[TRI_TEXT], peer_why[TRI_TEXT];	/* why a side is missing */
	char peer_label[64];
	double t0, span_s;			/* monotonic start, seconds between */
	struct counter_set local_prev, local_cur, peer_prev, peer_cur;
};

struct tri_evidence {
	char host[64];
	char time[32];			/* ISO-8601 UTC of the gathering */
	char sysfs_root[128];

	/* environment */
	int nports;
	struct tri_portstate ports[TRI_MAX_PORTS];
	bool local_valid;		/* the port under triage was found */
	char local_why[TRI_TEXT];
	struct port_info local;
	struct tri_memlock memlock;
	struct tri_hostenv env;

	/* step 1 */
	struct tri_link link;
	struct tri_errors errors;
	double expected_rate_gbps;	/* site's expected rate, 0 none */
	char expected_origin[128];
	/* what the path is known to carry (data, Gb/s; 0 none) and whence;
	 * step 1 compares the measured rate with it */
	double line_gbps;
	char line_origin[96];
	/* below this fraction of line_gbps the path is slow
	 * (triage.path_rate_min; 0: the default) */
	double path_rate_min;
	/* step 7: 8 QPs carrying this many times one QP is a single-QP
	 * limit (triage.qp_gain; 0: the default) */
	double qp_gain;
	/* the config's bit error rate levels (ber_watch, ber_act), 0: the
	 * defaults */
	double ber_watch, ber_act;

	/* peer (agent) */
	char peer[128];			/* "" none given */
	bool peer_facts_valid;
	char peer_why[TRI_TEXT];
	struct proto_facts local_facts, peer_facts;

	/* step 3: -x given on the command line, -1 automatic */
	int gid_given;

	/* step 5: the port's counters/ and hw_counters/ once (the rules pick
	 * the pause / ECN / CNP ones) and DCB / trust settings where exposed */
	struct testctr counters;
	char dcb[TRI_TEXT];		/* trust / PFC settings read, "" none */
	char dcb_why[TRI_TEXT];

	/* traffic: 1 QP, 8 QPs, 8 QPs bidirectional (load) */
	struct tri_traffic bw1, bw8, load;
};

#endif
