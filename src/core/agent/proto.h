/* SPDX-License-Identifier: MIT */
/* Agent protocol: versioned, length-prefixed binary messages between the
 * test client and `ibconsole serve`; pure encode / decode / validate. */
#ifndef IBC_AGENT_PROTO_H
#define IBC_AGENT_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/counters/testctr.h"
#include "core/engine/params.h"

/*
 * Frame: "IBCT" | version u8 | type u8 | reserved u16 (0) | length u32 BE |
 * payload. Integers are big-endian; strings are u16 length + bytes, printable
 * ASCII only. Every message has one exact layout: a payload longer or shorter
 * than its type's layout, a field out of range, an unknown type or version,
 * or a non-zero reserved field is rejected.
 */
#define PROTO_MAGIC "IBCT"
/* 2: the facts carry the GID's type and address and the netdev MTU, so
 * the triage can compare both ends' GID kind and name both MTUs */
#define PROTO_VERSION 2
#define PROTO_HDR 12
#define PROTO_MAX_PAYLOAD 8192

/* The parameter, QP and facts types and their limits are the engine's
 * (core/engine/params.h); the protocol only encodes them. */
#define PROTO_MAX_COUNTERS TESTCTR_MAX
#define PROTO_NONCE 16
#define PROTO_PEER 64		/* a numeric host address */

enum proto_type {
	MSG_HELLO = 1,		/* agent → client: versions, nonce, facts */
	MSG_SETUP,		/* client → agent: auth + test parameters */
	MSG_ACCEPT,		/* agent → client: its QPs, buffer and facts */
	MSG_QPS,		/* client → agent: the client's QPs */
	MSG_READY,		/* agent → client: QPs connected */
	MSG_RUN,		/* client → agent: start one phase (one size) */
	MSG_RUN_OK,		/* agent → client: receives posted, go */
	MSG_COUNTERS,		/* agent → client: its port's counter deltas */
	MSG_PHASE_END,		/* client → agent: phase over */
	MSG_PHASE_RESULT,	/* agent → client: its side of a bidir phase */
	MSG_BYE,		/* client → agent: done, free everything */
	MSG_ERROR,		/* either way: code + one line */
	MSG_BUSY,		/* agent → client, instead of ACCEPT: another
				 * test holds the RDMA side; try again later */
	MSG_ORDER,		/* coordinator → agent, instead of SETUP: run
				 * this test as a client of that agent */
	MSG_ORDER_RESULT,	/* agent → coordinator: the ordered test's result */
	MSG_TYPE_MAX = MSG_ORDER_RESULT,
};

/* What an ordered test returns to the coordinator. */
struct proto_order_result {
	uint16_t status;		/* 0 ok, else an exit status 1..5 */
	char text[256];			/* why, when status != 0 */
	double gbps, mpps;		/* bw / rate: average */
	double lat_median_us, lat_p99_us;	/* lat: 0 when not measured */
	struct proto_facts local, peer;	/* the ordered agent's, its target's */
};

/* What an order may ask for: an agent ordered by a coordinator runs
 * unattended, so the order is held tighter than an interactive test
 * (one size, a bounded run; memory is the agent's --max-mem). */
#define PROTO_ORDER_MAX_QPS 16
#define PROTO_ORDER_MAX_ITERS 1000000ull
#define PROTO_ORDER_MAX_DURATION_MS 60000u

struct proto_msg {
	uint8_t type;
	union {
		struct {
			uint16_t ver_min, ver_max;
			uint8_t auth_required;
			uint8_t nonce[PROTO_NONCE];
			struct proto_facts facts;
		} hello;
		struct {
			uint8_t mac[32];
			struct proto_params p;
			struct proto_facts facts;
		} setup;
		struct {
			uint32_t nqps;
			uint32_t mtu;		/* agreed path MTU bytes */
			struct proto_qp qp[PROTO_MAX_QPS];
			struct proto_facts facts;	/* MSG_ACCEPT only */
		} qps;			/* MSG_ACCEPT and MSG_QPS */
		struct {
			uint64_t size, iters;
			uint32_t duration_ms;
		} run;
		struct {
			uint32_t t_ms;
			uint32_t n;
			struct testctr_value c[PROTO_MAX_COUNTERS];
		} counters;
		struct {
			uint64_t bytes, msgs, ns;
			double peak_gbps;
		} result;
		struct {
			uint16_t code;		/* an exit code, 1..5 */
			char text[256];
		} error;
		struct {
			uint8_t mac[32];	/* proto_order_mac(): nonce + order */
			struct proto_params p;
			uint16_t port;		/* the target agent's TCP port */
			char target[PROTO_PEER];	/* the target agent's host */
		} order;
		struct proto_order_result oresult;
		struct {
			uint16_t ver_min, ver_max;	/* the agent's, as in HELLO */
			uint32_t running_ms;	/* the current test has run this long */
			uint32_t planned_ms;	/* its --duration, 0 unknown (iterations) */
			char peer[PROTO_PEER];	/* whose test it is (numeric address) */
		} busy;
	} u;
};

/* Encodes m into out (PROTO_HDR + payload); returns the length or -1 when
 * m itself is invalid (the same rules as decoding). */
int proto_encode(const struct proto_msg *m, uint8_t *out, size_t outlen);
/* Checks a 12-byte header; returns the payload length, or -1 with why. */
int proto_header(const uint8_t *hdr, uint8_t *type, char *why, size_t whylen);
/* Decodes and validates one payload of the given type; 0 or -1 with why. */
int proto_decode(uint8_t type, const uint8_t *p, size_t len,
		 struct proto_msg *m, char *why, size_t whylen);
/* Semantic checks on parameters: the engine's (eng_check_params()); 0 or -1 with why. */
int proto_check_params(const struct proto_params *p, char *why, size_t whylen);
const char *proto_type_name(uint8_t type);

/* An order's limits on top of proto_check_params(); 0 or -1 with why. */
int proto_check_order(const struct proto_msg *m, char *why, size_t whylen);
/* An order's authenticator: HMAC-SHA-256(secret, nonce | the order's
 * encoded payload after its mac), so the secret vouches for what is
 * ordered, not only for who connects. -1 when m is not a valid order
 * or nettle cannot be loaded. */
int proto_order_mac(const char *secret, const uint8_t nonce[PROTO_NONCE],
		    const struct proto_msg *m, uint8_t mac[32]);

/* The shared-secret answer to a nonce: HMAC-SHA-256(secret, nonce).
 * 0, or -1 when nettle cannot be loaded: mac is then no answer. */
int proto_auth_mac(const char *secret, const uint8_t nonce[PROTO_NONCE],
		   uint8_t mac[32]);

/* --- blocking I/O with a deadline (ms; every wait is bounded) --- */
/* Returns 0; -1 with why (time-out, peer closed, I/O error, bad message).
 * *timed_out is set when the failure was the time-out. */
int proto_send(int fd, const struct proto_msg *m, int timeout_ms,
	       char *why, size_t whylen);
int proto_recv(int fd, struct proto_msg *m, int timeout_ms,
	       char *why, size_t whylen);
/* Fills an ERROR message: code (1..5, else 5) and text in the wire's
 * printable ASCII (our " \u2014 " travels as " -- "). */
void proto_error_msg(struct proto_msg *m, int code, const char *text);
/* Sends MSG_ERROR, best effort, short time-out. */
void proto_send_error(int fd, int code, const char *text);
/* An ERROR's text for display: the wire's " -- " back to " \u2014 ". */
void proto_error_text(const char *wire, char *out, size_t outlen);

#endif
