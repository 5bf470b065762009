// SPDX-License-Identifier: MIT
/* Acceptance against a reference host: the cards of a snapshot, one
 * card's test through the test client with the local evidence read beside
 * it, and the console's run of every card on a worker (base/worker). */
#include "config.h"
#include "core/accept/accept.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/numfmt.h"
#include "core/base/worker.h"

void accept_params(int op, long long size, long long iters, double duration_s,
		   struct proto_params *p)
{
	memset(p, 0, sizeof(*p));
	p->kind = KIND_BW;
	p->op = (uint8_t)(op >= 0 ? op : OP_SEND);
	p->conn = CONN_RC;
	p->qps = 1;
	p->size = size > 0 ? (uint64_t)size : 65536;
	p->iters = iters ? (uint64_t)iters : p->op == OP_WRITE ? 5000 : 1000;
	p->duration_ms = (uint32_t)(duration_s * 1000 + 0.5);
	p->tx_depth = 128;
	p->inline_size = p->op == OP_READ ? 0 : 220;
	p->cq_mod = p->size > 8192 ? 1 : 100;
	p->counter_ms = 1000;
}

static bool wanted(const char *const *devices, int ndevices, const char *dev)
{
	if (!ndevices)
		return true;
	for (int i = 0; i < ndevices; i++)
		if (!strcmp(devices[i], dev))
			return true;
	return false;
}

int accept_plan(const struct snapshot *s, const char *const *devices, int ndevices, int port,
		struct accept_card *cards, int max)
{
	int n = 0;

	for (int i = 0; i < s->nports && n < max; i++)
		if (wanted(devices, ndevices, s->ports[i].dev)) {
			memset(&cards[n], 0, sizeof(cards[n]));
			snprintf(cards[n].dev, sizeof(cards[n].dev), "%s", s->ports[i].dev);
			cards[n].port = s->ports[i].port;
			cards[n].found = true;
			n++;
		}
	/* a -d that names no local device is a failed card, not silence */
	for (int d = 0; d < ndevices && n < max; d++) {
		bool found = false;

		for (int i = 0; i < n; i++)
			found |= !strcmp(cards[i].dev, devices[d]);
		for (int i = 0; i < d; i++)
			found |= !strcmp(devices[i], devices[d]);
		if (found)
			continue;
		memset(&cards[n], 0, sizeof(cards[n]));
		snprintf(cards[n].dev, sizeof(cards[n].dev), "%s", devices[d]);
		snprintf(cards[n].err, sizeof(cards[n].err), "no such RDMA device%s here — check the name with ibv_devices",
			 port ? " and port" : "");
		cards[n].status = ENG_NODEV;
		cards[n].state = ACCEPT_DONE;
		n++;
	}
	return n;
}

static void evidence(const struct port_info *pi, const struct client_result *cr, bool ran,
		     struct acc_evidence *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->numa_node = -1;
	ev->below_capability = pi->below_capability;
	snprintf(ev->below_why, sizeof(ev->below_why), "%s", pi->below_why);
	ev->pcie_limits = pi->pcie_limits;
	snprintf(ev->pcie_why, sizeof(ev->pcie_why), "%s", pi->pcie_why);
	if (pi->pcie_limits) {
		ev->pcie_gts = pi->pcie.cur_gts;
		ev->pcie_lanes = pi->pcie.cur_width;
		ev->pcie_usable_gbps = pi->pcie.usable_gbps > 0 ? pi->pcie.usable_gbps :
				       pi->pcie.cur_gbps;
		ev->pcie_need_gbps = pi->pcie_need_gbps;
	}
	if (pi->numa.v.valid) {
		snprintf(ev->numa_relation, sizeof(ev->numa_relation), "%s", pi->numa.relation);
		ev->numa_node = pi->numa.node;
	}
	ev->roce = !strcmp(pi->link_layer, "Ethernet");
	for (int i = 0; i < pi->ngids; i++)
		if (pi->gids[i].index == cr->info.gid_index)
			snprintf(ev->gid_type, sizeof(ev->gid_type), "%s", pi->gids[i].type);
	/* the MTU both ends agreed on is the test's; compare the ports' own */
	if (pi->mtu_v.valid)
		ev->mtu_active = pi->mtu_active;
	if (ran)
		ev->peer_mtu = (int)cr->peer.mtu;
}

/* The evidence in words: what an engineer checks first when a card is
 * slow (the reference procedure's triage steps 1 to 4 and 6). */
static void evidence_text(const struct port_info *pi, const struct client_result *cr, bool ran,
			  struct accept_card *c)
{
	const struct pcie_info *pc = &pi->pcie;
	char w[16], rate[48], data[48], usable[48];

	if (pi->rate_gbps > 0)
		snprintf(c->link, sizeof(c->link), "%s %s, %s (data %s: %s)%s%s",
			 port_width_name(pi->width_active), pi->speed_name[0] ? pi->speed_name : "?",
			 numfmt_unit(pi->rate_gbps, "Gb/s", rate, sizeof(rate)),
			 numfmt_unit(pi->data_rate_gbps, "Gb/s", data, sizeof(data)),
			 pi->data_rate_source[0] ? pi->data_rate_source : "n/a",
			 pi->below_capability ? "; below capability: " : "; as capable",
			 pi->below_capability ? pi->below_why : "");
	else
		snprintf(c->link, sizeof(c->link), "n/a (%s)", pi->link_v.why[0] ? pi->link_v.why : "rate not read");
	if (pc->v.valid) {
		snprintf(w, sizeof(w), "x%d", pc->max_width);
		snprintf(c->pcie, sizeof(c->pcie), "%s %.1f GT/s x%d (capable %.1f GT/s %s), usable %s%s%s",
			 pc->address, pc->cur_gts, pc->cur_width, pc->max_gts, pc->max_width ? w : "x?",
			 numfmt_unit(pc->usable_gbps, "Gb/s", usable, sizeof(usable)), pi->pcie_why[0] ? "; " : "", pi->pcie_why);
	} else {
		snprintf(c->pcie, sizeof(c->pcie), "n/a (%s)", pc->v.why[0] ? pc->v.why : "not read");
	}
	if (pi->numa.v.valid)
		snprintf(c->numa, sizeof(c->numa), "HCA on node %d; this process: %s", pi->numa.node,
			 pi->numa.relation);
	else
		snprintf(c->numa, sizeof(c->numa), "n/a (%s)", pi->numa.v.why[0] ? pi->numa.v.why : "not read");
	if (strcmp(pi->link_layer, "Ethernet"))
		snprintf(c->gid, sizeof(c->gid), "%s: no GID to choose (LID routed)",
			 pi->link_layer[0] ? pi->link_layer : "InfiniBand");
	else if (ran)
		snprintf(c->gid, sizeof(c->gid), "index %d, %s", cr->info.gid_index,
			 c->ev.gid_type[0] ? c->ev.gid_type : "type unknown");
	else
		snprintf(c->gid, sizeof(c->gid), "n/a (the test did not start)");
	if (pi->mtu_v.valid) {
		int k = snprintf(c->mtu, sizeof(c->mtu), "active %d B here", pi->mtu_active);

		if (ran)
			k += snprintf(c->mtu + k, sizeof(c->mtu) - (size_t)k, ", %u B at the reference", cr->peer.mtu);
		if (pi->netdev_mtu)
			snprintf(c->mtu + k, sizeof(c->mtu) - (size_t)k, "; netdev %s %d B", pi->netdev, pi->netdev_mtu);
	} else {
		snprintf(c->mtu, sizeof(c->mtu), "n/a (%s)", pi->mtu_v.why[0] ? pi->mtu_v.why : "not read");
	}
}

void accept_run_card(const struct accept_opts *o, const struct port_info *pi,
		     struct accept_card *c, struct client_result *cr,
		     eng_progress_fn progress, void *arg, atomic_int *cancel)
{
	struct client_opts co = { .peer = o->ref, .tcp_port = o->tcp_port, .device = c->dev,
				  .ib_port = c->port, .gid_index = o->gid_index, .p = o->p,
				  .stall_ms = 5000,
				  .timeout_ms = (int)((o->timeout_s > 0 ? o->timeout_s : 10) * 1000),
				  .secret = o->secret, .progress = progress, .progress_arg = arg,
				  .cancel = cancel };

	if (pi && pi->state != 4) {
		snprintf(c->err, sizeof(c->err), "port %s, not Active — check the cable and the subnet manager (or the netdev link)",
			 port_state_name(pi->state));
	} else if (pi) {
		memset(cr, 0, sizeof(*cr));
		c->status = client_run(&co, cr, c->err, sizeof(c->err));
		if (!c->status && cr->nphases > 0) {
			c->ran = true;
			c->gbps = cr->ph[cr->nphases - 1].total_avg_gbps;
			snprintf(c->ref_host, sizeof(c->ref_host), "%s", cr->peer.host);
			snprintf(c->ref_dev, sizeof(c->ref_dev), "%s", cr->peer.device);
		} else if (!c->status) {
			snprintf(c->err, sizeof(c->err), "the test ran no phase");
		}
		evidence(pi, cr, c->ran, &c->ev);
		evidence_text(pi, cr, c->ran, c);
	}
	if (o->line_rate > 0) {
		c->data_gbps = o->line_rate;
		snprintf(c->data_source, sizeof(c->data_source), "--line-rate");
	} else if (pi && pi->data_rate_gbps > 0) {
		c->data_gbps = pi->data_rate_gbps;
		snprintf(c->data_source, sizeof(c->data_source), "%s",
			 pi->data_rate_source[0] ? pi->data_rate_source : "the port's data rate");
	}
	c->state = ACCEPT_DONE;
	c->frac = 1;
}

/* ---- the console's run ---- */

struct accept_job {
	struct worker wk;
	atomic_int cancel;
	char ref[128], secret[256], device[64];
	struct accept_opts o;
	struct snap_opts so;
	struct accept_view pub;	/* under lock */
	struct accept_view w;	/* the worker's own */
	struct client_result cr;
	double t0;		/* the card's start, for runs by duration */
};

static void publish(struct accept_job *j)
{
	worker_lock(&j->wk);
	j->w.gen = j->pub.gen + 1;
	j->pub = j->w;
	worker_unlock(&j->wk);
	worker_notify(&j->wk);
}

static void on_progress(void *arg, const struct eng_progress *p)
{
	struct accept_job *j = arg;
	struct accept_card *c = &j->w.cards[j->w.cur];
	uint64_t goal = j->o.p.iters * j->o.p.qps;
	double f = j->o.p.duration_ms ? (worker_now() - j->t0) * 1000.0 / j->o.p.duration_ms :
		   goal ? (double)p->msgs / (double)goal : 0;

	c->frac = f < 0 ? 0 : f > 0.99 ? 0.99 : f;
	publish(j);
}

static void job_main(struct worker *wk, void *arg)
{
	struct accept_job *j = arg;
	struct snapshot *s = calloc(1, sizeof(*s));
	const char *devs[1] = { j->so.device };

	(void)wk;
	j->w.state = ACCEPT_JOB_READING;
	publish(j);
	if (!s) {
		snprintf(j->w.err, sizeof(j->w.err), "cannot read the ports: out of memory — close other programs and retry");
		j->w.state = ACCEPT_JOB_FAILED;
		publish(j);
		return;
	}
	if (snapshot_collect(s, &j->so, j->w.err, sizeof(j->w.err))) {
		j->w.state = ACCEPT_JOB_FAILED;
		goto out;
	}
	if (j->o.judge)
		j->o.judge(s);
	j->w.n = accept_plan(s, devs, j->so.device ? 1 : 0, j->so.port, j->w.cards, ACCEPT_MAX_CARDS);
	if (!j->w.n) {
		snprintf(j->w.err, sizeof(j->w.err), "no RDMA port to accept: none found — check that the driver is loaded (ibv_devices)");
		j->w.state = ACCEPT_JOB_FAILED;
		goto out;
	}
	j->w.state = ACCEPT_JOB_RUNNING;
	for (int i = 0; i < j->w.n; i++) {
		struct accept_card *c = &j->w.cards[i];
		const struct port_info *pi = NULL;

		if (c->state == ACCEPT_DONE)
			continue;
		if (atomic_load(&j->cancel)) {
			c->state = ACCEPT_SKIPPED;
			continue;
		}
		for (int k = 0; k < s->nports; k++)
			if (!strcmp(s->ports[k].dev, c->dev) && s->ports[k].port == c->port)
				pi = &s->ports[k];
		j->w.cur = i;
		c->state = ACCEPT_RUNNING;
		j->t0 = worker_now();
		publish(j);
		accept_run_card(&j->o, pi, c, &j->cr, on_progress, j, &j->cancel);
		if (atomic_load(&j->cancel) && !c->ran)
			c->state = ACCEPT_SKIPPED;
		publish(j);
	}
	j->w.state = atomic_load(&j->cancel) ? ACCEPT_JOB_CANCELLED : ACCEPT_JOB_DONE;
out:
	snapshot_release(s);
	free(s);
	publish(j);
}

struct accept_job *accept_job_start(const struct accept_opts *o, const struct snap_opts *so,
				    char *err, size_t errlen)
{
	struct accept_job *j = calloc(1, sizeof(*j));

	if (!j) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	j->o = *o;
	j->so = *so;
	snprintf(j->ref, sizeof(j->ref), "%s", o->ref ? o->ref : "");
	j->o.ref = j->ref;
	if (o->secret) {
		snprintf(j->secret, sizeof(j->secret), "%s", o->secret);
		j->o.secret = j->secret;
	}
	if (so->device) {
		snprintf(j->device, sizeof(j->device), "%s", so->device);
		j->so.device = j->device;
	}
	snprintf(j->w.ref, sizeof(j->w.ref), "%s", j->ref);
	j->w.p = o->p;
	if (worker_init(&j->wk, NULL, "acceptance", err, errlen)) {
		free(j);
		return NULL;
	}
	if (worker_start(&j->wk, job_main, j, "acceptance", err, errlen)) {
		worker_stop(&j->wk);
		free(j);
		return NULL;
	}
	return j;
}

void accept_job_cancel(struct accept_job *j)
{
	if (j)
		atomic_store(&j->cancel, 1);
}

_Static_assert(offsetof(struct accept_view, gen) == 0, "worker_take_view reads gen first");

bool accept_job_get(struct accept_job *j, struct accept_view *v)
{
	return worker_take_view(&j->wk, v, &j->pub, sizeof(*v));
}

int accept_job_fd(const struct accept_job *j)
{
	return worker_fd(&j->wk);
}

void accept_job_drain(struct accept_job *j)
{
	worker_drain(&j->wk);
}

void accept_job_stop(struct accept_job *j)
{
	if (!j)
		return;
	atomic_store(&j->cancel, 1);
	worker_stop(&j->wk);
	memset(j->secret, 0, sizeof(j->secret));
	free(j);
}
