// SPDX-License-Identifier: MIT
/* Test engine, phase loops: bandwidth / message rate (pipelined posts with
 * CQ moderation) and latency (ping-pong, or one-sided read), as perftest. */
#include "config.h"
#include "core/engine/engine.h"
#include "core/engine/engine_int.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* One phase's moving parts. */
struct run {
	struct eng *e;
	uint64_t size, total;	/* posts per QP; UINT64_MAX: until the duration */
	uint64_t t0, end_at, last_tick, last_prog, last_act;
	uint64_t prog_msgs;
	uint64_t scnt[PROTO_MAX_QPS], ccnt[PROTO_MAX_QPS];
	uint64_t totp, totc;	/* posts and completions, all QPs */
	uint64_t rcvd;		/* receive completions */
	uint64_t t_last_comp;
	uint64_t act_count;	/* posts + completions + receives at the last look */
	bool stamp;		/* time-stamp completions (bandwidth: peak) */
	double best_interval_gbps;
	bool stop_req;		/* the peer (or the duration) says stop */
	/* the end-of-run drain (bandwidth): when the grace ends, the QPs are
	 * flushed; fdone[i]: QP i's last WR came back, completed or flushed */
	uint64_t drain_end;
	bool flushing;
	bool fdone[PROTO_MAX_QPS];
	uint64_t wait_t0;	/* latency: when this wait's first clock look was */
	bool lat_live;		/* lat has this phase's samples (latency, initiator) */
	bool defer_repost;	/* latency: receives are reposted after the reply's post */
	struct eng_lat_live lat;
	char *err;
	size_t errlen;
};

static enum eng_status wc_fail(struct run *r, const struct ibv_wc *wc)
{
	bool peer = wc->status == IBV_WC_RETRY_EXC_ERR || wc->status == IBV_WC_RNR_RETRY_EXC_ERR ||
		    wc->status == IBV_WC_REM_ACCESS_ERR || wc->status == IBV_WC_REM_INV_REQ_ERR ||
		    wc->status == IBV_WC_WR_FLUSH_ERR;

	snprintf(r->err, r->errlen, "%s on QP 0x%x: %s — %s", wc->opcode & IBV_WC_RECV ? "receive" : "transfer",
		 wc->qp_num, ibv_wc_status_str(wc->status),
		 peer ? "the peer stopped answering: is the agent still running, is the link up?"
		      : "check the device with 'ibconsole snapshot'");
	return peer ? ENG_PEER : ENG_INTERNAL;
}

/* One progress event: the interval since the last one. */
static void progress(struct run *r, uint64_t now)
{
	struct eng *e = r->e;
	uint64_t msgs = e->cfg.initiator || r->rcvd == 0 ? r->totc : r->rcvd;
	double dt = now > r->last_prog ? (double)(now - r->last_prog) : 1;
	struct eng_progress p = {
		.t_s = (double)(now - r->t0) / 1e9, .msgs = msgs, .bytes = msgs * r->size,
		.interval_gbps = (double)(msgs - r->prog_msgs) * (double)r->size * 8.0 / dt,
		.interval_mpps = (double)(msgs - r->prog_msgs) * 1e3 / dt,
		.size = r->size, .lat = r->lat_live ? &r->lat : NULL,
	};

	if (p.interval_gbps > r->best_interval_gbps)
		r->best_interval_gbps = p.interval_gbps;
	r->prog_msgs = msgs;
	r->last_prog = now;
	if (e->cfg.progress)
		e->cfg.progress(e->cfg.arg, &p);
}

/* Progress, the peer's tick and the stall watchdog; cheap unless due.
 * Returns ENG_OK, or a status with r->err filled. */
static enum eng_status housekeeping(struct run *r, uint64_t now, bool expect_activity)
{
	struct eng *e = r->e;
	uint64_t act = r->totp + r->totc + r->rcvd;

	/* activity is noticed here, not per completion: no clock read there */
	if (act != r->act_count) {
		r->act_count = act;
		r->last_act = now;
	}
	if (now - r->last_tick < 2000000)
		return ENG_OK;
	r->last_tick = now;
	if (e->cfg.tick) {
		int t = e->cfg.tick(e->cfg.arg, r->err, r->errlen);

		if (t < 0)
			return ENG_PEER;
		if (t > 0)
			r->stop_req = true;
	}
	if (r->end_at && now >= r->end_at)
		r->stop_req = true;
	if (now - r->last_prog >= (uint64_t)e->cfg.progress_ms * 1000000)
		progress(r, now);
	if (expect_activity && now > r->last_act &&
	    now - r->last_act > (uint64_t)e->cfg.stall_ms * 1000000) {
		snprintf(r->err, r->errlen, "no completion for %d ms — the peer or the link stopped "
			 "(is the agent alive? 'ibconsole snapshot' on both ends)", e->cfg.stall_ms);
		return ENG_PEER;
	}
	return ENG_OK;
}

/* A path that moves nothing is not spun on: after ENG_IDLE_AFTER_NS with
 * no post, completion or receive, each look at the clock sleeps for
 * 1/ENG_IDLE_SHARE of the time waited so far, at most ENG_IDLE_MAX_NS.
 * A rate-limited or stalled path (a shaper, a dying peer, a retry) then
 * costs wake-ups, not a core; a completion that lands in a pause is seen
 * at most that pause late, under 1 % of the gap before it. A healthy link
 * completes within microseconds and never waits that long (no source
 * gives these numbers: they bound the error, not the link). */
#define ENG_IDLE_AFTER_NS 2000000ull
#define ENG_IDLE_SHARE 128
#define ENG_IDLE_MAX_NS 1000000ull

static void idle_pause(uint64_t waited)
{
	uint64_t ns = waited / ENG_IDLE_SHARE;
	struct timespec d;

	if (waited < ENG_IDLE_AFTER_NS)
		return;
	if (ns > ENG_IDLE_MAX_NS)
		ns = ENG_IDLE_MAX_NS;
	d.tv_sec = 0;
	d.tv_nsec = (long)ns;
	nanosleep(&d, NULL);
}

static int post_recv(struct eng *e, uint32_t i)
{
	struct eng_qp *q = &e->qp[i];
	struct ibv_sge sge = { .addr = (uintptr_t)q->dst,
			       .length = (uint32_t)(e->cfg.p.size + (e->cfg.p.conn == CONN_UD ? ENG_GRH : 0)),
			       .lkey = e->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 }, *bad;

	if (ibv_post_recv(q->qp, &wr, &bad))
		return -1;
	q->rx_posted++;
	return 0;
}

static int post_send(struct run *r, uint32_t i, int op, bool signaled, uint64_t id)
{
	struct eng *e = r->e;
	struct eng_qp *q = &e->qp[i];
	struct ibv_sge sge = { .addr = (uintptr_t)(op == OP_READ ? q->dst : q->src),
			       .length = (uint32_t)r->size, .lkey = e->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = (uint64_t)i << 40 | id, .sg_list = &sge, .num_sge = 1 }, *bad;

	if (signaled)
		wr.send_flags |= IBV_SEND_SIGNALED;
	if (op != OP_READ && r->size <= e->cfg.p.inline_size)
		wr.send_flags |= IBV_SEND_INLINE;
	switch (op) {
	case OP_WRITE:
		wr.opcode = IBV_WR_RDMA_WRITE;
		wr.wr.rdma.remote_addr = q->remote.vaddr + e->half;	/* the peer's dst half */
		wr.wr.rdma.rkey = q->remote.rkey;
		break;
	case OP_READ:
		wr.opcode = IBV_WR_RDMA_READ;
		wr.wr.rdma.remote_addr = q->remote.vaddr;		/* the peer's src half */
		wr.wr.rdma.rkey = q->remote.rkey;
		break;
	default:
		wr.opcode = IBV_WR_SEND;
		if (e->cfg.p.conn == CONN_UD) {
			wr.wr.ud.ah = q->ah;
			wr.wr.ud.remote_qpn = q->remote.qpn;
			wr.wr.ud.remote_qkey = q->remote.qkey;
		}
	}
	return ibv_post_send(q->qp, &wr, &bad);
}

enum eng_status eng_prepare(struct eng *e, uint64_t size, char *err, size_t errlen)
{
	if (size > e->cfg.p.size || size < PROTO_MIN_SIZE) {
		snprintf(err, errlen, "phase size %llu outside 2..%llu", (unsigned long long)size,
			 (unsigned long long)e->cfg.p.size);
		return ENG_INTERNAL;
	}
	for (uint32_t i = 0; i < e->nqps; i++) {
		e->qp[i].dst[size - 1] = 0;	/* the byte write ping-pong polls */
		if (e->cfg.p.op != OP_SEND)
			continue;
		while (e->qp[i].rx_posted < e->rx_depth)
			if (post_recv(e, i)) {
				snprintf(err, errlen, "cannot post receives on QP %u", i + 1);
				return ENG_INTERNAL;
			}
	}
	return ENG_OK;
}

/* Drains the receive CQ, reposting at once so the ring stays full; the
 * latency loop reposts later (refill_recv), off the ping-pong's path. */
static enum eng_status poll_recv(struct run *r, uint64_t now)
{
	struct ibv_wc wc[16];
	int n = ibv_poll_cq(r->e->rcq, 16, wc);

	if (n < 0) {
		snprintf(r->err, r->errlen, "polling the receive queue failed");
		return ENG_INTERNAL;
	}
	for (int k = 0; k < n; k++) {
		uint32_t i = (uint32_t)wc[k].wr_id;

		if (r->flushing && wc[k].status == IBV_WC_WR_FLUSH_ERR && i < r->e->nqps) {
			r->e->qp[i].rx_posted--;	/* our own flush: nothing arrived */
			continue;
		}
		if (wc[k].status != IBV_WC_SUCCESS)
			return wc_fail(r, &wc[k]);
		if (i >= r->e->nqps)
			continue;
		r->e->qp[i].rx_posted--;
		r->rcvd++;
		if (!r->defer_repost && post_recv(r->e, i)) {
			snprintf(r->err, r->errlen, "cannot repost a receive on QP %u", i + 1);
			return ENG_INTERNAL;
		}
	}
	return ENG_OK;
}

/* Polls the send CQ: each signaled completion retires every WR of its QP
 * posted up to it (CQ moderation). */
static enum eng_status poll_send(struct run *r, uint64_t now)
{
	struct ibv_wc wc[16];
	int n = ibv_poll_cq(r->e->scq, 16, wc);

	if (n < 0) {
		snprintf(r->err, r->errlen, "polling the send queue failed");
		return ENG_INTERNAL;
	}
	if (n > 0 && r->stamp)
		now = eng_now_ns();	/* the completion's own time, not the loop's */
	for (int k = 0; k < n; k++) {
		uint32_t i = (uint32_t)(wc[k].wr_id >> 40);
		uint64_t upto = wc[k].wr_id & ((1ull << 40) - 1);

		if (r->flushing && wc[k].status == IBV_WC_WR_FLUSH_ERR && i < r->e->nqps) {
			/* flushed, never completed: not counted */
			if (upto >= r->scnt[i])
				r->fdone[i] = true;
			continue;
		}
		if (wc[k].status != IBV_WC_SUCCESS)
			return wc_fail(r, &wc[k]);
		if (i >= r->e->nqps || upto <= r->ccnt[i])
			continue;
		for (uint64_t j = r->ccnt[i]; j < upto; j++, r->totc++)
			if (r->totc < ENG_MAX_TS)
				r->e->tc[r->totc] = now;
		r->ccnt[i] = upto;
		r->t_last_comp = now;
	}
	return ENG_OK;
}

static void finish_bw(struct run *r, struct eng_result *res, uint64_t t_first)
{
	struct eng *e = r->e;

	res->msgs = r->totc;
	res->bytes = r->totc * r->size;
	res->ns = r->t_last_comp > t_first ? r->t_last_comp - t_first : 0;
	if (res->ns) {
		res->bw_avg_gbps = (double)res->bytes * 8.0 / (double)res->ns;
		res->msg_rate_mpps = (double)res->msgs * 1e3 / (double)res->ns;
	}
	if (r->total != UINT64_MAX && r->totp <= ENG_MAX_TS && r->totc == r->totp) {
		res->bw_peak_gbps = eng_bw_peak_gbps(e->tp, e->tc, r->totc, r->size);
		res->peak_valid = true;
	} else {
		/* duration runs: the best progress interval stands in */
		res->bw_peak_gbps = r->best_interval_gbps > res->bw_avg_gbps ?
				    r->best_interval_gbps : res->bw_avg_gbps;
		res->peak_valid = res->ns > 0;
	}
}

/* Tops the receive ring of QP i up again (latency, after the post). */
static enum eng_status refill_recv(struct run *r, uint32_t i)
{
	while (r->e->qp[i].rx_posted < r->e->rx_depth)
		if (post_recv(r->e, i)) {
			snprintf(r->err, r->errlen, "cannot repost a receive on QP %u", i + 1);
			return ENG_INTERNAL;
		}
	return ENG_OK;
}

/* The end of a bandwidth run is bounded: WRs still outstanding
 * ENG_DRAIN_GRACE_MS after the duration (a rate-limited path holds
 * tx_depth x size per QP, minutes at a few Mb/s) are flushed by moving
 * the QPs to the error state (IB spec: outstanding WRs then complete with
 * IBV_WC_WR_FLUSH_ERR). Only completed WRs count; the QPs cannot run
 * another phase (eng_run refuses). */
#define ENG_DRAIN_GRACE_MS 1000

static enum eng_status drain_flush(struct run *r)
{
	struct eng *e = r->e;
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };

	r->flushing = true;
	e->flushed = true;
	for (uint32_t i = 0; i < e->nqps; i++)
		if (ibv_modify_qp(e->qp[i].qp, &a, IBV_QP_STATE)) {
			snprintf(r->err, r->errlen, "cannot flush QP %u at the end of the run — "
				 "check the device with 'ibconsole snapshot'", i + 1);
			return ENG_INTERNAL;
		}
	return ENG_OK;
}

/* Bandwidth and message rate: keep up to tx_depth WRs in flight per QP,
 * one signaled every cq_mod (and whenever the queue would fill). */
static enum eng_status run_bw(struct run *r, struct eng_result *res, bool sender, bool receiver)
{
	struct eng *e = r->e;
	const struct proto_params *p = &e->cfg.p;
	uint64_t t_first = 0, want_rcv = 0, lim[PROTO_MAX_QPS];
	bool lastsig[PROTO_MAX_QPS] = { false }, stopped = false;
	enum eng_status st;

	r->stamp = true;
	for (uint32_t i = 0; i < e->nqps; i++)
		lim[i] = r->total;
	/* the bidirectional send peer must take everything the other side sends */
	if (receiver && sender && r->total != UINT64_MAX)
		want_rcv = r->total * e->nqps;
	for (unsigned spin = 0;; spin++) {
		/* the clock only when posting, and every 64 idle spins for
		 * housekeeping: without a vDSO clock source it is a syscall */
		uint64_t now = 0;
		bool sent_done = true, done;

		if (sender && r->total == UINT64_MAX && r->stop_req && !stopped) {
			/* the duration is over: post no more, but never leave an
			 * unsignaled tail that no completion would retire */
			stopped = true;
			r->drain_end = eng_now_ns() + (uint64_t)ENG_DRAIN_GRACE_MS * 1000000;
			for (uint32_t i = 0; i < e->nqps; i++)
				lim[i] = r->scnt[i] + (r->scnt[i] && !lastsig[i] ? 1 : 0);
		}
		if (sender) {
			for (uint32_t i = 0; i < e->nqps; i++) {
				while (r->scnt[i] < lim[i] && r->scnt[i] - r->ccnt[i] < p->tx_depth) {
					uint64_t next = r->scnt[i] + 1;
					bool sig = next % p->cq_mod == 0 || next == lim[i] ||
						   next - r->ccnt[i] == p->tx_depth;

					if (!now)
						now = eng_now_ns();
					if (r->totp < ENG_MAX_TS)
						e->tp[r->totp] = now;
					if (!t_first)
						t_first = now;
					if (post_send(r, i, p->op, sig, next)) {
						snprintf(r->err, r->errlen, "posting to QP %u failed — the send queue is full or the QP broke", i + 1);
						return ENG_INTERNAL;
					}
					r->scnt[i] = next;
					lastsig[i] = sig;
					r->totp++;
				}
			}
			st = poll_send(r, now);
			if (st)
				return st;
			for (uint32_t i = 0; i < e->nqps; i++)
				if (r->scnt[i] < lim[i] || (r->ccnt[i] < r->scnt[i] && !r->fdone[i]))
					sent_done = false;
		}
		if (receiver) {
			st = poll_recv(r, now);
			if (st)
				return st;
		}
		if (!sender)
			done = r->stop_req;	/* a pure receiver serves until told */
		else
			done = sent_done && r->rcvd >= want_rcv;
		if (done)
			break;
		if (spin % 64 && (sender || receiver) && !r->stop_req)
			continue;
		now = eng_now_ns();
		if (!sender && !receiver) {
			/* the far end of a write / read test has nothing to poll:
			 * sleep, and leave the CPU to the HCA's driver (rxe runs
			 * on the CPUs) */
			struct timespec d = { 0, 1000000 };

			nanosleep(&d, NULL);
		}
		st = housekeeping(r, now, sender);
		if (st)
			return st;
		/* a receiver never pauses: a sender starting (or resuming)
		 * during a pause would find its receive ring (ENG_RX_DEPTH)
		 * filled within microseconds at small sizes, and the receiver
		 * not-ready NAKs of the rest would show as errors on the port */
		if (sender && !receiver)
			idle_pause(now > r->last_act ? now - r->last_act : 0);
		if (stopped && !r->flushing && now >= r->drain_end) {
			st = drain_flush(r);
			if (st)
				return st;
		}
	}
	finish_bw(r, res, t_first);
	res->recv_msgs = r->rcvd;
	return ENG_OK;
}

/* The byte a write ping carries: 1, 2 … 255, 0, 1 …, perftest's (char)++scnt,
 * so ping-pong works against ib_write_lat too. Never stale: the byte polled
 * for always differs from the previous ping's. */
static inline uint8_t ping_val(uint64_t i)
{
	return (uint8_t)(i + 1);
}

/* Latency waits look at the clock (housekeeping) once in this many empty
 * polls: a round trip takes hundreds of polls under emulation, and a clock
 * read where clock_gettime is a system call would otherwise fall on the
 * path several times a round trip; perftest's loop has none. */
#define LAT_LOOK 1024
/* The live figures take the TSC's scale from the run itself once it has
 * run this long (before: from a 2 ms measurement) */
#define LAT_SCALE_NS 100000000ull

/* A latency wait's clock starts at its first look (LAT_LOOK polls in):
 * only a round trip already that long can pause, by under 1 % of it. */
static void lat_wait_pause(struct run *r, unsigned spin, uint64_t now)
{
	if (spin == LAT_LOOK)
		r->wait_t0 = now;
	else if (now > r->wait_t0)
		idle_pause(now - r->wait_t0);
}

/* Waits for one completion on the send CQ (lat tests post one at a time). */
static enum eng_status wait_send(struct run *r, uint32_t i, uint64_t id)
{
	/* spin starts at 1: a first miss costs no clock read */
	for (unsigned spin = 1;; spin++) {
		uint64_t now;
		enum eng_status st = poll_send(r, 0);	/* stamps completions itself */

		if (st)
			return st;
		if (r->ccnt[i] >= id)
			return ENG_OK;
		if (spin % LAT_LOOK)
			continue;
		now = eng_now_ns();
		lat_wait_pause(r, spin, now);
		/* even after a stop: a completion still due always comes, or the
		 * QP errors out within the retry time-out */
		st = housekeeping(r, now, true);
		if (st)
			return st;
	}
}

/* Waits for the peer's ping / pong: a write's last byte, or a receive. */
static enum eng_status wait_in(struct run *r, uint64_t iter, bool initiator_side)
{
	struct eng *e = r->e;
	volatile uint8_t *flag = e->qp[0].dst + r->size - 1;
	uint64_t want = r->rcvd + 1;

	/* from 1, not 0: the pong is never there at the first look, right
	 * after the ping's post, and a clock read there would be on every
	 * ping's path */
	for (unsigned spin = 1;; spin++) {
		uint64_t now;
		enum eng_status st;

		if (e->cfg.p.op == OP_WRITE) {
			if (*flag == ping_val(iter))
				return ENG_OK;
		} else {
			/* the receive CQ on every spin: it is the latency path */
			st = poll_recv(r, r->last_tick);
			if (st)
				return st;
			if (r->rcvd >= want)
				return ENG_OK;
		}
		if (spin % LAT_LOOK)
			continue;
		now = eng_now_ns();
		lat_wait_pause(r, spin, now);
		/* the responder waits for the next ping as long as the client is there */
		st = housekeeping(r, now, initiator_side);
		if (st)
			return st;
		if (r->stop_req && !initiator_side)
			return ENG_OK;
		if (initiator_side && now > r->last_act &&
		    now - r->last_act > (uint64_t)e->cfg.stall_ms * 1000000) {
			snprintf(r->err, r->errlen, "no answer to ping %llu for %d ms — the peer stopped",
				 (unsigned long long)iter, e->cfg.stall_ms);
			return ENG_PEER;
		}
	}
}

/* ns per stamp unit when the stamps are not the engine's clock (the
 * TSC): measured over 2 ms for the live figures; the run's result is
 * scaled again over the whole run. */
static double stamp_ns_per(void)
{
	struct timespec d = { 0, 2000000 };
	uint64_t t0 = eng_now_ns(), c0 = eng_stamp(), t1, c1;

	nanosleep(&d, NULL);
	t1 = eng_now_ns();
	c1 = eng_stamp();
	return c1 > c0 ? (double)(t1 - t0) / (double)(c1 - c0) : 1.0;
}

/* The far end of a read latency test has nothing to do but stay there. */
static enum eng_status read_far_end(struct run *r)
{
	while (!r->stop_req) {
		struct timespec d = { 0, 1000000 };
		enum eng_status st = housekeeping(r, eng_now_ns(), false);

		if (st)
			return st;
		nanosleep(&d, NULL);
	}
	return ENG_OK;
}

/* A latency phase's result: n posts over ns; on the initiator, the gaps
 * between consecutive posts (scaled by ns_per) become the statistics. */
static void lat_result(struct run *r, struct eng_result *res, uint64_t n_posts, uint64_t ns,
		       double ns_per)
{
	struct eng *e = r->e;

	res->msgs = n_posts;
	res->bytes = n_posts * r->size;
	res->ns = ns;
	if (res->ns) {
		res->bw_avg_gbps = (double)res->bytes * 8.0 / (double)res->ns;
		res->msg_rate_mpps = (double)res->msgs * 1e3 / (double)res->ns;
	}
	if (e->cfg.initiator) {
		uint64_t n = n_posts < ENG_MAX_TS ? n_posts : ENG_MAX_TS;

		/* iters posts give iters - 1 gaps; tc is free here, reuse it */
		for (uint64_t k = 0; k + 1 < n; k++)
			e->tc[k] = e->tp[k + 1] > e->tp[k] ?
				   (uint64_t)((double)(e->tp[k + 1] - e->tp[k]) * ns_per) : 0;
		if (n > 1)
			eng_lat_stats(e->tc, n - 1, e->cfg.p.op != OP_READ, res);
	}
	res->recv_msgs = r->rcvd;
}

/* Latency: ping-pong for write and send (both ends active), one-sided for
 * read. Samples are the gaps between consecutive posts, as perftest. */
static enum eng_status run_lat(struct run *r, struct eng_result *res)
{
	struct eng *e = r->e;
	int op = e->cfg.p.op;
	bool ini = e->cfg.initiator;
	/* who waits for a ping before posting: the responder, and the
	 * initiator too when the peer posts first */
	bool wait_first = !ini || (e->cfg.answer_first && op != OP_READ);
	uint64_t i, t_first = eng_now_ns(), t_end, t_prev = 0, c_first = 0;
	/* ns per stamp unit: 1, or the TSC's, measured over 2 ms for the first
	 * live figures, then over the run so far (2 ms can be off by a fifth
	 * on an emulated CPU), and over the whole run for the result */
	double ns_per = 1.0;
	bool tsc = ini && !eng_stamp_is_ns();
	enum eng_status st;

	r->lat_live = ini;
	r->lat.halved = op != OP_READ;
	/* a receive consumed by this ping is replaced after the answer is
	 * posted: the ring (ENG_RX_DEPTH deep) never runs dry one-at-a-time */
	r->defer_repost = op == OP_SEND;
	if (tsc)
		ns_per = stamp_ns_per();
	if (!ini && op == OP_READ)	/* nothing to do on the far end of a read */
		return read_far_end(r);
	for (i = 0; i < r->total; i++) {
		uint8_t v = ping_val(i);

		/* progress, the peer's tick and the duration's end once in 64
		 * round trips: the waits only get there when one round trip
		 * takes LAT_LOOK polls, which a fast link never does */
		if (i % 64 == 63) {
			uint64_t t = eng_now_ns(), c = eng_stamp();

			if (tsc && t - t_first >= LAT_SCALE_NS && c > c_first)
				ns_per = (double)(t - t_first) / (double)(c - c_first);
			st = housekeeping(r, t, ini);
			if (st)
				return st;
		}
		if (wait_first) {
			st = wait_in(r, i, ini);
			if (st)
				return st;
			if (r->stop_req)
				break;
		}
		if (ini) {
			/* the duration's end is noticed by housekeeping */
			uint64_t now = eng_stamp(), gap;

			if (r->end_at && r->stop_req)
				break;
			if (i < ENG_MAX_TS)
				e->tp[i] = now;
			if (i == 0) {
				t_first = eng_now_ns();
				c_first = now;
			} else {	/* the same sample as the final report's, live */
				gap = now > t_prev ? (uint64_t)((double)(now - t_prev) * ns_per) : 0;
				eng_lat_live_add(&r->lat, op != OP_READ ? gap / 2 : gap);
			}
			t_prev = now;
		}
		e->qp[0].src[r->size - 1] = v;
		if (post_send(r, 0, op, true, i + 1)) {
			snprintf(r->err, r->errlen, "posting to QP 1 failed");
			return ENG_INTERNAL;
		}
		r->scnt[0] = i + 1;
		r->totp++;
		if (r->defer_repost) {
			st = refill_recv(r, 0);
			if (st)
				return st;
		}
		/* one WR in flight: its completion is reaped right after the
		 * post, before the wait for the answer, as perftest does */
		st = wait_send(r, 0, i + 1);
		if (st)
			return st;
		if (ini && !wait_first && op != OP_READ) {
			st = wait_in(r, i, true);
			if (st)
				return st;
		}
	}
	/* the last post's completion, so nothing is in flight between phases */
	if (r->scnt[0] > r->ccnt[0]) {
		st = wait_send(r, 0, r->scnt[0]);
		if (st)
			return st;
	}
	t_end = eng_now_ns();
	if (tsc && t_prev > c_first && t_end > t_first)
		ns_per = (double)(t_end - t_first) / (double)(eng_stamp() - c_first);
	if (ini)	/* the last samples too: the live summary ends complete */
		progress(r, t_end);
	lat_result(r, res, i, t_end - t_first, ns_per);
	return ENG_OK;
}

enum eng_status eng_run(struct eng *e, uint64_t size, uint64_t iters, uint32_t duration_ms,
			struct eng_result *res, char *err, size_t errlen)
{
	struct run r = { .e = e, .size = size, .err = err, .errlen = errlen };
	const struct proto_params *p = &e->cfg.p;
	bool bidir = p->flags & PARAM_BIDIR;

	memset(res, 0, sizeof(*res));
	res->size = size;
	res->iters = iters;
	res->qps = e->nqps;
	if (!e->connected) {
		snprintf(err, errlen, "internal: phase before the QPs were connected");
		return ENG_INTERNAL;
	}
	if (e->flushed) {
		snprintf(err, errlen, "the last phase's end flushed the QPs (the path drained too slowly): "
			 "run each size as its own test, or give a shorter --tx-depth");
		return ENG_INTERNAL;
	}
	if (size > p->size || size < PROTO_MIN_SIZE || (p->conn == CONN_UD && size > e->info.mtu)) {
		snprintf(err, errlen, "phase size %llu out of range", (unsigned long long)size);
		return ENG_INTERNAL;
	}
	r.t0 = r.last_prog = r.last_act = r.last_tick = eng_now_ns();
	r.total = duration_ms ? UINT64_MAX : iters;
	if (duration_ms && (e->cfg.initiator || bidir))
		r.end_at = r.t0 + (uint64_t)duration_ms * 1000000;
	if (p->kind == KIND_LAT)
		return run_lat(&r, res);
	if (e->cfg.initiator)
		return run_bw(&r, res, true, p->op == OP_SEND && bidir);
	/* the agent: receives for send tests, sends too when bidirectional */
	return run_bw(&r, res, bidir, p->op == OP_SEND);
}
