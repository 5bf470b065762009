// SPDX-License-Identifier: MIT
/* TCP connect with a deadline, shared by the clients of a peer, and the
 * listening socket of the agent and its TCP baseline. */
#include "config.h"
#include "core/agent/dial.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "core/base/clock.h"

/* One address: connected fd, or -1 with *eno. A retried dial waits at
 * most 2 s per attempt, so a black-holed address does not use up the
 * whole time-out before the next one is tried. */
static int attempt(const struct addrinfo *a, long long deadline, int flags, int *eno)
{
	long long left = deadline - mono_ms();
	int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	socklen_t sl = sizeof(*eno);
	int wait_ms, one = 1;

	if (fd < 0) {
		*eno = errno;
		return -1;
	}
	if (left < 1)
		left = 1;
	wait_ms = (int)((flags & DIAL_RETRY) && left > 2000 ? 2000 : left);
	if (connect(fd, a->ai_addr, a->ai_addrlen) && errno != EINPROGRESS) {
		*eno = errno;
		close(fd);
		return -1;
	}
	if (poll(&p, 1, wait_ms) <= 0) {
		*eno = ETIMEDOUT;
		close(fd);
		return -1;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, eno, &sl) || *eno) {
		if (!*eno)
			*eno = errno;
		close(fd);
		return -1;
	}
	if (flags & DIAL_NODELAY)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

enum dial_status dial_tcp(const char *host, int port, int timeout_ms, int flags,
			  atomic_int *cancel, struct dial_result *r, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res;
	long long deadline = mono_ms() + timeout_ms;
	char ps[16];
	int rc;

	r->fd = -1;
	r->eno = ECONNREFUSED;
	r->tries = 0;
	snprintf(ps, sizeof(ps), "%d", port);
	rc = getaddrinfo(host, ps, &hints, &res);
	if (rc) {
		snprintf(err, errlen, "cannot resolve the peer %s: %s — give its host name or address",
			 host, gai_strerror(rc));
		return DIAL_NO_NAME;
	}
	for (;;) {
		r->tries++;
		for (const struct addrinfo *a = res; a; a = a->ai_next) {
			r->fd = attempt(a, deadline, flags, &r->eno);
			if (r->fd >= 0) {
				freeaddrinfo(res);
				return DIAL_OK;
			}
		}
		if (!(flags & DIAL_RETRY) || mono_ms() >= deadline)
			break;
		if (cancel && atomic_load(cancel)) {
			freeaddrinfo(res);
			snprintf(err, errlen, "cancelled");
			return DIAL_CANCELLED;
		}
		nanosleep(&(struct timespec){ 0, 250000000 }, NULL);
	}
	freeaddrinfo(res);
	return DIAL_NO_ANSWER;
}

int dial_listen(const char *bind_addr, int port, int backlog, int *gai, int *eno)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE }, *res, *a;
	char serv[16];
	int fd = -1, one = 1;

	*gai = 0;
	*eno = 0;
	snprintf(serv, sizeof(serv), "%d", port);
	*gai = getaddrinfo(bind_addr, serv, &hints, &res);
	if (*gai)
		return -1;
	for (a = res; a; a = a->ai_next) {
		/* non-blocking: the agent's loops accept until EAGAIN */
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
		if (fd < 0) {
			*eno = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(fd, a->ai_addr, a->ai_addrlen) && !listen(fd, backlog))
			break;
		*eno = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd;
}
