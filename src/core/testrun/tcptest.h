/* SPDX-License-Identifier: MIT */
/* The TCP baseline: one TCP stream from the client to the agent over the
 * same network path the RDMA test takes (IPoIB or the RoCE netdev), so
 * "TCP fine, RDMA slow" and "both slow" can be told apart, as the
 * reference procedure does with iperf3 before perftest.
 *
 * The agent listens for it on its port + 1. The exchange is text lines:
 *   agent:  "IBCTCP 1 <nonce, 32 hex> <auth 0|1>"
 *   client: "<seconds> <HMAC-SHA-256(secret, nonce), 64 hex, or ->"
 *   agent:  "GO" or "ERR <exit code> <one line>"
 *   client: the stream for <seconds>, then its write side closed
 *   agent:  "DONE <bytes received> <ns from the first to the last byte>"
 */
#ifndef IBC_TESTRUN_TCPTEST_H
#define IBC_TESTRUN_TCPTEST_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TCPTEST_MAX_SECONDS 600
#define TCPTEST_MAX_SAMPLES TCPTEST_MAX_SECONDS

struct tcptest_opts {
	const char *peer;
	int agent_port;		/* the agent's port (0: default); the stream uses + 1 */
	const char *secret;	/* NULL: none */
	uint32_t seconds;	/* 0: 10 */
	int timeout_ms;		/* connect and every wait */
	/* every ~250 ms: seconds since the start, Gb/s over the interval,
	 * bytes sent so far */
	void (*progress)(void *arg, double t_s, double gbps, uint64_t bytes);
	void *arg;
	atomic_int *cancel;
};

struct tcptest_result {
	int port;
	uint64_t bytes;		/* the receiver's count */
	double seconds;		/* the receiver's first to last byte */
	double gbps;		/* bytes · 8 / seconds */
	uint64_t sent;
	int nsec;		/* sender's per-second figures */
	double sec_gbps[TCPTEST_MAX_SAMPLES];
};

/* Client side: 0, or an exit status (2 usage, 3 secret, 4 peer) with err. */
int tcptest_run(const struct tcptest_opts *o, struct tcptest_result *r, char *err, size_t errlen);

/* Agent side: the listening socket on bind / agent_port + 1, or -1 with err. */
int tcptest_listen(const char *bind, int agent_port, char *err, size_t errlen);
/* The agent's handshake runs in its poll loop, beside the RDMA one: many
 * clients greeted at once, each under the handshake deadline, one stream
 * at a time and "ERR 4 busy: ..." to the others. */
#define TCPTEST_LINE 256	/* a handshake line, its newline included */
/* The greeting line (with its newline) for a fresh nonce. */
void tcptest_greeting(const uint8_t *nonce, size_t nlen, bool auth, char *line, size_t len);
/* The client's request line (without its newline): 0 with *secs, or the
 * exit code to refuse it with (2 a bad duration, 3 authentication, 4 not
 * a request) and why, a line for the client. */
int tcptest_request(const char *line, const char *secret, const uint8_t *nonce, unsigned *secs,
		    char *why, size_t whylen);
/* "ERR <code> <text>" to fd, within 1 s. */
void tcptest_refuse(int fd, int code, const char *text);
/* Runs the accepted stream on fd: GO, the bytes until the client closes
 * its side, DONE. 0 with a summary in err, or -1 with err (the test
 * failed; the agent goes on). Every wait is bounded by timeout_ms. */
int tcptest_stream(int fd, unsigned secs, int timeout_ms, char *err, size_t errlen);

#endif
