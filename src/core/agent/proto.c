// SPDX-License-Identifier: MIT
/* Agent protocol: versioned, length-prefixed binary messages between the
 * test client and `ibconsole serve`; pure encode / decode / validate. */
#include "config.h"
#include "core/agent/proto.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include "core/base/clock.h"
#include "core/base/hmacdl.h"

/* A cursor over a buffer: every get / put is bounds-checked and a failure
 * sticks, so a codec reads as a straight list of fields. */
struct cur {
	uint8_t *w;
	const uint8_t *r;
	size_t len, off;
	bool bad;
	char why[96];
};

static void put(struct cur *c, const void *v, size_t n)
{
	if (c->bad || c->len - c->off < n) {
		c->bad = true;
		return;
	}
	memcpy(c->w + c->off, v, n);
	c->off += n;
}

static void put_u(struct cur *c, uint64_t v, int bytes)
{
	uint8_t b[8];

	for (int i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
	put(c, b, (size_t)bytes);
}

static bool printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

static void put_str(struct cur *c, const char *s, size_t cap)
{
	size_t n = strnlen(s, cap);

	if (n >= cap || !printable(s, n)) {
		c->bad = true;
		return;
	}
	put_u(c, n, 2);
	put(c, s, n);
}

static void get(struct cur *c, void *v, size_t n)
{
	if (c->bad)
		return;
	if (c->len - c->off < n) {
		c->bad = true;
		snprintf(c->why, sizeof(c->why), "message too short");
		return;
	}
	memcpy(v, c->r + c->off, n);
	c->off += n;
}

static uint64_t get_u(struct cur *c, int bytes)
{
	uint8_t b[8] = { 0 };
	uint64_t v = 0;

	get(c, b, (size_t)bytes);
	for (int i = 0; i < bytes; i++)
		v = v << 8 | b[i];
	return v;
}

static void fail(struct cur *c, const char *what)
{
	if (!c->bad)
		snprintf(c->why, sizeof(c->why), "%s", what);
	c->bad = true;
}

static void get_str(struct cur *c, char *s, size_t cap, const char *field)
{
	size_t n = (size_t)get_u(c, 2);

	s[0] = '\0';
	if (c->bad)
		return;
	if (n >= cap) {
		snprintf(c->why, sizeof(c->why), "%s too long (%zu bytes, at most %zu)", field, n, cap - 1);
		c->bad = true;
		return;
	}
	get(c, s, n);
	if (c->bad)
		return;
	s[n] = '\0';
	if (!printable(s, n))
		fail(c, "non-printable string");
}

/* Integers travel as two's complement in the same width. */
static int32_t s32(uint64_t v)
{
	uint32_t u = (uint32_t)v;
	int32_t r;

	memcpy(&r, &u, sizeof(r));
	return r;
}

static uint32_t u32s(int32_t v)
{
	uint32_t r;

	memcpy(&r, &v, sizeof(r));
	return r;
}

static void facts_io(struct cur *c, struct proto_facts *f, bool enc)
{
	struct { char *s; size_t cap; const char *name; } strs[] = {
		{ f->host, sizeof(f->host), "host" },
		{ f->device, sizeof(f->device), "device" },
		{ f->fw_ver, sizeof(f->fw_ver), "fw_ver" },
		{ f->driver, sizeof(f->driver), "driver" },
		{ f->ca_type, sizeof(f->ca_type), "ca_type" },
		{ f->link_layer, sizeof(f->link_layer), "link_layer" },
		{ f->kernel, sizeof(f->kernel), "kernel" },
		{ f->pcie, sizeof(f->pcie), "pcie" },
		{ f->cpu_governor, sizeof(f->cpu_governor), "cpu_governor" },
		{ f->gid_type, sizeof(f->gid_type), "gid_type" },
		{ f->gid, sizeof(f->gid), "gid" },
	};

	char drv[PROTO_NAME];
	size_t dl;

	/* the driver's version rides in the driver string, "name (version)",
	 * so that older peers read a longer name and send a bare one (then
	 * the version is "", the peer did not say); left off when both do
	 * not fit */
	if (enc && f->driver_version[0] &&
	    strlen(f->driver) + strlen(f->driver_version) + 3 < sizeof(drv)) {
		snprintf(drv, sizeof(drv), "%.*s (%.*s)", (int)strlen(f->driver), f->driver,
			 (int)strlen(f->driver_version), f->driver_version);
		strs[3].s = drv;
	}
	for (size_t i = 0; i < sizeof(strs) / sizeof(*strs); i++) {
		if (enc)
			put_str(c, strs[i].s, strs[i].cap);
		else
			get_str(c, strs[i].s, strs[i].cap, strs[i].name);
	}
	dl = strlen(f->driver);
	if (!enc && dl > 3 && f->driver[dl - 1] == ')') {
		char *open = strrchr(f->driver, '(');

		if (open && open > f->driver && open[-1] == ' ' && open + 1 < f->driver + dl - 1) {
			snprintf(f->driver_version, sizeof(f->driver_version), "%.*s",
				 (int)(f->driver + dl - 2 - open), open + 1);
			open[-1] = '\0';
		}
	}
	if (enc) {
		put_u(c, u32s(f->numa_node), 4);
		put_u(c, f->cpu_mhz, 4);
		put_u(c, f->rate_mbps, 4);
		put_u(c, f->mtu, 4);
		put_u(c, u32s(f->gid_index), 4);
		put_u(c, f->netdev_mtu, 4);
		return;
	}
	f->numa_node = s32(get_u(c, 4));
	f->cpu_mhz = (uint32_t)get_u(c, 4);
	f->rate_mbps = (uint32_t)get_u(c, 4);
	f->mtu = (uint32_t)get_u(c, 4);
	f->gid_index = s32(get_u(c, 4));
	f->netdev_mtu = (uint32_t)get_u(c, 4);
	if (f->numa_node < -1 || f->numa_node > 1023)
		fail(c, "numa_node out of range");
	if (f->gid_index < -1 || f->gid_index > 4095)
		fail(c, "gid_index out of range");
	if (f->mtu > 65536)
		fail(c, "mtu out of range");
	if (f->netdev_mtu > 65536)
		fail(c, "netdev_mtu out of range");
}

int proto_check_params(const struct proto_params *p, char *why, size_t whylen)
{
	return eng_check_params(p, why, whylen);
}

static void params_io(struct cur *c, struct proto_params *p, bool enc)
{
	if (enc) {
		put_u(c, p->kind, 1);
		put_u(c, p->op, 1);
		put_u(c, p->conn, 1);
		put_u(c, p->flags, 1);
		put_u(c, p->qps, 4);
		put_u(c, p->tx_depth, 4);
		put_u(c, p->inline_size, 4);
		put_u(c, p->cq_mod, 4);
		put_u(c, p->duration_ms, 4);
		put_u(c, p->counter_ms, 4);
		put_u(c, p->size, 8);
		put_u(c, p->iters, 8);
		return;
	}
	p->kind = (uint8_t)get_u(c, 1);
	p->op = (uint8_t)get_u(c, 1);
	p->conn = (uint8_t)get_u(c, 1);
	p->flags = (uint8_t)get_u(c, 1);
	p->qps = (uint32_t)get_u(c, 4);
	p->tx_depth = (uint32_t)get_u(c, 4);
	p->inline_size = (uint32_t)get_u(c, 4);
	p->cq_mod = (uint32_t)get_u(c, 4);
	p->duration_ms = (uint32_t)get_u(c, 4);
	p->counter_ms = (uint32_t)get_u(c, 4);
	p->size = get_u(c, 8);
	p->iters = get_u(c, 8);
	if (!c->bad && proto_check_params(p, c->why, sizeof(c->why)))
		c->bad = true;
}

static void qps_io(struct cur *c, struct proto_msg *m, bool enc)
{
	if (enc) {
		if (m->u.qps.nqps < 1 || m->u.qps.nqps > PROTO_MAX_QPS) {
			c->bad = true;
			return;
		}
		put_u(c, m->u.qps.nqps, 4);
		put_u(c, m->u.qps.mtu, 4);
	} else {
		m->u.qps.nqps = (uint32_t)get_u(c, 4);
		m->u.qps.mtu = (uint32_t)get_u(c, 4);
		if (!c->bad && (m->u.qps.nqps < 1 || m->u.qps.nqps > PROTO_MAX_QPS))
			fail(c, "QP count out of range");
		if (!c->bad && m->u.qps.mtu != 256 && m->u.qps.mtu != 512 &&
		    m->u.qps.mtu != 1024 && m->u.qps.mtu != 2048 && m->u.qps.mtu != 4096)
			fail(c, "MTU is not one of 256..4096");
		if (c->bad)
			return;
	}
	for (uint32_t i = 0; i < m->u.qps.nqps; i++) {
		struct proto_qp *q = &m->u.qps.qp[i];

		if (enc) {
			put_u(c, q->qpn, 4);
			put_u(c, q->psn, 4);
			put_u(c, q->rkey, 4);
			put_u(c, q->qkey, 4);
			put_u(c, q->vaddr, 8);
			put_u(c, q->lid, 2);
			put(c, q->gid, 16);
		} else {
			q->qpn = (uint32_t)get_u(c, 4);
			q->psn = (uint32_t)get_u(c, 4);
			q->rkey = (uint32_t)get_u(c, 4);
			q->qkey = (uint32_t)get_u(c, 4);
			q->vaddr = get_u(c, 8);
			q->lid = (uint16_t)get_u(c, 2);
			get(c, q->gid, 16);
			if (!c->bad && (q->qpn > 0xffffff || q->psn > 0xffffff))
				fail(c, "QP number or PSN wider than 24 bits");
		}
	}
}

/* A double as its IEEE-754 bits; decoded, it must be a plausible figure
 * (finite, 0 .. 1e6: Gb/s, Mpps and µs all fit). */
static void num_io(struct cur *c, double *v, bool enc, const char *field)
{
	uint64_t bits;
	char t[64];

	if (enc) {
		memcpy(&bits, v, 8);
		put_u(c, bits, 8);
		return;
	}
	bits = get_u(c, 8);
	memcpy(v, &bits, 8);
	if (!c->bad && !(*v >= 0 && *v < 1e6)) {
		snprintf(t, sizeof(t), "%s not a plausible number", field);
		fail(c, t);
	}
}

static void order_io(struct cur *c, struct proto_msg *m, bool enc)
{
	if (enc)
		put(c, m->u.order.mac, 32);
	else
		get(c, m->u.order.mac, 32);
	params_io(c, &m->u.order.p, enc);
	if (enc) {
		put_u(c, m->u.order.port, 2);
		put_str(c, m->u.order.target, sizeof(m->u.order.target));
	} else {
		m->u.order.port = (uint16_t)get_u(c, 2);
		get_str(c, m->u.order.target, sizeof(m->u.order.target), "order target");
	}
	if (!c->bad && proto_check_order(m, c->why, sizeof(c->why)))
		c->bad = true;
}

static void oresult_io(struct cur *c, struct proto_order_result *r, bool enc)
{
	if (enc) {
		if (r->status > 5) {
			c->bad = true;
			return;
		}
		put_u(c, r->status, 2);
		put_str(c, r->text, sizeof(r->text));
	} else {
		r->status = (uint16_t)get_u(c, 2);
		get_str(c, r->text, sizeof(r->text), "result text");
		if (!c->bad && r->status > 5)
			fail(c, "result status out of range");
	}
	num_io(c, &r->gbps, enc, "bandwidth");
	num_io(c, &r->mpps, enc, "message rate");
	num_io(c, &r->lat_median_us, enc, "median latency");
	num_io(c, &r->lat_p99_us, enc, "p99 latency");
	facts_io(c, &r->local, enc);
	facts_io(c, &r->peer, enc);
}

static void hello_io(struct cur *c, struct proto_msg *m, bool enc)
{
	if (enc) {
		put_u(c, m->u.hello.ver_min, 2);
		put_u(c, m->u.hello.ver_max, 2);
		put_u(c, m->u.hello.auth_required, 1);
		put(c, m->u.hello.nonce, PROTO_NONCE);
	} else {
		m->u.hello.ver_min = (uint16_t)get_u(c, 2);
		m->u.hello.ver_max = (uint16_t)get_u(c, 2);
		m->u.hello.auth_required = (uint8_t)get_u(c, 1);
		get(c, m->u.hello.nonce, PROTO_NONCE);
		if (!c->bad && (m->u.hello.ver_min > m->u.hello.ver_max ||
				m->u.hello.auth_required > 1))
			fail(c, "bad version range or auth flag");
	}
	facts_io(c, &m->u.hello.facts, enc);
}

static void run_io(struct cur *c, struct proto_msg *m, bool enc)
{
	if (enc) {
		put_u(c, m->u.run.size, 8);
		put_u(c, m->u.run.iters, 8);
		put_u(c, m->u.run.duration_ms, 4);
	} else {
		m->u.run.size = get_u(c, 8);
		m->u.run.iters = get_u(c, 8);
		m->u.run.duration_ms = (uint32_t)get_u(c, 4);
		if (!c->bad && (m->u.run.size < PROTO_MIN_SIZE || m->u.run.size > PROTO_MAX_SIZE ||
				m->u.run.iters < 1 || m->u.run.iters > PROTO_MAX_ITERS ||
				m->u.run.duration_ms > PROTO_MAX_DURATION_MS))
			fail(c, "phase size, iterations or duration out of range");
	}
}

static void counters_io(struct cur *c, struct proto_msg *m, bool enc)
{
	if (enc) {
		if (m->u.counters.n > PROTO_MAX_COUNTERS) {
			c->bad = true;
			return;
		}
		put_u(c, m->u.counters.t_ms, 4);
		put_u(c, m->u.counters.n, 4);
	} else {
		m->u.counters.t_ms = (uint32_t)get_u(c, 4);
		m->u.counters.n = (uint32_t)get_u(c, 4);
		if (!c->bad && m->u.counters.n > PROTO_MAX_COUNTERS)
			fail(c, "too many counters");
	}
	for (uint32_t i = 0; !c->bad && i < m->u.counters.n; i++) {
		struct testctr_value *k = &m->u.counters.c[i];

		if (enc) {
			put_str(c, k->name, sizeof(k->name));
			put_u(c, k->delta, 8);
		} else {
			get_str(c, k->name, sizeof(k->name), "counter name");
			k->delta = get_u(c, 8);
			if (!c->bad && !k->name[0])
				fail(c, "empty counter name");
		}
	}
}

static void result_io(struct cur *c, struct proto_msg *m, bool enc)
{
	uint64_t bits;

	if (enc) {
		memcpy(&bits, &m->u.result.peak_gbps, 8);
		put_u(c, m->u.result.bytes, 8);
		put_u(c, m->u.result.msgs, 8);
		put_u(c, m->u.result.ns, 8);
		put_u(c, bits, 8);
	} else {
		m->u.result.bytes = get_u(c, 8);
		m->u.result.msgs = get_u(c, 8);
		m->u.result.ns = get_u(c, 8);
		bits = get_u(c, 8);
		memcpy(&m->u.result.peak_gbps, &bits, 8);
		if (!c->bad && !(m->u.result.peak_gbps >= 0 && m->u.result.peak_gbps < 1e6))
			fail(c, "peak bandwidth not a plausible number");
	}
}

static void error_io(struct cur *c, struct proto_msg *m, bool enc)
{
	if (enc) {
		put_u(c, m->u.error.code, 2);
		put_str(c, m->u.error.text, sizeof(m->u.error.text));
	} else {
		m->u.error.code = (uint16_t)get_u(c, 2);
		get_str(c, m->u.error.text, sizeof(m->u.error.text), "error text");
		if (!c->bad && (m->u.error.code < 1 || m->u.error.code > 5))
			fail(c, "error code out of range");
	}
}

static void busy_io(struct cur *c, struct proto_msg *m, bool enc)
{
	if (enc) {
		if (m->u.busy.ver_min < 1 || m->u.busy.ver_min > m->u.busy.ver_max) {
			c->bad = true;
			return;
		}
		put_u(c, m->u.busy.ver_min, 2);
		put_u(c, m->u.busy.ver_max, 2);
		put_u(c, m->u.busy.running_ms, 4);
		put_u(c, m->u.busy.planned_ms, 4);
		put_str(c, m->u.busy.peer, sizeof(m->u.busy.peer));
	} else {
		m->u.busy.ver_min = (uint16_t)get_u(c, 2);
		m->u.busy.ver_max = (uint16_t)get_u(c, 2);
		m->u.busy.running_ms = (uint32_t)get_u(c, 4);
		m->u.busy.planned_ms = (uint32_t)get_u(c, 4);
		get_str(c, m->u.busy.peer, sizeof(m->u.busy.peer), "peer address");
		if (!c->bad && (m->u.busy.ver_min < 1 || m->u.busy.ver_min > m->u.busy.ver_max))
			fail(c, "bad version range");
		if (!c->bad && m->u.busy.planned_ms > PROTO_MAX_DURATION_MS)
			fail(c, "planned duration out of range");
	}
}

/* One message body, either way; c->bad on any rule broken. */
static void body_io(struct cur *c, struct proto_msg *m, bool enc)
{
	switch (m->type) {
	case MSG_HELLO:
		hello_io(c, m, enc);
		break;
	case MSG_SETUP:
		if (enc)
			put(c, m->u.setup.mac, 32);
		else
			get(c, m->u.setup.mac, 32);
		params_io(c, &m->u.setup.p, enc);
		facts_io(c, &m->u.setup.facts, enc);
		break;
	case MSG_ACCEPT:
		qps_io(c, m, enc);
		facts_io(c, &m->u.qps.facts, enc);
		break;
	case MSG_QPS:
		qps_io(c, m, enc);
		break;
	case MSG_READY:
	case MSG_RUN_OK:
	case MSG_PHASE_END:
	case MSG_BYE:
		break;
	case MSG_RUN:
		run_io(c, m, enc);
		break;
	case MSG_COUNTERS:
		counters_io(c, m, enc);
		break;
	case MSG_PHASE_RESULT:
		result_io(c, m, enc);
		break;
	case MSG_ERROR:
		error_io(c, m, enc);
		break;
	case MSG_BUSY:
		busy_io(c, m, enc);
		break;
	case MSG_ORDER:
		order_io(c, m, enc);
		break;
	case MSG_ORDER_RESULT:
		oresult_io(c, &m->u.oresult, enc);
		break;
	default:
		fail(c, "unknown message type");
	}
}

int proto_encode(const struct proto_msg *m, uint8_t *out, size_t outlen)
{
	struct cur c = { .w = out, .len = outlen < PROTO_HDR + PROTO_MAX_PAYLOAD ?
					   outlen : PROTO_HDR + PROTO_MAX_PAYLOAD };
	struct proto_msg tmp = *m;	/* the codec takes a non-const view */

	if (m->type < 1 || m->type > MSG_TYPE_MAX)
		return -1;
	put(&c, PROTO_MAGIC, 4);
	put_u(&c, PROTO_VERSION, 1);
	put_u(&c, m->type, 1);
	put_u(&c, 0, 2);
	put_u(&c, 0, 4);	/* length, patched below */
	body_io(&c, &tmp, true);
	if (c.bad)
		return -1;
	if (m->type == MSG_SETUP && proto_check_params(&m->u.setup.p, c.why, sizeof(c.why)))
		return -1;
	uint32_t n = (uint32_t)(c.off - PROTO_HDR);

	for (int i = 0; i < 4; i++)
		out[8 + i] = (uint8_t)(n >> (24 - 8 * i));
	return (int)c.off;
}

int proto_header(const uint8_t *h, uint8_t *type, char *why, size_t whylen)
{
	uint32_t n = (uint32_t)h[8] << 24 | (uint32_t)h[9] << 16 | (uint32_t)h[10] << 8 | h[11];

	if (memcmp(h, PROTO_MAGIC, 4)) {
		snprintf(why, whylen, "not an ibconsole agent message (bad magic)");
		return -1;
	}
	if (h[4] != PROTO_VERSION) {
		snprintf(why, whylen, "protocol version %u, this ibconsole speaks %u", h[4], PROTO_VERSION);
		return -1;
	}
	if (h[5] < 1 || h[5] > MSG_TYPE_MAX) {
		snprintf(why, whylen, "unknown message type %u", h[5]);
		return -1;
	}
	if (h[6] || h[7]) {
		snprintf(why, whylen, "reserved header bytes set");
		return -1;
	}
	if (n > PROTO_MAX_PAYLOAD) {
		snprintf(why, whylen, "message of %u bytes exceeds the %d-byte limit", n, PROTO_MAX_PAYLOAD);
		return -1;
	}
	*type = h[5];
	return (int)n;
}

int proto_decode(uint8_t type, const uint8_t *p, size_t len,
		 struct proto_msg *m, char *why, size_t whylen)
{
	struct cur c = { .r = p, .len = len };

	memset(m, 0, sizeof(*m));
	m->type = type;
	if (len > PROTO_MAX_PAYLOAD) {
		snprintf(why, whylen, "message too long");
		return -1;
	}
	body_io(&c, m, false);
	if (!c.bad && c.off != len)
		fail(&c, "trailing bytes after the message");
	if (c.bad) {
		snprintf(why, whylen, "bad %s message: %s", proto_type_name(type),
			 c.why[0] ? c.why : "malformed");
		return -1;
	}
	return 0;
}

const char *proto_type_name(uint8_t type)
{
	static const char *const names[] = {
		"?", "HELLO", "SETUP", "ACCEPT", "QPS", "READY", "RUN", "RUN_OK",
		"COUNTERS", "PHASE_END", "PHASE_RESULT", "BYE", "ERROR", "BUSY",
		"ORDER", "ORDER_RESULT",
	};

	return type <= MSG_TYPE_MAX ? names[type] : "?";
}

int proto_check_order(const struct proto_msg *m, char *why, size_t whylen)
{
	const struct proto_params *p = &m->u.order.p;
	const char *bad = NULL;

	if (proto_check_params(p, why, whylen))
		return -1;
	if (p->flags & PARAM_SWEEP)
		bad = "an order runs one size, not a sweep";
	else if (p->qps > PROTO_ORDER_MAX_QPS)
		bad = "an order may ask for at most 16 QPs";
	else if (p->iters > PROTO_ORDER_MAX_ITERS)
		bad = "an order may ask for at most 1000000 iterations";
	else if (p->duration_ms > PROTO_ORDER_MAX_DURATION_MS)
		bad = "an order may run at most 60 s";
	else if (!m->u.order.port)
		bad = "the order names no target port";
	else if (!m->u.order.target[0])
		bad = "the order names no target host";
	if (bad) {
		snprintf(why, whylen, "%s", bad);
		return -1;
	}
	return 0;
}


int proto_order_mac(const char *secret, const uint8_t nonce[PROTO_NONCE],
		    const struct proto_msg *m, uint8_t mac[32])
{
	uint8_t buf[PROTO_HDR + PROTO_MAX_PAYLOAD];
	struct proto_msg t = *m;
	int n;

	if (m->type != MSG_ORDER)
		return -1;
	memset(t.u.order.mac, 0, sizeof(t.u.order.mac));
	n = proto_encode(&t, buf, sizeof(buf));
	if (n < PROTO_HDR + 32)
		return -1;
	/* the nonce goes where the mac sits: HMAC(nonce | payload after mac) */
	memcpy(buf + PROTO_HDR + 32 - PROTO_NONCE, nonce, PROTO_NONCE);
	return hmacdl_sha256(secret, buf + PROTO_HDR + 32 - PROTO_NONCE,
			     (size_t)n - PROTO_HDR - 32 + PROTO_NONCE, mac);
}

int proto_auth_mac(const char *secret, const uint8_t nonce[PROTO_NONCE], uint8_t mac[32])
{
	return hmacdl_sha256(secret, nonce, PROTO_NONCE, mac);
}

/* ---- I/O ---- */

static int wait_fd(int fd, short ev, long long deadline)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = ev };
		long long left = deadline - mono_ms();
		int rc;

		if (left <= 0)
			return 0;
		rc = poll(&p, 1, (int)(left > 1000 ? 1000 : left));
		if (rc > 0)
			return 1;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

int proto_send(int fd, const struct proto_msg *m, int timeout_ms, char *why, size_t whylen)
{
	uint8_t buf[PROTO_HDR + PROTO_MAX_PAYLOAD];
	long long deadline = mono_ms() + timeout_ms;
	int n = proto_encode(m, buf, sizeof(buf));
	size_t off = 0;

	if (n < 0) {
		snprintf(why, whylen, "cannot encode a %s message (invalid fields)", proto_type_name(m->type));
		return -1;
	}
	while (off < (size_t)n) {
		int w = wait_fd(fd, POLLOUT, deadline);
		ssize_t k;

		if (w == 0) {
			snprintf(why, whylen, "timed out after %d ms sending %s", timeout_ms, proto_type_name(m->type));
			return -1;
		}
		k = w > 0 ? send(fd, buf + off, (size_t)n - off, MSG_NOSIGNAL | MSG_DONTWAIT) : -1;
		if (k < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (k <= 0) {
			snprintf(why, whylen, "connection lost while sending %s (%s)",
				 proto_type_name(m->type), strerror(errno));
			return -1;
		}
		off += (size_t)k;
	}
	return 0;
}

static int read_full(int fd, uint8_t *buf, size_t n, long long deadline, int timeout_ms,
		     char *why, size_t whylen)
{
	size_t off = 0;

	while (off < n) {
		int w = wait_fd(fd, POLLIN, deadline);
		ssize_t k;

		if (w == 0) {
			snprintf(why, whylen, "no message from the peer for %d ms (time-out)", timeout_ms);
			return -1;
		}
		k = w > 0 ? recv(fd, buf + off, n - off, MSG_DONTWAIT) : -1;
		if (k < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (k == 0) {
			snprintf(why, whylen, "the peer closed the connection");
			return -1;
		}
		if (k < 0) {
			snprintf(why, whylen, "connection lost (%s)", strerror(errno));
			return -1;
		}
		off += (size_t)k;
	}
	return 0;
}

int proto_recv(int fd, struct proto_msg *m, int timeout_ms, char *why, size_t whylen)
{
	uint8_t hdr[PROTO_HDR], body[PROTO_MAX_PAYLOAD];
	long long deadline = mono_ms() + timeout_ms;
	uint8_t type;
	int n;

	if (read_full(fd, hdr, sizeof(hdr), deadline, timeout_ms, why, whylen))
		return -1;
	n = proto_header(hdr, &type, why, whylen);
	if (n < 0)
		return -1;
	if (read_full(fd, body, (size_t)n, deadline, timeout_ms, why, whylen))
		return -1;
	return proto_decode(type, body, (size_t)n, m, why, whylen);
}

void proto_error_msg(struct proto_msg *m, int code, const char *text)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->type = MSG_ERROR;
	m->u.error.code = (uint16_t)(code >= 1 && code <= 5 ? code : 5);
	/* the wire is printable ASCII: our messages' em dash travels as "--"
	 * (proto_error_text turns it back), anything else non-ASCII as '?' */
	for (i = 0; *text && i + 3 < sizeof(m->u.error.text); text++) {
		unsigned char c = (unsigned char)*text;

		if (!strncmp(text, "\u2014", 3)) {
			m->u.error.text[i++] = '-';
			m->u.error.text[i++] = '-';
			text += 2;
		} else if (c < 0x20 || c > 0x7e) {
			if (c < 0x80 || c >= 0xc0)	/* one '?' per character */
				m->u.error.text[i++] = '?';
		} else {
			m->u.error.text[i++] = (char)c;
		}
	}
	m->u.error.text[i] = '\0';
}

void proto_send_error(int fd, int code, const char *text)
{
	struct proto_msg m;
	char why[128];

	proto_error_msg(&m, code, text);
	(void)proto_send(fd, &m, 1000, why, sizeof(why));
}

void proto_error_text(const char *wire, char *out, size_t outlen)
{
	size_t o = 0;

	for (; *wire && o + 4 < outlen; wire++) {
		if (!strncmp(wire, " -- ", 4)) {
			memcpy(out + o, " \u2014 ", 5);
			o += 5;
			wire += 3;
		} else {
			out[o++] = *wire;
		}
	}
	out[o] = '\0';
}
