// SPDX-License-Identifier: MIT
/* The TCP baseline, both ends: a bounded text handshake (with the same
 * shared-secret answer as the RDMA test) and one stream, counted by the
 * receiver. Every wait is bounded; nothing here prints. */
#include "config.h"
#include "core/testrun/tcptest.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "core/agent/agent.h"
#include "core/agent/dial.h"
#include "core/agent/proto.h"
#include "core/base/clock.h"
#include "core/base/hmacdl.h"

#define TCP_CHUNK (128u << 10)

static int tcp_port_of(int agent_port)
{
	return (agent_port ? agent_port : AGENT_DEFAULT_PORT) + 1;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

static int unhex(const char *s, uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		b[i] = (uint8_t)v;
	}
	return s[2 * n] == '\0' || s[2 * n] == ' ' ? 0 : -1;
}

/* One line (without the newline) within timeout_ms; -1 on time-out,
 * close or a line too long. Reads byte by byte: the lines are short and
 * nothing of the stream may be swallowed. */
static int read_line(int fd, char *buf, size_t len, int timeout_ms)
{
	double end = mono_s() + timeout_ms / 1000.0;
	size_t n = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = end - mono_s();
		ssize_t r;

		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			return -1;
		r = read(fd, buf + n, 1);
		if (r <= 0)
			return -1;
		if (buf[n] == '\n') {
			buf[n] = '\0';
			return 0;
		}
		if (++n + 1 >= len)
			return -1;
	}
}

static int write_all(int fd, const char *s, size_t len, int timeout_ms)
{
	double end = mono_s() + timeout_ms / 1000.0;

	while (len) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		double left = end - mono_s();
		ssize_t w;

		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			return -1;
		w = send(fd, s, len, MSG_NOSIGNAL);
		if (w < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (w <= 0)
			return -1;
		s += w;
		len -= (size_t)w;
	}
	return 0;
}

static int dial(const struct tcptest_opts *o, char *where, size_t wlen, char *err, size_t errlen)
{
	int port = tcp_port_of(o->agent_port);
	struct dial_result r;

	snprintf(where, wlen, "%s port %d", o->peer, port);
	switch (dial_tcp(o->peer, port, o->timeout_ms, DIAL_RETRY, o->cancel, &r, err, errlen)) {
	case DIAL_OK:
		return r.fd;
	case DIAL_NO_ANSWER:
		snprintf(err, errlen, "cannot reach the agent's TCP baseline at %s: %s — start 'ibconsole serve' on the peer (it listens on its port + 1) and let that port through",
			 where, strerror(r.eno));
		return -1;
	default:
		return -1;
	}
}

/* The greeting, the answer to its nonce and the agent's GO; 0 or an exit
 * status with err. */
static int client_handshake(const struct tcptest_opts *o, int fd, const char *where, uint32_t secs,
			    char *err, size_t errlen)
{
	char line[256], mac_hex[65] = "-";
	uint8_t nonce[PROTO_NONCE];
	unsigned ver, auth;

	if (read_line(fd, line, sizeof(line), o->timeout_ms) ||
	    sscanf(line, "IBCTCP %u %32s %u", &ver, mac_hex, &auth) != 3 || ver != 1 ||
	    unhex(mac_hex, nonce, sizeof(nonce))) {
		snprintf(err, errlen, "the agent at %s did not greet as an ibconsole TCP baseline — is 'ibconsole serve' of the same version running there?",
			 where);
		return 4;
	}
	snprintf(mac_hex, sizeof(mac_hex), "-");
	if (auth && !o->secret) {
		snprintf(err, errlen, "the agent at %s wants a shared secret — give --secret-file", where);
		return 3;
	}
	if (o->secret) {
		uint8_t mac[32];

		if (proto_auth_mac(o->secret, nonce, mac)) {
			hmacdl_load(err, errlen);
			return 3;
		}
		hex(mac, sizeof(mac), mac_hex);
	}
	snprintf(line, sizeof(line), "%u %s\n", secs, mac_hex);
	if (write_all(fd, line, strlen(line), o->timeout_ms) || read_line(fd, line, sizeof(line), o->timeout_ms)) {
		snprintf(err, errlen, "the agent at %s went away during the TCP handshake — is it still running?", where);
		return 4;
	}
	if (strcmp(line, "GO")) {
		int code = 4, off = 0;

		if (sscanf(line, "ERR %d %n", &code, &off) >= 1 && off > 0)
			snprintf(err, errlen, "the agent at %s refused: %s", where, line + off);
		else
			snprintf(err, errlen, "the agent at %s answered '%.60s' — run the same ibconsole version on both ends", where, line);
		return code >= 1 && code <= 5 ? code : 4;
	}
	return 0;
}

/* Sends for secs with per-second samples and progress; 0 or an exit
 * status with err. */
static int stream(const struct tcptest_opts *o, int fd, const char *where, uint32_t secs,
		  struct tcptest_result *r, char *err, size_t errlen)
{
	char *buf = calloc(1, TCP_CHUNK);
	double t0, end, last, stall_end, sec_start;
	uint64_t last_bytes = 0, sec_bytes = 0;
	int st = 0;

	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	t0 = last = sec_start = mono_s();
	end = t0 + secs;
	stall_end = t0 + o->timeout_ms / 1000.0;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		double now = mono_s();
		ssize_t w;

		if (o->cancel && atomic_load(o->cancel)) {
			snprintf(err, errlen, "cancelled");
			st = 4;
			break;
		}
		if (now - sec_start >= 1.0 && r->nsec < TCPTEST_MAX_SAMPLES) {
			r->sec_gbps[r->nsec++] = (double)sec_bytes * 8.0 / (now - sec_start) / 1e9;
			sec_bytes = 0;
			sec_start = now;
		}
		if (now - last >= 0.25) {
			if (o->progress)
				o->progress(o->arg, now - t0, (double)(r->sent - last_bytes) * 8.0 / (now - last) / 1e9,
					    r->sent);
			last_bytes = r->sent;
			last = now;
		}
		if (now >= end)
			break;
		if (now > stall_end) {
			snprintf(err, errlen, "the agent at %s stopped reading the TCP stream for %d s — is it still running, is the path up?",
				 where, o->timeout_ms / 1000);
			st = 4;
			break;
		}
		if (poll(&p, 1, 100) <= 0)
			continue;
		w = send(fd, buf, TCP_CHUNK, MSG_NOSIGNAL);
		if (w < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (w <= 0) {
			snprintf(err, errlen, "the agent at %s went away mid-test: %s — is it still running?",
				 where, w < 0 ? strerror(errno) : "closed");
			st = 4;
			break;
		}
		r->sent += (uint64_t)w;
		sec_bytes += (uint64_t)w;
		stall_end = mono_s() + o->timeout_ms / 1000.0;
	}
	free(buf);
	if (!st && sec_bytes && r->nsec < TCPTEST_MAX_SAMPLES && mono_s() - sec_start > 0.2)
		r->sec_gbps[r->nsec++] = (double)sec_bytes * 8.0 / (mono_s() - sec_start) / 1e9;
	return st;
}

int tcptest_run(const struct tcptest_opts *o, struct tcptest_result *r, char *err, size_t errlen)
{
	char where[160], line[256];
	uint32_t secs = o->seconds ? o->seconds : 10;
	unsigned long long bytes, ns;
	int fd, st;

	memset(r, 0, sizeof(*r));
	r->port = tcp_port_of(o->agent_port);
	if (secs > TCPTEST_MAX_SECONDS) {
		snprintf(err, errlen, "a TCP baseline runs at most %d s — give a shorter --duration", TCPTEST_MAX_SECONDS);
		return 2;
	}
	fd = dial(o, where, sizeof(where), err, errlen);
	if (fd < 0)
		return 4;
	st = client_handshake(o, fd, where, secs, err, errlen);
	if (!st)
		st = stream(o, fd, where, secs, r, err, errlen);
	if (!st) {
		shutdown(fd, SHUT_WR);
		/* the receiver drains what is still in flight first */
		if (read_line(fd, line, sizeof(line), o->timeout_ms + 5000) ||
		    sscanf(line, "DONE %llu %llu", &bytes, &ns) != 2) {
			snprintf(err, errlen, "the agent at %s did not report what it received — is it still running?", where);
			st = 4;
		} else {
			r->bytes = bytes;
			r->seconds = (double)ns / 1e9;
			r->gbps = ns ? (double)bytes * 8.0 / (double)ns : 0;
		}
	}
	close(fd);
	return st;
}

/* ---- agent side ---- */

int tcptest_listen(const char *bind_addr, int agent_port, char *err, size_t errlen)
{
	int gai, eno, fd = dial_listen(bind_addr, tcp_port_of(agent_port), 64, &gai, &eno);

	if (fd < 0 && gai)
		snprintf(err, errlen, "cannot resolve %s: %s", bind_addr ? bind_addr : "*", gai_strerror(gai));
	else if (fd < 0)
		snprintf(err, errlen, "cannot listen on port %d for the TCP baseline: %s",
			 tcp_port_of(agent_port), strerror(eno));
	return fd;
}

void tcptest_refuse(int fd, int code, const char *text)
{
	char line[300];

	snprintf(line, sizeof(line), "ERR %d %s\n", code, text);
	(void)write_all(fd, line, strlen(line), 1000);
}

void tcptest_greeting(const uint8_t *nonce, size_t nlen, bool auth, char *line, size_t len)
{
	char nhex[2 * PROTO_NONCE + 1];

	hex(nonce, nlen < PROTO_NONCE ? nlen : PROTO_NONCE, nhex);
	snprintf(line, len, "IBCTCP 1 %s %d\n", nhex, auth ? 1 : 0);
}

int tcptest_request(const char *line, const char *secret, const uint8_t *nonce, unsigned *secs,
		    char *why, size_t whylen)
{
	uint8_t mac[32], got[32];
	char mhex[80];

	if (sscanf(line, "%u %79s", secs, mhex) != 2) {
		snprintf(why, whylen, "not a TCP baseline request -- run the same ibconsole version on both ends");
		return 4;
	}
	if (secret) {
		uint8_t d = 0;

		/* no MAC (nettle missing) matches nothing */
		if (proto_auth_mac(secret, nonce, mac) ||
		    strlen(mhex) != 64 || unhex(mhex, got, sizeof(got))) {
			memset(got, 0, sizeof(got));
			got[0] = (uint8_t)~mac[0];
		}
		for (int i = 0; i < 32; i++)
			d |= mac[i] ^ got[i];
		if (d) {
			snprintf(why, whylen, "authentication failed: wrong or missing shared secret -- give the same --secret-file on both ends");
			return 3;
		}
	}
	if (*secs < 1 || *secs > TCPTEST_MAX_SECONDS) {
		snprintf(why, whylen, "a TCP baseline runs 1 to 600 s -- give a duration in that range");
		return 2;
	}
	return 0;
}

int tcptest_stream(int fd, unsigned secs, int timeout_ms, char *err, size_t errlen)
{
	char line[80], *buf = NULL;
	uint64_t bytes = 0;
	double first = 0, lastb = 0, deadline;
	int rc = -1;

	if (write_all(fd, "GO\n", 3, timeout_ms)) {
		snprintf(err, errlen, "the client left before GO");
		return -1;
	}
	buf = malloc(TCP_CHUNK);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* the stream ends at the client's close; a silent client within the
	 * time-out, or one that streams far past its own duration, fails */
	deadline = mono_s() + secs + timeout_ms / 1000.0 + 5;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (mono_s() > deadline || poll(&p, 1, timeout_ms) <= 0) {
			snprintf(err, errlen, "the client stopped sending for %d ms", timeout_ms);
			goto out;
		}
		n = read(fd, buf, TCP_CHUNK);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0) {
			snprintf(err, errlen, "the stream broke: %s", strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		lastb = mono_s();
		if (!bytes)
			first = lastb;
		bytes += (uint64_t)n;
	}
	snprintf(line, sizeof(line), "DONE %llu %llu\n", (unsigned long long)bytes,
		 (unsigned long long)((lastb - first) * 1e9));
	if (write_all(fd, line, strlen(line), timeout_ms)) {
		snprintf(err, errlen, "the client left before the result");
		goto out;
	}
	snprintf(err, errlen, "%llu bytes in %.2f s", (unsigned long long)bytes, lastb - first);
	rc = 0;
out:
	free(buf);
	return rc;
}
