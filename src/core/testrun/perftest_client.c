// SPDX-License-Identifier: MIT
/* A test against an unmodified perftest server. The handshake follows
 * perftest's perftest_communication.c: the client writes each message
 * first, the server answers with the same kind; every message is one
 * fixed-size read() on the server, so each is written whole here, and
 * every read here waits at most the time-out. */
#include "config.h"
#include "core/testrun/perftest_client.h"

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

#include "core/agent/dial.h"
#include "core/testrun/perftest_proto.h"
#include "core/engine/facts.h"
#include "core/base/clock.h"
#include "core/port/verbsdl.h"

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
	bool keys_checked;	/* the server's QP count is known to match */
	struct pt_script s;	/* what this test's server expects */
	struct eng *e;
	struct pt_key mine[PROTO_MAX_QPS], rem[PROTO_MAX_QPS];
};

/* Writes or reads exactly len bytes before the deadline; 0 or -1 with err. */
static int io_exact(struct ptc *c, bool wr, void *buf, size_t len, const char *what,
		    char *err, size_t errlen)
{
	long long deadline = mono_ms() + c->o->timeout_ms;
	size_t done = 0;

	while (done < len) {
		struct pollfd p = { .fd = c->fd, .events = wr ? POLLOUT : POLLIN };
		long long left = deadline - mono_ms();
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
	int port = c->o->tcp_port ? c->o->tcp_port : PT_DEFAULT_PORT;
	struct dial_result r;

	snprintf(c->where, sizeof(c->where), "%s port %d", c->o->peer, port);
	/* perftest's server accepts once: one attempt per address, no retry loop */
	switch (dial_tcp(c->o->peer, port, c->o->timeout_ms, DIAL_NODELAY, NULL, &r, err, errlen)) {
	case DIAL_OK:
		c->fd = r.fd;
		return 0;
	case DIAL_NO_ANSWER:
		snprintf(err, errlen, "cannot reach a perftest server at %s: %s — start e.g. 'ib_write_bw' (no host argument) on the peer first",
			 c->where, strerror(r.eno));
		return ENG_PEER;
	default:
		return ENG_PEER;
	}
}

/* The active MTU as the ibv_mtu enum, without creating anything. */
static int local_mtu(const struct client_opts *o, char *err, size_t errlen)
{
	int n = 0, mtu = -1;
	struct ibv_device **l;

	if (verbsdl_load(err, errlen))
		return -1;
	l = ibv_get_device_list(&n);
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

	if (c->o->cancel && atomic_load(c->o->cancel)) {
		snprintf(err, errlen, "cancelled");
		return -1;
	}
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
	struct eng_qp_key q;

	eng_qp_key(e, i, &q);
	memset(k, 0, sizeof(*k));
	k->lid = q.lid;
	/* the reads we take as responder, as perftest offers the device's */
	k->out_reads = q.max_rd_atomic;
	k->qpn = q.qpn;
	k->psn = q.psn;
	k->rkey = q.rkey;
	/* the peer writes where our engine polls: the dst half */
	k->vaddr = q.vaddr;
	memcpy(k->gid, q.gid, 16);
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

/* The server answered a line that is not its first QP's where its first
 * QP's was due: it set up more QPs (-q) than we did. Counts them by going
 * on until its first QP's line comes round again (its second round). */
static int more_qps(struct ptc *c, uint32_t seen, char *err, size_t errlen)
{
	struct pt_key k;
	uint32_t n = seen;

	while (n < 4096) {
		if (keys(c, &c->mine[0], &k, err, errlen))
			break;
		n++;
		if (k.qpn == c->rem[0].qpn) {
			snprintf(err, errlen, "-q (QPs) differs: here %u, the perftest server at %s %u — give the same -q on both ends",
				 eng_nqps(c->e), c->where, n - 1);
			return 2;
		}
	}
	snprintf(err, errlen, "-q (QPs) differs: here %u, the perftest server at %s more — give the same -q on both ends",
		 eng_nqps(c->e), c->where);
	return 2;
}

/* One sync line (QP 1's) each way; the server's must be its QP 1's too,
 * or the two exchanges are out of step. */
static int sync_line(struct ptc *c, char *err, size_t errlen)
{
	struct pt_key k;
	int st = keys(c, &c->mine[0], &k, err, errlen);

	if (st)
		return st;
	if (k.qpn != c->rem[0].qpn) {
		if (!c->keys_checked)
			return more_qps(c, eng_nqps(c->e) + 1, err, errlen);
		snprintf(err, errlen, "the perftest server at %s is at another step of its exchange — it runs another test, or a different -a, -b or -D: start it with the same options",
			 c->where);
		return 2;
	}
	c->keys_checked = true;
	return 0;
}

/* The first round: our line, then the server's, per QP. A server with
 * fewer QPs answers its first QP's line again (it is in its second round). */
static int first_round(struct ptc *c, char *err, size_t errlen)
{
	for (uint32_t i = 0; i < eng_nqps(c->e); i++) {
		int st;

		my_key(c->e, i, &c->mine[i]);
		st = keys(c, &c->mine[i], &c->rem[i], err, errlen);
		if (st)
			return st;
		if (i > 0 && c->rem[i].qpn == c->rem[0].qpn) {
			snprintf(err, errlen, "-q (QPs) differs: here %u, the perftest server at %s %u — give the same -q on both ends",
				 eng_nqps(c->e), c->where, i);
			return 2;
		}
	}
	return 0;
}

static int second_round(struct ptc *c, char *err, size_t errlen)
{
	for (uint32_t i = 0; i < eng_nqps(c->e); i++) {
		struct pt_key k;
		int st = keys(c, &c->mine[i], &k, err, errlen);

		if (st)
			return st;
		if (k.qpn != c->rem[i].qpn || k.vaddr != c->rem[i].vaddr)
			return more_qps(c, eng_nqps(c->e) + i + 1, err, errlen);
	}
	c->keys_checked = true;
	return 0;
}

static int connect_qps(struct ptc *c, char *err, size_t errlen)
{
	struct proto_msg m = { .type = MSG_ACCEPT };
	struct eng *e = c->e;
	int rd = c->rem[0].out_reads;

	/* as many reads in flight as the server takes (perftest: the device's) */
	eng_set_rd_atomic(e, rd > 0 && rd < 255 ? rd : 255);
	m.u.qps.nqps = eng_nqps(e);
	m.u.qps.mtu = 128u << c->mtu;
	for (uint32_t i = 0; i < m.u.qps.nqps; i++) {
		struct proto_qp *q = &m.u.qps.qp[i];

		q->qpn = c->rem[i].qpn;
		q->psn = c->rem[i].psn;
		q->rkey = c->rem[i].rkey;
		q->lid = c->rem[i].lid;
		memcpy(q->gid, c->rem[i].gid, 16);
		/* the engine writes to vaddr + half and reads from vaddr; perftest's
		 * line names the very address to use for both */
		q->vaddr = c->o->p.op == OP_WRITE ? c->rem[i].vaddr - eng_half_bytes(e) : c->rem[i].vaddr;
	}
	return eng_connect(e, m.u.qps.nqps, m.u.qps.mtu, m.u.qps.qp, err, errlen);
}

/* Bandwidth reports both ways: ours in the unit the server prints
 * (perftest's default MB/s = MiB/s, or --report_gbits), theirs back in
 * Gb/s from the unit-free message rate. */
static int reports(struct ptc *c, const struct eng_result *l, struct client_phase *ph,
		   char *err, size_t errlen)
{
	static const char *const what[PT_REPORT_MSGS] = {
		"report (size)", "report (iterations)", "report (peak)", "report (average)", "report (message rate)"
	};
	double unit = c->o->report_gbits ? 1.0 : 1e9 / 8.0 / (1 << 20);
	struct pt_report mine = {
		.size = l->size, .iters = l->msgs / (eng_nqps(c->e) ? eng_nqps(c->e) : 1),
		.bw_peak = l->bw_peak_gbps * unit, .bw_avg = l->bw_avg_gbps * unit,
		.msg_rate_mpps = l->msg_rate_mpps,
	}, theirs;
	uint8_t out[PT_REPORT_MSGS][8], in[PT_REPORT_MSGS][8];
	size_t len[PT_REPORT_MSGS];

	pt_report_encode(&mine, c->rem_ver, out, len);
	for (int i = 0; i < PT_REPORT_MSGS; i++)
		if (xchg(c, out[i], in[i], len[i], what[i], err, errlen))
			return ENG_PEER;
	pt_report_decode(in, c->rem_ver, &theirs);
	if (ph && theirs.msg_rate_mpps > 0 && theirs.bw_avg > 0) {
		double gbps = theirs.msg_rate_mpps * (double)theirs.size * 8.0 / 1e3;

		ph->peer_valid = true;
		ph->peer_msgs = theirs.iters * eng_nqps(c->e);
		ph->peer_bytes = ph->peer_msgs * theirs.size;
		ph->peer_ns = (uint64_t)((double)ph->peer_bytes * 8.0 / gbps);
		ph->peer_peak_gbps = gbps * theirs.bw_peak / theirs.bw_avg;
		ph->total_avg_gbps += gbps;
		ph->total_peak_gbps += ph->peer_peak_gbps;
		ph->total_mpps += theirs.msg_rate_mpps;
	}
	return 0;
}

static int handshake(struct ptc *c, struct client_result *r, char *err, size_t errlen)
{
	uint8_t v[PT_VERSION_LEN], rv[PT_VERSION_LEN], a[4], b[4];
	char why[200];
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
	return 0;
}

/* The QPs' exchange before any traffic, in the order the server's main has it. */
static int setup(struct ptc *c, char *err, size_t errlen)
{
	struct pt_key lead;
	int st;

	if (c->s.lead_sync) {
		my_key(c->e, 0, &c->mine[0]);
		st = keys(c, &c->mine[0], &lead, err, errlen);
		if (st)
			return st;
	}
	st = first_round(c, err, errlen);
	if (!st)
		st = connect_qps(c, err, errlen);
	/* the first size readied once the QPs are connected (receives, as
	 * with the agent) and before the server can start: write latency's
	 * server posts its first ping right after the last sync, and a later
	 * zeroing of the poll byte would wipe it */
	if (!st)
		st = eng_prepare(c->e, (c->o->p.flags & PARAM_SWEEP) ? 2 : c->o->p.size, err, errlen);
	if (!st && c->s.sync_after_connect)
		st = sync_line(c, err, errlen);
	if (!st)
		st = second_round(c, err, errlen);
	if (!st && c->s.sync_after_keys)
		st = sync_line(c, err, errlen);
	return st;
}

/* Write latency: perftest zeroes its buffer and sets only the ping byte
 * at its size − 1, so a ping that landed elsewhere names the server's -s. */
static uint64_t ping_elsewhere(const struct ptc *c, uint64_t size)
{
	const volatile uint8_t *d = eng_dst(c->e, 0);
	size_t half = eng_half_bytes(c->e);

	for (size_t k = 0; k < half; k++)
		if (d[k] && k + 1 != size)
			return k + 1;
	return 0;
}

/* Every size: the server's syncs and reports around our engine's phase. */
static int run_sizes(struct ptc *c, struct client_result *r, char *err, size_t errlen)
{
	const struct proto_params *p = &c->o->p;
	uint64_t sizes[TESTRUN_MAX_PHASES];
	int n = 0, st;

	if (p->flags & PARAM_SWEEP)
		for (int k = 1; k <= c->s.max_pow && n < TESTRUN_MAX_PHASES; k++)
			sizes[n++] = 1ull << k;
	else
		sizes[n++] = p->size;
	for (int i = 0; i < n; i++) {
		struct client_phase *ph = &r->ph[i];
		struct eng_result *l = &ph->local;

		/* receives for send tests before the server may send (the
		 * first size's in ptclient_run, before the last sync) */
		if (p->op == OP_SEND && i > 0) {
			st = eng_prepare(c->e, sizes[i], err, errlen);
			if (st)
				return st;
		}
		if (c->s.sync_before_run && (st = sync_line(c, err, errlen)))
			return st;
		st = eng_run(c->e, sizes[i], p->iters, p->duration_ms, l, err, errlen);
		if (st && c->s.answer_first && i == 0) {
			uint64_t theirs = ping_elsewhere(c, sizes[i]);

			if (theirs)
				snprintf(err, errlen, "-s (size) differs: here %llu, the perftest server at %s %llu — give the same -s (and -a) on both ends",
					 (unsigned long long)sizes[i], c->where, (unsigned long long)theirs);
			return theirs ? 2 : st;
		}
		if (st && strstr(err, "access error")) {
			/* perftest registers its buffer for its own test's verb only */
			snprintf(err, errlen, "the perftest server at %s refused our RDMA %s: it runs another test — start ib_%s_%s there",
				 c->where, eng_op_name(p->op), eng_op_name(p->op), p->kind == KIND_LAT ? "lat" : "bw");
			return 2;
		}
		if (st)
			return st;
		r->nphases = i + 1;
		ph->total_avg_gbps = l->bw_avg_gbps;
		ph->total_peak_gbps = l->bw_peak_gbps;
		ph->total_mpps = l->msg_rate_mpps;
		if (c->s.report_each && c->s.report_first && (st = reports(c, l, ph, err, errlen)))
			return st;
		if (c->s.sync_after_run && (st = sync_line(c, err, errlen)))
			return st;
		if (c->s.report_each && !c->s.report_first && (st = reports(c, l, ph, err, errlen)))
			return st;
	}
	if (c->s.report_end) {
		st = sync_line(c, err, errlen);
		if (!st)
			st = reports(c, &r->ph[n - 1].local, NULL, err, errlen);
		if (st)
			return st;
	}
	if (c->s.close) {
		st = sync_line(c, err, errlen);
		if (st)
			return st;
		/* "done": the server may close first, so best effort */
		(void)send(c->fd, "done", PT_DONE_LEN, MSG_NOSIGNAL);
	}
	return 0;
}

int ptclient_run(const struct client_opts *o, struct client_result *r, char *err, size_t errlen)
{
	struct client_opts oo = *o;
	struct ptc c = { .o = &oo, .fd = -1 };
	struct eng_cfg cfg = { .device = o->device, .ib_port = o->ib_port, .gid_index = o->gid_index,
			       .initiator = true,
			       /* perftest never times out; its start can be slow */
			       .stall_ms = o->stall_ms > o->timeout_ms ? o->stall_ms : o->timeout_ms,
			       .tick = tick, .progress = progress, .arg = &c };
	int verb = o->p.op == OP_SEND ? PT_SEND : o->p.op == OP_READ ? PT_READ : PT_WRITE;
	struct testctr before, after;
	time_t now = time(NULL);
	char why[200];
	struct tm tm;
	int st;

	memset(r, 0, sizeof(*r));
	gmtime_r(&now, &tm);
	strftime(r->started, sizeof(r->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(r->peer.host, sizeof(r->peer.host), "%s", o->peer);
	snprintf(r->peer.driver, sizeof(r->peer.driver), "perftest");
	r->peer.numa_node = -1;
	r->peer.gid_index = -1;
	if (o->p.conn != CONN_RC || o->p.kind == KIND_RATE) {
		snprintf(err, errlen, "against a perftest server this version runs RC bandwidth and latency tests (ib_{write,read,send}_{bw,lat}) — drop -c UD / 'rate', or run ibconsole serve on the peer");
		return 2;
	}
	if (pt_script_for(verb, o->p.kind == KIND_LAT, o->p.flags & PARAM_SWEEP, o->p.flags & PARAM_BIDIR,
			  o->p.duration_ms > 0, &c.s, why, sizeof(why))) {
		snprintf(err, errlen, "against a perftest server: %s — drop that option", why);
		return 2;
	}
	/* -a: perftest runs every size to 8 MiB whatever -s says */
	if (oo.p.flags & PARAM_SWEEP)
		oo.p.size = 1ull << c.s.max_pow;
	cfg.p = oo.p;
	cfg.answer_first = c.s.answer_first;
	st = dial(&c, err, errlen);
	if (st)
		return st;
	st = handshake(&c, r, err, errlen);
	if (st)
		goto out;
	/* our QPs only now, after everything the server could object to */
	st = eng_open(&c.e, &cfg, err, errlen);
	if (st)
		goto out;
	r->info = *eng_info(c.e);
	facts_collect(&r->local, c.e);
	c.gid = eng_info(c.e)->gid_index >= 0;
	st = setup(&c, err, errlen);
	if (st)
		goto out;
	testctr_sample(&before, r->info.device, r->info.ib_port);
	st = run_sizes(&c, r, err, errlen);
	testctr_sample_after(&after, &before, r->info.device, r->info.ib_port);
	testctr_delta(&before, &after, &r->local_ctr);
out:
	if (c.fd >= 0)
		close(c.fd);
	eng_close(c.e);
	return st;
}
