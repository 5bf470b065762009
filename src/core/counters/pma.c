// SPDX-License-Identifier: MIT
/* The PMA client: ClassPortInfo, PortCounters and PortCountersExtended
 * Gets pipelined on one umad agent (a window of outstanding MADs matched
 * back by TID), used alike by a single port's sample and the sweep. */
#include "config.h"
#include "core/counters/pma.h"
#include "core/counters/counters.h"
#include "core/port/madaccess.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/umad.h>

int pma_pipe_init(struct pma_pipe *pp, struct ibmad_port *mp, int window,
		  int timeout_ms, int retries)
{
	memset(pp, 0, sizeof(*pp));
	pp->fd = mad_rpc_portid(mp);
	pp->agent = mad_rpc_class_agent(mp, IB_PERFORMANCE_CLASS);
	pp->window = window > 0 ? window : 1;
	pp->timeout_ms = timeout_ms;
	pp->retries = retries;
	pp->tid_base = (uint32_t)mad_trid() + 0x10000u;
	pp->sbuf = calloc(1, umad_size() + IB_MAD_SIZE);
	pp->rbuf = calloc(1, umad_size() + IB_MAD_SIZE);
	if (!pp->sbuf || !pp->rbuf) {
		pma_pipe_fini(pp);
		return -1;
	}
	return 0;
}

void pma_pipe_fini(struct pma_pipe *pp)
{
	free(pp->sbuf);
	free(pp->rbuf);
	pp->sbuf = pp->rbuf = NULL;
	for (int k = 0; k < PMA_PIPE_TEMPLATES; k++) {
		free(pp->tmpl[k]);
		pp->tmpl[k] = NULL;
	}
}

struct pma_req *pma_req_add(struct pma_req *r, int *n, uint8_t *bufs,
			    unsigned lid, int port, int attr)
{
	struct pma_req *q = &r[*n];

	memset(q, 0, sizeof(*q));
	q->lid = lid;
	q->port = port;
	q->attr = attr;
	q->out = bufs + (size_t)*n * IB_PC_DATA_SZ;
	(*n)++;
	return q;
}

/* A Get of attr for lid/port with TID trid, built by libibmad into buf
 * (umad_size() + IB_MAD_SIZE bytes). */
static int pipe_build(void *buf, const struct pma_pipe *pp, int attr, unsigned lid,
		      int port, uint32_t trid)
{
	uint8_t payload[IB_PC_DATA_SZ];
	ib_rpc_t rpc;
	ib_portid_t d;

	memset(payload, 0, sizeof(payload));
	mad_set_field(payload, 0, IB_PC_PORT_SELECT_F, port);
	memset(&rpc, 0, sizeof(rpc));
	rpc.mgtclass = IB_PERFORMANCE_CLASS;
	rpc.method = IB_MAD_METHOD_GET;
	rpc.attr.id = attr;
	rpc.timeout = pp->timeout_ms;
	rpc.datasz = IB_PC_DATA_SZ;
	rpc.dataoffs = IB_PC_DATA_OFFS;
	rpc.trid = trid;
	memset(&d, 0, sizeof(d));
	d.lid = (int)lid;
	d.qp = 1;
	d.qkey = IB_DEFAULT_QP1_QKEY;
	memset(buf, 0, umad_size() + IB_MAD_SIZE);
	return mad_build_pkt(buf, &rpc, &d, NULL, payload) < 0 ? -1 : 0;
}

/* Request r into pp->sbuf: the attribute's template copied, then what
 * differs between requests set in it (the address's LID, the TID, the
 * PortSelect), as mad_build_pkt would have; built whole when there is
 * no template. */
static int pipe_fill(struct pma_pipe *pp, const struct pma_req *r, uint32_t trid)
{
	size_t len = umad_size() + IB_MAD_SIZE;
	uint8_t *mad;
	int k;

	for (k = 0; k < PMA_PIPE_TEMPLATES && pp->tmpl[k]; k++)
		if (pp->tmpl_attr[k] == r->attr)
			break;
	if (k < PMA_PIPE_TEMPLATES && !pp->tmpl[k]) {
		pp->tmpl[k] = malloc(len);
		if (pp->tmpl[k] && pipe_build(pp->tmpl[k], pp, r->attr, 1, 0, 0)) {
			free(pp->tmpl[k]);
			pp->tmpl[k] = NULL;
		}
		pp->tmpl_attr[k] = r->attr;
	}
	if (k == PMA_PIPE_TEMPLATES || !pp->tmpl[k])
		return pipe_build(pp->sbuf, pp, r->attr, r->lid, r->port, trid);
	memcpy(pp->sbuf, pp->tmpl[k], len);
	if (umad_set_addr(pp->sbuf, (int)r->lid, 1, 0, IB_DEFAULT_QP1_QKEY) < 0)
		return -1;
	mad = umad_get_mad(pp->sbuf);
	mad_set_field64(mad, 0, IB_MAD_TRID_F, trid);
	mad_set_field(mad + IB_PC_DATA_OFFS, 0, IB_PC_PORT_SELECT_F, r->port);
	return 0;
}

static int pma_pipe_send(struct pma_pipe *pp, struct pma_req *r, int idx)
{
	if (pipe_fill(pp, r, pp->tid_base + (uint32_t)idx) < 0)
		return -1;
	if (umad_send(pp->fd, pp->agent, pp->sbuf, IB_MAD_SIZE, pp->timeout_ms, 0) < 0)
		return -1;
	if (r->tries)
		pp->retried++;
	r->tries++;
	r->inflight = true;
	r->deadline = counters_now() + pp->timeout_ms / 1000.0 + 0.05;
	pp->sent++;
	return 0;
}

/* Takes one received MAD: -1 when none is there (the umad fd is
 * non-blocking), 1 when it completed a request, 0 otherwise. */
static int pma_pipe_recv_one(struct pma_pipe *pp, struct pma_req *r, int n)
{
	int len = IB_MAD_SIZE, st;
	uint8_t *mad;
	uint32_t idx;
	struct pma_req *q;

	if (umad_recv(pp->fd, pp->rbuf, &len, 0) < 0)
		return -1;
	mad = umad_get_mad(pp->rbuf);
	idx = (uint32_t)mad_get_field64(mad, 0, IB_MAD_TRID_F) - pp->tid_base;
	if (idx >= (uint32_t)n)
		return 0;	/* someone else's, or a late duplicate */
	q = &r[idx];
	if (q->status)
		return 0;
	st = umad_status(pp->rbuf);
	if (st) {		/* the kernel timed it out: retry below */
		q->inflight = false;
		q->deadline = 0;
		return 0;
	}
	q->inflight = false;
	if (mad_get_field(mad, 0, IB_MAD_STATUS_F)) {
		q->status = -1;
		q->mad_status = (int)mad_get_field(mad, 0, IB_MAD_STATUS_F);
		pp->failed++;
		return 1;
	}
	memcpy(q->out, mad + IB_PC_DATA_OFFS, IB_PC_DATA_SZ);
	q->status = 1;
	return 1;
}

/* How long the pipe naps, with answers outstanding, before it takes
 * what has come: the answers of a nap are taken together, a read each,
 * instead of a wake-up each. A nap that brought none is followed by a
 * wait in poll(2) for the next answer (a slow or silent PMA costs no
 * spinning). */
#define PMA_PIPE_NAP_NS 250000L

static void pipe_nap(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

int pma_pipe_run(struct pma_pipe *pp, struct pma_req *r, int n)
{
	int next = 0, done = 0, inflight = 0, lo = 0;
	bool napped = false;

	while (done < n) {
		double now = counters_now(), soonest = now + 1;
		int ms, rc, got = 0;

		/* Expired or kernel-timed-out requests: retry or give up.
		 * Everything below lo is finished: the scan covers about a
		 * window, not every request sent so far (answers come back
		 * roughly in order, a few per wake-up). */
		while (lo < next && r[lo].status)
			lo++;
		inflight = 0;
		for (int i = lo; i < next; i++) {
			struct pma_req *q = &r[i];

			if (q->status)
				continue;
			if (q->inflight && q->deadline > now) {
				inflight++;
				if (q->deadline < soonest)
					soonest = q->deadline;
				continue;
			}
			if (q->tries > pp->retries) {
				q->status = -1;
				q->inflight = false;
				pp->failed++;
				done++;
				continue;
			}
			if (pma_pipe_send(pp, q, i) < 0)
				return -1;
			inflight++;
			if (q->deadline < soonest)
				soonest = q->deadline;
		}
		while (inflight < pp->window && next < n) {
			if (pma_pipe_send(pp, &r[next], next) < 0)
				return -1;
			if (r[next].deadline < soonest)
				soonest = r[next].deadline;
			next++;
			inflight++;
		}
		if (done >= n)
			break;
		/* take what is there: a read each until none, no poll(2)
		 * between them */
		for (int k = 0; k < 4 * pp->window; k++) {
			int g = pma_pipe_recv_one(pp, r, n);

			if (g < 0)
				break;
			done += g;
			got++;
		}
		if (got) {
			napped = false;
			continue;	/* refill the window first */
		}
		ms = (int)((soonest - counters_now()) * 1000) + 1;
		if (ms < 0)
			ms = 0;
		if (!napped && ms > 1) {
			pipe_nap(PMA_PIPE_NAP_NS);
			napped = true;
			continue;
		}
		napped = false;
		rc = poll(&(struct pollfd){ .fd = pp->fd, .events = POLLIN }, 1, ms);
		if (rc < 0 && errno != EINTR)
			return -1;
		/* done counts completions; the rescan above sets failures */
	}
	/* the next run's answers must not match this one's late ones */
	pp->tid_base += (uint32_t)n + 16;
	return 0;
}

/* --- the client of one local port: a round of samples is one pipelined run --- */

/* ClassPortInfo of one LID, asked once; details the PMA refused or left
 * unanswered (why, "" while they work) */
struct pma_cpi {
	unsigned lid;
	uint16_t cap;
	uint32_t cap2;
	char no_det[DET_GROUPS][80];
};

/* The requests of one round of samples and their answers. */
struct pma_round {
	struct pma_req *r;
	uint8_t *bufs;
	int n;
	int *who;		/* r[k] belongs to target who[k] */
	enum det_group *grp;	/* r[k]'s details group */
};

struct pma_client {
	struct ibmad_port *mp;
	struct pma_pipe pp;
	int timeout_ms;
	/* sorted by LID, grown as LIDs are met: a watch of a thousand
	 * remote ports keeps a thousand */
	struct pma_cpi *cpi;
	int ncpi, cpi_cap;
	/* the rounds' requests, kept from one sample to the next (a watch
	 * samples the same thousand ports every interval) */
	struct pma_round kept;
	int kept_cap;
};

/* MADs in flight on a client: the sweep's default window, so that a
 * round of a thousand ports costs what a sweep of them does. */
#define PMA_CLIENT_WINDOW 64

struct pma_client *pma_open(const char *dev, int port, int timeout_ms,
			    char *err, size_t errlen)
{
	int classes[] = { IB_PERFORMANCE_CLASS };
	struct pma_client *c;

	if (madaccess_probe(dev, port, err, errlen))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	c->mp = mad_rpc_open_port((char *)dev, port, classes, 1);
	if (!c->mp) {
		snprintf(err, errlen, "libibmad cannot open %s/%d for PMA queries — check the umad device permissions", dev, port);
		free(c);
		return NULL;
	}
	c->timeout_ms = timeout_ms > 0 ? timeout_ms : 500;
	mad_rpc_set_timeout(c->mp, c->timeout_ms);
	mad_rpc_set_retries(c->mp, 2);
	if (pma_pipe_init(&c->pp, c->mp, PMA_CLIENT_WINDOW, c->timeout_ms, 2)) {
		mad_rpc_close_port(c->mp);
		free(c);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return c;
}

static void round_free(struct pma_round *rd);

void pma_close(struct pma_client *c)
{
	if (!c)
		return;
	pma_pipe_fini(&c->pp);
	mad_rpc_close_port(c->mp);
	free(c->cpi);
	round_free(&c->kept);
	free(c);
}

/* The cached ClassPortInfo of lid, or NULL; *at: where it would go. */
static struct pma_cpi *cpi_find(struct pma_client *c, unsigned lid, int *at)
{
	int lo = 0, hi = c->ncpi;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (c->cpi[mid].lid < lid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (at)
		*at = lo;
	return lo < c->ncpi && c->cpi[lo].lid == lid ? &c->cpi[lo] : NULL;
}

/* Caches lid's ClassPortInfo (raw answer buf): 0, or -1 out of memory
 * (the answer is then used once and asked again next time). */
static int cpi_put(struct pma_client *c, unsigned lid, const uint8_t *buf)
{
	struct pma_cpi *e;
	int at;

	if (cpi_find(c, lid, &at))
		return 0;
	if (c->ncpi == c->cpi_cap) {
		int cap = c->cpi_cap ? 2 * c->cpi_cap : 16;
		struct pma_cpi *n = realloc(c->cpi, (size_t)cap * sizeof(*n));

		if (!n)
			return -1;
		c->cpi = n;
		c->cpi_cap = cap;
	}
	memmove(&c->cpi[at + 1], &c->cpi[at], (size_t)(c->ncpi - at) * sizeof(*e));
	e = &c->cpi[at];
	memset(e, 0, sizeof(*e));
	e->lid = lid;
	counters_parse_cpi(buf, &e->cap, &e->cap2);
	c->ncpi++;
	return 0;
}

/* One round's working set: per target three answer buffers (the
 * ClassPortInfo or the counters, the extended counters) and the details'
 * requests, in one allocation. */
static int round_alloc(struct pma_round *rd, int nreq)
{
	memset(rd, 0, sizeof(*rd));
	rd->r = calloc((size_t)nreq, sizeof(*rd->r));
	rd->bufs = calloc((size_t)nreq, IB_PC_DATA_SZ);
	rd->who = calloc((size_t)nreq, sizeof(*rd->who));
	rd->grp = calloc((size_t)nreq, sizeof(*rd->grp));
	return rd->r && rd->bufs && rd->who && rd->grp ? 0 : -1;
}

static void round_free(struct pma_round *rd)
{
	free(rd->r);
	free(rd->bufs);
	free(rd->who);
	free(rd->grp);
	memset(rd, 0, sizeof(*rd));
}

/* rd: the client's kept round, grown to nreq requests (not zeroed:
 * each request is set as it is added). */
static int round_reserve(struct pma_client *c, struct pma_round *rd, int nreq)
{
	if (nreq > c->kept_cap) {
		round_free(&c->kept);
		c->kept_cap = 0;
		if (round_alloc(&c->kept, nreq)) {
			round_free(&c->kept);
			return -1;
		}
		c->kept_cap = nreq;
	}
	*rd = c->kept;
	rd->n = 0;
	return 0;
}

static void round_add(struct pma_round *rd, int who, unsigned lid, int port,
		      int attr)
{
	rd->who[rd->n] = who;
	pma_req_add(rd->r, &rd->n, rd->bufs, lid, port, attr);
}

static void fail_all(struct pma_sample_req *q, int n, const char *what)
{
	for (int i = 0; i < n; i++)
		if (!q[i].cs->why[0]) {
			snprintf(q[i].cs->why, sizeof(q[i].cs->why), "PMA queries of LID %u port %d: %s",
				 q[i].lid, q[i].port, what);
			q[i].cs->valid = false;
		}
}

/* The ClassPortInfo of every target whose LID is not cached yet, in
 * flight together. Targets without one get why. */
static int round_cpi(struct pma_client *c, struct pma_sample_req *q, int n,
		     struct pma_round *rd)
{
	rd->n = 0;
	for (int i = 0; i < n; i++)
		if (q[i].lid && !cpi_find(c, q[i].lid, NULL))
			round_add(rd, i, q[i].lid, q[i].port, CLASS_PORT_INFO);
	if (!rd->n)
		return 0;
	if (pma_pipe_run(&c->pp, rd->r, rd->n) < 0)
		return -1;
	for (int k = 0; k < rd->n; k++)
		if (rd->r[k].status == 1 && cpi_put(c, rd->r[k].lid, rd->r[k].out))
			return -1;
	return 0;
}

/* Whether detail group g of the sample cs is worth asking, or why not
 * (into dv->why). */
static bool detail_wanted(const struct pma_cpi *e, const struct counter_set *cs,
			  enum det_group g, struct det_values *dv)
{
	const struct ctr_value *tot = counters_find(cs, details_total_name(g));

	memset(dv, 0, sizeof(*dv));
	if (g == DET_VL_WAIT && !(cs->pma_cap & PMA_CAP_XMIT_WAIT))
		snprintf(dv->why, sizeof(dv->why),
			 "the port does not count PortXmitWait (PMA ClassPortInfo CapabilityMask bit 12 clear)");
	else if (e && e->no_det[g][0])
		counters_copy_str(dv->why, sizeof(dv->why), e->no_det[g]);
	else if (!tot || !tot->value) {
		/* most ports, every interval: no printf */
		size_t k = strnlen(details_total_name(g), sizeof(dv->why) - 1);

		memcpy(dv->why, details_total_name(g), k);
		counters_copy_str(dv->why + k, sizeof(dv->why) - k, " is 0: nothing to detail");
	} else
		return true;
	return false;
}

/* The details of the totals that are not 0, every target's together. */
static void round_details(struct pma_client *c, struct pma_sample_req *q, int n,
			  struct pma_round *rd)
{
	rd->n = 0;
	for (int i = 0; i < n; i++) {
		struct counter_set *cs = q[i].cs;
		const struct pma_cpi *e = cpi_find(c, q[i].lid, NULL);

		for (int g = 0; cs->valid && g < DET_GROUPS; g++)
			if (detail_wanted(e, cs, g, &cs->det.g[g])) {
				rd->grp[rd->n] = g;
				round_add(rd, i, q[i].lid, q[i].port, details_attr_id(g));
			}
	}
	if (!rd->n)
		return;
	if (pma_pipe_run(&c->pp, rd->r, rd->n) < 0) {
		for (int k = 0; k < rd->n; k++)
			snprintf(q[rd->who[k]].cs->det.g[rd->grp[k]].why, sizeof(q[0].cs->det.g[0].why),
				 "PMA query failed: %s", strerror(errno));
		return;
	}
	for (int k = 0; k < rd->n; k++) {
		struct det_values *dv = &q[rd->who[k]].cs->det.g[rd->grp[k]];
		struct pma_cpi *e = cpi_find(c, rd->r[k].lid, NULL);

		dv->asked = true;
		if (rd->r[k].status == 1) {
			details_decode(dv, rd->grp[k], rd->r[k].out);
			continue;
		}
		/* optional attributes: a refusal or silence is the answer */
		if (rd->r[k].mad_status)
			snprintf(dv->why, sizeof(dv->why),
				 "not supported by the port (MAD status 0x%04x)", rd->r[k].mad_status);
		else
			snprintf(dv->why, sizeof(dv->why),
				 "no answer from LID %u: the port does not support it", rd->r[k].lid);
		if (e)
			snprintf(e->no_det[rd->grp[k]], sizeof(e->no_det[0]), "%s", dv->why);
	}
}

/* PortCounters and, where the PMA has them, PortCountersExtended of
 * every target with a ClassPortInfo, in flight together; decoded into
 * their counter sets. */
static int round_counters(struct pma_client *c, struct pma_sample_req *q, int n,
			  struct pma_round *rd)
{
	double t;

	rd->n = 0;
	for (int i = 0; i < n; i++) {
		const struct pma_cpi *e = q[i].lid ? cpi_find(c, q[i].lid, NULL) : NULL;

		if (!e) {
			if (q[i].lid)
				snprintf(q[i].cs->why, sizeof(q[i].cs->why),
					 "PMA ClassPortInfo of LID %u timed out", q[i].lid);
			continue;
		}
		round_add(rd, i, q[i].lid, q[i].port, IB_GSI_PORT_COUNTERS);
		if ((e->cap & (PMA_CAP_EXT_WIDTH | PMA_CAP_EXT_NOIETF)) ||
		    (e->cap2 & PMA_CAP2_EXT_ERRORS))
			round_add(rd, i, q[i].lid, q[i].port, IB_GSI_PORT_COUNTERS_EXT);
	}
	/* one time for the round: each port's samples are a round apart */
	t = counters_now();
	if (rd->n && pma_pipe_run(&c->pp, rd->r, rd->n) < 0)
		return -1;
	for (int k = 0; k < rd->n; k++) {
		struct pma_sample_req *x = &q[rd->who[k]];
		bool ext = k + 1 < rd->n && rd->who[k + 1] == rd->who[k];
		const struct pma_cpi *e = cpi_find(c, x->lid, NULL);

		x->cs->t_mono = t;
		if (rd->r[k].status != 1 || (ext && rd->r[k + 1].status != 1))
			snprintf(x->cs->why, sizeof(x->cs->why), "PMA %s of LID %u port %d: no answer",
				 rd->r[k].status != 1 ? "PortCounters" : "PortCountersExtended",
				 x->lid, x->port);
		else
			counters_from_pma(x->cs, rd->r[k].out, ext ? rd->r[k + 1].out : NULL,
					  e->cap, e->cap2);
		k += ext;
	}
	return 0;
}

int pma_sample_many(struct pma_client *c, struct pma_sample_req *q, int n)
{
	struct pma_round rd;
	int bad = 0;

	for (int i = 0; i < n; i++) {
		q[i].cs->lid = q[i].lid;
		q[i].cs->port = q[i].port;
		q[i].cs->valid = false;
		q[i].cs->why[0] = 0;
		if (!q[i].lid)
			snprintf(q[i].cs->why, sizeof(q[i].cs->why), "no LID (is a subnet manager running?)");
	}
	/* at most: the counters and extended counters, or every detail */
	if (round_reserve(c, &rd, n * (DET_GROUPS > 2 ? DET_GROUPS : 2))) {
		fail_all(q, n, "out of memory");
		return -1;
	}
	if (round_cpi(c, q, n, &rd) < 0 || round_counters(c, q, n, &rd) < 0) {
		fail_all(q, n, strerror(errno));
		return -1;
	}
	round_details(c, q, n, &rd);
	for (int i = 0; i < n; i++)
		bad += !q[i].cs->valid;
	return bad ? -1 : 0;
}

int pma_sample(struct pma_client *c, unsigned lid, int port,
	       struct counter_set *cs)
{
	struct pma_sample_req q = { lid, port, cs };

	return pma_sample_many(c, &q, 1);
}

int pma_get_many(struct pma_client *c, const struct pma_sample_req *q, int n,
		 int attr, uint8_t *out, int *status)
{
	struct pma_round rd;

	if (round_alloc(&rd, n > 0 ? n : 1)) {
		round_free(&rd);
		errno = ENOMEM;
		return -1;
	}
	for (int i = 0; i < n; i++)
		round_add(&rd, i, q[i].lid, q[i].port, attr);
	if (pma_pipe_run(&c->pp, rd.r, rd.n) < 0) {
		int e = errno;

		round_free(&rd);
		errno = e;
		return -1;
	}
	for (int i = 0; i < n; i++) {
		status[i] = rd.r[i].status == 1 ? 0 : rd.r[i].mad_status ? rd.r[i].mad_status : -1;
		if (!status[i])
			memcpy(out + (size_t)i * IB_PC_DATA_SZ, rd.r[i].out, IB_PC_DATA_SZ);
	}
	round_free(&rd);
	return 0;
}

int pma_get(struct pma_client *c, unsigned lid, int port, int attr, uint8_t *out,
	    char *why, size_t whylen)
{
	struct pma_sample_req q = { lid, port, NULL };
	int st;

	if (pma_get_many(c, &q, 1, attr, out, &st) < 0) {
		snprintf(why, whylen, "PMA query of LID %u port %d: %s", lid, port, strerror(errno));
		return -1;
	}
	if (st) {
		snprintf(why, whylen, st > 0 ? "LID %u refused attribute 0x%x (MAD status 0x%04x)" :
			 "no answer from LID %u to attribute 0x%x", lid, attr, st > 0 ? st : 0);
		return -1;
	}
	return 0;
}

/* The ClassPortInfo of lid, from the cache or asked now. */
static int pma_caps(struct pma_client *c, unsigned lid, int port,
		    uint16_t *cap, uint32_t *cap2)
{
	const struct pma_cpi *e = cpi_find(c, lid, NULL);
	uint8_t buf[IB_PC_DATA_SZ];
	struct pma_req r;
	int n = 0;

	if (!e) {
		pma_req_add(&r, &n, buf, lid, port, CLASS_PORT_INFO);
		if (pma_pipe_run(&c->pp, &r, n) < 0 || r.status != 1)
			return -1;
		if (cpi_put(c, lid, buf)) {
			counters_parse_cpi(buf, cap, cap2);
			return 0;
		}
		e = cpi_find(c, lid, NULL);
	}
	*cap = e->cap;
	*cap2 = e->cap2;
	return 0;
}

int pma_clear(struct pma_client *c, unsigned lid, int port, char *err,
	      size_t errlen)
{
	uint8_t buf[1024];
	ib_portid_t pid;
	uint16_t cap;
	uint32_t cap2;

	memset(&pid, 0, sizeof(pid));
	pid.lid = (int)lid;
	if (pma_caps(c, lid, port, &cap, &cap2)) {
		snprintf(err, errlen, "PMA ClassPortInfo of LID %u timed out", lid);
		return -1;
	}
	memset(buf, 0, sizeof(buf));
	/* mask 0 with CounterSelect2: every classic counter */
	if (!performance_reset_via(buf, &pid, port, 0xffffffffu, c->timeout_ms,
				   IB_GSI_PORT_COUNTERS, c->mp)) {
		snprintf(err, errlen, "PMA PortCounters reset of LID %u port %d failed", lid, port);
		return -1;
	}
	if (cap & (PMA_CAP_EXT_WIDTH | PMA_CAP_EXT_NOIETF)) {
		memset(buf, 0, sizeof(buf));
		if (!performance_reset_via(buf, &pid, port, 0xffffffffu, c->timeout_ms,
					   IB_GSI_PORT_COUNTERS_EXT, c->mp)) {
			snprintf(err, errlen, "PMA PortCountersExtended reset of LID %u port %d failed", lid, port);
			return -1;
		}
	}
	return 0;
}
