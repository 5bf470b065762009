/* SPDX-License-Identifier: MIT */
/* The test engine's own types: a test's parameters and their limits, one
 * QP as the peer needs it to connect, and what each end reports about
 * itself (facts). The agent protocol carries them as they are (hence
 * the proto_ / PROTO_ names they keep). */
#ifndef IBC_ENGINE_PARAMS_H
#define IBC_ENGINE_PARAMS_H

#include <stddef.h>
#include <stdint.h>

/* Limits of a test (sizes, durations, memory); the agent enforces them
 * on what a client asks for. */
#define PROTO_MAX_QPS 64
#define PROTO_MIN_SIZE 2
#define PROTO_MAX_SIZE (8u << 20)
#define PROTO_MAX_ITERS 100000000ull
#define PROTO_MAX_DURATION_MS 3600000u
#define PROTO_MAX_TX_DEPTH 8192
#define PROTO_MAX_INLINE 1024
#define PROTO_NAME 32
#define PROTO_STR 96
#define PROTO_GID 40		/* "fe80:0000:…" (39 characters) */

enum proto_kind { KIND_BW = 0, KIND_LAT, KIND_RATE };
enum proto_op { OP_WRITE = 0, OP_READ, OP_SEND };
enum proto_conn { CONN_RC = 0, CONN_UD };
#define PARAM_BIDIR 0x1u
#define PARAM_SWEEP 0x2u
#define PARAM_FLAGS_ALL (PARAM_BIDIR | PARAM_SWEEP)

struct proto_facts {
	char host[PROTO_STR];
	char device[PROTO_NAME];
	char fw_ver[PROTO_NAME];
	char driver[PROTO_NAME];
	/* the driver module's version (/sys/module/<m>/version, what
	 * 'ethtool -i' reports for out-of-tree drivers); "in-tree" when the
	 * module has none (its version is the kernel's release); "" unknown
	 * or a peer that did not say. On the wire it rides in driver as
	 * "name (version)", so older peers read and send a plain name. */
	char driver_version[PROTO_NAME];
	char ca_type[PROTO_NAME];
	char link_layer[PROTO_NAME];
	char kernel[PROTO_STR];
	char pcie[PROTO_STR];		/* "8 GT/s x8 of 16 GT/s x16", "" unknown */
	char cpu_governor[PROTO_NAME];
	char gid_type[PROTO_NAME];	/* of gid_index: "RoCE v2", "RoCE v1", "IB"; "" none */
	char gid[PROTO_GID];		/* of gid_index, sysfs form; "" none */
	int32_t numa_node;		/* -1 unknown */
	uint32_t cpu_mhz;		/* 0 unknown */
	uint32_t rate_mbps;		/* port data rate after encoding, 0 unknown */
	uint32_t mtu;			/* active MTU bytes */
	int32_t gid_index;		/* -1 none (IB) */
	uint32_t netdev_mtu;		/* the netdev's MTU bytes, 0 none / unknown */
};

struct proto_params {
	uint8_t kind, op, conn, flags;
	uint32_t qps;
	uint32_t tx_depth;
	uint32_t inline_size;
	uint32_t cq_mod;
	uint32_t duration_ms;		/* 0: use iters */
	uint32_t counter_ms;		/* agent's COUNTERS interval */
	uint64_t size;			/* largest size of the run */
	uint64_t iters;
};

struct proto_qp {
	uint32_t qpn, psn, rkey, qkey;
	uint64_t vaddr;
	uint16_t lid;
	uint8_t gid[16];
};

/* Semantic checks on parameters (the limits above); 0 or -1 with why. */
int eng_check_params(const struct proto_params *p, char *why, size_t whylen);

#endif
