// SPDX-License-Identifier: MIT
/* The test client: reaches the agent over TCP, agrees the parameters,
 * exchanges QPs, runs every phase (one per size) and gathers both ends. */
#include "config.h"
#include "core/agent/client.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "core/agent/agent.h"
#include "core/agent/dial.h"
#include "core/engine/facts.h"
#include "core/base/clock.h"
#include "core/base/hmacdl.h"

struct client {
	const struct client_opts *o;
	struct client_result *r;
	int fd;
	char where[128];
};

int client_sizes(const struct proto_params *p, uint32_t mtu_cap, uint64_t *sizes, int max)
{
	uint64_t top = p->size;
	int n = 0;

	if (mtu_cap && top > mtu_cap)
		top = mtu_cap;
	if (!(p->flags & PARAM_SWEEP)) {
		sizes[0] = top;
		return 1;
	}
	for (uint64_t s = 2; s <= top && n < max; s *= 2)
		sizes[n++] = s;
	return n;
}

static bool client_cancelled(const struct client_opts *o)
{
	return o->cancel && atomic_load(o->cancel);
}

/* Connects, retrying refused / unreachable attempts until the time-out:
 * an agent started a moment after the client is still found. */
static int dial(struct client *c, char *err, size_t errlen)
{
	int port = c->o->tcp_port ? c->o->tcp_port : AGENT_DEFAULT_PORT;
	struct dial_result r;

	snprintf(c->where, sizeof(c->where), "%s port %d", c->o->peer, port);
	switch (dial_tcp(c->o->peer, port, c->o->timeout_ms, DIAL_RETRY | DIAL_NODELAY,
			 c->o->cancel, &r, err, errlen)) {
	case DIAL_OK:
		c->fd = r.fd;
		return 0;
	case DIAL_NO_ANSWER:
		snprintf(err, errlen, "cannot reach the agent at %s: %s (%d tries in %d s) — start 'ibconsole serve' on the peer and check the address and port (-p)",
			 c->where, strerror(r.eno), r.tries, c->o->timeout_ms / 1000);
		return ENG_PEER;
	default:
		return ENG_PEER;
	}
}

static void take_counters(struct client *c, const struct proto_msg *m)
{
	c->r->peer_ctr.n = m->u.counters.n;
	memcpy(c->r->peer_ctr.c, m->u.counters.c, sizeof(m->u.counters.c[0]) * m->u.counters.n);
	c->r->peer_ctr_t_ms = m->u.counters.t_ms;
	c->r->peer_ctr_msgs++;
}

/* Waits for one message type; COUNTERS on the way are kept, an ERROR
 * from the agent becomes ours with its exit status. */
static int expect(struct client *c, struct proto_msg *m, uint8_t type, char *err, size_t errlen)
{
	for (;;) {
		char why[ENG_ERR];

		if (proto_recv(c->fd, m, c->o->timeout_ms, why, sizeof(why))) {
			snprintf(err, errlen, "the agent at %s: %s — check that 'ibconsole serve' of the same version runs there and is alive",
				 c->where, why);
			return ENG_PEER;
		}
		if (m->type == type)
			return 0;
		if (m->type == MSG_COUNTERS) {
			take_counters(c, m);
			continue;
		}
		if (m->type == MSG_ERROR) {
			char text[400];

			proto_error_text(m->u.error.text, text, sizeof(text));
			snprintf(err, errlen, "the agent at %s refused: %s", c->where, text);
			return m->u.error.code;
		}
		if (m->type == MSG_BUSY) {
			char planned[32] = "";

			if (m->u.busy.planned_ms)
				snprintf(planned, sizeof(planned), ", planned for %u s", m->u.busy.planned_ms / 1000);
			snprintf(err, errlen, "the agent at %s is busy: a test from %s started %u s ago%s — try again when it ends (one test at a time per agent)",
				 c->where, m->u.busy.peer[0] ? m->u.busy.peer : "another client",
				 m->u.busy.running_ms / 1000, planned);
			return ENG_PEER;
		}
		snprintf(err, errlen, "the agent at %s sent %s where %s was due — is it the same ibconsole version?",
			 c->where, proto_type_name(m->type), proto_type_name(type));
		return ENG_PEER;
	}
}

/* Connects, waits for the agent's HELLO and checks its version and
 * whether it wants a secret we have. */
static int greeted(struct client *c, struct proto_msg *m, char *err, size_t errlen)
{
	int st = dial(c, err, errlen);

	if (!st)
		st = expect(c, m, MSG_HELLO, err, errlen);

	if (st)
		return st;
	if (m->u.hello.ver_min > PROTO_VERSION || m->u.hello.ver_max < PROTO_VERSION) {
		snprintf(err, errlen, "the agent at %s speaks protocol %u..%u, this ibconsole %u — run the same version on both ends",
			 c->where, m->u.hello.ver_min, m->u.hello.ver_max, PROTO_VERSION);
		return ENG_PEER;
	}
	if (m->u.hello.auth_required && !c->o->secret) {
		snprintf(err, errlen, "the agent at %s wants a shared secret — give --secret-file", c->where);
		return ENG_NODEV;
	}
	return 0;
}

/* After a BUSY answer, when there is time left to wait for the agent's
 * test to end: hangs up, pauses, and says to try again. */
static bool busy_again(struct client *c, const struct proto_msg *m, long long until)
{
	struct timespec ts = { 0, 200000000 };

	if (m->type != MSG_BUSY || mono_ms() + 200 >= until || client_cancelled(c->o))
		return false;
	close(c->fd);
	c->fd = -1;
	nanosleep(&ts, NULL);
	return true;
}

static int client_tick(void *arg, char *err, size_t errlen)
{
	struct client *c = arg;
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	struct proto_msg m;
	char why[ENG_ERR];

	if (client_cancelled(c->o)) {
		snprintf(err, errlen, "cancelled");
		return -1;
	}
	while (poll(&p, 1, 0) > 0) {
		if (proto_recv(c->fd, &m, 1000, why, sizeof(why))) {
			snprintf(err, errlen, "the agent at %s went away mid-test: %s — is it still running?",
				 c->where, why);
			return -1;
		}
		if (m.type == MSG_COUNTERS) {
			take_counters(c, &m);
			continue;
		}
		if (m.type == MSG_ERROR) {
			char text[400];

			proto_error_text(m.u.error.text, text, sizeof(text));
			snprintf(err, errlen, "the agent at %s stopped the test: %s", c->where, text);
		}
		else
			snprintf(err, errlen, "the agent at %s sent %s mid-test", c->where, proto_type_name(m.type));
		return -1;
	}
	return 0;
}

static void progress(void *arg, const struct eng_progress *p)
{
	struct client *c = arg;

	if (c->o->progress)
		c->o->progress(c->o->progress_arg, p);
}

static int run_phases(struct client *c, struct eng *e, char *err, size_t errlen)
{
	const struct proto_params *p = &c->o->p;
	uint64_t sizes[TESTRUN_MAX_PHASES];
	int n = client_sizes(p, p->conn == CONN_UD ? eng_info(e)->mtu : 0, sizes, TESTRUN_MAX_PHASES);

	for (int i = 0; i < n; i++) {
		struct client_phase *ph = &c->r->ph[i];
		struct proto_msg m = { .type = MSG_RUN };
		int st;

		st = eng_prepare(e, sizes[i], err, errlen);
		if (st)
			return st;
		m.u.run.size = sizes[i];
		m.u.run.iters = p->iters;
		m.u.run.duration_ms = p->duration_ms;
		if (proto_send(c->fd, &m, c->o->timeout_ms, err, errlen))
			return ENG_PEER;
		st = expect(c, &m, MSG_RUN_OK, err, errlen);
		if (st)
			return st;
		st = eng_run(e, sizes[i], p->iters, p->duration_ms, &ph->local, err, errlen);
		if (st) {
			proto_send_error(c->fd, st, err);
			return st;
		}
		m.type = MSG_PHASE_END;
		if (proto_send(c->fd, &m, c->o->timeout_ms, err, errlen))
			return ENG_PEER;
		st = expect(c, &m, MSG_PHASE_RESULT, err, errlen);
		if (st)
			return st;
		ph->total_avg_gbps = ph->local.bw_avg_gbps;
		ph->total_peak_gbps = ph->local.bw_peak_gbps;
		ph->total_mpps = ph->local.msg_rate_mpps;
		if ((p->flags & PARAM_BIDIR) && p->kind != KIND_LAT) {
			/* perftest's bidirectional figures sum both sides */
			ph->peer_valid = true;
			ph->peer_bytes = m.u.result.bytes;
			ph->peer_msgs = m.u.result.msgs;
			ph->peer_ns = m.u.result.ns;
			ph->peer_peak_gbps = m.u.result.peak_gbps;
			if (m.u.result.ns) {
				ph->total_avg_gbps += (double)m.u.result.bytes * 8.0 / (double)m.u.result.ns;
				ph->total_mpps += (double)(m.u.result.bytes / sizes[i]) * 1e3 / (double)m.u.result.ns;
			}
			ph->total_peak_gbps += m.u.result.peak_gbps;
		}
		c->r->nphases = i + 1;
	}
	return 0;
}

int client_run(const struct client_opts *o, struct client_result *r, char *err, size_t errlen)
{
	struct client c = { .o = o, .r = r, .fd = -1 };
	struct eng_cfg cfg = { .device = o->device, .ib_port = o->ib_port, .gid_index = o->gid_index,
			       .p = o->p, .initiator = true, .stall_ms = o->stall_ms,
			       .tick = client_tick, .progress = progress, .arg = &c };
	struct proto_msg m;
	struct testctr before, after;
	struct eng *e = NULL;
	time_t now = time(NULL);
	long long busy_until = mono_ms() + o->busy_wait_ms;
	struct tm tm;
	int st;

	memset(r, 0, sizeof(*r));
	gmtime_r(&now, &tm);
	strftime(r->started, sizeof(r->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	/* local resources first: a memlock or device problem is ours to
	 * report before the peer is bothered */
	st = eng_open(&e, &cfg, err, errlen);
	if (st)
		goto out;
	r->info = *eng_info(e);
	facts_collect(&r->local, e);
	do {
		struct proto_msg s = { .type = MSG_SETUP };

		st = greeted(&c, &m, err, errlen);
		if (st)
			goto out;
		if (o->secret && proto_auth_mac(o->secret, m.u.hello.nonce, s.u.setup.mac)) {
			hmacdl_load(err, errlen);
			st = ENG_NODEV;
			goto out;
		}
		s.u.setup.p = o->p;
		s.u.setup.facts = r->local;
		if (proto_send(c.fd, &s, o->timeout_ms, err, errlen)) {
			st = ENG_PEER;
			goto out;
		}
		st = expect(&c, &m, MSG_ACCEPT, err, errlen);
	} while (st && busy_again(&c, &m, busy_until));
	if (st)
		goto out;
	r->peer = m.u.qps.facts;
	st = eng_connect(e, m.u.qps.nqps, m.u.qps.mtu, m.u.qps.qp, err, errlen);
	if (st) {
		proto_send_error(c.fd, st, err);
		goto out;
	}
	memset(&m, 0, sizeof(m));
	m.type = MSG_QPS;
	eng_local_qps(e, &m.u.qps.nqps, &m.u.qps.mtu, m.u.qps.qp);
	if (proto_send(c.fd, &m, o->timeout_ms, err, errlen)) {
		st = ENG_PEER;
		goto out;
	}
	st = expect(&c, &m, MSG_READY, err, errlen);
	if (st)
		goto out;
	testctr_sample(&before, r->info.device, r->info.ib_port);
	st = run_phases(&c, e, err, errlen);
	testctr_sample_after(&after, &before, r->info.device, r->info.ib_port);
	testctr_delta(&before, &after, &r->local_ctr);
	if (st)
		goto out;
	m.type = MSG_BYE;
	(void)proto_send(c.fd, &m, o->timeout_ms, err, errlen);
out:
	if (c.fd >= 0)
		close(c.fd);
	eng_close(e);
	return st;
}

int client_order(const struct client_order_opts *o, struct proto_order_result *r,
		 bool *refused, char *err, size_t errlen)
{
	struct client_opts co = { .peer = o->agent, .tcp_port = o->tcp_port, .secret = o->secret,
				  .timeout_ms = o->timeout_ms };
	struct client_opts wait = co;
	struct client c = { .o = &co, .fd = -1 };
	struct proto_msg m, ord = { .type = MSG_ORDER };
	long long busy_until = mono_ms() + o->busy_wait_ms;
	int st;

	memset(r, 0, sizeof(*r));
	*refused = false;
	r->local.numa_node = r->peer.numa_node = -1;
	r->local.gid_index = r->peer.gid_index = -1;
	ord.u.order.p = o->p;
	ord.u.order.port = (uint16_t)o->target_port;
	snprintf(ord.u.order.target, sizeof(ord.u.order.target), "%s", o->target);
	if (proto_check_order(&ord, err, errlen)) {
		st = 2;
		goto out;
	}
	/* the agent answers when its test ended: wait for the run itself,
	 * then the usual time-out */
	wait.timeout_ms = o->timeout_ms + o->run_ms;
	do {
		c.o = &co;
		st = greeted(&c, &m, err, errlen);
		if (st)
			goto out;
		if (!o->secret || proto_order_mac(o->secret, m.u.hello.nonce, &ord, ord.u.order.mac)) {
			snprintf(err, errlen, "a test order needs the shared secret — give --secret-file (the agents' file)");
			st = 2;
			goto out;
		}
		if (proto_send(c.fd, &ord, o->timeout_ms, err, errlen)) {
			st = ENG_PEER;
			goto out;
		}
		c.o = &wait;
		st = expect(&c, &m, MSG_ORDER_RESULT, err, errlen);
	} while (st && busy_again(&c, &m, busy_until));
	if (st) {
		/* an ERROR instead of the result: the agent would not run it */
		*refused = m.type == MSG_ERROR;
		goto out;
	}
	*r = m.u.oresult;
	st = r->status;
	if (st)
		proto_error_text(r->text, err, errlen);
out:
	if (c.fd >= 0)
		close(c.fd);
	return st;
}
