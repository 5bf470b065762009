/* SPDX-License-Identifier: MIT */
/* Test engine (libibverbs): bandwidth, latency and message rate over RC or
 * UD, one phase at a time, with results in perftest's conventions. */
#ifndef IBC_ENGINE_ENGINE_H
#define IBC_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/engine/params.h"

#define ENG_ERR 320
#define ENG_HIST 24		/* latency histogram: log2 buckets from 128 ns */
#define ENG_MAX_TS (1u << 20)	/* posts time-stamped per phase (peak, latency) */

/* Status values double as exit codes (see EXIT STATUS in the man page). */
enum eng_status {
	ENG_OK = 0,
	ENG_NODEV = 3,		/* no device, no permission, memlock too low */
	ENG_PEER = 4,		/* peer gone, time-out, transport error */
	ENG_INTERNAL = 5,
};

/* Live latency summary of a phase: log-linear buckets, ENG_LAT_SUB per
 * power of two from 128 ns up (bucket 0 also takes anything shorter, the
 * last anything longer), counts since the phase started. Values are in
 * the reported convention (halved for send / write ping-pong, as
 * perftest), so percentiles read straight off it, within one bucket's
 * width (1/ENG_LAT_SUB of its lower bound). */
#define ENG_LAT_SUB 8
#define ENG_LAT_BUCKETS (ENG_HIST * ENG_LAT_SUB)
struct eng_lat_live {
	uint64_t n;			/* samples */
	uint64_t min_ns, max_ns;	/* exact, of the samples */
	bool halved;
	uint32_t b[ENG_LAT_BUCKETS];
};

/* Progress while a phase runs, for a screen or a stderr line. */
struct eng_progress {
	double t_s;		/* since the phase started */
	uint64_t msgs, bytes;	/* completed so far, this side */
	double interval_gbps;	/* over the last interval */
	double interval_mpps;
	uint64_t size;
	/* latency tests, the initiator: the samples so far; NULL otherwise */
	const struct eng_lat_live *lat;
};

/* Called every few ms from the polling loop; returns 0 to go on, 1 when
 * the phase should end now (peer said so), -1 to abort (err filled). */
typedef int (*eng_tick_fn)(void *arg, char *err, size_t errlen);
typedef void (*eng_progress_fn)(void *arg, const struct eng_progress *p);

struct eng_cfg {
	const char *device;	/* NULL: the first device */
	int ib_port;		/* 0: port 1 */
	int gid_index;		/* -1: RoCE v2 IPv4 entry of the netdev, automatic */
	struct proto_params p;
	bool initiator;		/* client (true) or agent (false) */
	int stall_ms;		/* no completion for this long: abort (default 5000) */
	int progress_ms;	/* progress interval (default 250) */
	int rd_atomic;		/* RDMA reads in flight per QP; 0: the device's, at most 16 */
	bool answer_first;	/* latency ping-pong: the initiator waits for the
				 * peer's first ping (perftest's write latency server
				 * posts first) */
	eng_tick_fn tick;
	eng_progress_fn progress;
	void *arg;
};

struct eng_result {
	uint64_t size, iters;	/* per QP */
	uint32_t qps;
	uint64_t msgs, bytes;	/* completed by this side */
	uint64_t ns;		/* first post to last completion */
	double bw_avg_gbps, bw_peak_gbps;	/* 1e9 bit/s, --report_gbits */
	bool peak_valid;
	double msg_rate_mpps;
	/* latency, µs; halved for send / write ping-pong (perftest) */
	bool lat_valid, lat_halved;
	uint64_t lat_samples;
	double lat_min, lat_median, lat_avg, lat_p99, lat_p999, lat_max, lat_stdev;
	uint64_t hist[ENG_HIST];	/* bucket i: [128·2^i, 128·2^(i+1)) ns, before halving */
	uint64_t recv_msgs;	/* messages this side received (send tests) */
};

/* What the engine found about the local port (for facts and records). */
struct eng_info {
	char device[PROTO_NAME];
	int ib_port;
	char link_layer[PROTO_NAME];
	int gid_index;		/* -1 IB */
	bool gid_auto;
	char gid[48];
	char gid_type[16];	/* "RoCE v2", "RoCE v1", "IB"; "" unknown */
	uint32_t mtu;		/* active MTU bytes */
	int numa_node;		/* -1 unknown */
	bool numa_placed;	/* buffers and this thread on the HCA's node */
	char numa_note[128];
	size_t mem_bytes;	/* registered */
};

struct eng;

/* Opens the device, checks the memlock limit, places buffers and the
 * thread on the HCA's NUMA node and creates the QPs. */
enum eng_status eng_open(struct eng **e, const struct eng_cfg *cfg,
			 char *err, size_t errlen);
const struct eng_info *eng_info(const struct eng *e);
/* This side's QPs as the peer needs them (qp: PROTO_MAX_QPS entries),
 * their count and this side's active MTU in bytes. */
void eng_local_qps(const struct eng *e, uint32_t *nqps, uint32_t *mtu, struct proto_qp *qp);
/* Connects to the peer's nqps QPs (RTR/RTS, or UD address handles) at the
 * smaller of the peer's MTU (bytes) and this side's. */
enum eng_status eng_connect(struct eng *e, uint32_t nqps, uint32_t mtu, const struct proto_qp *qp,
			    char *err, size_t errlen);
/* For a peer that is not an ibconsole agent (perftest): one local QP with
 * the address it writes to (the half this side polls) and the RDMA reads
 * this side takes in flight as responder (the device's). */
struct eng_qp_key {
	uint32_t qpn, psn, rkey;
	uint64_t vaddr;
	uint16_t lid;
	uint16_t max_rd_atomic;
	uint8_t gid[16];
};
void eng_qp_key(const struct eng *e, uint32_t i, struct eng_qp_key *k);
uint32_t eng_nqps(const struct eng *e);
/* Bytes of each half of a QP's buffer slot (source, destination). */
size_t eng_half_bytes(const struct eng *e);
/* The destination half of QP i, where the peer writes. */
const volatile uint8_t *eng_dst(const struct eng *e, uint32_t i);
/* RDMA reads in flight per QP for the next eng_connect(). */
void eng_set_rd_atomic(struct eng *e, int rd);
/* The engine's clock (ns, monotonic; the one its phases are timed by). */
uint64_t eng_now_ns(void);
/* Readies the receive side of a phase (zeroes poll bytes, posts receives). */
enum eng_status eng_prepare(struct eng *e, uint64_t size, char *err, size_t errlen);
/* Runs one phase; the initiator times it, the responder serves it until
 * its tick says stop. */
enum eng_status eng_run(struct eng *e, uint64_t size, uint64_t iters,
			uint32_t duration_ms, struct eng_result *r,
			char *err, size_t errlen);
void eng_close(struct eng *e);

/* ---- pure helpers (engine_stats.c, unit-tested) ---- */
/* perftest's latency report from post-to-post gaps (ns): sorts gaps,
 * drops the 2 largest, median / p99 = sorted[ceil(0.99·N)] / p99.9 … */
void eng_lat_stats(uint64_t *gaps, uint64_t n, bool halve, struct eng_result *r);
/* perftest's BW peak: best window of size / min((tc[j]−tp[i]) / (j−i+1)). */
double eng_bw_peak_gbps(const uint64_t *tposted, const uint64_t *tcompleted,
			uint64_t n, uint64_t size);
/* Locked memory needed vs the limit; returns 0 or -1 with an explanation. */
int eng_memlock_check(uint64_t need, uint64_t limit, bool unlimited, bool cap_ipc_lock,
		      char *err, size_t errlen);
/* Bytes of locked memory a run needs (buffers + queues, rounded up). */
uint64_t eng_mem_need(const struct proto_params *p);
/* The live latency summary: bucket of a value (ns), a bucket's lower
 * bound (ns; the upper is the next bucket's), one sample in, and the
 * q-quantile (0 < q <= 1, µs) by perftest's rank ceil(q·n), interpolated
 * within its bucket and kept between min and max; 0 when empty. */
int eng_lat_bucket(uint64_t ns);
double eng_lat_bucket_lo_ns(int b);
void eng_lat_live_add(struct eng_lat_live *h, uint64_t ns);
double eng_lat_live_quantile_us(const struct eng_lat_live *h, double q);
const char *eng_kind_name(int kind);
const char *eng_op_name(int op);

#endif
