// SPDX-License-Identifier: MIT
/* A test against an unmodified perftest server. The handshake follows
 * perftest's perftest_communication.c: the client writes each message
 * first, the server answers with the same kind; every message is one
 * fixed-size read() on the server, so each is written whole here, and
 * every read here waits at most the time-out. */
#include "config.h"
#include "core/agent/perftest_client.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "core/agent/perftest_proto.h"
#include "core/engine/engine_int.h"
#include "core/engine/facts.h"

/* The version we announce: the newest whose handshake we speak without
 * the negotiation block, so a 6.28+ server skips it too. */
#define PT_OUR_VERSION "6.06"

struct ptc {
	const struct client_opts *o;
	int fd;
	int rem_ver;		/* hundredths */
	int mtu;		/* agreed, ibv_mtu enum */
	char where[160];
	bool gid;		/* key lines carry a GID */
};

static long long ms_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Writes or reads exactly len bytes before the deadline; 0 or -1 with err. */
static int io_exact(struct ptc *c, bool wr, void *buf, size_t len, const char *what,
		    char *err, size_t errlen)
{
	long long deadline = ms_now() + c->o->timeout_ms;
	size_t done = 0;

	while (done < len) {
		struct pollfd p = { .fd = c->fd, .events = wr ? POLLOUT : POLLIN };
		long long left = deadline - ms_now();
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)left) == 0) {
			snprintf(err, errlen, "the perftest server at %s sent no %s in %d s — is it the same test with the same options, and still running?",
				 c->where, what, c->o->timeout_ms / 1000);
			return -1;
		}
		n = wr ? send(c->fd, (uint8_t *)buf + done, len - done, MSG_NOSIGNAL)
		       : recv(c->fd, (uint8_t *)buf + done, len - done, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "the perftest server at %s %s while exchanging the %s — it stopped; its own output says why (a different test or options?)",
				 c->where, n == 0 ? "closed the connection" : strerror(errno), what);
			return -1;
		}
		done += (size_t)n;
	}
	return 0;
}

/* One exchange: ours first, then the server's of the same length. */
static int xchg(struct ptc *c, const void *mine, void *theirs, size_t len, const char *what,
		char *err, size_t errlen)
{
	if (io_exact(c, true, (void *)mine, len, what, err, errlen))
		return -1;
	return io_exact(c, false, theirs, len, what, err, errlen);
}

static int dial(struct ptc *c, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *a;
	char port[16];
	int rc, eno = ECONNREFUSED, one = 1;

	snprintf(port, sizeof(port), "%d", c->o->tcp_port ? c->o->tcp_port : PT_DEFAULT_PORT);
	snprintf(c->where, sizeof(c->where), "%s port %s", c->o->peer, port);
	rc = getaddrinfo(c->o->peer, port, &hints, &res);
	if (rc) {
		snprintf(err, errlen, "cannot resolve the peer %s: %s — give its host name or address",
			 c->o->peer, gai_strerror(rc));
		return ENG_PEER;
	}
	/* perftest's server accepts once: one attempt per address, no retry loop */
	for (a = res; a; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		socklen_t sl = sizeof(eno);

		if (fd < 0)
			continue;
		if ((connect(fd, a->ai_addr, a->ai_addrlen) && errno != EINPROGRESS) ||
		    poll(&p, 1, c->o->timeout_ms) <= 0 ||
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &eno, &sl) || eno) {
			if (!eno)
				eno = errno ? errno : ETIMEDOUT;
			close(fd);
			continue;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		c->fd = fd;
		freeaddrinfo(res);
		return 0;
	}
	freeaddrinfo(res);
	snprintf(err, errlen, "cannot reach a perftest server at %s: %s — start e.g. 'ib_write_bw' (no host argument) on the peer first",
		 c->where, strerror(eno));
	return ENG_PEER;
}

/* The active MTU as the ibv_mtu enum, without creating anything. */
static int local_mtu(const struct client_opts *o, char *err, size_t errlen)
{
	int n = 0, mtu = -1;
	struct ibv_device **l = ibv_get_device_list(&n);

	for (int i = 0; l && i < n && mtu < 0; i++) {
		struct ibv_context *ctx;
		struct ibv_port_attr pa;

		if (o->device && strcmp(o->device, ibv_get_device_name(l[i])))
			continue;
		ctx = ibv_open_device(l[i]);
		if (ctx && !ibv_query_port(ctx, (uint8_t)(o->ib_port ? o->ib_port : 1), &pa))
			mtu = pa.active_mtu;
		if (ctx)
			ibv_close_device(ctx);
	}
	if (l)
		ibv_free_device_list(l);
	if (mtu < 0)
		snprintf(err, errlen, "no RDMA device%s%s to test with — check 'ibconsole snapshot' and -d",
			 o->device ? " " : "", o->device ? o->device : "");
	return mtu;
}

static int tick(void *arg, char *err, size_t errlen)
{
	struct ptc *c = arg;
	struct pollfd p = { .fd = c->fd, .events = POLLIN | POLLRDHUP };

	/* the server sends nothing during a run: readable means it is gone */
	if (poll(&p, 1, 0) > 0) {
		snprintf(err, errlen, "the perftest server at %s went away mid-test — see its output", c->where);
		return -1;
	}
	return 0;
}

static void progress(void *arg, const struct eng_progress *p)
{
	struct ptc *c = arg;

	if (c->o->progress)
		c->o->progress(c->o->progress_arg, p);
}

static void my_key(const struct eng *e, uint32_t i, struct pt_key *k)
{
	memset(k, 0, sizeof(*k));
	k->lid = e->pattr.lid;
	k->out_reads = e->dattr.max_qp_rd_atom > 16 ? 16 : (e->dattr.max_qp_rd_atom ? e->dattr.max_qp_rd_atom : 1);
	k->qpn = e->qp[i].qp->qp_num;
	k->psn = e->qp[i].psn;
	k->rkey = e->mr->rkey;
	/* the peer writes where our engine polls: the dst half */
	k->vaddr = (uint64_t)(uintptr_t)e->qp[i].dst;
	memcpy(k->gid, e->gid.raw, 16);
}

static int keys(struct ptc *c, const struct pt_key *mine, struct pt_key *theirs, char *err, size_t errlen)
{
	uint8_t out[PT_KEY_GID_LEN], in[PT_KEY_GID_LEN];
	int len = pt_key_encode(mine, c->gid, out, sizeof(out));
	char why[200];

	if (len < 0) {
		snprintf(err, errlen, "internal: cannot encode a key line");
		return ENG_INTERNAL;
	}
	if (xchg(c, out, in, (size_t)len, "QP key line", err, errlen))
		return ENG_PEER;
	if (pt_key_decode(in, (size_t)len, c->gid, theirs, why, sizeof(why))) {
		snprintf(err, errlen, "the perftest server at %s: %s — %s", c->where, why,
			 c->gid ? "does it use a GID (-x) while this side does too?" : "does it use a GID (-x)? give the same -x here");
		return ENG_PEER;
	}
	return 0;
}

static int handshake(struct ptc *c, struct client_result *r, char *err, size_t errlen)
{
	uint8_t v[PT_VERSION_LEN], rv[PT_VERSION_LEN], a[4], b[4];
	char why[200];
	const struct proto_params *p = &c->o->p;
	int mtu, rmtu;

	pt_version_encode(PT_OUR_VERSION, v);
	if (xchg(c, v, rv, sizeof(v), "version", err, errlen))
		return ENG_PEER;
	c->rem_ver = pt_version_decode(rv, r->peer.fw_ver, sizeof(r->peer.fw_ver), why, sizeof(why));
	if (c->rem_ver < 0) {
		snprintf(err, errlen, "the server at %s does not speak perftest: %s — is it a perftest server on that port?",
			 c->where, why);
		return ENG_PEER;
	}
	if (c->rem_ver < PT_V_MIN) {
		snprintf(err, errlen, "the perftest server at %s is version %s; perftest before 5.70 refuses newer clients — use a newer perftest there",
			 c->where, r->peer.fw_ver);
		return ENG_PEER;
	}
	if (c->rem_ver >= PT_V_SYSDATA) {
		pt_u32_encode(4096, a);	/* cycle buffer: a page */
		if (xchg(c, a, b, 4, "cycle buffer size", err, errlen))
			return ENG_PEER;
		pt_u32_encode(64, a);	/* cache line */
		if (xchg(c, a, b, 4, "cache line size", err, errlen))
			return ENG_PEER;
	}
	mtu = local_mtu(c->o, err, errlen);
	if (mtu < 0)
		return ENG_NODEV;
	pt_mtu_encode(mtu, a);
	if (xchg(c, a, b, PT_MTU_LEN, "MTU", err, errlen))
		return ENG_PEER;
	rmtu = pt_mtu_decode(b, why, sizeof(why));
	if (rmtu < 0) {
		snprintf(err, errlen, "the perftest server at %s: %s", c->where, why);
		return ENG_PEER;
	}
	c->mtu = rmtu < mtu ? rmtu : mtu;
	/* a 6.28+ server sends its negotiation block only to a peer that
	 * announced 6.28+; we announce 6.06, so neither side sends one */
	(void)p;
	return 0;
}

int ptclient_run(const struct client_opts *o, struct client_result *r, char *err, size_t errlen)
{
	struct ptc c = { .o = o, .fd = -1 };
	struct eng_cfg cfg = { .device = o->device, .ib_port = o->ib_port, .gid_index = o->gid_index,
			       .p = o->p, .initiator = true, .stall_ms = o->stall_ms,
			       .tick = tick, .progress = progress, .arg = &c };
	struct pt_key mine[PROTO_MAX_QPS], rem[PROTO_MAX_QPS], again;
	struct proto_msg m = { .type = MSG_ACCEPT };
	struct testctr before, after;
	struct eng *e = NULL;
	bool lat = o->p.kind == KIND_LAT;
	time_t now = time(NULL);
	struct tm tm;
	int st;

	memset(r, 0, sizeof(*r));
	gmtime_r(&now, &tm);
	strftime(r->started, sizeof(r->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(r->peer.host, sizeof(r->peer.host), "%s", o->peer);
	snprintf(r->peer.driver, sizeof(r->peer.driver), "perftest");
	r->peer.numa_node = -1;
	r->peer.gid_index = -1;
	/* Only the exchange checked against a real server (ib_write_bw 6.06)
	 * is offered; read bandwidth and write latency are encoded but not yet
	 * proven against perftest's own servers. */
	if (o->p.kind != KIND_BW || o->p.op != OP_WRITE ||
	    (o->p.flags & (PARAM_BIDIR | PARAM_SWEEP)) || o->p.conn != CONN_RC) {
		snprintf(err, errlen, "against a perftest server this version runs write bandwidth only (ib_write_bw: RC, one size, one direction) — for read, send or latency tests run ibconsole serve on the peer");
		return 2;
	}
	st = dial(&c, err, errlen);
	if (st)
		return st;
	st = handshake(&c, r, err, errlen);
	if (st)
		goto out;
	/* our QPs only now, after everything the server could object to */
	st = eng_open(&e, &cfg, err, errlen);
	if (st)
		goto out;
	r->info = *eng_info(e);
	facts_collect(&r->local, e);
	c.gid = e->info.gid_index >= 0;
	/* ib_write_lat shakes hands once more before its per-QP loop */
	if (lat) {
		my_key(e, 0, &mine[0]);
		st = keys(&c, &mine[0], &again, err, errlen);
		if (st)
			goto out;
	}
	for (uint32_t i = 0; i < e->nqps; i++) {
		my_key(e, i, &mine[i]);
		st = keys(&c, &mine[i], &rem[i], err, errlen);
		if (st)
			goto out;
	}
	m.u.qps.nqps = e->nqps;
	m.u.qps.mtu = 128u << c.mtu;
	for (uint32_t i = 0; i < e->nqps; i++) {
		struct proto_qp *q = &m.u.qps.qp[i];

		q->qpn = rem[i].qpn;
		q->psn = rem[i].psn;
		q->rkey = rem[i].rkey;
		q->lid = rem[i].lid;
		memcpy(q->gid, rem[i].gid, 16);
		/* the engine writes to vaddr + half and reads from vaddr; perftest's
		 * line names the very address to use for both */
		q->vaddr = o->p.op == OP_WRITE ? rem[i].vaddr - e->half : rem[i].vaddr;
	}
	st = eng_connect(e, &m, err, errlen);
	if (st)
		goto out;
	/* the second round after RTR: the server repeats its lines; a
	 * different line means it set up another number of QPs (-q) */
	for (uint32_t i = 0; i < e->nqps; i++) {
		st = keys(&c, &mine[i], &again, err, errlen);
		if (st)
			goto out;
		if (again.qpn != rem[i].qpn || again.vaddr != rem[i].vaddr) {
			snprintf(err, errlen, "-q (QPs) differs: here %u, the perftest server at %s another number — give the same -q on both ends",
				 e->nqps, c.where);
			st = 2;
			goto out;
		}
	}
	st = keys(&c, &mine[0], &again, err, errlen);	/* both sides at RTS */
	if (st)
		goto out;
	st = eng_prepare(e, o->p.size, err, errlen);
	if (st)
		goto out;
	testctr_sample(&before, r->info.device, r->info.ib_port);
	st = eng_run(e, o->p.size, o->p.iters, o->p.duration_ms, &r->ph[0].local, err, errlen);
	testctr_sample_after(&after, &before, r->info.device, r->info.ib_port);
	testctr_delta(&before, &after, &r->local_ctr);
	if (st)
		goto out;
	r->nphases = 1;
	r->ph[0].total_avg_gbps = r->ph[0].local.bw_avg_gbps;
	r->ph[0].total_peak_gbps = r->ph[0].local.bw_peak_gbps;
	r->ph[0].total_mpps = r->ph[0].local.msg_rate_mpps;
	if (!lat) {
		/* the end: one more key line, our report (the server prints it
		 * as its result), a last key line and "done" */
		const struct eng_result *l = &r->ph[0].local;
		double mbs = 1e9 / 8.0 / (1 << 20);	/* Gb/s → MiB/s, perftest's default unit */
		uint8_t out[8], in[8];
		uint64_t iters = l->msgs / (e->nqps ? e->nqps : 1);
		size_t ilen = c.rem_ver >= PT_V_ITERS64 ? 8 : 4;

		st = keys(&c, &mine[0], &again, err, errlen);
		if (st)
			goto out;
		pt_u64_encode(l->size, out);
		st = ENG_PEER;
		if (xchg(&c, out, in, 8, "report (size)", err, errlen))
			goto out;
		if (ilen == 8)
			pt_u64_encode(iters, out);
		else
			pt_u32_encode((uint32_t)iters, out);
		if (xchg(&c, out, in, ilen, "report (iterations)", err, errlen))
			goto out;
		pt_double_encode(l->bw_peak_gbps * mbs, out);
		if (xchg(&c, out, in, 8, "report (peak)", err, errlen))
			goto out;
		pt_double_encode(l->bw_avg_gbps * mbs, out);
		if (xchg(&c, out, in, 8, "report (average)", err, errlen))
			goto out;
		pt_double_encode(l->msg_rate_mpps, out);
		if (xchg(&c, out, in, 8, "report (message rate)", err, errlen))
			goto out;
		st = keys(&c, &mine[0], &again, err, errlen);
		if (st)
			goto out;
		/* "done": the server may close first, so best effort */
		(void)send(c.fd, "done", PT_DONE_LEN, MSG_NOSIGNAL);
	}
	st = 0;
out:
	if (c.fd >= 0)
		close(c.fd);
	eng_close(e);
	return st;
}
