// SPDX-License-Identifier: MIT
/* The peer agent (`ibconsole serve`): greets any number of clients at once
 * in one poll loop (each handshake under its own deadline, a cap per
 * address, logging rate-limited), runs one test at a time on the RDMA side
 * in a worker thread (session.c), answers BUSY to the others, and serves
 * the TCP baseline on port + 1. */
#include "config.h"
#include "core/agent/agent.h"
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

#include "core/base/parse.h"
#include "core/engine/engine.h"
#include "core/engine/facts.h"
#include "core/agent/client.h"
#include "core/agent/dial.h"
#include "core/accept/hostlist.h"
#include "core/agent/proto.h"
#include "core/testrun/tcptest.h"
#include "core/counters/testctr.h"
#include "core/base/clock.h"

/* An order is stopped this long after it began: PROTO_ORDER_MAX_DURATION_MS,
 * or less where IBCONSOLE_ORDER_CAP_S (1..60, read when the agent starts)
 * says so: a test hook, so that a test whose rate-limited pair is meant to
 * run into the cap does not wait a minute for it. */
static unsigned order_cap_ms = PROTO_ORDER_MAX_DURATION_MS;

static void order_cap_from_env(void)
{
	const char *e = getenv("IBCONSOLE_ORDER_CAP_S");
	int s;

	order_cap_ms = PROTO_ORDER_MAX_DURATION_MS;
	if (e && !parse_int(e, 1, (int)(PROTO_ORDER_MAX_DURATION_MS / 1000), &s))
		order_cap_ms = (unsigned)s * 1000u;
}

unsigned agent_order_cap_ms(void)
{
	return order_cap_ms;
}

/* ---- the handshake loop ---- */

static bool same_mac(const uint8_t *a, const uint8_t *b)
{
	uint8_t d = 0;

	for (int i = 0; i < 32; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

/* A connection between accept and a checked SETUP (or, on the TCP
 * baseline's port, a checked request line). */
struct conn {
	int fd;			/* -1: free slot */
	bool tcp;		/* the TCP baseline's text handshake */
	long long since, deadline;	/* ms, monotonic */
	uint8_t nonce[PROTO_NONCE];
	size_t have, need;
	uint8_t buf[PROTO_HDR + PROTO_MAX_PAYLOAD];
	char peer[PROTO_PEER];
};

enum drop_kind { DROP_TIMEOUT, DROP_LIMIT, DROP_BAD, DROP_BUSY, DROP_FAILED, DROP_KINDS };

struct agent {
	const struct agent_opts *o;
	int lfd, wake[2];
	struct conn *c;		/* AGENT_MAX_PENDING slots */
	struct pollfd *pfd;	/* listener, wake pipe, then one per slot */
	struct proto_msg hello;	/* the template: each gets its own nonce */
	struct sess *s;		/* the running test, or NULL */
	pthread_t th;
	int started, served, last;
	long long accept_pause;	/* out of file descriptors: retry then */
	/* the TCP baseline (tcptest.c) on port + 1: its handshakes in this
	 * loop, one stream at a time on its own thread */
	int tfd, tconn, tres;
	unsigned tsecs;
	char tpeer[PROTO_PEER], twhy[ENG_ERR];
	pthread_t tth;
	bool tstarted;
	atomic_int tbusy;
	/* rate-limited logging of dropped connections */
	long long win_end;
	unsigned win_logged, win_n[DROP_KINDS];
	char last_err[ENG_ERR];
};

/* Ends a window of the drop log: one summary line for what it held back. */
static void drop_log_flush(struct agent *a, long long now, bool force)
{
	unsigned total = 0;

	if (!a->win_end || (now < a->win_end && !force))
		return;
	for (int k = 0; k < DROP_KINDS; k++)
		total += a->win_n[k];
	if (total > a->win_logged)
		agent_logf(a->o, "%u connections dropped in the last %d s (%u handshake time-outs, %u over the connection limits, %u closed or bad messages, %u busy, %u failed tests); %u logged one by one",
		      total, AGENT_LOG_WINDOW_MS / 1000, a->win_n[DROP_TIMEOUT], a->win_n[DROP_LIMIT],
		      a->win_n[DROP_BAD], a->win_n[DROP_BUSY], a->win_n[DROP_FAILED], a->win_logged);
	memset(a->win_n, 0, sizeof(a->win_n));
	a->win_logged = 0;
	a->win_end = 0;
}

/* A line for the log about one client, rate-limited: AGENT_LOG_BURST a
 * window one by one, the rest counted in the window's summary. Whatever
 * a client can cause at will (a drop, a failed test) is logged here. */
static void note(struct agent *a, enum drop_kind k, const char *peer, const char *why)
{
	long long now = mono_ms();

	drop_log_flush(a, now, false);
	if (!a->win_end)
		a->win_end = now + AGENT_LOG_WINDOW_MS;
	a->win_n[k]++;
	if (a->win_logged < AGENT_LOG_BURST) {
		a->win_logged++;
		agent_logf(a->o, "%s: %s", peer, why);
	}
}

static void drop(struct agent *a, struct conn *c, enum drop_kind k, const char *why)
{
	note(a, k, c->peer, why);
	close(c->fd);
	c->fd = -1;
}

/* Sends a small message now or never: a fresh socket's buffer always has
 * room for one, and the loop must not wait on any single client. */
static int send_now(int fd, const struct proto_msg *m)
{
	uint8_t buf[PROTO_HDR + PROTO_MAX_PAYLOAD];
	int n = proto_encode(m, buf, sizeof(buf));

	if (n < 0)
		return -1;
	return send(fd, buf, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) == n ? 0 : -1;
}

static void refuse(struct agent *a, struct conn *c, int code, const char *why)
{
	struct proto_msg m;

	proto_error_msg(&m, code, why);
	(void)send_now(c->fd, &m);
	drop(a, c, DROP_BAD, why);
}

static void answer_busy(struct agent *a, struct conn *c)
{
	struct proto_msg m = { .type = MSG_BUSY };
	char why[160];

	m.u.busy.ver_min = m.u.busy.ver_max = PROTO_VERSION;
	if (a->s) {
		long long ran = mono_ms() - a->s->started;

		m.u.busy.running_ms = (uint32_t)(ran > 0 ? ran : 0);
		m.u.busy.planned_ms = a->s->setup.type == MSG_ORDER ?
				      a->s->setup.u.order.p.duration_ms : a->s->setup.u.setup.p.duration_ms;
		snprintf(m.u.busy.peer, sizeof(m.u.busy.peer), "%s", a->s->peer);
	}
	(void)send_now(c->fd, &m);
	snprintf(why, sizeof(why), "busy: refused, the test from %s is still running",
		 m.u.busy.peer[0] ? m.u.busy.peer : "another client");
	drop(a, c, DROP_BUSY, why);
}

static void start_session(struct agent *a, struct conn *c, const struct proto_msg *setup)
{
	struct sess *s = calloc(1, sizeof(*s));
	sigset_t all, old;
	char why[ENG_ERR];

	if (!s) {
		refuse(a, c, 5, "out of memory");
		return;
	}
	s->o = a->o;
	s->fd = c->fd;
	s->setup = *setup;
	s->started = mono_ms();
	s->wake = a->wake[1];
	snprintf(s->peer, sizeof(s->peer), "%s", c->peer);
	atomic_init(&s->done, false);
	atomic_init(&s->cancel, 0);
	atomic_init(&s->finishing, false);
	/* signals are the main loop's: the worker never sees EINTR */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&a->th, NULL, session_main, s)) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		free(s);
		snprintf(why, sizeof(why), "cannot start a session thread — the agent is out of resources");
		refuse(a, c, 5, why);
		return;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	a->s = s;
	a->started++;
	c->fd = -1;	/* the session owns it now */
}

static void end_session(struct agent *a)
{
	struct sess *s = a->s;

	pthread_join(a->th, NULL);
	close(s->fd);
	if (s->status) {
		char line[ENG_ERR + 32];

		snprintf(line, sizeof(line), "session failed: %s", s->why);
		note(a, DROP_FAILED, s->peer, line);
	} else {
		agent_logf(a->o, "%s: session done", s->peer);
	}
	a->served++;
	a->last = s->status;
	a->s = NULL;
	if (s->status && a->o->sessions == 1)
		snprintf(a->last_err, sizeof(a->last_err), "%s", s->why);
	free(s);
}

/* An order: only with a shared secret that vouches for its content,
 * and only towards an agent of the --hosts list when there is one. */
static int order_allowed(struct agent *a, struct conn *c, const struct proto_msg *m)
{
	const struct agent_opts *o = a->o;
	uint8_t mac[32];
	char why[ENG_ERR];

	if (!o->secret) {
		refuse(a, c, 3, "test orders refused: this agent has no shared secret — start it with serve --secret-file (the same file as accept's)");
		return -1;
	}
	if (proto_order_mac(o->secret, c->nonce, m, mac) || !same_mac(mac, m->u.order.mac)) {
		refuse(a, c, 3, "test order refused: authentication failed: wrong or missing shared secret — give the same --secret-file to accept and every serve");
		return -1;
	}
	if (o->order_to && !hostlist_has(o->order_to, m->u.order.target, m->u.order.port)) {
		snprintf(why, sizeof(why), "test order refused: %s port %u is not in this agent's --hosts list — add it there, or order tests only within the list",
			 m->u.order.target, m->u.order.port);
		refuse(a, c, 3, why);
		return -1;
	}
	return 0;
}

/* A complete SETUP or ORDER: authenticate, check the limits, then run the
 * test or answer BUSY. */
static void got_setup(struct agent *a, struct conn *c, const struct proto_msg *m)
{
	const struct agent_opts *o = a->o;
	const struct proto_params *p = m->type == MSG_ORDER ? &m->u.order.p : &m->u.setup.p;
	uint8_t mac[32];
	char why[ENG_ERR];

	if (m->type == MSG_ORDER) {
		if (order_allowed(a, c, m))
			return;
	} else if (o->secret) {
		if (proto_auth_mac(o->secret, c->nonce, mac) || !same_mac(mac, m->u.setup.mac)) {
			refuse(a, c, 3, "authentication failed: wrong or missing shared secret — give the same --secret-file on both ends");
			return;
		}
	}
	if (eng_mem_need(p) > o->max_mem) {
		snprintf(why, sizeof(why), "the test needs %llu MiB of locked memory, this agent allows %llu MiB — lower --size or --qps, or raise serve --max-mem",
			 (unsigned long long)(eng_mem_need(p) >> 20),
			 (unsigned long long)(o->max_mem >> 20));
		refuse(a, c, 2, why);
		return;
	}
	/* a test that said its last word ends in moments: its client may
	 * already be back for the next one (accept --hosts), so wait for it
	 * rather than answer BUSY */
	if (a->s && atomic_load(&a->s->finishing))
		end_session(a);
	if (a->s || (o->sessions && a->started >= o->sessions)) {
		answer_busy(a, c);
		return;
	}
	start_session(a, c, m);
}

static void tcp_start(struct agent *a, struct conn *c);

/* The TCP baseline's request line: checked, then the stream on its own
 * thread, or BUSY while another runs. */
static void on_tcp_readable(struct agent *a, struct conn *c)
{
	char *nl, why[ENG_ERR];
	ssize_t k;
	int code;

	k = recv(c->fd, c->buf + c->have, TCPTEST_LINE - 1 - c->have, MSG_DONTWAIT);
	if (k < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (k <= 0) {
		drop(a, c, DROP_BAD, "closed the connection before its TCP baseline request");
		return;
	}
	c->have += (size_t)k;
	c->buf[c->have] = '\0';
	nl = memchr(c->buf, '\n', c->have);
	if (!nl) {
		if (c->have >= TCPTEST_LINE - 1) {
			tcptest_refuse(c->fd, 4, "request line too long -- run the same ibconsole version on both ends");
			drop(a, c, DROP_BAD, "bad TCP baseline request: too long");
		}
		return;
	}
	*nl = '\0';
	code = tcptest_request((char *)c->buf, a->o->secret, c->nonce, &a->tsecs, why, sizeof(why));
	if (code) {
		char line[ENG_ERR + 40];

		tcptest_refuse(c->fd, code, why);
		snprintf(line, sizeof(line), "TCP baseline refused: %s", why);
		drop(a, c, DROP_BAD, line);
		return;
	}
	if (atomic_load(&a->tbusy)) {
		snprintf(why, sizeof(why), "busy: the TCP baseline from %s is still running -- try again when it ends",
			 a->tpeer);
		tcptest_refuse(c->fd, 4, why);
		drop(a, c, DROP_BUSY, "TCP baseline: busy, refused");
		return;
	}
	tcp_start(a, c);
}

/* Reads what a handshaking client sent; acts on a complete message. */
static void on_readable(struct agent *a, struct conn *c)
{
	struct proto_msg m;
	char why[ENG_ERR], line[ENG_ERR + 32];
	uint8_t type = 0;
	ssize_t k;
	int n;

	if (c->tcp) {
		on_tcp_readable(a, c);
		return;
	}
	k = recv(c->fd, c->buf + c->have, c->need - c->have, MSG_DONTWAIT);
	if (k < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (k <= 0) {
		drop(a, c, DROP_BAD, k == 0 ? "closed the connection before its SETUP" :
						"connection lost before its SETUP");
		return;
	}
	c->have += (size_t)k;
	if (c->have < c->need)
		return;
	if (c->need == PROTO_HDR) {
		n = proto_header(c->buf, &type, why, sizeof(why));
		if (n < 0 || (type != MSG_SETUP && type != MSG_ORDER && type != MSG_ERROR)) {
			if (n >= 0)
				snprintf(why, sizeof(why), "sent %s where SETUP or ORDER was due", proto_type_name(type));
			snprintf(line, sizeof(line), "bad handshake: %s", why);
			refuse(a, c, 4, line);
			return;
		}
		c->need = PROTO_HDR + (size_t)n;
		if (n > 0)
			return;
	}
	(void)proto_header(c->buf, &type, why, sizeof(why));
	if (proto_decode(type, c->buf + PROTO_HDR, c->need - PROTO_HDR, &m, why, sizeof(why))) {
		snprintf(line, sizeof(line), "bad handshake: %s", why);
		refuse(a, c, 4, line);
		return;
	}
	if (m.type == MSG_ERROR) {
		snprintf(line, sizeof(line), "the client gave up: %s", m.u.error.text);
		drop(a, c, DROP_BAD, line);
		return;
	}
	got_setup(a, c, &m);
}

static struct conn *oldest(struct agent *a, const char *peer)
{
	struct conn *o = NULL;

	for (int i = 0; i < AGENT_MAX_PENDING; i++) {
		struct conn *c = &a->c[i];

		if (c->fd >= 0 && (!peer || !strcmp(c->peer, peer)) && (!o || c->since < o->since))
			o = c;
	}
	return o;
}

/* One new connection: a slot (the oldest handshake of a crowded address,
 * or the oldest of all, makes room), then HELLO with a fresh nonce. */
static void admit(struct agent *a, int fd, const struct sockaddr_storage *ss, socklen_t sl,
		  bool tcp)
{
	struct conn *c = NULL, *old;
	char peer[PROTO_PEER], why[160];
	int from_peer = 0, one = 1;

	if (getnameinfo((const struct sockaddr *)ss, sl, peer, sizeof(peer), NULL, 0, NI_NUMERICHOST))
		snprintf(peer, sizeof(peer), "?");
	for (int i = 0; i < AGENT_MAX_PENDING; i++) {
		if (a->c[i].fd < 0) {
			if (!c)
				c = &a->c[i];
		} else if (!strcmp(a->c[i].peer, peer))
			from_peer++;
	}
	if (from_peer >= AGENT_MAX_PER_ADDR) {
		old = oldest(a, peer);
		snprintf(why, sizeof(why), "dropped: over the limit of %d handshakes at once from one address",
			 AGENT_MAX_PER_ADDR);
		drop(a, old, DROP_LIMIT, why);
		c = old;
	} else if (!c) {
		c = oldest(a, NULL);
		snprintf(why, sizeof(why), "dropped: over the limit of %d handshakes at once",
			 AGENT_MAX_PENDING);
		drop(a, c, DROP_LIMIT, why);
	}
	c->fd = fd;
	c->tcp = tcp;
	c->since = mono_ms();
	c->deadline = c->since + a->o->timeout_ms;
	c->have = 0;
	c->need = PROTO_HDR;
	snprintf(c->peer, sizeof(c->peer), "%s", peer);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (getrandom(c->nonce, sizeof(c->nonce), 0) != sizeof(c->nonce)) {
		refuse(a, c, 5, "no random numbers for the challenge");
		return;
	}
	if (tcp) {
		char line[TCPTEST_LINE];

		tcptest_greeting(c->nonce, sizeof(c->nonce), a->o->secret != NULL, line, sizeof(line));
		/* a fresh socket's buffer always has room for one line */
		if (send(fd, line, strlen(line), MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)strlen(line))
			drop(a, c, DROP_BAD, "cannot send the TCP baseline greeting");
		return;
	}
	memcpy(a->hello.u.hello.nonce, c->nonce, sizeof(c->nonce));
	if (send_now(fd, &a->hello))
		drop(a, c, DROP_BAD, "cannot send HELLO");
}

static void accept_all(struct agent *a, int lfd, bool tcp)
{
	for (int i = 0; i < 64; i++) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (fd >= 0) {
			admit(a, fd, &ss, sl, tcp);
			continue;
		}
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
			struct conn *o = oldest(a, NULL);

			/* free a descriptor for the next round, or wait a little */
			if (o)
				drop(a, o, DROP_LIMIT, "dropped: the agent ran out of file descriptors");
			else
				a->accept_pause = mono_ms() + 100;
		}
		return;
	}
}

static int listen_on(const struct agent_opts *o, char *err, size_t errlen)
{
	int port = o->port ? o->port : AGENT_DEFAULT_PORT;
	int gai, eno, fd = dial_listen(o->bind, port, AGENT_BACKLOG, &gai, &eno);

	if (fd < 0 && gai)
		snprintf(err, errlen, "cannot resolve --bind %s: %s — give an address of this host",
			 o->bind ? o->bind : "*", gai_strerror(gai));
	else if (fd < 0)
		snprintf(err, errlen, "cannot listen on %s port %d: %s — pick another --port or --bind",
			 o->bind ? o->bind : "*", port, strerror(eno));
	return fd;
}

static bool serving(const struct agent *a)
{
	const struct agent_opts *o = a->o;

	if (o->stop && *o->stop)
		return false;
	return !o->sessions || a->served < o->sessions;
}

static void *tcp_main(void *arg)
{
	struct agent *a = arg;

	a->tres = tcptest_stream(a->tconn, a->tsecs, a->o->timeout_ms, a->twhy, sizeof(a->twhy));
	close(a->tconn);
	atomic_store(&a->tbusy, 0);
	if (write(a->wake[1], "t", 1) < 0) {
		/* the loop looks again within 0.5 s anyway */
	}
	return NULL;
}

/* A finished stream (with wait, the running one once it ends): joined
 * and logged, a failure rate-limited. */
static void tcp_reap(struct agent *a, bool wait)
{
	if (!a->tstarted || (!wait && atomic_load(&a->tbusy)))
		return;
	pthread_join(a->tth, NULL);
	a->tstarted = false;
	if (a->tres) {
		char line[ENG_ERR + 32];

		snprintf(line, sizeof(line), "TCP baseline failed: %s", a->twhy);
		note(a, DROP_FAILED, a->tpeer, line);
	} else {
		agent_logf(a->o, "%s: TCP baseline done: %s", a->tpeer, a->twhy);
	}
}

/* Hands c's socket (its request checked) to the stream thread. */
static void tcp_start(struct agent *a, struct conn *c)
{
	sigset_t all, old;
	int fl;

	tcp_reap(a, false);
	a->tconn = c->fd;
	c->fd = -1;
	snprintf(a->tpeer, sizeof(a->tpeer), "%s", c->peer);
	fl = fcntl(a->tconn, F_GETFL);
	if (fl >= 0)
		fcntl(a->tconn, F_SETFL, fl & ~O_NONBLOCK);
	atomic_store(&a->tbusy, 1);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&a->tth, NULL, tcp_main, a)) {
		atomic_store(&a->tbusy, 0);
		tcptest_refuse(a->tconn, 5, "the agent cannot start a thread for the stream -- it is out of resources");
		close(a->tconn);
		agent_logf(a->o, "cannot start the TCP baseline thread");
	} else {
		a->tstarted = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* One round: wait for the listener, the worker's wake-up or a client,
 * never longer than the next handshake deadline. */
static void round_(struct agent *a)
{
	long long now = mono_ms(), wait = 500;
	int n;

	a->pfd[0] = (struct pollfd){ .fd = now < a->accept_pause ? -1 : a->lfd, .events = POLLIN };
	a->pfd[1] = (struct pollfd){ .fd = a->wake[0], .events = POLLIN };
	for (int i = 0; i < AGENT_MAX_PENDING; i++) {
		a->pfd[i + 2] = (struct pollfd){ .fd = a->c[i].fd, .events = POLLIN };
		if (a->c[i].fd >= 0 && a->c[i].deadline - now < wait)
			wait = a->c[i].deadline - now;
	}
	a->pfd[AGENT_MAX_PENDING + 2] = (struct pollfd){
		.fd = now < a->accept_pause ? -1 : a->tfd, .events = POLLIN };
	n = poll(a->pfd, AGENT_MAX_PENDING + 3, (int)(wait > 0 ? wait : 0));
	if (n < 0 && errno != EINTR)
		agent_logf(a->o, "poll: %s", strerror(errno));
	if (n > 0 && a->pfd[1].revents) {
		char b[64];

		while (read(a->wake[0], b, sizeof(b)) > 0)
			;
	}
	if (a->s && atomic_load(&a->s->done))
		end_session(a);
	/* an order runs unattended: past its limit it is stopped */
	if (a->s && a->s->setup.type == MSG_ORDER &&
	    mono_ms() - a->s->started > (long long)order_cap_ms)
		atomic_store(&a->s->cancel, 1);
	for (int i = 0; n > 0 && i < AGENT_MAX_PENDING; i++)
		if (a->c[i].fd >= 0 && a->pfd[i + 2].fd == a->c[i].fd && a->pfd[i + 2].revents)
			on_readable(a, &a->c[i]);
	tcp_reap(a, false);
	if (n > 0 && a->pfd[0].revents && serving(a))
		accept_all(a, a->lfd, false);
	if (n > 0 && a->pfd[AGENT_MAX_PENDING + 2].fd >= 0 && a->pfd[AGENT_MAX_PENDING + 2].revents &&
	    serving(a))
		accept_all(a, a->tfd, true);
	now = mono_ms();
	for (int i = 0; i < AGENT_MAX_PENDING; i++) {
		if (a->c[i].fd >= 0 && now >= a->c[i].deadline) {
			char why[128];

			snprintf(why, sizeof(why), "dropped: no complete %s within %d ms of connecting (handshake time-out)",
				 a->c[i].tcp ? "TCP baseline request" : "SETUP", a->o->timeout_ms);
			drop(a, &a->c[i], DROP_TIMEOUT, why);
		}
	}
	drop_log_flush(a, now, false);
}

int agent_serve(const struct agent_opts *o, char *err, size_t errlen)
{
	struct agent *a = calloc(1, sizeof(*a));
	int rc;

	order_cap_from_env();
	if (!a || !(a->c = calloc(AGENT_MAX_PENDING, sizeof(*a->c))) ||
	    !(a->pfd = calloc(AGENT_MAX_PENDING + 3, sizeof(*a->pfd)))) {
		snprintf(err, errlen, "out of memory");
		if (a)
			free(a->c);
		free(a);
		return ENG_INTERNAL;
	}
	a->o = o;
	for (int i = 0; i < AGENT_MAX_PENDING; i++)
		a->c[i].fd = -1;
	a->hello.type = MSG_HELLO;
	a->hello.u.hello.ver_min = a->hello.u.hello.ver_max = PROTO_VERSION;
	a->hello.u.hello.auth_required = o->secret != NULL;
	a->hello.u.hello.facts.numa_node = -1;
	a->hello.u.hello.facts.gid_index = -1;
	gethostname(a->hello.u.hello.facts.host, sizeof(a->hello.u.hello.facts.host) - 1);
	a->lfd = listen_on(o, err, errlen);
	if (a->lfd < 0) {
		free(a->pfd);
		free(a->c);
		free(a);
		return ENG_PEER;
	}
	if (pipe2(a->wake, O_CLOEXEC | O_NONBLOCK)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		close(a->lfd);
		free(a->pfd);
		free(a->c);
		free(a);
		return ENG_INTERNAL;
	}
	agent_logf(o, "listening on %s port %d", o->bind ? o->bind : "*", o->port ? o->port : AGENT_DEFAULT_PORT);
	{	/* the TCP baseline beside it, on port + 1; optional */
		char terr[ENG_ERR];

		a->tfd = tcptest_listen(o->bind, o->port, terr, sizeof(terr));
		if (a->tfd < 0)
			agent_logf(o, "no TCP baseline: %s", terr);
	}
	while (serving(a))
		round_(a);
	tcp_reap(a, true);	/* a stream ends within its own time-outs */
	if (a->tfd >= 0)
		close(a->tfd);
	if (a->s) {
		/* stopped mid-test: end it now, not at its client's leisure */
		agent_logf(o, "%s: stopping the running test", a->s->peer);
		atomic_store(&a->s->cancel, 1);
		shutdown(a->s->fd, SHUT_RDWR);
		end_session(a);
	}
	for (int i = 0; i < AGENT_MAX_PENDING; i++)
		if (a->c[i].fd >= 0)
			close(a->c[i].fd);
	drop_log_flush(a, mono_ms(), true);
	close(a->lfd);
	close(a->wake[0]);
	close(a->wake[1]);
	rc = o->sessions == 1 ? a->last : 0;
	if (rc)
		snprintf(err, errlen, "%s", a->last_err);
	free(a->pfd);
	free(a->c);
	free(a);
	return rc;
}
