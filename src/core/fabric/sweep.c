// SPDX-License-Identifier: MIT
/* Fabric sweep: libibnetdisc discovery, then PMA ClassPortInfo,
 * PortCounters and PortCountersExtended for every port, pipelined on one
 * umad agent (a window of outstanding MADs matched back by TID). */
#include "config.h"
#include "core/fabric/sweep.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "core/base/umadlock.h"
#include "core/fabric/fabric.h"

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
	{
		/* no device: say so plainly, before libibmad warns on stderr */
		char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
		umad_ca_t ca;
		int n;

		/* libibumad names a default CA when there is none: ask it */
		umadlock_span_begin();
		n = umad_get_cas_names(names, UMAD_MAX_DEVICES);
		if (n > 0 && umad_get_ca(o->dev ? (char *)o->dev : names[0], &ca) < 0)
			n = 0;
		else if (n > 0)
			umad_release_ca(&ca);
		umadlock_span_end();
		if (n <= 0) {
			snprintf(err, errlen, "%s%s%s for the sweep — load the HCA driver (e.g. mlx5_ib), check -d, or try `ibconsole --demo errors`",
				 o->dev ? "device " : "no RDMA device found", o->dev ? o->dev : "", o->dev ? " not found" : "");
			return 3;
		}
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.max_smps = o->max_smps > 0 ? (unsigned)o->max_smps : 64;
	cfg.timeout_ms = o->timeout_ms > 0 ? (unsigned)o->timeout_ms : 300;
	cfg.retries = 2;
	umadlock_span_begin();
	f = ibnd_discover_fabric((char *)o->dev, o->port, NULL, &cfg);
	umadlock_span_end();
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

int sweep_from_fabric(struct sweep *sw, const struct fabric *f, char *err,
		      size_t errlen)
{
	memset(sw, 0, sizeof(*sw));
	sw->p = calloc(f->nports ? (size_t)f->nports : 1, sizeof(*sw->p));
	if (!sw->p) {
		snprintf(err, errlen, "out of memory for %d ports", f->nports);
		return 5;
	}
	sw->nodes = f->nnodes;
	sw->discover_s = f->discover_s;
	for (int k = 0; k < f->nnodes; k++) {
		const struct fab_node *node = &f->nodes[k];
		bool sw_node = node->type == FAB_SWITCH;

		for (int i = 0; i < node->nports; i++) {
			const struct fab_port *fp = &f->ports[node->first_port + i];
			struct sweep_port *sp;

			if (fp->portnum < 1)
				continue;	/* a switch's port 0 has no link */
			sp = &sw->p[sw->n++];
			sp->guid = node->guid;
			snprintf(sp->node_desc, sizeof(sp->node_desc), "%s", node->desc);
			sp->is_switch = sw_node;
			/* a switch answers PMA queries on its port 0 LID */
			sp->lid = sw_node ? node->lid : fp->lid;
			sp->port = fp->portnum;
			sp->port_guid = fp->guid;
			snprintf(sp->cs.label, sizeof(sp->cs.label), "%.50s/%d",
				 node->desc, fp->portnum);
			sp->cs.guid = node->guid;
			snprintf(sp->cs.node_desc, sizeof(sp->cs.node_desc), "%s",
				 node->desc);
		}
	}
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

/* Error counters (and PortXmitWait, as ibqueryerrors counts it) of a
 * PortCounters answer: any non-zero? */
static bool pc_has_errors(const uint8_t *pc)
{
	static const enum MAD_FIELDS f[] = {
		IB_PC_ERR_SYM_F, IB_PC_LINK_RECOVERS_F, IB_PC_LINK_DOWNED_F,
		IB_PC_ERR_RCV_F, IB_PC_ERR_PHYSRCV_F, IB_PC_ERR_SWITCH_REL_F,
		IB_PC_XMT_DISCARDS_F, IB_PC_ERR_XMTCONSTR_F, IB_PC_ERR_RCVCONSTR_F,
		IB_PC_ERR_LOCALINTEG_F, IB_PC_ERR_EXCESS_OVR_F, IB_PC_VL15_DROPPED_F,
		IB_PC_XMT_WAIT_F,
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (mad_get_field((void *)pc, 0, f[i]))
			return true;
	return false;
}

static struct req *add_req(struct req *r, int *n, uint8_t *bufs, unsigned lid,
			   int port, int attr)
{
	struct req *q = &r[*n];

	memset(q, 0, sizeof(*q));
	q->lid = lid;
	q->port = port;
	q->attr = attr;
	q->out = bufs + (size_t)*n * IB_PC_DATA_SZ;
	(*n)++;
	return q;
}

/* Keeps only the error and congestion counters: an aggregate of zero
 * errors says nothing about a port's traffic, which must not read 0. */
static void drop_traffic(struct counter_set *cs)
{
	int k = 0;

	for (int i = 0; i < cs->n; i++)
		if (cs->c[i].cls != CTR_TRAFFIC)
			cs->c[k++] = cs->c[i];
	cs->n = k;
}

/*
 * Round 1, all in flight together: ClassPortInfo of every node,
 * PortCounters of every HCA port, and of every switch's port 0xFF
 * (AllPortSelect: one answer sums all its ports). Round 2: PortCounters
 * per port only for switches whose sum shows errors (or that cannot
 * sum), and PortCountersExtended where the error counters are 64-bit.
 * That is what ibqueryerrors asks, but with a window of MADs in flight
 * instead of one round trip at a time.
 */
int sweep_query(struct sweep *sw, const struct sweep_opts *o, char *err,
		size_t errlen)
{
	struct ibmad_port *mp = NULL;
	struct pipe pp;
	struct req *r = NULL;
	uint8_t *bufs = NULL;
	int *node_of = NULL, *cpi = NULL, *agg = NULL, *pc = NULL, *pce = NULL;
	uint16_t *cap = NULL;
	uint32_t *cap2 = NULL;
	int nn = 0, n = 0, n1, rc, cap_req;
	double t0 = counters_now(), t;

	if (!sw->n)
		return 0;
	umadlock_span_begin();
	rc = open_pipe(&pp, o, err, errlen, &mp);
	if (rc) {
		umadlock_span_end();
		return rc;
	}
	cap_req = 3 * sw->n + 2 * sw->n + 8;
	r = calloc((size_t)cap_req, sizeof(*r));
	bufs = calloc((size_t)cap_req, IB_PC_DATA_SZ);
	node_of = calloc((size_t)sw->n, sizeof(int));
	cpi = calloc((size_t)sw->n, sizeof(int));
	agg = calloc((size_t)sw->n, sizeof(int));
	pc = calloc((size_t)sw->n, sizeof(int));
	pce = calloc((size_t)sw->n, sizeof(int));
	cap = calloc((size_t)sw->n, sizeof(*cap));
	cap2 = calloc((size_t)sw->n, sizeof(*cap2));
	if (!r || !bufs || !node_of || !cpi || !agg || !pc || !pce || !cap || !cap2) {
		snprintf(err, errlen, "out of memory");
		rc = 5;
		goto out;
	}
	/* nodes: ports of one node are adjacent in sw->p */
	for (int i = 0; i < sw->n; i++) {
		const struct sweep_port *p = &sw->p[i];

		if (i && sw->p[i - 1].guid == p->guid) {
			node_of[i] = nn - 1;
		} else {
			node_of[i] = nn;
			cpi[nn] = n;
			add_req(r, &n, bufs, p->lid, p->is_switch ? 0 : p->port,
				CLASS_PORT_INFO);
			agg[nn] = -1;
			if (p->is_switch && !o->all_counters) {
				agg[nn] = n;
				add_req(r, &n, bufs, p->lid, 0xFF, IB_GSI_PORT_COUNTERS);
			}
			nn++;
		}
		pc[i] = pce[i] = -1;
		if (!p->is_switch) {
			pc[i] = n;
			add_req(r, &n, bufs, p->lid, p->port, IB_GSI_PORT_COUNTERS);
		}
	}
	if (pipe_run(&pp, r, n) < 0) {
		snprintf(err, errlen, "PMA queries failed on the local port: %s", strerror(errno));
		rc = 4;
		goto out;
	}
	for (int k = 0; k < nn; k++)
		if (r[cpi[k]].status == 1)
			counters_parse_cpi(r[cpi[k]].out, &cap[k], &cap2[k]);
	n1 = n;
	for (int i = 0; i < sw->n; i++) {
		const struct sweep_port *p = &sw->p[i];
		int k = node_of[i];

		if (r[cpi[k]].status != 1)
			continue;
		if (p->is_switch) {
			struct req *a = agg[k] >= 0 ? &r[agg[k]] : NULL;

			if (a && a->status == 1 && (cap[k] & PMA_CAP_ALL_PORT_SELECT) &&
			    !(cap2[k] & PMA_CAP2_EXT_ERRORS) && !pc_has_errors(a->out))
				continue;	/* no errors on any of its ports */
			pc[i] = n;
			add_req(r, &n, bufs, p->lid, p->port, IB_GSI_PORT_COUNTERS);
		}
		if ((cap2[k] & PMA_CAP2_EXT_ERRORS) ||
		    (o->all_counters && (cap[k] & (PMA_CAP_EXT_WIDTH | PMA_CAP_EXT_NOIETF)))) {
			pce[i] = n;
			add_req(r, &n, bufs, p->lid, p->port, IB_GSI_PORT_COUNTERS_EXT);
		}
	}
	pp.tid_base += (uint32_t)n1 + 16;
	if (n > n1 && pipe_run(&pp, r + n1, n - n1) < 0) {
		snprintf(err, errlen, "PMA queries failed on the local port: %s", strerror(errno));
		rc = 4;
		goto out;
	}
	t = counters_now();
	for (int i = 0; i < sw->n; i++) {
		struct counter_set *cs = &sw->p[i].cs;
		int k = node_of[i];

		cs->lid = sw->p[i].lid;
		cs->port = sw->p[i].port;
		cs->t_mono = t;
		cs->valid = false;
		cs->n = 0;
		if (r[cpi[k]].status != 1) {
			snprintf(cs->why, sizeof(cs->why), "no ClassPortInfo answer from LID %u", cs->lid);
			continue;
		}
		if (pc[i] < 0) {
			/* switch without errors: the aggregate said so */
			uint8_t zero[IB_PC_DATA_SZ] = { 0 };

			counters_from_pma(cs, zero, NULL, cap[k], 0);
			drop_traffic(cs);
			snprintf(cs->mode, sizeof(cs->mode), "PortCounters AllPortSelect sum: no errors on any port");
			continue;
		}
		if (r[pc[i]].status != 1 || (pce[i] >= 0 && r[pce[i]].status != 1)) {
			snprintf(cs->why, sizeof(cs->why), "no PortCounters%s answer from LID %u port %d",
				 r[pc[i]].status == 1 ? "Extended" : "", cs->lid, cs->port);
			continue;
		}
		counters_from_pma(cs, r[pc[i]].out, pce[i] >= 0 ? r[pce[i]].out : NULL,
				  cap[k], pce[i] >= 0 ? cap2[k] : 0);
	}
	rc = 0;
out:
	sw->mads_sent += pp.sent;
	sw->mads_failed += pp.failed;
	sw->query_s = counters_now() - t0;
	free(r);
	free(bufs);
	free(node_of);
	free(cpi);
	free(agg);
	free(pc);
	free(pce);
	free(cap);
	free(cap2);
	free(pp.sbuf);
	free(pp.rbuf);
	mad_rpc_close_port(mp);
	umadlock_span_end();
	return rc;
}

void sweep_free(struct sweep *sw)
{
	free(sw->p);
	memset(sw, 0, sizeof(*sw));
}
