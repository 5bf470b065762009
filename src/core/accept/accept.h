/* SPDX-License-Identifier: MIT */
/* Acceptance against a reference host, without printing: the local cards
 * to test, one card's run with the local evidence that explains a slow
 * card, and the console's run of them all on a worker (progress per card,
 * cancel). `accept --ref` prints these; src/diag/accept judges them. */
#ifndef IBC_ACCEPT_ACCEPT_H
#define IBC_ACCEPT_ACCEPT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "core/agent/client.h"
#include "core/port/snapshot.h"

/* What the console knows about the local port, before any traffic. */
struct acc_evidence {
	bool below_capability;		/* width / speed trained below capability */
	char below_why[200];
	bool pcie_limits;		/* PCIe below the acceptance line */
	char pcie_why[320];
	double pcie_gts;		/* the link's figures when it limits */
	int pcie_lanes;
	double pcie_usable_gbps;	/* after encoding and TLP overhead */
	double pcie_need_gbps;		/* the data rate it must carry */
	char numa_relation[16];		/* "local", "remote", "mixed", "unknown", "" */
	int numa_node;			/* -1 unknown */
	char gid_type[16];		/* the GID used: "RoCE v2", "IB/RoCE v1", "" (IB) */
	bool roce;			/* Ethernet link layer */
	int mtu_active;			/* bytes, 0 unknown */
	int peer_mtu;			/* the other end's active MTU, 0 unknown */
};

enum accept_state {
	ACCEPT_PENDING = 0,	/* not tested yet */
	ACCEPT_RUNNING,
	ACCEPT_DONE,		/* tested, or found untestable (err) */
	ACCEPT_SKIPPED,		/* the run was cancelled before it */
};

/* One local card (port) and what became of its test. */
struct accept_card {
	char dev[PORT_STR];
	int port;		/* 0: a -d device that does not exist */
	bool found;		/* a port of the snapshot */
	enum accept_state state;
	double frac;		/* progress of its test, 0 … 1 */
	bool ran;		/* the test finished */
	int status;		/* client_run's, 0 ok */
	char err[ENG_ERR];
	double gbps, data_gbps;	/* measured; judged against (0 unknown) */
	char data_source[96];
	char ref_host[PROTO_STR], ref_dev[PROTO_NAME];
	struct acc_evidence ev;
	/* the evidence in words, for the console's pane ("" unknown) */
	char link[400];		/* trained width / speed, what it could be */
	char pcie[480];
	char numa[240];
	char gid[120];
	char mtu[240];
};

/* How the cards are tested. */
struct accept_opts {
	const char *ref;	/* the reference's agent host */
	int tcp_port;		/* 0: the agent's default */
	const char *secret;	/* NULL: none */
	int gid_index;		/* -1 automatic */
	double line_rate;	/* > 0: judge against this, not the port's */
	double timeout_s;	/* 0: 10 s */
	struct proto_params p;
	/* judges the facts of each snapshot the run collects (the diag
	 * room's portfacts_judge); NULL: none */
	void (*judge)(struct snapshot *s);
};

/* The procedure's test: send bandwidth at 64 KiB with perftest's
 * defaults; op < 0, size <= 0, iters 0 take them. */
void accept_params(int op, long long size, long long iters, double duration_s,
		   struct proto_params *p);

/* The cards of a snapshot: every port of the wanted devices (all when
 * ndevices is 0; only port `port` when it is not 0), then each wanted
 * device found nowhere as a card with its error. Returns the count (at
 * most max). */
int accept_plan(const struct snapshot *s, const char *const *devices, int ndevices, int port,
		struct accept_card *cards, int max);

/* Tests one card (pi: its port, NULL for a card not found) against the
 * reference and gathers its evidence; cr is scratch. progress / cancel
 * as in client_opts (NULL: none). */
void accept_run_card(const struct accept_opts *o, const struct port_info *pi,
		     struct accept_card *c, struct client_result *cr,
		     eng_progress_fn progress, void *arg, atomic_int *cancel);

/* ---- the console's run, on a worker ---- */

#define ACCEPT_MAX_CARDS 32

enum accept_job_state {
	ACCEPT_JOB_READING = 0,	/* reading the local ports */
	ACCEPT_JOB_RUNNING,
	ACCEPT_JOB_DONE,
	ACCEPT_JOB_FAILED,	/* err: one line */
	ACCEPT_JOB_CANCELLED,
};

/* What the UI draws; a copy, never shared with the worker. */
struct accept_view {
	unsigned long gen;
	enum accept_job_state state;
	char err[ENG_ERR];
	char ref[128];
	struct proto_params p;
	int n, cur;		/* cards; the one under test */
	struct accept_card cards[ACCEPT_MAX_CARDS];
};

struct accept_job;

/* Reads the ports (so: a snapshot with these options) and tests each in
 * turn on its own thread; NULL with err when it cannot start. Strings of
 * o and so are copied. */
struct accept_job *accept_job_start(const struct accept_opts *o, const struct snap_opts *so,
				    char *err, size_t errlen);
/* Stops the card under test (both ends free it); the rest are skipped. */
void accept_job_cancel(struct accept_job *j);
/* Copies the newest view into *v when newer than v->gen; true then. */
bool accept_job_get(struct accept_job *j, struct accept_view *v);
/* Readable when a view was published; drain after poll said so. */
int accept_job_fd(const struct accept_job *j);
void accept_job_drain(struct accept_job *j);
/* Cancels, joins and frees. NULL is fine. */
void accept_job_stop(struct accept_job *j);

#endif
