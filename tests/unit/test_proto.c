// SPDX-License-Identifier: MIT
/* Unit tests for the agent protocol: round trips of every message type,
 * strict rejection of malformed frames and fields, SHA-256 / HMAC vectors,
 * and the record scanner used by --compare. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <nettle/hmac.h>

#include "core/agent/proto.h"
#include "core/testrun/record.h"
#include "core/base/jsonscan.h"

static struct proto_params good_params(void)
{
	return (struct proto_params){ .kind = KIND_BW, .op = OP_WRITE, .conn = CONN_RC, .flags = 0,
				      .qps = 2, .tx_depth = 128, .inline_size = 220, .cq_mod = 100,
				      .duration_ms = 0, .counter_ms = 1000, .size = 65536, .iters = 5000 };
}

static int roundtrip(const struct proto_msg *in, struct proto_msg *out)
{
	uint8_t buf[PROTO_HDR + PROTO_MAX_PAYLOAD];
	char why[128];
	uint8_t type;
	int n = proto_encode(in, buf, sizeof(buf)), len;

	if (n < 0)
		return -1;
	len = proto_header(buf, &type, why, sizeof(why));
	assert_int_equal(len, n - PROTO_HDR);
	return proto_decode(type, buf + PROTO_HDR, (size_t)len, out, why, sizeof(why));
}

static void test_roundtrip_all(void **state)
{
	struct proto_msg m, o;

	memset(&m, 0, sizeof(m));
	m.type = MSG_HELLO;
	m.u.hello.ver_min = m.u.hello.ver_max = 1;
	m.u.hello.auth_required = 1;
	memset(m.u.hello.nonce, 7, PROTO_NONCE);
	snprintf(m.u.hello.facts.host, PROTO_STR, "node-a");
	m.u.hello.facts.numa_node = -1;
	m.u.hello.facts.gid_index = 3;
	snprintf(m.u.hello.facts.gid_type, PROTO_NAME, "RoCE v2");
	snprintf(m.u.hello.facts.gid, PROTO_GID, "0000:0000:0000:0000:0000:ffff:c0a8:4d01");
	m.u.hello.facts.netdev_mtu = 9000;
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_string_equal(o.u.hello.facts.host, "node-a");
	assert_int_equal(o.u.hello.facts.numa_node, -1);
	assert_int_equal(o.u.hello.facts.gid_index, 3);
	assert_string_equal(o.u.hello.facts.gid_type, "RoCE v2");
	assert_string_equal(o.u.hello.facts.gid, "0000:0000:0000:0000:0000:ffff:c0a8:4d01");
	assert_int_equal(o.u.hello.facts.netdev_mtu, 9000);
	/* a netdev MTU no link has is refused */
	m.u.hello.facts.netdev_mtu = 70000;
	assert_int_equal(roundtrip(&m, &o), -1);
	assert_memory_equal(o.u.hello.nonce, m.u.hello.nonce, PROTO_NONCE);

	memset(&m, 0, sizeof(m));
	m.type = MSG_SETUP;
	m.u.setup.p = good_params();
	m.u.setup.facts.numa_node = 1;
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_int_equal(o.u.setup.p.size, 65536);
	assert_int_equal(o.u.setup.p.qps, 2);

	memset(&m, 0, sizeof(m));
	m.type = MSG_ACCEPT;
	m.u.qps.nqps = 2;
	m.u.qps.mtu = 1024;
	m.u.qps.qp[1].qpn = 0x123456;
	m.u.qps.qp[1].vaddr = 0xdeadbeef0000ull;
	m.u.qps.qp[1].gid[15] = 9;
	snprintf(m.u.qps.facts.device, PROTO_NAME, "rxe0");
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_int_equal(o.u.qps.qp[1].qpn, 0x123456);
	assert_true(o.u.qps.qp[1].vaddr == 0xdeadbeef0000ull);
	assert_int_equal(o.u.qps.qp[1].gid[15], 9);
	assert_string_equal(o.u.qps.facts.device, "rxe0");

	memset(&m, 0, sizeof(m));
	m.type = MSG_COUNTERS;
	m.u.counters.n = 2;
	snprintf(m.u.counters.c[0].name, PROTO_NAME, "sent_pkts");
	m.u.counters.c[0].delta = 1ull << 40;
	snprintf(m.u.counters.c[1].name, PROTO_NAME, "rcvd_pkts");
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_true(o.u.counters.c[0].delta == 1ull << 40);

	memset(&m, 0, sizeof(m));
	m.type = MSG_PHASE_RESULT;
	m.u.result.bytes = 10;
	m.u.result.peak_gbps = 12.5;
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_float_equal(o.u.result.peak_gbps, 12.5, 1e-12);

	memset(&m, 0, sizeof(m));
	m.type = MSG_ERROR;
	m.u.error.code = 4;
	snprintf(m.u.error.text, sizeof(m.u.error.text), "gone");
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_string_equal(o.u.error.text, "gone");

	for (uint8_t t = MSG_READY; t <= MSG_BYE; t++) {
		if (t == MSG_RUN || t == MSG_COUNTERS || t == MSG_PHASE_RESULT)
			continue;
		memset(&m, 0, sizeof(m));
		m.type = t;
		assert_int_equal(roundtrip(&m, &o), 0);
		assert_int_equal(o.type, t);
	}
}

/* The driver's version rides in the driver string, "name (version)": a
 * new peer reads both back; an old peer's bare name leaves the version ""
 * (the peer did not say); an old peer reading the new form sees one
 * printable name within its 31-character field. */
static void test_driver_version(void **state)
{
	struct proto_msg m, o;
	uint8_t buf[PROTO_HDR + PROTO_MAX_PAYLOAD];
	int n;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = MSG_HELLO;
	m.u.hello.ver_min = m.u.hello.ver_max = 1;
	m.u.hello.facts.numa_node = -1;
	snprintf(m.u.hello.facts.driver, PROTO_NAME, "mlx5_core");
	snprintf(m.u.hello.facts.driver_version, PROTO_NAME, "24.10-1.1.4");
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_string_equal(o.u.hello.facts.driver, "mlx5_core");
	assert_string_equal(o.u.hello.facts.driver_version, "24.10-1.1.4");
	/* on the wire: one string, as an older peer reads it */
	n = proto_encode(&m, buf, sizeof(buf));
	assert_true(n > 0);
	assert_non_null(memmem(buf, (size_t)n, "mlx5_core (24.10-1.1.4)", 23));
	/* an older peer's bare name */
	m.u.hello.facts.driver_version[0] = '\0';
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_string_equal(o.u.hello.facts.driver, "mlx5_core");
	assert_string_equal(o.u.hello.facts.driver_version, "");
	/* too long for the field together: the version is left off */
	snprintf(m.u.hello.facts.driver, PROTO_NAME, "soft RDMA on enp0s31f6xyzab");
	snprintf(m.u.hello.facts.driver_version, PROTO_NAME, "in-tree");
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_string_equal(o.u.hello.facts.driver, "soft RDMA on enp0s31f6xyzab");
	assert_string_equal(o.u.hello.facts.driver_version, "");
}

static void test_header_rejects(void **state)
{
	uint8_t h[PROTO_HDR] = { 'I', 'B', 'C', 'T', PROTO_VERSION, MSG_BYE, 0, 0, 0, 0, 0, 0 };
	char why[128];
	uint8_t type;

	assert_int_equal(proto_header(h, &type, why, sizeof(why)), 0);
	h[0] = 'X';
	assert_int_equal(proto_header(h, &type, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "magic"));
	h[0] = 'I';
	h[4] = PROTO_VERSION + 1;
	assert_int_equal(proto_header(h, &type, why, sizeof(why)), -1);
	h[4] = PROTO_VERSION - 1;	/* an older agent: its facts have another layout */
	assert_int_equal(proto_header(h, &type, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "protocol version"));
	h[4] = PROTO_VERSION;
	h[5] = 0;
	assert_int_equal(proto_header(h, &type, why, sizeof(why)), -1);
	h[5] = MSG_TYPE_MAX + 1;
	assert_int_equal(proto_header(h, &type, why, sizeof(why)), -1);
	h[5] = MSG_BYE;
	h[7] = 1;
	assert_int_equal(proto_header(h, &type, why, sizeof(why)), -1);
	h[7] = 0;
	h[9] = 0x01;	/* 64 KiB: over the limit */
	assert_int_equal(proto_header(h, &type, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "limit"));
}

static void test_params_limits(void **state)
{
	struct proto_params p;
	char why[128];

	p = good_params();
	assert_int_equal(proto_check_params(&p, why, sizeof(why)), 0);
	p = good_params(); p.qps = 0;
	assert_int_equal(proto_check_params(&p, why, sizeof(why)), -1);
	p = good_params(); p.qps = 65;
	assert_int_equal(proto_check_params(&p, why, sizeof(why)), -1);
	p = good_params(); p.size = (8u << 20) + 1;
	assert_int_equal(proto_check_params(&p, why, sizeof(why)), -1);
	p = good_params(); p.size = 1;
	assert_int_equal(proto_check_params(&p, why, sizeof(why)), -1);
	p = good_params(); p.duration_ms = 3600001;
	assert_int_equal(proto_check_params(&p, why, sizeof(why)), -1);
	p = good_params(); p.cq_mod = 129;
	assert_int_equal(proto_check_params(&p, why, sizeof(why)), -1);
	p = good_params(); p.conn = CONN_UD;
	assert_int_equal(proto_check_params(&p, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "UD"));
	p = good_params(); p.flags = 0x80;
	assert_int_equal(proto_check_params(&p, why, sizeof(why)), -1);
	p = good_params(); p.iters = PROTO_MAX_ITERS + 1;
	assert_int_equal(proto_check_params(&p, why, sizeof(why)), -1);
}

static void test_decode_rejects(void **state)
{
	uint8_t buf[PROTO_HDR + PROTO_MAX_PAYLOAD];
	struct proto_msg m = { .type = MSG_SETUP }, o;
	char why[128];
	int n;

	m.u.setup.p = good_params();
	n = proto_encode(&m, buf, sizeof(buf));
	assert_true(n > 0);
	/* every truncation fails, one trailing byte fails */
	for (int k = 0; k < n - PROTO_HDR; k++)
		assert_int_equal(proto_decode(MSG_SETUP, buf + PROTO_HDR, (size_t)k, &o, why, sizeof(why)), -1);
	buf[n] = 0;
	assert_int_equal(proto_decode(MSG_SETUP, buf + PROTO_HDR, (size_t)(n - PROTO_HDR + 1), &o, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "trailing"));
	/* qps = 0 on the wire: byte 32 (mac) + 4 (kind..flags) */
	buf[PROTO_HDR + 32 + 4 + 3] = 0;
	assert_int_equal(proto_decode(MSG_SETUP, buf + PROTO_HDR, (size_t)(n - PROTO_HDR), &o, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "qps"));

	/* a string longer than its field, and a control character */
	memset(&m, 0, sizeof(m));
	m.type = MSG_ERROR;
	m.u.error.code = 1;
	snprintf(m.u.error.text, sizeof(m.u.error.text), "abc");
	n = proto_encode(&m, buf, sizeof(buf));
	buf[PROTO_HDR + 4] = '\n';
	assert_int_equal(proto_decode(MSG_ERROR, buf + PROTO_HDR, (size_t)(n - PROTO_HDR), &o, why, sizeof(why)), -1);
	buf[PROTO_HDR + 2] = 0xff;	/* length high byte */
	assert_int_equal(proto_decode(MSG_ERROR, buf + PROTO_HDR, (size_t)(n - PROTO_HDR), &o, why, sizeof(why)), -1);
	/* error code out of range */
	m.u.error.code = 9;
	assert_int_equal(proto_encode(&m, buf, sizeof(buf)) > 0, 1);
	assert_int_equal(proto_decode(MSG_ERROR, buf + PROTO_HDR, (size_t)(proto_encode(&m, buf, sizeof(buf)) - PROTO_HDR), &o, why, sizeof(why)), -1);
	/* QP count out of range */
	memset(&m, 0, sizeof(m));
	m.type = MSG_QPS;
	m.u.qps.nqps = 65;
	assert_int_equal(proto_encode(&m, buf, sizeof(buf)), -1);
}

/* BUSY: the agent's answer while another test holds the RDMA side */
static void test_busy(void **state)
{
	uint8_t buf[PROTO_HDR + PROTO_MAX_PAYLOAD];
	struct proto_msg m = { .type = MSG_BUSY }, o;
	char why[128];
	uint8_t type;
	int n;

	m.u.busy.ver_min = m.u.busy.ver_max = PROTO_VERSION;
	m.u.busy.running_ms = 12345;
	m.u.busy.planned_ms = 60000;
	snprintf(m.u.busy.peer, sizeof(m.u.busy.peer), "fe80::1%%eth0");
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_int_equal(o.type, MSG_BUSY);
	assert_int_equal(o.u.busy.ver_min, PROTO_VERSION);
	assert_int_equal(o.u.busy.running_ms, 12345);
	assert_int_equal(o.u.busy.planned_ms, 60000);
	assert_string_equal(o.u.busy.peer, "fe80::1%eth0");
	assert_string_equal(proto_type_name(MSG_BUSY), "BUSY");

	n = proto_encode(&m, buf, sizeof(buf));
	assert_true(n > PROTO_HDR);
	assert_int_equal(proto_header(buf, &type, why, sizeof(why)), n - PROTO_HDR);
	assert_int_equal(type, MSG_BUSY);
	/* every truncation fails, a trailing byte fails */
	for (int k = 0; k < n - PROTO_HDR; k++)
		assert_int_equal(proto_decode(MSG_BUSY, buf + PROTO_HDR, (size_t)k, &o, why, sizeof(why)), -1);
	buf[n] = 0;
	assert_int_equal(proto_decode(MSG_BUSY, buf + PROTO_HDR, (size_t)(n - PROTO_HDR + 1), &o, why, sizeof(why)), -1);
	/* version range: 0 and reversed are refused both ways */
	buf[PROTO_HDR + 1] = 0;
	assert_int_equal(proto_decode(MSG_BUSY, buf + PROTO_HDR, (size_t)(n - PROTO_HDR), &o, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "version"));
	m.u.busy.ver_min = PROTO_VERSION + 1;
	assert_int_equal(proto_encode(&m, buf, sizeof(buf)), -1);
	m.u.busy.ver_min = PROTO_VERSION;
	/* a planned duration past the agent's own limit */
	m.u.busy.planned_ms = PROTO_MAX_DURATION_MS + 1;
	n = proto_encode(&m, buf, sizeof(buf));
	assert_int_equal(proto_decode(MSG_BUSY, buf + PROTO_HDR, (size_t)(n - PROTO_HDR), &o, why, sizeof(why)), -1);
	m.u.busy.planned_ms = 0;
	/* the peer string: control characters and over-long lengths */
	n = proto_encode(&m, buf, sizeof(buf));
	buf[PROTO_HDR + 14] = '\x1b';
	assert_int_equal(proto_decode(MSG_BUSY, buf + PROTO_HDR, (size_t)(n - PROTO_HDR), &o, why, sizeof(why)), -1);
	n = proto_encode(&m, buf, sizeof(buf));
	buf[PROTO_HDR + 12] = 0;
	buf[PROTO_HDR + 13] = PROTO_PEER;
	assert_int_equal(proto_decode(MSG_BUSY, buf + PROTO_HDR, (size_t)(n - PROTO_HDR), &o, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "too long"));
}

/* An ERROR built for the wire: printable ASCII, the em dash as " -- " and
 * back for display, codes outside 1..5 become 5 (internal). */
static void test_error_msg(void **state)
{
	struct proto_msg m, o;
	char shown[300];

	proto_error_msg(&m, 3, "authentication failed: wrong secret \u2014 give the same file, caf\u00e9");
	assert_int_equal(m.type, MSG_ERROR);
	assert_int_equal(m.u.error.code, 3);
	assert_string_equal(m.u.error.text, "authentication failed: wrong secret -- give the same file, caf?");
	assert_int_equal(roundtrip(&m, &o), 0);
	proto_error_text(o.u.error.text, shown, sizeof(shown));
	assert_string_equal(shown, "authentication failed: wrong secret \u2014 give the same file, caf?");
	proto_error_msg(&m, 42, "x");
	assert_int_equal(m.u.error.code, 5);
}

static struct proto_msg good_order(void)
{
	struct proto_msg m;

	memset(&m, 0, sizeof(m));
	m.type = MSG_ORDER;
	m.u.order.p = good_params();
	m.u.order.p.iters = 1000;
	m.u.order.port = 18702;
	snprintf(m.u.order.target, sizeof(m.u.order.target), "10.0.2.15");
	return m;
}

/* An order travels whole, and is held to tighter limits than a test. */
static void test_order(void **state)
{
	struct proto_msg m = good_order(), o;
	char why[128];

	(void)state;
	memset(m.u.order.mac, 0xa5, 32);
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_int_equal(o.type, MSG_ORDER);
	assert_int_equal(o.u.order.port, 18702);
	assert_string_equal(o.u.order.target, "10.0.2.15");
	assert_memory_equal(o.u.order.mac, m.u.order.mac, 32);
	assert_int_equal(o.u.order.p.iters, 1000);
	assert_int_equal(proto_check_order(&m, why, sizeof(why)), 0);

	m = good_order();
	m.u.order.p.flags = PARAM_SWEEP;
	assert_int_equal(proto_check_order(&m, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "sweep"));
	assert_int_equal(roundtrip(&m, &o), -1);
	m = good_order();
	m.u.order.p.qps = 17;	/* a test may have 64 */
	assert_int_equal(proto_check_order(&m, why, sizeof(why)), -1);
	m.u.order.p.qps = 16;
	assert_int_equal(proto_check_order(&m, why, sizeof(why)), 0);
	m.u.order.p.iters = PROTO_ORDER_MAX_ITERS + 1;
	assert_int_equal(proto_check_order(&m, why, sizeof(why)), -1);
	m = good_order();
	m.u.order.p.duration_ms = 60001;
	assert_int_equal(proto_check_order(&m, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "60 s"));
	m.u.order.p.duration_ms = 60000;
	assert_int_equal(proto_check_order(&m, why, sizeof(why)), 0);
	m = good_order();
	m.u.order.p.size = 16u << 20;	/* the test's own limit still holds */
	assert_int_equal(proto_check_order(&m, why, sizeof(why)), -1);
	m = good_order();
	m.u.order.port = 0;
	assert_int_equal(roundtrip(&m, &o), -1);
	m = good_order();
	m.u.order.target[0] = '\0';
	assert_int_equal(roundtrip(&m, &o), -1);
	m = good_order();
	snprintf(m.u.order.target, sizeof(m.u.order.target), "bad\nhost");
	assert_int_equal(roundtrip(&m, &o), -1);
}

/* The order's MAC covers the nonce and everything the order asks for. */
static void test_order_mac(void **state)
{
	struct proto_msg m = good_order(), t;
	uint8_t nonce[PROTO_NONCE], a[32], b[32];

	(void)state;
	memset(nonce, 3, sizeof(nonce));
	assert_int_equal(proto_order_mac("secret", nonce, &m, a), 0);
	memset(m.u.order.mac, 0x55, 32);	/* the mac field itself is not covered */
	assert_int_equal(proto_order_mac("secret", nonce, &m, b), 0);
	assert_memory_equal(a, b, 32);
	assert_int_equal(proto_order_mac("Secret", nonce, &m, b), 0);
	assert_memory_not_equal(a, b, 32);
	nonce[15] ^= 1;
	assert_int_equal(proto_order_mac("secret", nonce, &m, b), 0);
	assert_memory_not_equal(a, b, 32);
	nonce[15] ^= 1;
	t = m;
	t.u.order.p.size = 1u << 20;
	assert_int_equal(proto_order_mac("secret", nonce, &t, b), 0);
	assert_memory_not_equal(a, b, 32);
	t = m;
	t.u.order.port = 18704;
	assert_int_equal(proto_order_mac("secret", nonce, &t, b), 0);
	assert_memory_not_equal(a, b, 32);
	t = m;
	t.u.order.target[0] = '2';
	assert_int_equal(proto_order_mac("secret", nonce, &t, b), 0);
	assert_memory_not_equal(a, b, 32);
	t = m;
	t.type = MSG_SETUP;
	assert_int_equal(proto_order_mac("secret", nonce, &t, b), -1);
	t = m;
	t.u.order.p.qps = 0;
	assert_int_equal(proto_order_mac("secret", nonce, &t, b), -1);
}

static void test_order_result(void **state)
{
	struct proto_msg m, o;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = MSG_ORDER_RESULT;
	m.u.oresult.gbps = 0.0512;
	m.u.oresult.mpps = 0.1;
	m.u.oresult.lat_median_us = 20.5;
	m.u.oresult.lat_p99_us = 41.25;
	m.u.oresult.local.numa_node = m.u.oresult.peer.numa_node = -1;
	m.u.oresult.local.gid_index = 1;
	m.u.oresult.peer.gid_index = -1;
	snprintf(m.u.oresult.local.device, PROTO_NAME, "rxe0");
	snprintf(m.u.oresult.peer.host, PROTO_STR, "node-b");
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_true(o.u.oresult.gbps == 0.0512 && o.u.oresult.lat_p99_us == 41.25);
	assert_string_equal(o.u.oresult.local.device, "rxe0");
	assert_string_equal(o.u.oresult.peer.host, "node-b");
	assert_int_equal(o.u.oresult.status, 0);

	m.u.oresult.status = 4;
	snprintf(m.u.oresult.text, sizeof(m.u.oresult.text), "cannot reach the agent -- start it");
	assert_int_equal(roundtrip(&m, &o), 0);
	assert_int_equal(o.u.oresult.status, 4);
	assert_string_equal(o.u.oresult.text, m.u.oresult.text);
	m.u.oresult.status = 6;
	assert_int_equal(roundtrip(&m, &o), -1);
	m.u.oresult.status = 0;
	m.u.oresult.gbps = -1;
	assert_int_equal(roundtrip(&m, &o), -1);
	m.u.oresult.gbps = HUGE_VAL;
	assert_int_equal(roundtrip(&m, &o), -1);
	assert_string_equal(proto_type_name(MSG_ORDER), "ORDER");
	assert_string_equal(proto_type_name(MSG_ORDER_RESULT), "ORDER_RESULT");
}

static void hex(const uint8_t *d, char *out)
{
	for (int i = 0; i < 32; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void test_sha256(void **state)
{
	struct sha256_ctx s;
	struct hmac_sha256_ctx hm;
	uint8_t d[32];
	char h[65];

	sha256_init(&s);
	sha256_update(&s, 3, (const uint8_t *)"abc");
	sha256_digest(&s, sizeof(d), d);
	hex(d, h);
	assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha256_init(&s);
	sha256_update(&s, 56, (const uint8_t *)"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq");
	sha256_digest(&s, sizeof(d), d);
	hex(d, h);
	assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* RFC 4231 test case 2 */
	hmac_sha256_set_key(&hm, 4, (const uint8_t *)"Jefe");
	hmac_sha256_update(&hm, 28, (const uint8_t *)"what do ya want for nothing?");
	hmac_sha256_digest(&hm, sizeof(d), d);
	hex(d, h);
	assert_string_equal(h, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	/* the agent's answer to a nonce is HMAC-SHA-256(secret, nonce); the
	 * expected value from Python's hmac module (an independent oracle) */
	proto_auth_mac("Jefe", (const uint8_t *)"what do ya want?", d);
	hex(d, h);
	assert_string_equal(h, "e39c93fb7a7343dd55dfd323f68da24b50807c331a579393743138def9cda6df");
}

static int nscalars;
static void count(void *arg, const char *path, const char *val, bool is_str)
{
	(void)arg; (void)path; (void)val; (void)is_str;
	nscalars++;
}

static char lastval[64];
static void keep(void *arg, const char *path, const char *val, bool is_str)
{
	(void)arg; (void)path; (void)is_str;
	snprintf(lastval, sizeof(lastval), "%s", val);
}

static void test_record_parse(void **state)
{
	const char *rec = "{\"schema\": \"ibconsole/test/1\", \"params\": {\"kind\": \"lat\", \"op\": \"send\","
			  " \"connection\": \"RC\", \"bidirectional\": false, \"sweep\": false, \"size_bytes\": 2,"
			  " \"iters\": 1000, \"duration_s\": 0, \"qps\": 1, \"tx_depth\": 1, \"inline_bytes\": 220,"
			  " \"cq_mod\": 1, \"peer\": \"10.0.2.15\"}, \"phases\": [ {\"size_bytes\": 2,"
			  " \"lat_median_us\": 5.5, \"lat_p99_us\": 9.25, \"lat_histogram\": []} ], \"x\": null}";
	struct record_saved s;
	char why[128];

	assert_int_equal(record_parse(rec, strlen(rec), &s, why, sizeof(why)), 0);
	assert_int_equal(s.p.kind, KIND_LAT);
	assert_int_equal(s.p.op, OP_SEND);
	assert_int_equal(s.p.size, 2);
	assert_string_equal(s.peer, "10.0.2.15");
	assert_int_equal(s.nphases, 1);
	assert_float_equal(s.ph[0].lat_p99_us, 9.25, 1e-9);
	nscalars = 0;
	{
		const char *t = "[1, {\"a\": [true, \"x\\\"y\"]}]";

		assert_int_equal(json_scan(t, strlen(t), count, NULL, why, sizeof(why)), 0);
	}
	assert_int_equal(nscalars, 3);
	assert_int_equal(json_scan("{\"a\": ", 6, count, NULL, why, sizeof(why)), -1);
	assert_int_equal(json_scan("{\"a\": 1} x", 10, count, NULL, why, sizeof(why)), -1);
	assert_string_equal(why, "trailing data at byte 9");
	/* counters are unsigned 64-bit: 2^64-1 reads back exactly */
	assert_int_equal(json_scan("{\"c\": 18446744073709551615}\n", 29, keep, NULL, why, sizeof(why)), 0);
	assert_string_equal(lastval, "18446744073709551615");
	assert_int_equal(record_parse("{}", 2, &s, why, sizeof(why)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_all),
		cmocka_unit_test(test_driver_version),
		cmocka_unit_test(test_header_rejects),
		cmocka_unit_test(test_params_limits),
		cmocka_unit_test(test_decode_rejects),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_error_msg),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_record_parse),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_order_mac),
		cmocka_unit_test(test_order_result),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
