// SPDX-License-Identifier: MIT
/* The agent's one test on the RDMA side, on its own thread: a client's
 * test (SETUP: QPs, phases, counter deltas streamed) or an order from a
 * coordinator (ORDER: this agent runs the test as a client of another
 * agent and returns the result). */
#include "config.h"
#include "core/agent/session.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/random.h>
#include <sys/socket.h>

#include "core/engine/engine.h"
#include "core/engine/facts.h"
#include "core/agent/client.h"
#include "core/agent/proto.h"
#include "core/counters/testctr.h"
#include "core/base/clock.h"

void agent_logf(const struct agent_opts *o, const char *fmt, ...)
{
	char line[400];
	va_list ap;

	if (!o->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	o->log(o->log_arg, line);
}


/* settled: the phase is over, wait out the driver's counter cache so the
 * last message holds all of it; a tick during the phase must not sleep. */
static int send_counters(struct sess *s, bool settled, char *err, size_t errlen)
{
	struct proto_msg m = { .type = MSG_COUNTERS };
	struct testctr now, d;

	if (settled)
		testctr_sample_after(&now, &s->base, eng_info(s->e)->device, eng_info(s->e)->ib_port);
	else
		testctr_sample(&now, eng_info(s->e)->device, eng_info(s->e)->ib_port);
	testctr_delta(&s->base, &now, &d);
	m.u.counters.t_ms = (uint32_t)((eng_now_ns() - s->t0) / 1000000);
	m.u.counters.n = d.n;
	memcpy(m.u.counters.c, d.c, sizeof(d.c[0]) * d.n);
	return proto_send(s->fd, &m, s->o->timeout_ms, err, errlen);
}

/* Called from the engine's loop: stream counters, and look for the
 * client's PHASE_END (stop) or its disappearance (abort). */
static int agent_tick(void *arg, char *err, size_t errlen)
{
	struct sess *s = arg;
	uint64_t now = eng_now_ns();
	struct pollfd p = { .fd = s->fd, .events = POLLIN };
	struct proto_msg m;

	if (now >= s->next_ctr) {
		s->next_ctr = now + (uint64_t)s->ctr_ms * 1000000;
		if (send_counters(s, false, err, errlen))
			return -1;
	}
	if (poll(&p, 1, 0) <= 0)
		return 0;
	if (proto_recv(s->fd, &m, 1000, err, errlen))
		return -1;
	if (m.type == MSG_PHASE_END) {
		s->phase_end = true;
		return 1;
	}
	if (m.type == MSG_ERROR)
		snprintf(err, errlen, "the client gave up: %s", m.u.error.text);
	else
		snprintf(err, errlen, "unexpected %s message during a phase", proto_type_name(m.type));
	return -1;
}

/* Waits for a message of one type; an ERROR from the client ends it. */
static int expect(struct sess *s, struct proto_msg *m, uint8_t type, char *err, size_t errlen)
{
	if (proto_recv(s->fd, m, s->o->timeout_ms, err, errlen))
		return -1;
	if (m->type == type)
		return 0;
	if (m->type == MSG_ERROR)
		snprintf(err, errlen, "the client gave up: %s", m->u.error.text);
	else
		snprintf(err, errlen, "expected %s, got %s", proto_type_name(type), proto_type_name(m->type));
	return -1;
}

static int agent_run_phase(struct sess *s, const struct proto_msg *run, char *err, size_t errlen)
{
	struct proto_msg m = { .type = MSG_RUN_OK };
	struct eng_result r;
	int st;

	st = eng_prepare(s->e, run->u.run.size, err, errlen);
	if (st)
		return st;
	if (proto_send(s->fd, &m, s->o->timeout_ms, err, errlen))
		return ENG_PEER;
	s->phase_end = false;
	s->next_ctr = 0;
	st = eng_run(s->e, run->u.run.size, run->u.run.iters, run->u.run.duration_ms, &r, err, errlen);
	if (st)
		return st;
	if (!s->phase_end && expect(s, &m, MSG_PHASE_END, err, errlen))
		return ENG_PEER;
	if (send_counters(s, true, err, errlen))
		return ENG_PEER;
	memset(&m, 0, sizeof(m));
	m.type = MSG_PHASE_RESULT;
	m.u.result.bytes = r.bytes;
	m.u.result.msgs = r.recv_msgs > r.msgs ? r.recv_msgs : r.msgs;
	m.u.result.ns = r.ns;
	m.u.result.peak_gbps = r.peak_valid ? r.bw_peak_gbps : 0;
	return proto_send(s->fd, &m, s->o->timeout_ms, err, errlen) ? ENG_PEER : 0;
}

/* The session's last word, an ERROR: from here on it only ends, so a
 * client that comes back at once (a retry, the next host of accept
 * --hosts) is served after it, not answered BUSY. */
static void last_error(struct sess *s, int st, const char *text)
{
	atomic_store(&s->finishing, true);
	proto_send_error(s->fd, st, text);
}

/* The rest of a session once its SETUP passed the checks: open the engine,
 * exchange QPs, serve every phase until BYE. Runs in the worker thread. */
static int session_run(struct sess *s, char *err, size_t errlen)
{
	const struct agent_opts *o = s->o;
	struct proto_msg m = s->setup;
	struct eng_cfg cfg = { 0 };
	int st;

	cfg.device = o->device;
	cfg.ib_port = o->ib_port;
	cfg.gid_index = o->gid_index;
	cfg.p = m.u.setup.p;
	cfg.initiator = false;
	cfg.tick = agent_tick;
	cfg.arg = s;
	s->ctr_ms = m.u.setup.p.counter_ms;
	st = eng_open(&s->e, &cfg, err, errlen);
	if (st) {
		last_error(s, st, err);
		return st;
	}
	/* after the open: a failure is logged by the main loop, rate-limited */
	agent_logf(o, "%s: %s %s, %u QP(s), up to %llu B", s->peer, eng_kind_name(cfg.p.kind),
	      eng_op_name(cfg.p.op), cfg.p.qps, (unsigned long long)cfg.p.size);
	memset(&m, 0, sizeof(m));
	m.type = MSG_ACCEPT;
	eng_local_qps(s->e, &m.u.qps.nqps, &m.u.qps.mtu, m.u.qps.qp);
	facts_collect(&m.u.qps.facts, s->e);
	if (proto_send(s->fd, &m, o->timeout_ms, err, errlen) ||
	    expect(s, &m, MSG_QPS, err, errlen))
		return ENG_PEER;
	st = eng_connect(s->e, m.u.qps.nqps, m.u.qps.mtu, m.u.qps.qp, err, errlen);
	if (st) {
		last_error(s, st, err);
		return st;
	}
	testctr_sample(&s->base, eng_info(s->e)->device, eng_info(s->e)->ib_port);
	s->t0 = eng_now_ns();
	m.type = MSG_READY;
	if (proto_send(s->fd, &m, o->timeout_ms, err, errlen))
		return ENG_PEER;
	for (;;) {
		if (proto_recv(s->fd, &m, o->timeout_ms, err, errlen))
			return ENG_PEER;
		if (m.type == MSG_BYE) {
			atomic_store(&s->finishing, true);
			return 0;
		}
		if (m.type == MSG_ERROR) {
			snprintf(err, errlen, "the client gave up: %s", m.u.error.text);
			return ENG_PEER;
		}
		if (m.type != MSG_RUN) {
			snprintf(err, errlen, "unexpected %s message", proto_type_name(m.type));
			last_error(s, 5, err);
			return ENG_PEER;
		}
		st = agent_run_phase(s, &m, err, errlen);
		if (st) {
			last_error(s, st, err);
			return st;
		}
	}
}

/* An order from a coordinator: this agent runs the test as a client of
 * the target agent (the same engine and client as `ibconsole test`) and
 * answers with the result, or with why there is none. */
static int order_run(struct sess *s, char *err, size_t errlen)
{
	const struct agent_opts *o = s->o;
	const struct proto_msg *ord = &s->setup;
	struct client_opts co = { .peer = ord->u.order.target, .tcp_port = ord->u.order.port,
				  .secret = o->secret, .device = o->device, .ib_port = o->ib_port,
				  .gid_index = o->gid_index, .p = ord->u.order.p,
				  .timeout_ms = o->timeout_ms, .busy_wait_ms = o->timeout_ms,
				  .stall_ms = 5000, .cancel = &s->cancel };
	struct client_result *cr = calloc(1, sizeof(*cr));
	struct proto_msg m = { .type = MSG_ORDER_RESULT }, e;
	struct proto_order_result *r = &m.u.oresult;
	int st;

	agent_logf(o, "%s: ordered: %s %s to %s port %u, %llu B", s->peer, eng_kind_name(co.p.kind),
	      eng_op_name(co.p.op), co.peer, co.tcp_port, (unsigned long long)co.p.size);
	if (!cr) {
		snprintf(err, errlen, "out of memory");
		last_error(s, 5, err);
		return ENG_INTERNAL;
	}
	st = client_run(&co, cr, err, errlen);
	if (st && atomic_load(&s->cancel)) {
		if (co.p.duration_ms)
			snprintf(err, errlen, "the ordered test ran past an order's %u s limit and was stopped — order a --duration below it (this one asked %.1f s)",
				 agent_order_cap_ms() / 1000, co.p.duration_ms / 1000.0);
		else
			snprintf(err, errlen, "the ordered test ran past an order's %u s limit and was stopped — order fewer iterations or a --duration",
				 agent_order_cap_ms() / 1000);
		st = ENG_PEER;
	}
	if (!st && cr->nphases < 1) {
		snprintf(err, errlen, "the test ran no phase");
		st = ENG_INTERNAL;
	}
	r->status = (uint16_t)st;
	r->local = cr->local;
	r->peer = cr->peer;
	if (st) {
		proto_error_msg(&e, st, err);	/* the wire's ASCII */
		snprintf(r->text, sizeof(r->text), "%s", e.u.error.text);
	} else {
		const struct client_phase *ph = &cr->ph[cr->nphases - 1];

		r->gbps = ph->total_avg_gbps;
		r->mpps = ph->total_mpps;
		if (ph->local.lat_valid) {
			r->lat_median_us = ph->local.lat_median;
			r->lat_p99_us = ph->local.lat_p99;
		}
	}
	free(cr);
	/* facts the codec would refuse (a host name too long) must not lose
	 * the result: send it without them */
	if (proto_send(s->fd, &m, o->timeout_ms, err, errlen)) {
		memset(&r->local, 0, sizeof(r->local));
		memset(&r->peer, 0, sizeof(r->peer));
		r->local.numa_node = r->peer.numa_node = -1;
		r->local.gid_index = r->peer.gid_index = -1;
		if (proto_send(s->fd, &m, o->timeout_ms, err, errlen))
			return ENG_PEER;
	}
	atomic_store(&s->finishing, true);
	return st;
}

void *session_main(void *arg)
{
	struct sess *s = arg;

	if (s->setup.type == MSG_ORDER)
		s->status = order_run(s, s->why, sizeof(s->why));
	else
		s->status = session_run(s, s->why, sizeof(s->why));
	eng_close(s->e);
	s->e = NULL;
	/* the main loop logs the end, rate-limited (end_session) */
	atomic_store(&s->done, true);
	(void)!write(s->wake, "", 1);
	return NULL;
}
