// SPDX-License-Identifier: MIT
/* Fabric sweep: libibnetdisc discovery, then PMA ClassPortInfo,
 * PortCounters and PortCountersExtended for every port, pipelined on one
 * umad agent (a window of outstanding MADs matched back by TID). */
#include "config.h"
#include "sweep.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

struct req {
	unsigned lid;
	int port;
	int attr;
	uint8_t *out;		/* IB_PC_DATA_SZ bytes */
	int status;		/* 0 pending, 1 answered, -1 failed */
	int tries;
	double deadline;
	bool inflight;
};

struct pipe {
	int fd, agent;
	int window, timeout_ms, retries;
	uint32_t tid_base;
	void *sbuf, *rbuf;
	unsigned long sent, failed;
};

static int pipe_send(struct pipe *pp, struct req *r, int idx)
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
static int pipe_recv_one(struct pipe *pp, struct req *r, int n)
{
	int len = IB_MAD_SIZE, st;
	uint8_t *mad;
	uint32_t idx;
	struct req *q;

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
		pp->failed++;
		return 1;
	}
	memcpy(q->out, mad + IB_PC_DATA_OFFS, IB_PC_DATA_SZ);
	q->status = 1;
	return 1;
}

static int pipe_run(struct pipe *pp, struct req *r, int n)
{
	int next = 0, done = 0, inflight = 0;

	while (done < n) {
		double now = counters_now(), soonest = now + 1;
		struct pollfd pfd = { .fd = pp->fd, .events = POLLIN };
		int ms, rc;

		/* Expired or kernel-timed-out requests: retry or give up. */
		inflight = 0;
		for (int i = 0; i < next; i++) {
			struct req *q = &r[i];

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
			if (pipe_send(pp, q, i) < 0)
				return -1;
			inflight++;
			if (q->deadline < soonest)
				soonest = q->deadline;
		}
		while (inflight < pp->window && next < n) {
			if (pipe_send(pp, &r[next], next) < 0)
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
				int got = pipe_recv_one(pp, r, n);

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
	return 0;
}

int sweep_discover(struct sweep *sw, const struct sweep_opts *o, char *err,
		   size_t errlen)
{
	struct ibnd_config cfg;
	ibnd_fabric_t *f;
	ibnd_node_t *node;
	double t0 = counters_now();
	int cap = 0;

	memset(sw, 0, sizeof(*sw));
	memset(&cfg, 0, sizeof(cfg));
	cfg.max_smps = o->max_smps > 0 ? (unsigned)o->max_smps : 16;
	cfg.timeout_ms = o->timeout_ms > 0 ? (unsigned)o->timeout_ms : 300;
	cfg.retries = 2;
	f = ibnd_discover_fabric((char *)o->dev, o->port, NULL, &cfg);
	if (!f) {
		snprintf(err, errlen, "fabric discovery failed%s%s — check that the port is Active, a subnet manager has run, and /dev/infiniband/umad* is accessible",
			 o->dev ? " from " : "", o->dev ? o->dev : "");
		return 4;
	}
	for (node = f->nodes; node; node = node->next)
		cap += node->numports + 1;
	sw->p = calloc(cap ? (size_t)cap : 1, sizeof(*sw->p));
	if (!sw->p) {
		ibnd_destroy_fabric(f);
		snprintf(err, errlen, "out of memory for %d ports", cap);
		return 5;
	}
	for (node = f->nodes; node; node = node->next) {
		bool sw_node = node->type == IB_NODE_SWITCH;

		sw->nodes++;
		for (int p = 1; p <= node->numports; p++) {
			ibnd_port_t *ip = node->ports[p];
			struct sweep_port *sp;

			if (!ip)
				continue;
			sp = &sw->p[sw->n++];
			sp->guid = node->guid;
			snprintf(sp->node_desc, sizeof(sp->node_desc), "%s",
				 node->nodedesc);
			sp->is_switch = sw_node;
			sp->lid = sw_node ? node->smalid : ip->base_lid;
			sp->port = p;
			sp->port_guid = ip->guid;
			snprintf(sp->cs.label, sizeof(sp->cs.label), "%.50s/%d",
				 node->nodedesc, p);
			sp->cs.guid = node->guid;
			snprintf(sp->cs.node_desc, sizeof(sp->cs.node_desc), "%s",
				 node->nodedesc);
		}
	}
	ibnd_destroy_fabric(f);
	sw->discover_s = counters_now() - t0;
	return 0;
}

static int open_pipe(struct pipe *pp, const struct sweep_opts *o, char *err,
		     size_t errlen, struct ibmad_port **mpp)
{
	int classes[] = { IB_PERFORMANCE_CLASS };
	struct ibmad_port *mp;

	mp = mad_rpc_open_port((char *)o->dev, o->port, classes, 1);
	if (!mp) {
		snprintf(err, errlen, "cannot open a PMA agent on %s/%d — check /dev/infiniband/umad* permissions",
			 o->dev ? o->dev : "the first CA", o->port);
		return 3;
	}
	memset(pp, 0, sizeof(*pp));
	pp->fd = mad_rpc_portid(mp);
	pp->agent = mad_rpc_class_agent(mp, IB_PERFORMANCE_CLASS);
	pp->window = o->window > 0 ? o->window : 64;
	pp->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 300;
	pp->retries = o->retries > 0 ? o->retries : 2;
	pp->tid_base = (uint32_t)mad_trid() + 0x10000u;
	pp->sbuf = calloc(1, umad_size() + IB_MAD_SIZE);
	pp->rbuf = calloc(1, umad_size() + IB_MAD_SIZE);
	if (!pp->sbuf || !pp->rbuf) {
		free(pp->sbuf);
		free(pp->rbuf);
		mad_rpc_close_port(mp);
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	*mpp = mp;
	return 0;
}

int sweep_query(struct sweep *sw, const struct sweep_opts *o, char *err,
		size_t errlen)
{
	struct ibmad_port *mp = NULL;
	struct pipe pp;
	struct req *r = NULL;
	uint8_t *bufs = NULL;
	int *cpi_of = NULL, ncpi = 0, nreq = 0, rc;
	double t0 = counters_now();

	if (!sw->n)
		return 0;
	rc = open_pipe(&pp, o, err, errlen, &mp);
	if (rc)
		return rc;
	/* 1 CPI per distinct LID + PC + PCE per port, at most */
	r = calloc((size_t)sw->n * 3, sizeof(*r));
	bufs = calloc((size_t)sw->n * 3, IB_PC_DATA_SZ);
	cpi_of = calloc((size_t)sw->n, sizeof(*cpi_of));
	if (!r || !bufs || !cpi_of) {
		snprintf(err, errlen, "out of memory");
		rc = 5;
		goto out;
	}
	/* Phase 1: ClassPortInfo once per node (ports of a switch share a
	 * LID; on an HCA PortSelect must be the port itself). */
	for (int i = 0; i < sw->n; i++) {
		int j;

		for (j = 0; j < i; j++)
			if (sw->p[j].lid == sw->p[i].lid && sw->p[j].guid == sw->p[i].guid)
				break;
		if (j < i) {
			cpi_of[i] = cpi_of[j];
			continue;
		}
		cpi_of[i] = ncpi;
		r[ncpi].lid = sw->p[i].lid;
		r[ncpi].port = sw->p[i].is_switch ? 0 : sw->p[i].port;
		r[ncpi].attr = CLASS_PORT_INFO;
		r[ncpi].out = bufs + (size_t)ncpi * IB_PC_DATA_SZ;
		ncpi++;
	}
	if (pipe_run(&pp, r, ncpi) < 0) {
		snprintf(err, errlen, "PMA queries failed on the local port: %s", strerror(errno));
		rc = 4;
		goto out;
	}
	/* Phase 2: PortCounters, and PortCountersExtended where offered. */
	{
		struct req *r2 = r + ncpi;
		uint8_t *b2 = bufs + (size_t)ncpi * IB_PC_DATA_SZ;
		int *pc_idx = cpi_of;	/* reuse: phase-2 index of PC per port */
		int ncpi_keep = ncpi;
		uint16_t *caps = calloc((size_t)ncpi_keep, sizeof(*caps));
		uint32_t *caps2 = calloc((size_t)ncpi_keep, sizeof(*caps2));
		int *cpi_for = calloc((size_t)sw->n, sizeof(*cpi_for));

		if (!caps || !caps2 || !cpi_for) {
			free(caps);
			free(caps2);
			free(cpi_for);
			snprintf(err, errlen, "out of memory");
			rc = 5;
			goto out;
		}
		for (int k = 0; k < ncpi_keep; k++)
			if (r[k].status == 1)
				counters_parse_cpi(r[k].out, &caps[k], &caps2[k]);
		memcpy(cpi_for, cpi_of, (size_t)sw->n * sizeof(*cpi_for));
		for (int i = 0; i < sw->n; i++) {
			int k = cpi_for[i];
			bool ext = (caps[k] & (PMA_CAP_EXT_WIDTH | PMA_CAP_EXT_NOIETF)) ||
				   (caps2[k] & PMA_CAP2_EXT_ERRORS);

			pc_idx[i] = -1;
			if (r[k].status != 1)
				continue;
			pc_idx[i] = nreq;
			r2[nreq].lid = sw->p[i].lid;
			r2[nreq].port = sw->p[i].port;
			r2[nreq].attr = IB_GSI_PORT_COUNTERS;
			r2[nreq].out = b2 + (size_t)nreq * IB_PC_DATA_SZ;
			nreq++;
			if (ext) {
				r2[nreq].lid = sw->p[i].lid;
				r2[nreq].port = sw->p[i].port;
				r2[nreq].attr = IB_GSI_PORT_COUNTERS_EXT;
				r2[nreq].out = b2 + (size_t)nreq * IB_PC_DATA_SZ;
				nreq++;
			}
		}
		pp.tid_base += (uint32_t)ncpi + 16;
		if (pipe_run(&pp, r2, nreq) < 0) {
			snprintf(err, errlen, "PMA queries failed on the local port: %s", strerror(errno));
			free(caps);
			free(caps2);
			free(cpi_for);
			rc = 4;
			goto out;
		}
		double t = counters_now();

		for (int i = 0; i < sw->n; i++) {
			struct counter_set *cs = &sw->p[i].cs;
			int k = cpi_for[i], j = pc_idx[i];
			bool ext;

			cs->lid = sw->p[i].lid;
			cs->port = sw->p[i].port;
			cs->t_mono = t;
			cs->valid = false;
			if (j < 0) {
				snprintf(cs->why, sizeof(cs->why), "no ClassPortInfo answer from LID %u", cs->lid);
				continue;
			}
			ext = j + 1 < nreq && r2[j + 1].attr == IB_GSI_PORT_COUNTERS_EXT &&
			      r2[j + 1].lid == cs->lid && r2[j + 1].port == cs->port;
			if (r2[j].status != 1 || (ext && r2[j + 1].status != 1)) {
				snprintf(cs->why, sizeof(cs->why), "no PortCounters%s answer from LID %u port %d",
					 ext && r2[j].status == 1 ? "Extended" : "", cs->lid, cs->port);
				continue;
			}
			counters_from_pma(cs, r2[j].out, ext ? r2[j + 1].out : NULL,
					  caps[k], caps2[k]);
		}
		free(caps);
		free(caps2);
		free(cpi_for);
	}
	rc = 0;
out:
	sw->mads_sent += pp.sent;
	sw->mads_failed += pp.failed;
	sw->query_s = counters_now() - t0;
	free(r);
	free(bufs);
	free(cpi_of);
	free(pp.sbuf);
	free(pp.rbuf);
	mad_rpc_close_port(mp);
	return rc;
}

void sweep_free(struct sweep *sw)
{
	free(sw->p);
	memset(sw, 0, sizeof(*sw));
}
