/* SPDX-License-Identifier: MIT */
/* A test run on a worker thread for the console: runs the test client
 * (or the TCP baseline), publishes an immutable progress view — per-second
 * Gb/s, message rate, the latency histogram so far, both ends' counter
 * deltas with the moment each last rose, the facts of both ends — wakes a
 * descriptor the UI polls, and can be cancelled. */
#ifndef IBC_TESTRUN_TESTJOB_H
#define IBC_TESTRUN_TESTJOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/agent/client.h"
#include "core/testrun/record.h"

#define TJ_SECONDS 3600		/* per-second history kept (one hour) */
#define TJ_KIND_TCP 3		/* beside proto's KIND_BW / LAT / RATE */

enum tj_state {
	TJ_IDLE = 0,
	TJ_CONNECTING,		/* local resources, agent handshake */
	TJ_RUNNING,		/* traffic flows */
	TJ_CANCELLING,		/* asked to stop, both ends releasing */
	TJ_DONE,
	TJ_FAILED,
	TJ_CANCELLED,
};

/* One counter of one end: delta since the test started and when it last
 * rose (seconds since the start, < 0 never). */
struct tj_ctr {
	char name[PROTO_NAME];
	uint64_t delta;
	uint64_t rate_per_s;	/* over the last sample interval */
	double rose_at;
};

struct tj_side {
	bool valid;		/* sampled at least once */
	uint32_t n;
	struct tj_ctr c[PROTO_MAX_COUNTERS];
};

struct tj_opts {
	struct client_opts c;	/* peer, ports, parameters; progress is ours */
	int kind;		/* KIND_BW / LAT / RATE, or TJ_KIND_TCP */
	uint32_t tcp_seconds;	/* tcp: stream duration */
};

/* What the UI draws; a copy, never shared with the worker. */
struct tj_view {
	unsigned long gen;
	enum tj_state state;
	int status;		/* exit status of the run (0 ok) */
	char err[ENG_ERR];	/* one line, when FAILED */
	struct tj_opts o;	/* as started (secret cleared) */
	char peer[128];
	double t_s;		/* seconds since the start */
	int phase, nphases;	/* current phase (size) of a sweep, 0-based */
	uint64_t size;		/* current message size */
	uint64_t msgs;		/* completed in the current phase */
	uint64_t msgs_goal;	/* iterations × QPs, 0 when by duration */
	double now_gbps, now_mpps, peak_gbps;
	/* latency tests: the current phase's samples so far (lat.n 0: none) */
	struct eng_lat_live lat;
	uint64_t bytes_total;	/* over every phase so far */
	int nsec;		/* per-second samples in gbps[] / mpps[] */
	float gbps[TJ_SECONDS];
	float mpps[TJ_SECONDS];
	bool have_facts;	/* info / local / peer below are filled */
	struct eng_info info;
	struct proto_facts local, peer_facts;
	struct tj_side lctr, pctr;	/* local and peer counter deltas */
	/* DONE: the whole result (tcp: only bytes / seconds below) */
	struct client_result res;
	double tcp_gbps;	/* tcp: the receiver's figure */
	uint64_t tcp_bytes;
	double tcp_s;
};

/* A test as chosen on the command line or the console's form; unset
 * fields (-1, 0) take perftest's defaults. */
struct tj_choice {
	int kind;		/* KIND_BW / LAT / RATE */
	int op;			/* -1: write (rate: send) */
	int conn;		/* CONN_RC / CONN_UD */
	long long size;		/* -1: bw 65536, lat 2, rate 4; sweep 8 MiB */
	bool sweep, bidir;
	int qps;		/* 0: rate 4, else 1 */
	long long iters;	/* 0: write bw 5000, else 1000 */
	double duration_s;	/* 0: by iterations */
	int tx_depth, inline_size, cq_mod;	/* -1: perftest's */
	bool accept;		/* acceptance: bw judges 1 MiB messages */
};

/* The protocol parameters of a choice, with perftest's defaults. */
void testjob_params(const struct tj_choice *c, struct proto_params *p);
/* Checks a choice's parameters as the agent will; 0, or -1 with a
 * one-line "what — what to do" in err. */
int testjob_check(const struct proto_params *p, char *err, size_t errlen);

struct testjob;

/* Starts a run on its own thread; NULL with err when the thread or memory
 * cannot be had. o->c.peer / secret / device are copied. */
struct testjob *testjob_start(const struct tj_opts *o, char *err, size_t errlen);
/* Asks the run to stop: both ends release their QPs and memory. */
void testjob_cancel(struct testjob *j);
/* Copies the newest view into *v when newer than v->gen; true then. */
bool testjob_get(struct testjob *j, struct tj_view *v);
/* Readable when a new view is published; drain after poll said so. */
int testjob_fd(const struct testjob *j);
void testjob_drain(struct testjob *j);
/* true once the run ended (DONE, FAILED or CANCELLED). */
bool testjob_finished(struct testjob *j);
/* Cancels, joins and frees. NULL is fine. */
void testjob_stop(struct testjob *j);

/* ---- records, for the console's compare ---- */
/* Directory the records go to: $IBCONSOLE_RECORD_DIR, else
 * $XDG_STATE_HOME/ibconsole/records, else ~/.local/state/ibconsole/records.
 * -1 when none can be named. */
int testjob_record_dir(char *out, size_t len);
/* A fresh record path in that directory (created); -1 on failure. */
int testjob_record_path(int kind, int op, char *out, size_t len);
/* Reads and parses a saved record; 0, or -1 with why. */
int testjob_load_record(const char *path, struct record_saved *s, char *why, size_t whylen);

#define TJ_MAX_RECORDS 32
struct tj_record_ref {
	char path[512];
	char name[96];		/* file name, newest first */
};
/* Earlier records of the same test (kind, op, conn, size, QPs, flags) to
 * the same peer, newest first, skipping the path given. Returns the count. */
int testjob_find_records(const struct proto_params *p, const char *peer, const char *skip,
			 struct tj_record_ref *out, int max);

/* ---- recent peers ($XDG_STATE_HOME/ibconsole/peers, newest first) ---- */
#define TJ_MAX_PEERS 8
int testjob_peers_load(char peers[][128], int max);
/* Puts peer first in the list and saves it; -1 when it cannot be saved. */
int testjob_peers_remember(const char *peer);

/* The first line of a secret file into buf; 0, or -1 with a one-line
 * error (what failed, why, what to do). */
int testjob_read_secret(const char *path, char *buf, size_t len, char *err, size_t errlen);

/* The host name of a fabric peer: the first word of its node description
 * ("node12 mlx5_0" → "node12"). */
void testjob_peer_host(const char *node_desc, char *out, size_t len);

#endif
