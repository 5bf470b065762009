// SPDX-License-Identifier: MIT
/* Test engine, resources: device, memlock check, NUMA-placed buffers,
 * CQs and QPs, and connecting them to the peer's (RC or UD). */
#include "config.h"
#include "core/engine/engine.h"
#include "core/engine/engine_int.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <sys/resource.h>

#include "core/base/sysfs.h"
#include "core/port/numa.h"
#include "core/port/snapshot.h"
#include "core/port/verbsdl.h"

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* The polling loops read the clock per post, as perftest reads its cycle
 * counter. clock_gettime is cheap only with a vDSO clock source; in a VM
 * (hpet, acpi_pm) it is a system call. So, like perftest, use the TSC
 * where it runs at a constant rate, scaled once against CLOCK_MONOTONIC. */
static struct {
	bool init, tsc;
	uint64_t c0, t0;
	double ns_per_cycle;
} clk;

#if defined(__x86_64__)
static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static bool constant_tsc(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	bool yes = false;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5)) {
			yes = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
			break;
		}
	if (f)
		fclose(f);
	return yes;
}
#endif

void eng_clock_init(void)
{
	if (clk.init)
		return;
	clk.init = true;
#if defined(__x86_64__)
	if (constant_tsc()) {
		uint64_t t1, c1;
		struct timespec d = { 0, 20000000 };

		clk.t0 = mono_ns();
		clk.c0 = rdtsc();
		nanosleep(&d, NULL);
		t1 = mono_ns();
		c1 = rdtsc();
		if (c1 > clk.c0 && t1 > clk.t0) {
			clk.ns_per_cycle = (double)(t1 - clk.t0) / (double)(c1 - clk.c0);
			clk.tsc = true;
		}
	}
#endif
}

const char *eng_clock_name(void)
{
	return clk.tsc ? "tsc" : "clock_gettime";
}

/* The latency loop's stamps. perftest reads the cycle counter whatever the
 * CPU flags say; where eng_now_ns is not the TSC (no constant_tsc, e.g. a
 * VM), a clock_gettime per round trip is a system call on the path. So on
 * x86-64 the latency loop stamps with the raw TSC and scales the gaps
 * against CLOCK_MONOTONIC over the run itself (eng_stamp_is_ns false). */
bool eng_stamp_is_ns(void)
{
#if defined(__x86_64__)
	return clk.tsc;
#else
	return true;
#endif
}

uint64_t eng_stamp(void)
{
#if defined(__x86_64__)
	if (!clk.tsc)
		return rdtsc();
#endif
	return eng_now_ns();
}

uint64_t eng_now_ns(void)
{
#if defined(__x86_64__)
	if (clk.tsc)
		return clk.t0 + (uint64_t)((double)(rdtsc() - clk.c0) * clk.ns_per_cycle);
#endif
	return mono_ns();
}

const struct eng_info *eng_info(const struct eng *e)
{
	return &e->info;
}

const struct port_info *eng_port(const struct eng *e)
{
	return e->port_valid ? &e->port : NULL;
}

static bool cap_ipc_lock(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	bool yes = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long caps;

		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			yes = caps & (1ull << 14);	/* CAP_IPC_LOCK */
	}
	fclose(f);
	return yes;
}

static uint32_t mtu_bytes(enum ibv_mtu m)
{
	return m >= IBV_MTU_256 && m <= IBV_MTU_4096 ? 128u << m : 0;
}

static enum ibv_mtu mtu_enum(uint32_t b)
{
	return b >= 4096 ? IBV_MTU_4096 : b >= 2048 ? IBV_MTU_2048 :
	       b >= 1024 ? IBV_MTU_1024 : b >= 512 ? IBV_MTU_512 : IBV_MTU_256;
}

/* The port as the snapshot sees it: link layer, netdev, the RoCE v2 IPv4
 * GID, PCIe and NUMA facts, in one place with the console's meaning. */
static void read_port(struct eng *e)
{
	struct snap_opts o = { .device = e->info.device,
			       .port = e->info.ib_port, .no_smp = true };
	struct snapshot *s = calloc(1, sizeof(*s));
	char why[256];

	if (!s)
		return;
	if (snapshot_collect(s, &o, why, sizeof(why)) == SNAP_OK && s->nports > 0) {
		e->port = s->ports[0];
		e->port_valid = true;
	}
	snapshot_release(s);
	free(s);
}

/* The entry's type as the kernel keeps it (sysfs gid_attrs/types), which
 * the peer compares: "the same kind on both ends". */
static void gid_type_read(struct eng *e, int idx)
{
	struct ibv_gid_entry ge;

	if (ibv_query_gid_ex(e->ctx, (uint32_t)e->info.ib_port, (uint32_t)idx, &ge, 0))
		return;
	snprintf(e->info.gid_type, sizeof(e->info.gid_type), "%s",
		 ge.gid_type == IBV_GID_TYPE_ROCE_V2 ? "RoCE v2" :
		 ge.gid_type == IBV_GID_TYPE_ROCE_V1 ? "RoCE v1" : "IB");
}

static enum eng_status pick_gid(struct eng *e, char *err, size_t errlen)
{
	int idx = e->cfg.gid_index;

	if (idx < 0 && e->pattr.link_layer == IBV_LINK_LAYER_ETHERNET) {
		if (!e->port_valid || e->port.roce_v2_ipv4_index < 0) {
			snprintf(err, errlen, "no RoCE v2 GID to use on %s port %d: its netdev%s%s has no "
				 "IPv4 address with a RoCE v2 GID entry — give -x/--gid-index N or add an "
				 "IPv4 address to the netdev", e->info.device, e->info.ib_port,
				 e->port_valid && e->port.netdev[0] ? " " : "",
				 e->port_valid ? e->port.netdev : "");
			return ENG_NODEV;
		}
		idx = e->port.roce_v2_ipv4_index;
		e->info.gid_auto = true;
	}
	e->info.gid_index = idx;
	if (idx >= 0) {
		if (idx >= e->pattr.gid_tbl_len || ibv_query_gid(e->ctx, (uint8_t)e->info.ib_port, idx, &e->gid)) {
			snprintf(err, errlen, "cannot read GID index %d of %s port %d — pick one that "
				 "'ibconsole snapshot' lists", idx, e->info.device, e->info.ib_port);
			return ENG_NODEV;
		}
		snprintf(e->info.gid, sizeof(e->info.gid),
			 "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
			 e->gid.raw[0], e->gid.raw[1], e->gid.raw[2], e->gid.raw[3],
			 e->gid.raw[4], e->gid.raw[5], e->gid.raw[6], e->gid.raw[7],
			 e->gid.raw[8], e->gid.raw[9], e->gid.raw[10], e->gid.raw[11],
			 e->gid.raw[12], e->gid.raw[13], e->gid.raw[14], e->gid.raw[15]);
		gid_type_read(e, idx);
	}
	return ENG_OK;
}

static enum eng_status open_device(struct eng *e, char *err, size_t errlen)
{
	struct ibv_device **list;
	int n = 0, i;

	if (verbsdl_load(err, errlen))
		return ENG_NODEV;
	list = ibv_get_device_list(&n);
	if (!list || n == 0) {
		if (list)
			ibv_free_device_list(list);
		snprintf(err, errlen, "no RDMA device found (%s) — load the HCA driver (or rdma link add "
			 "rxe0 type rxe netdev IF) and check /sys/class/infiniband",
			 errno ? strerror(errno) : "empty device list");
		return ENG_NODEV;
	}
	for (i = 0; i < n; i++)
		if (!e->cfg.device || !strcmp(ibv_get_device_name(list[i]), e->cfg.device))
			break;
	if (i == n) {
		snprintf(err, errlen, "no RDMA device named %s — 'ibconsole snapshot' lists them",
			 e->cfg.device);
		ibv_free_device_list(list);
		return ENG_NODEV;
	}
	snprintf(e->info.device, sizeof(e->info.device), "%s", ibv_get_device_name(list[i]));
	e->ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!e->ctx) {
		snprintf(err, errlen, "cannot open %s: %s — check permissions on /dev/infiniband",
			 e->info.device, strerror(errno));
		return ENG_NODEV;
	}
	if (ibv_query_device(e->ctx, &e->dattr) ||
	    ibv_query_port(e->ctx, (uint8_t)e->info.ib_port, &e->pattr)) {
		snprintf(err, errlen, "cannot query %s port %d: %s — check the port number (-i)",
			 e->info.device, e->info.ib_port, strerror(errno));
		return ENG_NODEV;
	}
	if (e->pattr.state != IBV_PORT_ACTIVE) {
		snprintf(err, errlen, "%s port %d is not ACTIVE (state %d) — bring the link up first "
			 "('ibconsole snapshot' shows why)", e->info.device, e->info.ib_port, e->pattr.state);
		return ENG_NODEV;
	}
	snprintf(e->info.link_layer, sizeof(e->info.link_layer), "%s",
		 e->pattr.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand");
	e->info.mtu = mtu_bytes(e->pattr.active_mtu);
	return ENG_OK;
}

/* Buffers on the HCA's node and this thread on its CPUs: a test that
 * crosses NUMA measures the interconnect, not the link (the reference procedure, NUMA step). */
static enum eng_status place_and_alloc(struct eng *e, char *err, size_t errlen)
{
	struct numa_info ni;

	numa_read(&ni, e->info.device);
	e->info.numa_node = ni.v.valid ? ni.node : -1;
	if (ni.v.valid && numa_available() >= 0 && ni.node <= numa_max_node()) {
		if (numa_run_on_node(ni.node) == 0) {
			e->buf = numa_alloc_onnode(e->buflen, ni.node);
			e->numa_buf = e->buf != NULL;
		}
		e->info.numa_placed = e->numa_buf;
		snprintf(e->info.numa_note, sizeof(e->info.numa_note), "%s on node %d",
			 e->numa_buf ? "thread and buffers" : "could not place", ni.node);
	} else {
		snprintf(e->info.numa_note, sizeof(e->info.numa_note), "not placed: %.110s",
			 ni.v.valid ? "libnuma unavailable" : ni.v.why);
	}
	if (!e->buf && posix_memalign((void **)&e->buf, 4096, e->buflen))
		e->buf = NULL;
	if (!e->buf) {
		snprintf(err, errlen, "cannot allocate %zu bytes of test buffers — lower --size or --qps",
			 e->buflen);
		return ENG_INTERNAL;
	}
	memset(e->buf, 0, e->buflen);
	return ENG_OK;
}

static enum eng_status make_qps(struct eng *e, char *err, size_t errlen)
{
	const struct proto_params *p = &e->cfg.p;
	bool ud = p->conn == CONN_UD;
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	int scqe = (int)(e->nqps * (p->tx_depth + 1) + 16);
	int rcqe = (int)(e->nqps * (e->rx_depth + 1) + 16);

	e->pd = ibv_alloc_pd(e->ctx);
	e->mr = e->pd ? ibv_reg_mr(e->pd, e->buf, e->buflen, access) : NULL;
	if (!e->mr) {
		snprintf(err, errlen, "cannot register %zu bytes of memory: %s — check 'ulimit -l'",
			 e->buflen, strerror(errno));
		return errno == ENOMEM || errno == EPERM ? ENG_NODEV : ENG_INTERNAL;
	}
	if (scqe > e->dattr.max_cqe)
		scqe = e->dattr.max_cqe;
	if (rcqe > e->dattr.max_cqe)
		rcqe = e->dattr.max_cqe;
	e->scq = ibv_create_cq(e->ctx, scqe, NULL, NULL, 0);
	e->rcq = ibv_create_cq(e->ctx, rcqe, NULL, NULL, 0);
	if (!e->scq || !e->rcq) {
		snprintf(err, errlen, "cannot create completion queues (%d/%d entries): %s — lower --tx-depth or --qps",
			 scqe, rcqe, strerror(errno));
		return ENG_INTERNAL;
	}
	for (uint32_t i = 0; i < e->nqps; i++) {
		struct eng_qp *q = &e->qp[i];
		struct ibv_qp_init_attr ia = {
			.send_cq = e->scq, .recv_cq = e->rcq,
			.cap = { .max_send_wr = p->tx_depth + 1, .max_recv_wr = e->rx_depth + 1,
				 .max_send_sge = 1, .max_recv_sge = 1,
				 .max_inline_data = p->inline_size },
			.qp_type = ud ? IBV_QPT_UD : IBV_QPT_RC,
		};
		struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .pkey_index = 0,
					 .port_num = (uint8_t)e->info.ib_port };
		int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

		q->src = e->buf + (size_t)i * 2 * e->half;
		q->dst = q->src + e->half;
		q->qp = ibv_create_qp(e->pd, &ia);
		if (!q->qp) {
			snprintf(err, errlen, "cannot create QP %u of %u: %s — lower --qps, --tx-depth or --inline",
				 i + 1, e->nqps, strerror(errno));
			return ENG_INTERNAL;
		}
		if (ud) {
			a.qkey = 0x11111111;
			mask |= IBV_QP_QKEY;
		} else {
			a.qp_access_flags = access;
			mask |= IBV_QP_ACCESS_FLAGS;
		}
		if (ibv_modify_qp(q->qp, &a, mask)) {
			snprintf(err, errlen, "cannot move QP %u to INIT: %s", i + 1, strerror(errno));
			return ENG_INTERNAL;
		}
		if (getrandom(&q->psn, sizeof(q->psn), 0) != sizeof(q->psn))
			q->psn = (uint32_t)eng_now_ns();
		q->psn &= 0xffffff;
	}
	return ENG_OK;
}

enum eng_status eng_open(struct eng **ep, const struct eng_cfg *cfg, char *err, size_t errlen)
{
	struct eng *e = calloc(1, sizeof(*e));
	struct rlimit rl;
	enum eng_status st;
	uint64_t need;
	size_t nts;

	*ep = e;
	if (!e) {
		snprintf(err, errlen, "out of memory");
		return ENG_INTERNAL;
	}
	e->cfg = *cfg;
	eng_clock_init();
	if (e->cfg.stall_ms <= 0)
		e->cfg.stall_ms = 5000;
	if (e->cfg.progress_ms <= 0)
		e->cfg.progress_ms = 250;
	e->info.ib_port = cfg->ib_port > 0 ? cfg->ib_port : 1;
	e->info.gid_index = -1;
	e->info.numa_node = -1;
	if (eng_check_params(&cfg->p, err, errlen))
		return ENG_INTERNAL;
	e->nqps = cfg->p.qps;
	e->rx_depth = cfg->p.op == OP_SEND ? ENG_RX_DEPTH : 1;

	need = eng_mem_need(&cfg->p);
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 &&
	    eng_memlock_check(need, rl.rlim_cur, rl.rlim_cur == RLIM_INFINITY, cap_ipc_lock(),
			      err, errlen))
		return ENG_NODEV;

	st = open_device(e, err, errlen);
	if (st)
		return st;
	read_port(e);
	st = pick_gid(e, err, errlen);
	if (st)
		return st;
	if (cfg->p.conn == CONN_UD && cfg->p.size > e->info.mtu) {
		snprintf(err, errlen, "UD messages must fit one MTU: --size %llu exceeds the active MTU %u — lower --size",
			 (unsigned long long)cfg->p.size, e->info.mtu);
		return ENG_INTERNAL;
	}
	e->half = (size_t)((cfg->p.size + ENG_GRH + 4095) / 4096 * 4096);
	e->buflen = e->half * 2 * e->nqps;
	e->info.mem_bytes = e->buflen;
	st = place_and_alloc(e, err, errlen);
	if (st)
		return st;
	nts = ENG_MAX_TS;
	e->tp = calloc(nts, sizeof(*e->tp));
	e->tc = calloc(nts, sizeof(*e->tc));
	if (!e->tp || !e->tc) {
		snprintf(err, errlen, "out of memory for time stamps");
		return ENG_INTERNAL;
	}
	return make_qps(e, err, errlen);
}

void eng_local_qps(const struct eng *e, uint32_t *nqps, uint32_t *mtu, struct proto_qp *qp)
{
	*nqps = e->nqps;
	*mtu = e->info.mtu;
	for (uint32_t i = 0; i < e->nqps; i++) {
		struct proto_qp *q = &qp[i];

		memset(q, 0, sizeof(*q));
		q->qpn = e->qp[i].qp->qp_num;
		q->psn = e->qp[i].psn;
		q->rkey = e->mr->rkey;
		q->qkey = 0x11111111;
		q->vaddr = (uint64_t)(uintptr_t)e->qp[i].src;
		q->lid = e->pattr.lid;
		memcpy(q->gid, e->gid.raw, 16);
	}
}

void eng_qp_key(const struct eng *e, uint32_t i, struct eng_qp_key *k)
{
	memset(k, 0, sizeof(*k));
	k->lid = e->pattr.lid;
	k->max_rd_atomic = (uint16_t)(e->dattr.max_qp_rd_atom > 0 ? e->dattr.max_qp_rd_atom : 1);
	k->qpn = e->qp[i].qp->qp_num;
	k->psn = e->qp[i].psn;
	k->rkey = e->mr->rkey;
	k->vaddr = (uint64_t)(uintptr_t)e->qp[i].dst;
	memcpy(k->gid, e->gid.raw, 16);
}

uint32_t eng_nqps(const struct eng *e)
{
	return e->nqps;
}

size_t eng_half_bytes(const struct eng *e)
{
	return e->half;
}

const volatile uint8_t *eng_dst(const struct eng *e, uint32_t i)
{
	return e->qp[i].dst;
}

void eng_set_rd_atomic(struct eng *e, int rd)
{
	e->cfg.rd_atomic = rd;
}

static void fill_ah(const struct eng *e, const struct proto_qp *r, struct ibv_ah_attr *ah)
{
	memset(ah, 0, sizeof(*ah));
	ah->dlid = r->lid;
	ah->port_num = (uint8_t)e->info.ib_port;
	if (e->info.gid_index >= 0) {
		ah->is_global = 1;
		ah->grh.hop_limit = 64;
		ah->grh.sgid_index = (uint8_t)e->info.gid_index;
		memcpy(ah->grh.dgid.raw, r->gid, 16);
	}
}

enum eng_status eng_connect(struct eng *e, uint32_t nqps, uint32_t peer_mtu,
			    const struct proto_qp *remote, char *err, size_t errlen)
{
	uint32_t mtu = peer_mtu < e->info.mtu ? peer_mtu : e->info.mtu;
	int lim = e->cfg.rd_atomic > 0 ? e->cfg.rd_atomic : 16;
	uint8_t rd = (uint8_t)(e->dattr.max_qp_rd_atom > lim ? lim : e->dattr.max_qp_rd_atom);
	char parent[64];
	bool soft = !sysfs_read(parent, sizeof(parent), "/sys/class/infiniband/%s/parent", e->info.device);

	if (nqps != e->nqps) {
		snprintf(err, errlen, "the peer set up %u QPs, this side %u", nqps, e->nqps);
		return ENG_PEER;
	}
	e->path_mtu = mtu_enum(mtu);
	if (rd == 0)
		rd = 1;
	for (uint32_t i = 0; i < e->nqps; i++) {
		struct eng_qp *q = &e->qp[i];
		struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR };
		int mask = IBV_QP_STATE;

		q->remote = remote[i];
		if (e->cfg.p.conn == CONN_RC) {
			a.path_mtu = e->path_mtu;
			a.dest_qp_num = q->remote.qpn;
			a.rq_psn = q->remote.psn;
			a.max_dest_rd_atomic = rd;
			a.min_rnr_timer = 12;
			fill_ah(e, &q->remote, &a.ah_attr);
			mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
		}
		if (ibv_modify_qp(q->qp, &a, mask)) {
			snprintf(err, errlen, "cannot connect QP %u (RTR): %s — check the GID index (-x) on both ends",
				 i + 1, strerror(errno));
			return ENG_PEER;
		}
		memset(&a, 0, sizeof(a));
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = q->psn;
		mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
		if (e->cfg.p.conn == CONN_RC) {
			/* 4.096 µs · 2^14 ≈ 67 ms per try, 7 tries: a dead peer
			 * shows in ~0.5 s. A software device (rxe, siw: a parent
			 * netdev, no PCI function) acks when its host schedules
			 * it: under emulation or load that passes 67 ms, and the
			 * spurious go-back-N retries look like loss (and can break
			 * rxe's QPs), so it waits 2^18 (≈1.1 s); the stall check
			 * still ends a dead peer's run within stall_ms. */
			a.timeout = soft ? 18 : 14;
			a.retry_cnt = 7;
			a.rnr_retry = 7;
			a.max_rd_atomic = rd;
			mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
		}
		if (ibv_modify_qp(q->qp, &a, mask)) {
			snprintf(err, errlen, "cannot connect QP %u (RTS): %s", i + 1, strerror(errno));
			return ENG_PEER;
		}
		if (e->cfg.p.conn == CONN_UD) {
			struct ibv_ah_attr ah;

			fill_ah(e, &q->remote, &ah);
			q->ah = ibv_create_ah(e->pd, &ah);
			if (!q->ah) {
				snprintf(err, errlen, "cannot create an address handle for the peer: %s — check the GID index (-x)",
					 strerror(errno));
				return ENG_PEER;
			}
		}
	}
	e->connected = true;
	return ENG_OK;
}

void eng_close(struct eng *e)
{
	if (!e)
		return;
	for (uint32_t i = 0; i < e->nqps; i++) {
		if (e->qp[i].ah)
			ibv_destroy_ah(e->qp[i].ah);
		if (e->qp[i].qp)
			ibv_destroy_qp(e->qp[i].qp);
	}
	if (e->scq)
		ibv_destroy_cq(e->scq);
	if (e->rcq)
		ibv_destroy_cq(e->rcq);
	if (e->mr)
		ibv_dereg_mr(e->mr);
	if (e->pd)
		ibv_dealloc_pd(e->pd);
	if (e->ctx)
		ibv_close_device(e->ctx);
	if (e->buf) {
		if (e->numa_buf)
			numa_free(e->buf, e->buflen);
		else
			free(e->buf);
	}
	free(e->tp);
	free(e->tc);
	free(e);
}
