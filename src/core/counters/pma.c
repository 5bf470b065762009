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

static int pma_pipe_send(struct pma_pipe *pp, struct pma_req *r, int idx)
{
	uint8_t payload[IB_PC_DATA_SZ];
	ib_rpc_t rpc;
	ib_portid_t d;

	memset(payload, 0, sizeof(payload));
	mad_set_field(payload, 0, IB_PC_PORT_SELECT_F, r->port);
	memset(&rpc, 0, sizeof(rpc));
	rpc.mgtclass = IB_PERFORMANCE_CLASS;
	rpc.method = IB_MAD_METHOD_GET;
	rpc.attr.id = r->attr;
	rpc.timeout = pp->timeout_ms;
	rpc.datasz = IB_PC_DATA_SZ;
	rpc.dataoffs = IB_PC_DATA_OFFS;
	rpc.trid = pp->tid_base + (uint32_t)idx;
	memset(&d, 0, sizeof(d));
	d.lid = (int)r->lid;
	d.qp = 1;
	d.qkey = IB_DEFAULT_QP1_QKEY;
	memset(pp->sbuf, 0, umad_size() + IB_MAD_SIZE);
	if (mad_build_pkt(pp->sbuf, &rpc, &d, NULL, payload) < 0)
		return -1;
	if (umad_send(pp->fd, pp->agent, pp->sbuf, IB_MAD_SIZE, pp->timeout_ms, 0) < 0)
		return -1;
	r->tries++;
	r->inflight = true;
	r->deadline = counters_now() + pp->timeout_ms / 1000.0 + 0.05;
	pp->sent++;
	return 0;
}

/* Handles one received MAD; returns 1 when it completed a request. */
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

int pma_pipe_run(struct pma_pipe *pp, struct pma_req *r, int n)
{
	int next = 0, done = 0, inflight = 0, lo = 0;

	while (done < n) {
		double now = counters_now(), soonest = now + 1;
		struct pollfd pfd = { .fd = pp->fd, .events = POLLIN };
		int ms, rc;

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
		ms = (int)((soonest - counters_now()) * 1000) + 1;
		if (ms < 0)
			ms = 0;
		rc = poll(&pfd, 1, ms);
		if (rc < 0 && errno != EINTR)
			return -1;
		if (rc > 0) {
			/* drain what is there */
			for (int k = 0; k < 4 * pp->window; k++) {
				int got = pma_pipe_recv_one(pp, r, n);

				if (got < 0)
					break;
				done += got;
				struct pollfd p2 = { .fd = pp->fd, .events = POLLIN };

				if (poll(&p2, 1, 0) <= 0)
					break;
			}
		}
		/* done counts completions; the rescan above sets failures */
	}
	/* the next run's answers must not match this one's late ones */
	pp->tid_base += (uint32_t)n + 16;
	return 0;
}


/* --- the client of one local port: a sample is one pipelined run --- */

struct pma_client {
	struct ibmad_port *mp;
	struct pma_pipe pp;
	int timeout_ms;
	/* ClassPortInfo per LID, asked once; details the PMA refused or
	 * left unanswered (why, "" while they work) */
	struct {
		unsigned lid;
		uint16_t cap;
		uint32_t cap2;
		char no_det[DET_GROUPS][80];
	} cpi[64];
	int ncpi;
};

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
	if (pma_pipe_init(&c->pp, c->mp, 4, c->timeout_ms, 2)) {
		mad_rpc_close_port(c->mp);
		free(c);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return c;
}

void pma_close(struct pma_client *c)
{
	if (!c)
		return;
	pma_pipe_fini(&c->pp);
	mad_rpc_close_port(c->mp);
	free(c);
}

static int pma_caps(struct pma_client *c, unsigned lid, int port,
		    uint16_t *cap, uint32_t *cap2)
{
	uint8_t buf[IB_PC_DATA_SZ];
	struct pma_req r;
	int n = 0;

	for (int i = 0; i < c->ncpi; i++)
		if (c->cpi[i].lid == lid) {
			*cap = c->cpi[i].cap;
			*cap2 = c->cpi[i].cap2;
			return 0;
		}
	pma_req_add(&r, &n, buf, lid, port, CLASS_PORT_INFO);
	if (pma_pipe_run(&c->pp, &r, n) < 0 || r.status != 1)
		return -1;
	counters_parse_cpi(buf, cap, cap2);
	if (c->ncpi < (int)(sizeof(c->cpi) / sizeof(c->cpi[0]))) {
		memset(&c->cpi[c->ncpi], 0, sizeof(c->cpi[0]));
		c->cpi[c->ncpi].lid = lid;
		c->cpi[c->ncpi].cap = *cap;
		c->cpi[c->ncpi].cap2 = *cap2;
		c->ncpi++;
	}
	return 0;
}

static char *pma_no_details(struct pma_client *c, unsigned lid, enum det_group g)
{
	for (int i = 0; i < c->ncpi; i++)
		if (c->cpi[i].lid == lid)
			return c->cpi[i].no_det[g];
	return NULL;
}

/* The details of the totals that are not 0, pipelined together. */
static void pma_details(struct pma_client *c, unsigned lid, int port,
			struct counter_set *cs)
{
	uint8_t bufs[DET_GROUPS * IB_PC_DATA_SZ];
	struct pma_req r[DET_GROUPS];
	enum det_group which[DET_GROUPS];
	int n = 0;

	for (int g = 0; g < DET_GROUPS; g++) {
		struct det_values *dv = &cs->det.g[g];
		const struct ctr_value *tot = counters_find(cs, details_total_name(g));
		char *no = pma_no_details(c, lid, g);

		memset(dv, 0, sizeof(*dv));
		if (g == DET_VL_WAIT && !(cs->pma_cap & PMA_CAP_XMIT_WAIT))
			snprintf(dv->why, sizeof(dv->why),
				 "the port does not count PortXmitWait (PMA ClassPortInfo CapabilityMask bit 12 clear)");
		else if (no && *no)
			snprintf(dv->why, sizeof(dv->why), "%s", no);
		else if (!tot || !tot->value)
			snprintf(dv->why, sizeof(dv->why), "%s is 0: nothing to detail",
				 details_total_name(g));
		else {
			pma_req_add(r, &n, bufs, lid, port, details_attr_id(g));
			which[n - 1] = g;
		}
	}
	if (!n)
		return;
	if (pma_pipe_run(&c->pp, r, n) < 0) {
		for (int i = 0; i < n; i++)
			snprintf(cs->det.g[which[i]].why, sizeof(cs->det.g[0].why),
				 "PMA query failed: %s", strerror(errno));
		return;
	}
	for (int i = 0; i < n; i++) {
		struct det_values *dv = &cs->det.g[which[i]];
		char *no = pma_no_details(c, lid, which[i]);

		dv->asked = true;
		if (r[i].status == 1) {
			details_decode(dv, which[i], r[i].out);
			continue;
		}
		/* optional attributes: a refusal or silence is the answer */
		if (r[i].mad_status)
			snprintf(dv->why, sizeof(dv->why),
				 "not supported by the port (MAD status 0x%04x)", r[i].mad_status);
		else
			snprintf(dv->why, sizeof(dv->why),
				 "no answer from LID %u: the port does not support it", lid);
		if (no)
			snprintf(no, sizeof(c->cpi[0].no_det[0]), "%s", dv->why);
	}
}

int pma_sample(struct pma_client *c, unsigned lid, int port,
	       struct counter_set *cs)
{
	uint8_t bufs[2 * IB_PC_DATA_SZ];
	struct pma_req r[2];
	uint16_t cap;
	uint32_t cap2;
	bool want_ext;
	int n = 0;

	cs->lid = lid;
	cs->port = port;
	cs->valid = false;
	if (!lid) {
		snprintf(cs->why, sizeof(cs->why), "no LID (is a subnet manager running?)");
		return -1;
	}
	if (pma_caps(c, lid, port, &cap, &cap2)) {
		snprintf(cs->why, sizeof(cs->why), "PMA ClassPortInfo of LID %u timed out", lid);
		return -1;
	}
	/* PortCounters and PortCountersExtended in flight together */
	memset(bufs, 0, sizeof(bufs));
	want_ext = (cap & (PMA_CAP_EXT_WIDTH | PMA_CAP_EXT_NOIETF)) ||
		   (cap2 & PMA_CAP2_EXT_ERRORS);
	pma_req_add(r, &n, bufs, lid, port, IB_GSI_PORT_COUNTERS);
	if (want_ext)
		pma_req_add(r, &n, bufs, lid, port, IB_GSI_PORT_COUNTERS_EXT);
	cs->t_mono = counters_now();
	if (pma_pipe_run(&c->pp, r, n) < 0) {
		snprintf(cs->why, sizeof(cs->why), "PMA queries of LID %u port %d: %s",
			 lid, port, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (r[i].status != 1) {
			snprintf(cs->why, sizeof(cs->why), "PMA %s of LID %u port %d: no answer",
				 i ? "PortCountersExtended" : "PortCounters", lid, port);
			return -1;
		}
	counters_from_pma(cs, bufs, want_ext ? bufs + IB_PC_DATA_SZ : NULL, cap, cap2);
	pma_details(c, lid, port, cs);
	return 0;
}

int pma_get(struct pma_client *c, unsigned lid, int port, int attr, uint8_t *out,
	    char *why, size_t whylen)
{
	uint8_t buf[IB_PC_DATA_SZ];
	struct pma_req r;
	int n = 0;

	pma_req_add(&r, &n, buf, lid, port, attr);
	if (pma_pipe_run(&c->pp, &r, n) < 0) {
		snprintf(why, whylen, "PMA query of LID %u port %d: %s", lid, port, strerror(errno));
		return -1;
	}
	if (r.status != 1) {
		snprintf(why, whylen, r.mad_status ? "LID %u refused attribute 0x%x (MAD status 0x%04x)" :
			 "no answer from LID %u to attribute 0x%x", lid, attr, r.mad_status);
		return -1;
	}
	memcpy(out, buf, IB_PC_DATA_SZ);
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
