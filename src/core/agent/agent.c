// SPDX-License-Identifier: MIT
/* The peer agent (`ibconsole serve`): accepts one test client at a time
 * over TCP, runs its side of the test and streams its counter deltas. */
#include "config.h"
#include "core/agent/agent.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
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
#include "core/engine/engine_int.h"
#include "core/engine/facts.h"
#include "core/agent/proto.h"
#include "core/agent/tcptest.h"
#include "core/agent/testctr.h"

struct sess {
	const struct agent_opts *o;
	int fd;
	struct eng *e;
	bool phase_end;
	uint64_t next_ctr, t0;
	uint32_t ctr_ms;
	struct testctr base;
	char peer[64];
};

static void logf_(const struct agent_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void logf_(const struct agent_opts *o, const char *fmt, ...)
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

static int send_counters(struct sess *s, char *err, size_t errlen)
{
	struct proto_msg m = { .type = MSG_COUNTERS };
	struct testctr now, d;

	testctr_sample_after(&now, &s->base, eng_info(s->e)->device, eng_info(s->e)->ib_port);
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
		if (send_counters(s, err, errlen))
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

static bool same_mac(const uint8_t *a, const uint8_t *b)
{
	uint8_t d = 0;

	for (int i = 0; i < 32; i++)
		d |= a[i] ^ b[i];
	return d == 0;
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
	if (send_counters(s, err, errlen))
		return ENG_PEER;
	memset(&m, 0, sizeof(m));
	m.type = MSG_PHASE_RESULT;
	m.u.result.bytes = r.bytes;
	m.u.result.msgs = r.recv_msgs > r.msgs ? r.recv_msgs : r.msgs;
	m.u.result.ns = r.ns;
	m.u.result.peak_gbps = r.peak_valid ? r.bw_peak_gbps : 0;
	return proto_send(s->fd, &m, s->o->timeout_ms, err, errlen) ? ENG_PEER : 0;
}

static int session(struct sess *s, char *err, size_t errlen)
{
	const struct agent_opts *o = s->o;
	struct proto_msg m = { .type = MSG_HELLO };
	uint8_t nonce[PROTO_NONCE], mac[32];
	struct eng_cfg cfg = { 0 };
	int st;

	if (getrandom(nonce, sizeof(nonce), 0) != sizeof(nonce)) {
		snprintf(err, errlen, "no random numbers for the challenge");
		return ENG_INTERNAL;
	}
	m.u.hello.ver_min = m.u.hello.ver_max = PROTO_VERSION;
	m.u.hello.auth_required = o->secret != NULL;
	memcpy(m.u.hello.nonce, nonce, sizeof(nonce));
	m.u.hello.facts.numa_node = -1;
	m.u.hello.facts.gid_index = -1;
	gethostname(m.u.hello.facts.host, sizeof(m.u.hello.facts.host) - 1);
	if (proto_send(s->fd, &m, o->timeout_ms, err, errlen) ||
	    expect(s, &m, MSG_SETUP, err, errlen))
		return ENG_PEER;
	if (o->secret) {
		proto_auth_mac(o->secret, nonce, mac);
		if (!same_mac(mac, m.u.setup.mac)) {
			snprintf(err, errlen, "authentication failed: wrong or missing shared secret — give the same --secret-file on both ends");
			proto_send_error(s->fd, 3, err);
			return ENG_NODEV;
		}
	}
	if (eng_mem_need(&m.u.setup.p) > o->max_mem) {
		snprintf(err, errlen, "the test needs %llu MiB of locked memory, this agent allows %llu MiB — lower --size or --qps, or raise serve --max-mem",
			 (unsigned long long)(eng_mem_need(&m.u.setup.p) >> 20),
			 (unsigned long long)(o->max_mem >> 20));
		proto_send_error(s->fd, 2, err);
		return 2;
	}
	cfg.device = o->device;
	cfg.ib_port = o->ib_port;
	cfg.gid_index = o->gid_index;
	cfg.p = m.u.setup.p;
	cfg.initiator = false;
	cfg.tick = agent_tick;
	cfg.arg = s;
	s->ctr_ms = m.u.setup.p.counter_ms;
	logf_(o, "%s: %s %s, %u QP(s), up to %llu B", s->peer, eng_kind_name(cfg.p.kind),
	      eng_op_name(cfg.p.op), cfg.p.qps, (unsigned long long)cfg.p.size);
	st = eng_open(&s->e, &cfg, err, errlen);
	if (st) {
		proto_send_error(s->fd, st, err);
		return st;
	}
	memset(&m, 0, sizeof(m));
	m.type = MSG_ACCEPT;
	eng_local_qps(s->e, &m);
	facts_collect(&m.u.qps.facts, s->e);
	if (proto_send(s->fd, &m, o->timeout_ms, err, errlen) ||
	    expect(s, &m, MSG_QPS, err, errlen))
		return ENG_PEER;
	st = eng_connect(s->e, &m, err, errlen);
	if (st) {
		proto_send_error(s->fd, st, err);
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
		if (m.type == MSG_BYE)
			return 0;
		if (m.type == MSG_ERROR) {
			snprintf(err, errlen, "the client gave up: %s", m.u.error.text);
			return ENG_PEER;
		}
		if (m.type != MSG_RUN) {
			snprintf(err, errlen, "unexpected %s message", proto_type_name(m.type));
			proto_send_error(s->fd, 5, err);
			return ENG_PEER;
		}
		st = agent_run_phase(s, &m, err, errlen);
		if (st) {
			proto_send_error(s->fd, st, err);
			return st;
		}
	}
}

static int listen_on(const struct agent_opts *o, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE }, *res, *a;
	char port[16];
	int fd = -1, rc, one = 1, eno = 0;

	snprintf(port, sizeof(port), "%d", o->port ? o->port : AGENT_DEFAULT_PORT);
	rc = getaddrinfo(o->bind, port, &hints, &res);
	if (rc) {
		snprintf(err, errlen, "cannot resolve --bind %s: %s — give an address of this host",
			 o->bind ? o->bind : "*", gai_strerror(rc));
		return -1;
	}
	for (a = res; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(fd, a->ai_addr, a->ai_addrlen) && !listen(fd, 4))
			break;
		eno = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		snprintf(err, errlen, "cannot listen on %s port %s: %s — pick another --port or --bind",
			 o->bind ? o->bind : "*", port, strerror(eno));
	return fd;
}

int agent_serve(const struct agent_opts *o, char *err, size_t errlen)
{
	int lfd = listen_on(o, err, errlen), last = 0, served = 0, tfd;
	char terr[ENG_ERR];

	if (lfd < 0)
		return ENG_PEER;
	logf_(o, "listening on %s port %d", o->bind ? o->bind : "*", o->port ? o->port : AGENT_DEFAULT_PORT);
	/* the TCP baseline (tcptest.c) beside it, on port + 1; optional */
	tfd = tcptest_listen(o->bind, o->port, terr, sizeof(terr));
	if (tfd < 0)
		logf_(o, "no TCP baseline: %s", terr);
	while (!(o->stop && *o->stop) && (!o->sessions || served < o->sessions)) {
		struct pollfd p[2] = { { .fd = lfd, .events = POLLIN }, { .fd = tfd, .events = POLLIN } };
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		struct sess s = { .o = o };
		char why[ENG_ERR] = "";
		int one = 1;

		/* bounded waits: a signal or the stop flag is seen within 0.5 s */
		if (poll(p, tfd < 0 ? 1 : 2, 500) <= 0)
			continue;
		if (tfd >= 0 && (p[1].revents & POLLIN)) {
			char who[64];
			int r = tcptest_serve_one(tfd, o->secret, o->timeout_ms, who, sizeof(who), terr, sizeof(terr));

			logf_(o, "%s: TCP baseline %s: %s", who, r ? "failed" : "done", terr);
		}
		if (!(p[0].revents & POLLIN))
			continue;
		s.fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);
		if (s.fd < 0)
			continue;
		setsockopt(s.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (getnameinfo((struct sockaddr *)&ss, sl, s.peer, sizeof(s.peer), NULL, 0, NI_NUMERICHOST))
			snprintf(s.peer, sizeof(s.peer), "?");
		last = session(&s, why, sizeof(why));
		eng_close(s.e);
		close(s.fd);
		served++;
		if (last)
			logf_(o, "%s: session failed: %s", s.peer, why);
		else
			logf_(o, "%s: session done", s.peer);
		if (last && o->sessions == 1)
			snprintf(err, errlen, "%s", why);
	}
	close(lfd);
	if (tfd >= 0)
		close(tfd);
	return o->sessions == 1 ? last : 0;
}
