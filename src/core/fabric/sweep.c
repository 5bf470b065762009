// SPDX-License-Identifier: MIT
/* Fabric sweep: the ports of a fabric model (fabric.c's discovery), then
 * PMA ClassPortInfo, PortCounters and PortCountersExtended for every port
 * through the pipelined PMA client (pma.c), many MADs in flight. */
#include "config.h"
#include "core/fabric/sweep.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "core/base/umadlock.h"
#include "core/fabric/fabric.h"
#include "core/counters/pma.h"

int sweep_from_fabric(struct sweep *sw, const struct fabric *f, char *err,
		      size_t errlen)
{
	size_t dlen = 1;
	char *d;

	memset(sw, 0, sizeof(*sw));
	for (int k = 0; k < f->nnodes; k++)
		dlen += strlen(f->nodes[k].desc) + 1;
	sw->p = calloc(f->nports ? (size_t)f->nports : 1, sizeof(*sw->p));
	sw->descs = d = malloc(dlen);
	if (!sw->p || !d) {
		sweep_free(sw);
		snprintf(err, errlen, "out of memory for %d ports", f->nports);
		return 5;
	}
	sw->nodes = f->nnodes;
	sw->discover_s = f->discover_s;
	for (int k = 0; k < f->nnodes; k++) {
		const struct fab_node *node = &f->nodes[k];
		bool sw_node = node->type == FAB_SWITCH;
		size_t l = strlen(node->desc) + 1;

		/* one copy of the name per node, shared by its ports */
		memcpy(d, node->desc, l);
		for (int i = 0; i < node->nports; i++) {
			const struct fab_port *fp = &f->ports[node->first_port + i];
			struct sweep_port *sp;

			if (fp->portnum < 1)
				continue;	/* a switch's port 0 has no link */
			sp = &sw->p[sw->n++];
			sp->guid = node->guid;
			sp->node_desc = d;
			sp->is_switch = sw_node;
			/* a switch answers PMA queries on its port 0 LID */
			sp->lid = sw_node ? node->lid : fp->lid;
			sp->port = fp->portnum;
			sp->port_guid = fp->guid;
			sp->fi = node->first_port + i;
		}
		d += l;
	}
	return 0;
}

/* Keeps only the error and congestion counters. */
static void drop_traffic(struct counter_set *cs)
{
	int k = 0;

	for (int i = 0; i < cs->n; i++)
		if (cs->c[i].cls != CTR_TRAFFIC)
			cs->c[k++] = cs->c[i];
	cs->n = k;
}

bool sweep_port_valid(const struct sweep_port *p)
{
	return p->result == SWEEP_READ || p->result == SWEEP_CLEAN_SUM;
}

void sweep_port_counters(const struct sweep *sw, int i, struct counter_set *cs)
{
	static const uint64_t zero[CTR_IDX_COUNT];
	const struct sweep_port *p = &sw->p[i];
	const uint64_t *v = p->result == SWEEP_READ && p->vi >= 0 && p->vi < sw->nvals ?
			    sw->vals + (size_t)p->vi * CTR_IDX_COUNT : zero;
	size_t l = strlen(p->node_desc);

	/* the values are all in c[0..n): the rest of the set stays as is */
	memset(cs, 0, offsetof(struct counter_set, c));
	/* called for every port of every sweep: one snprintf() */
	if (l >= sizeof(cs->node_desc))
		l = sizeof(cs->node_desc) - 1;
	memcpy(cs->node_desc, p->node_desc, l);
	snprintf(cs->label, sizeof(cs->label), "%.50s/%d", p->node_desc, p->port);
	cs->guid = p->guid;
	cs->lid = p->lid;
	cs->port = p->port;
	cs->t_mono = p->t_mono;
	switch ((enum sweep_result)p->result) {
	case SWEEP_NOT_READ:
		snprintf(cs->why, sizeof(cs->why), "not swept yet");
		break;
	case SWEEP_NO_CPI:
		snprintf(cs->why, sizeof(cs->why), "no ClassPortInfo answer from LID %u", cs->lid);
		break;
	case SWEEP_NO_PC:
	case SWEEP_NO_PCE:
		snprintf(cs->why, sizeof(cs->why), "no PortCounters%s answer from LID %u port %d",
			 p->result == SWEEP_NO_PCE ? "Extended" : "", cs->lid, cs->port);
		break;
	case SWEEP_CLEAN_SUM:
		/* an aggregate of zero errors says nothing about a port's
		 * traffic, which must not read 0: error and congestion only */
		counters_from_values(cs, zero, false, p->cap, 0);
		drop_traffic(cs);
		snprintf(cs->mode, sizeof(cs->mode), "PortCounters AllPortSelect sum: no errors on any port");
		break;
	case SWEEP_READ:
		counters_from_values(cs, v, p->has_pce, p->cap, p->has_pce ? p->cap2 : 0);
		break;
	}
}

int sweep_discover(struct sweep *sw, const struct sweep_opts *o, char *err,
		   size_t errlen)
{
	struct fabric *f = NULL;
	int rc = sweep_discover_model(sw, &f, o, err, errlen);

	fabric_free(f);
	return rc;
}

int sweep_discover_model(struct sweep *sw, struct fabric **fp,
			 const struct sweep_opts *o, char *err, size_t errlen)
{
	struct fab_opts fo = { 0 };
	struct fabric *f;
	char ferr[320];
	int rc;

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
	/* the sweep's MAD budget, not the fabric screen's defaults */
	fo.ca = o->dev;
	fo.ca_port = o->port;
	fo.max_smps = o->max_smps > 0 ? o->max_smps : 64;
	fo.timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 300;
	fo.retries = 2;
	fo.node_name_map = o->node_name_map;
	umadlock_span_begin();
	f = fabric_discover(&fo, ferr, sizeof(ferr));
	umadlock_span_end();
	if (!f) {
		snprintf(err, errlen, "fabric discovery failed%s%s — check that the port is Active, a subnet manager has run, and /dev/infiniband/umad* is accessible",
			 o->dev ? " from " : "", o->dev ? o->dev : "");
		return 4;
	}
	rc = sweep_from_fabric(sw, f, err, errlen);
	if (rc)
		fabric_free(f);
	else
		*fp = f;
	return rc;
}

const struct counter_set *sweep_port_pair(const struct sweep *sw,
					  const struct sweep *prev, int i,
					  struct counter_set *cs,
					  struct counter_set *pcs)
{
	sweep_port_counters(sw, i, cs);
	if (!prev || i >= prev->n || !sweep_port_valid(&prev->p[i]))
		return NULL;
	sweep_port_counters(prev, i, pcs);
	return pcs;
}

int sweep_copy(struct sweep *dst, const struct sweep *src)
{
	struct sweep_port *p = malloc(((size_t)src->n + 1) * sizeof(*p));
	uint64_t *v = malloc(((size_t)src->nvals * CTR_IDX_COUNT + 1) * sizeof(*v));

	if (!p || !v) {
		free(p);
		free(v);
		sweep_free(dst);
		return -1;
	}
	sweep_free(dst);
	*dst = *src;
	dst->descs = NULL;	/* src's */
	dst->p = p;
	dst->vals = v;
	if (src->n)
		memcpy(p, src->p, (size_t)src->n * sizeof(*p));
	if (src->nvals)
		memcpy(v, src->vals, (size_t)src->nvals * CTR_IDX_COUNT * sizeof(*v));
	return 0;
}

/* Port i's sample to keep as the previous one: this round's, or the
 * previous round's when this round could not read the port. */
static const struct sweep *kept(const struct sweep_history *h, int i)
{
	if (sweep_port_valid(&h->sw.p[i]) || i >= h->prev.n)
		return &h->sw;
	return &h->prev;
}

int sweep_history_keep(struct sweep_history *h)
{
	struct sweep_port *p;
	uint64_t *v;
	int nv = 0;

	for (int i = 0; i < h->sw.n; i++) {
		const struct sweep_port *q = &kept(h, i)->p[i];

		nv += q->result == SWEEP_READ;
	}
	p = malloc(((size_t)h->sw.n + 1) * sizeof(*p));
	v = malloc(((size_t)nv * CTR_IDX_COUNT + 1) * sizeof(*v));
	if (!p || !v) {
		free(p);
		free(v);
		sweep_free(&h->prev);
		return -1;
	}
	nv = 0;
	for (int i = 0; i < h->sw.n; i++) {
		const struct sweep *src = kept(h, i);

		p[i] = src->p[i];
		if (p[i].result != SWEEP_READ)
			continue;
		if (p[i].vi >= 0 && p[i].vi < src->nvals)
			memcpy(v + (size_t)nv * CTR_IDX_COUNT,
			       src->vals + (size_t)p[i].vi * CTR_IDX_COUNT,
			       CTR_IDX_COUNT * sizeof(*v));
		else
			memset(v + (size_t)nv * CTR_IDX_COUNT, 0, CTR_IDX_COUNT * sizeof(*v));
		p[i].vi = nv++;
	}
	sweep_free(&h->prev);
	h->prev = h->sw;
	h->prev.descs = NULL;	/* h->sw's */
	h->prev.p = p;
	h->prev.vals = v;
	h->prev.nvals = nv;
	return 0;
}

void sweep_history_free(struct sweep_history *h)
{
	sweep_free(&h->sw);
	sweep_free(&h->prev);
	h->have = false;
}

int sweep_history_discover(struct sweep_history *h, const struct sweep_opts *o,
			   char *err, size_t errlen)
{
	int rc;

	sweep_history_free(h);
	rc = sweep_discover(&h->sw, o, err, errlen);
	if (!rc)
		rc = sweep_history_adopt(h, err, errlen);
	return rc;
}

int sweep_history_adopt(struct sweep_history *h, char *err, size_t errlen)
{
	sweep_free(&h->prev);
	h->prev.p = calloc((size_t)h->sw.n + 1, sizeof(*h->prev.p));
	h->prev.n = h->prev.p ? h->sw.n : 0;
	if (!h->prev.p) {
		/* no half state: the next round discovers again */
		sweep_free(&h->sw);
		h->have = false;
		snprintf(err, errlen, "out of memory for the previous sweep's %s",
			 "samples");
		return 5;
	}
	h->have = true;
	return 0;
}

static int open_pipe(struct pma_pipe *pp, const struct sweep_opts *o, char *err,
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
	if (pma_pipe_init(pp, mp, o->window > 0 ? o->window : 64,
			  o->timeout_ms > 0 ? o->timeout_ms : 300,
			  o->retries > 0 ? o->retries : 2)) {
		mad_rpc_close_port(mp);
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	*mpp = mp;
	return 0;
}

/*
 * Under ibsim's umad2sim preload an answer that arrives after its agent
 * closed crashes the process (umadlock.h): when a round retried or gave
 * up on a query, the port is closed only after a fence, a ClassPortInfo
 * Get to a LID that answered, or else parked.
 */
struct pipe_fence {
	struct pma_pipe *pp;
	const struct pma_req *good;	/* a request answered, NULL none */
};

static int pipe_fence(void *arg)
{
	struct pipe_fence *pf = arg;
	uint8_t buf[IB_PC_DATA_SZ];
	struct pma_req f;
	int nf = 0;

	if (!pf->good)
		return -1;
	pma_req_add(&f, &nf, buf, pf->good->lid, pf->good->port, CLASS_PORT_INFO);
	return !pma_pipe_run(pf->pp, &f, nf) && f.status == 1 ? 0 : -1;
}

static bool pipe_fenced(struct pma_pipe *pp, const struct pma_req *r, int n)
{
	struct pipe_fence pf = { pp, NULL };
	bool late = pp->sent > (unsigned long)n;	/* a retry went out */

	for (int i = 0; i < n; i++) {
		if (r[i].status == 1)
			pf.good = &r[i];
		else if (r[i].tries && !r[i].mad_status)
			late = true;	/* sent, never answered */
	}
	return umadlock_fenced(late, pp->timeout_ms, pipe_fence, &pf);
}

static void close_mad_port(void *mp)
{
	mad_rpc_close_port(mp);
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

/*
 * Round 1, all in flight together: ClassPortInfo of every node,
 * PortCounters of every HCA port, and of every switch's port 0xFF
 * (AllPortSelect: one answer sums all its ports). Round 2: PortCounters
 * per port only for switches whose sum shows errors (or that cannot
 * sum), and PortCountersExtended where the error counters are 64-bit.
 * That is what ibqueryerrors asks, but with a window of MADs in flight
 * instead of one round trip at a time.
 */
/* Answers per block: 48 kB, which fits into the holes that discovery
 * left in the heap (a block of all a round's answers did not). */
#define QUERY_BLOCK 256

/* One query's requests and where each port's are among them. Each
 * round is first counted (counting: only n moves), then its requests
 * are added to room of that size. */
struct query {
	struct pma_req *r;
	uint8_t **blocks;	/* the answers of requests base.., QUERY_BLOCK each */
	uint8_t **round_blocks[2];	/* to free */
	int round_nblocks[2];
	int *node_of, *cpi, *agg, *pc, *pce;	/* request index, -1 none */
	uint16_t *cap;
	uint32_t *cap2;
	int nn, n, base;
	bool counting;
};

static void query_add(struct query *q, unsigned lid, int port, int attr)
{
	int one = 0, i = q->n - q->base;

	if (!q->counting)	/* the request at r[n], its answer in a block */
		pma_req_add(&q->r[q->n], &one,
			    q->blocks[i / QUERY_BLOCK] + (size_t)(i % QUERY_BLOCK) * IB_PC_DATA_SZ,
			    lid, port, attr);
	q->n++;
}

/* After a counting pass of round k: room for its requests, sized to
 * what is asked rather than to what a round could ask (5 per port), in
 * blocks that fit into the heap discovery freed: room for 5 per port
 * was a fresh mapping whose touched pages added to the peak. 0, or -1
 * out of memory. */
static int query_room(struct query *q, int k)
{
	int n = q->n - q->base, nb = n / QUERY_BLOCK + 1;
	struct pma_req *r = realloc(q->r, ((size_t)q->n + 1) * sizeof(*r));

	q->n = q->base;		/* none added yet, whatever fails */
	q->counting = false;
	if (!r)
		return -1;
	q->r = r;
	q->blocks = q->round_blocks[k] = calloc((size_t)nb, sizeof(*q->blocks));
	if (!q->blocks)
		return -1;
	for (; q->round_nblocks[k] < nb; q->round_nblocks[k]++) {
		q->blocks[q->round_nblocks[k]] = calloc(QUERY_BLOCK, IB_PC_DATA_SZ);
		if (!q->blocks[q->round_nblocks[k]])
			return -1;
	}
	return 0;
}

/* Whether node k's ClassPortInfo is known this round: kept from an
 * earlier one (no request) or answered now. */
static bool cpi_ok(const struct query *q, int k)
{
	return q->cpi[k] < 0 || q->r[q->cpi[k]].status == 1;
}

/* Whether every port of the node whose first port is i keeps its
 * ClassPortInfo. */
static bool node_cpi_kept(const struct sweep *sw, int i)
{
	for (int j = i; j < sw->n && sw->p[j].guid == sw->p[i].guid; j++)
		if (!sw->p[j].cpi_kept)
			return false;
	return true;
}

/* The first round: each node's ClassPortInfo unless it is kept (and a
 * switch's AllPortSelect sum unless every counter is wanted), each HCA
 * port's PortCounters. Ports of one node are adjacent in sw->p. */
static void first_requests(const struct sweep *sw, const struct sweep_opts *o,
			   struct query *q)
{
	q->nn = 0;
	for (int i = 0; i < sw->n; i++) {
		const struct sweep_port *p = &sw->p[i];

		if (i && sw->p[i - 1].guid == p->guid) {
			q->node_of[i] = q->nn - 1;
		} else {
			q->node_of[i] = q->nn;
			q->cpi[q->nn] = -1;
			if (node_cpi_kept(sw, i)) {
				q->cap[q->nn] = p->cap;
				q->cap2[q->nn] = p->cap2;
			} else {
				q->cpi[q->nn] = q->n;
				query_add(q, p->lid, p->is_switch ? 0 : p->port, CLASS_PORT_INFO);
			}
			q->agg[q->nn] = -1;
			if (p->is_switch && !o->all_counters) {
				q->agg[q->nn] = q->n;
				query_add(q, p->lid, 0xFF, IB_GSI_PORT_COUNTERS);
			}
			q->nn++;
		}
		q->pc[i] = q->pce[i] = -1;
		if (!p->is_switch) {
			q->pc[i] = q->n;
			query_add(q, p->lid, p->port, IB_GSI_PORT_COUNTERS);
		}
	}
}

/* The second round: a switch port's PortCounters unless its switch's
 * clean sum said no errors, and PortCountersExtended where the PMA has
 * them. */
static void second_requests(const struct sweep *sw, const struct sweep_opts *o,
			    struct query *q)
{
	for (int i = 0; i < sw->n; i++) {
		const struct sweep_port *p = &sw->p[i];
		int k = q->node_of[i];

		if (!cpi_ok(q, k))
			continue;
		if (p->is_switch) {
			struct pma_req *a = q->agg[k] >= 0 ? &q->r[q->agg[k]] : NULL;

			if (a && a->status == 1 && (q->cap[k] & PMA_CAP_ALL_PORT_SELECT) &&
			    !(q->cap2[k] & PMA_CAP2_EXT_ERRORS) && !pc_has_errors(a->out))
				continue;	/* no errors on any of its ports */
			q->pc[i] = q->n;
			query_add(q, p->lid, p->port, IB_GSI_PORT_COUNTERS);
		}
		if ((q->cap2[k] & PMA_CAP2_EXT_ERRORS) ||
		    (o->all_counters && (q->cap[k] & (PMA_CAP_EXT_WIDTH | PMA_CAP_EXT_NOIETF)))) {
			q->pce[i] = q->n;
			query_add(q, p->lid, p->port, IB_GSI_PORT_COUNTERS_EXT);
		}
	}
}

/* Each port's result, and the values of those read one by one (their
 * time t). 0, or 5 out of memory with err. */
static int store_results(struct sweep *sw, const struct query *q, double t,
			 char *err, size_t errlen)
{
	const struct pma_req *r = q->r;
	int nread = 0;

	for (int i = 0; i < sw->n; i++) {
		int k = q->node_of[i];

		if (cpi_ok(q, k) && q->pc[i] >= 0 && r[q->pc[i]].status == 1 &&
		    (q->pce[i] < 0 || r[q->pce[i]].status == 1))
			nread++;
	}
	free(sw->vals);
	sw->nvals = 0;
	sw->vals = malloc(((size_t)nread * CTR_IDX_COUNT + 1) * sizeof(*sw->vals));
	if (!sw->vals) {
		snprintf(err, errlen, "out of memory for %d ports' counters", nread);
		return 5;
	}
	for (int i = 0; i < sw->n; i++) {
		struct sweep_port *p = &sw->p[i];
		int k = q->node_of[i], pc = q->pc[i], pce = q->pce[i];

		p->t_mono = t;
		p->cap = q->cap[k];
		p->cap2 = q->cap2[k];
		p->has_pce = false;
		p->vi = -1;
		if (!cpi_ok(q, k))
			p->result = SWEEP_NO_CPI;
		else if (pc < 0)
			p->result = SWEEP_CLEAN_SUM;	/* the aggregate said so */
		else if (r[pc].status != 1)
			p->result = SWEEP_NO_PC;
		else if (pce >= 0 && r[pce].status != 1)
			p->result = SWEEP_NO_PCE;
		else {
			p->result = SWEEP_READ;
			p->has_pce = pce >= 0;
			p->vi = sw->nvals++;
			counters_pma_values(r[pc].out, p->has_pce ? r[pce].out : NULL,
					    q->cap[k], p->has_pce ? q->cap2[k] : 0,
					    sw->vals + (size_t)p->vi * CTR_IDX_COUNT);
		}
		/* a port that did not answer: its node is asked again */
		p->cpi_kept = sweep_port_valid(p);
	}
	return 0;
}

int sweep_query(struct sweep *sw, const struct sweep_opts *o, char *err,
		size_t errlen)
{
	struct ibmad_port *mp = NULL;
	struct pma_pipe pp = { 0 };
	struct query q = { 0 };
	int n1, rc;
	double t0 = counters_now();
	bool ok, fenced;

	if (!sw->n)
		return 0;
	umadlock_span_begin();
	rc = open_pipe(&pp, o, err, errlen, &mp);
	if (rc) {
		umadlock_span_end();
		return rc;
	}
	q.node_of = calloc((size_t)sw->n, sizeof(int));
	q.cpi = calloc((size_t)sw->n, sizeof(int));
	q.agg = calloc((size_t)sw->n, sizeof(int));
	q.pc = calloc((size_t)sw->n, sizeof(int));
	q.pce = calloc((size_t)sw->n, sizeof(int));
	q.cap = calloc((size_t)sw->n, sizeof(*q.cap));
	q.cap2 = calloc((size_t)sw->n, sizeof(*q.cap2));
	ok = q.node_of && q.cpi && q.agg && q.pc && q.pce && q.cap && q.cap2;
	q.counting = true;
	if (ok)
		first_requests(sw, o, &q);
	if (!ok || query_room(&q, 0)) {
		snprintf(err, errlen, "out of memory");
		rc = 5;
		goto out;
	}
	first_requests(sw, o, &q);
	if (pma_pipe_run(&pp, q.r, q.n) < 0) {
		snprintf(err, errlen, "PMA queries failed on the local port: %s", strerror(errno));
		rc = 4;
		goto out;
	}
	for (int k = 0; k < q.nn; k++)
		if (q.cpi[k] >= 0 && q.r[q.cpi[k]].status == 1)
			counters_parse_cpi(q.r[q.cpi[k]].out, &q.cap[k], &q.cap2[k]);
	n1 = q.base = q.n;
	q.counting = true;
	second_requests(sw, o, &q);
	if (q.n > n1) {
		if (query_room(&q, 1)) {
			snprintf(err, errlen, "out of memory");
			rc = 5;
			goto out;
		}
		second_requests(sw, o, &q);
	}
	if (q.n > n1 && pma_pipe_run(&pp, q.r + n1, q.n - n1) < 0) {
		snprintf(err, errlen, "PMA queries failed on the local port: %s", strerror(errno));
		rc = 4;
		goto out;
	}
	rc = store_results(sw, &q, counters_now(), err, errlen);
out:
	sw->query_s = counters_now() - t0;
	fenced = !q.r || pipe_fenced(&pp, q.r, q.n);
	/* after the fence: its query is one sent too */
	sw->mads_sent += pp.sent;
	sw->mads_failed += pp.failed;
	sw->mads_retried += pp.retried;
	free(q.r);
	for (int k = 0; k < 2; k++) {
		for (int b = 0; b < q.round_nblocks[k]; b++)
			free(q.round_blocks[k][b]);
		free(q.round_blocks[k]);
	}
	free(q.node_of);
	free(q.cpi);
	free(q.agg);
	free(q.pc);
	free(q.pce);
	free(q.cap);
	free(q.cap2);
	pma_pipe_fini(&pp);
	umadlock_let_go(mp, close_mad_port, fenced);
	umadlock_span_end();
	return rc;
}

void sweep_free(struct sweep *sw)
{
	free(sw->p);
	free(sw->descs);
	free(sw->vals);
	memset(sw, 0, sizeof(*sw));
}
