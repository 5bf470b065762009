/* SPDX-License-Identifier: MIT */
/* Test engine internals shared by engine.c (resources, connection) and
 * engine_run.c (the phase loops); not for other modules. */
#ifndef IBC_ENGINE_ENGINE_INT_H
#define IBC_ENGINE_ENGINE_INT_H

#include <infiniband/verbs.h>
#include "core/engine/engine.h"
#include "core/port/port.h"

#define ENG_RX_DEPTH 512
#define ENG_GRH 40

struct eng_qp {
	struct ibv_qp *qp;
	struct ibv_ah *ah;		/* UD */
	uint32_t psn;
	struct proto_qp remote;
	uint8_t *src, *dst;		/* halves of this QP's slot */
	uint64_t rx_posted;		/* receives outstanding (send tests) */
};

struct eng {
	struct eng_cfg cfg;
	struct eng_info info;
	struct port_info port;		/* what the snapshot said about it */
	bool port_valid;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *scq, *rcq;
	struct ibv_device_attr dattr;
	struct ibv_port_attr pattr;
	union ibv_gid gid;
	uint8_t *buf;
	size_t buflen, half;
	bool numa_buf;
	uint32_t nqps, rx_depth;
	enum ibv_mtu path_mtu;
	bool connected;
	bool flushed;			/* a bandwidth phase's end flushed the QPs */
	struct eng_qp qp[PROTO_MAX_QPS];
	uint64_t *tp, *tc;		/* ENG_MAX_TS time stamps each */
};

void eng_clock_init(void);
/* The latency loop's time stamps: ns, or raw TSC cycles where
 * eng_stamp_is_ns() is false (scaled by the caller over its run). */
uint64_t eng_stamp(void);
bool eng_stamp_is_ns(void);
const char *eng_clock_name(void);
const struct port_info *eng_port(const struct eng *e);

#endif
