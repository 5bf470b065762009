// SPDX-License-Identifier: MIT
/* The exporter's HTTP endpoint on libmicrohttpd (one internal polling
 * thread on epoll, bounded connections, a deadline for each request and
 * room kept for new scrapes) and its textfile writer.
 * A scrape holds references to the pieces it streams, so a sweep that
 * publishes meanwhile never changes or frees text being sent. */
#include "config.h"
#include "core/export/server.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <time.h>
#include <unistd.h>
#include <microhttpd.h>

#include "core/base/dynlib.h"

struct export_blob {
	int refs;		/* under blob_lock */
	size_t len, cap;
	char *p;
};

static pthread_mutex_t blob_lock = PTHREAD_MUTEX_INITIALIZER;

struct export_blob *export_blob_take(struct expo_buf *b)
{
	struct export_blob *x;

	if (b->oom) {
		expo_free(b);
		return NULL;
	}
	x = calloc(1, sizeof(*x));
	if (!x) {
		expo_free(b);
		return NULL;
	}
	x->refs = 1;
	x->len = b->len;
	x->cap = b->cap;
	x->p = b->p;
	memset(b, 0, sizeof(*b));
	return x;
}

struct export_blob *export_blob_ref(struct export_blob *x)
{
	if (x) {
		pthread_mutex_lock(&blob_lock);
		x->refs++;
		pthread_mutex_unlock(&blob_lock);
	}
	return x;
}

void export_blob_put(struct export_blob *x)
{
	int left;

	if (!x)
		return;
	pthread_mutex_lock(&blob_lock);
	left = --x->refs;
	pthread_mutex_unlock(&blob_lock);
	if (!left) {
		free(x->p);
		free(x);
	}
}

bool export_blob_reuse(struct export_blob *x, struct expo_buf *b)
{
	int left;

	if (!x)
		return false;
	pthread_mutex_lock(&blob_lock);
	left = --x->refs;
	pthread_mutex_unlock(&blob_lock);
	if (left)
		return false;
	expo_free(b);
	b->p = x->p;
	b->cap = x->cap;
	expo_reset(b);
	free(x);
	return true;
}

struct export_store {
	pthread_mutex_t lock;
	struct export_blob *slot[EXPORT_SLOTS];
	export_head_fn head;
	void *arg;
};

struct export_store *export_store_new(export_head_fn head, void *arg)
{
	struct export_store *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	pthread_mutex_init(&st->lock, NULL);
	st->head = head;
	st->arg = arg;
	return st;
}

void export_store_free(struct export_store *st)
{
	if (!st)
		return;
	for (int i = 0; i < EXPORT_SLOTS; i++)
		export_blob_put(st->slot[i]);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

void export_store_publish(struct export_store *st, int slot, struct export_blob *x)
{
	struct export_blob *old;

	pthread_mutex_lock(&st->lock);
	old = st->slot[slot];
	st->slot[slot] = x;
	pthread_mutex_unlock(&st->lock);
	export_blob_put(old);
}

/* One scrape's text: the head and a reference to each slot. */
struct scrape {
	struct export_blob *part[EXPORT_SLOTS + 1];
	size_t total;
};

static struct scrape *scrape_new(struct export_store *st)
{
	struct scrape *s = calloc(1, sizeof(*s));
	struct expo_buf h;

	if (!s)
		return NULL;
	expo_init(&h);
	if (st->head)
		st->head(&h, st->arg);
	s->part[0] = export_blob_take(&h);
	pthread_mutex_lock(&st->lock);
	for (int i = 0; i < EXPORT_SLOTS; i++)
		s->part[i + 1] = export_blob_ref(st->slot[i]);
	pthread_mutex_unlock(&st->lock);
	for (int i = 0; i <= EXPORT_SLOTS; i++)
		s->total += s->part[i] ? s->part[i]->len : 0;
	return s;
}

static void scrape_free(void *cls)
{
	struct scrape *s = cls;

	for (int i = 0; i <= EXPORT_SLOTS; i++)
		export_blob_put(s->part[i]);
	free(s);
}

/* Copies up to max bytes of the scrape text from offset pos. */
static size_t scrape_read(const struct scrape *s, uint64_t pos, char *buf, size_t max)
{
	size_t done = 0;

	for (int i = 0; i <= EXPORT_SLOTS && done < max; i++) {
		const struct export_blob *x = s->part[i];
		size_t n;

		if (!x)
			continue;
		if (pos >= x->len) {
			pos -= x->len;
			continue;
		}
		n = x->len - (size_t)pos;
		if (n > max - done)
			n = max - done;
		memcpy(buf + done, x->p + pos, n);
		done += n;
		pos = 0;
	}
	return done;
}

static int scrape_write(const struct scrape *s, FILE *f)
{
	for (int i = 0; i <= EXPORT_SLOTS; i++)
		if (s->part[i] && fwrite(s->part[i]->p, 1, s->part[i]->len, f) != s->part[i]->len)
			return -1;
	return 0;
}

int export_store_print(struct export_store *st, FILE *f)
{
	struct scrape *s = scrape_new(st);
	int rc;

	if (!s)
		return -1;
	rc = scrape_write(s, f);
	scrape_free(s);
	return rc || fflush(f) ? -1 : 0;
}

int export_textfile_write(struct export_store *st, const char *dir, char *err,
			  size_t errlen)
{
	char tmp[4096], final[4096];
	struct scrape *s;
	FILE *f;
	int fd, rc;

	/* the collector reads *.prom only: the temporary name is not one */
	snprintf(tmp, sizeof(tmp), "%s/.ibconsole.prom.%ld.tmp", dir, (long)getpid());
	snprintf(final, sizeof(final), "%s/ibconsole.prom", dir);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write the textfile in %s: %s — check that the directory exists and is writable",
			 dir, strerror(errno));
		return -1;
	}
	f = fdopen(fd, "w");
	s = f ? scrape_new(st) : NULL;
	if (!f || !s) {
		if (f)
			fclose(f);
		else
			close(fd);
		unlink(tmp);
		if (s)
			scrape_free(s);
		snprintf(err, errlen, "out of memory writing the textfile");
		return -1;
	}
	rc = scrape_write(s, f);
	scrape_free(s);
	if (fflush(f) || fsync(fileno(f)))
		rc = -1;
	if (fclose(f))
		rc = -1;
	if (rc || rename(tmp, final)) {
		snprintf(err, errlen, "cannot write %s: %s — check the free space and permissions of %s",
			 final, strerror(errno), dir);
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* --- HTTP --- */

/* libmicrohttpd is loaded when a server starts, not linked: linked, it
 * and its TLS stack (GnuTLS, p11-kit, nettle, ...) add about 2.7 MB to
 * the resident memory of every command, the fabric sweep included. */
static struct {
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_create_response_from_buffer) *response_from_buffer;
	__typeof__(MHD_create_response_from_callback) *response_from_callback;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
	__typeof__(MHD_get_connection_info) *get_connection_info;
} mhd;
#define MHD_SYM(field, name) { #name, (void **)&mhd.field }
static const struct dynlib_sym mhd_syms[] = {
	MHD_SYM(start_daemon, MHD_start_daemon),
	MHD_SYM(stop_daemon, MHD_stop_daemon),
	MHD_SYM(response_from_buffer, MHD_create_response_from_buffer),
	MHD_SYM(response_from_callback, MHD_create_response_from_callback),
	MHD_SYM(add_response_header, MHD_add_response_header),
	MHD_SYM(queue_response, MHD_queue_response),
	MHD_SYM(destroy_response, MHD_destroy_response),
	MHD_SYM(get_connection_info, MHD_get_connection_info),
};
#undef MHD_SYM
/* loaded for good: the server's thread runs its code until exit */
static struct dynlib mhd_lib = DYNLIB(MHD_SONAME, "libmicrohttpd", "libmicrohttpd12", mhd_syms);

/* Room for scrapes under abuse. libmicrohttpd bounds the connections
 * (MHD_OPTION_CONNECTION_LIMIT) and their idleness
 * (MHD_OPTION_CONNECTION_TIMEOUT), but a client that sends a byte a
 * second is never idle, and at its limits libmicrohttpd refuses the
 * newcomer: a few dozen stuck clients would keep every scrape out. Its
 * per-address limit (MHD_OPTION_PER_IP_CONNECTION_LIMIT) refuses the
 * newcomer too, which blinds a Prometheus that shares an address with a
 * stuck client. So the server watches its connections itself (through
 * MHD_OPTION_NOTIFY_CONNECTION) and, as the agent does with handshakes:
 *  - a request's headers must be complete within EXPORT_HEADER_MS of
 *    connecting, and a connection lives at most EXPORT_LIFE_MS (a
 *    Prometheus scrape times out after 10 s by default);
 *  - a newcomer beyond EXPORT_PER_ADDR unfinished requests from its
 *    address, or beyond EXPORT_KEEP connections in all, makes the oldest
 *    unfinished request (of that address, or of all) go: the newest wins.
 * A request is finished once its headers are in; a scrape sends them in
 * one packet, so it is finished at once and never made to go. The limits
 * are wide, so that making way is rare: each time it happens the client
 * made to go may connect again at once, and a scrape that has connected
 * but not yet sent its request is safe only while fewer than
 * EXPORT_PER_ADDR newer ones come from its address, EXPORT_KEEP from all. Each
 * connection serves one request ("Connection: close"), so the deadline
 * counts from the connect and a kept-alive socket cannot idle in a slot.
 * Going is shutdown(2) of the socket: libmicrohttpd sees the end of the
 * stream and closes it (it reports the close before it closes the
 * descriptor, under the same lock, so a descriptor is never reused under
 * us). */
#define EXPORT_SLOTS_MAX 320	/* libmicrohttpd's connection limit */
#define EXPORT_KEEP 256		/* connections kept before the oldest unfinished goes */
#define EXPORT_PER_ADDR 64	/* unfinished requests from one address */
#define EXPORT_HEADER_MS 5000	/* a request's headers, from the connect */
#define EXPORT_LIFE_MS 30000	/* a connection's whole life */
#define EXPORT_IDLE_S 10	/* libmicrohttpd's idle time-out (a stalled reader) */

struct guard_conn {
	int fd;			/* -1: a free slot */
	bool asked;		/* its request's headers are in */
	bool cut;		/* shut down, waiting for libmicrohttpd to close it */
	long long since;	/* ms, monotonic */
	struct sockaddr_storage addr;
};

struct export_server {
	struct MHD_Daemon *d;
	struct export_store *st;
	int fd;
	pthread_mutex_t lock;	/* the slots, and stop */
	pthread_cond_t wake;
	pthread_t sweeper;
	bool stop;
	struct guard_conn conn[EXPORT_SLOTS_MAX];
};

static long long guard_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static bool same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)a)->sin_addr,
			       &((const struct sockaddr_in *)b)->sin_addr, sizeof(struct in_addr));
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
	return false;
}

static void guard_cut(struct guard_conn *g)
{
	shutdown(g->fd, SHUT_RDWR);
	g->cut = true;
}

/* The oldest live unfinished connection other than self, of addr's when
 * addr is given; with any, the oldest live one at all. Under lock. */
static struct guard_conn *guard_oldest(struct export_server *srv, const struct guard_conn *self,
				       const struct sockaddr_storage *addr, bool any)
{
	struct guard_conn *o = NULL;

	for (int i = 0; i < EXPORT_SLOTS_MAX; i++) {
		struct guard_conn *g = &srv->conn[i];

		if (g == self || g->fd < 0 || g->cut || (g->asked && !any) ||
		    (addr && !same_addr(&g->addr, addr)))
			continue;
		if (!o || g->since < o->since)
			o = g;
	}
	return o;
}

static void guard_admit(struct export_server *srv, struct guard_conn *g)
{
	struct guard_conn *o;
	int live = 0, mine = 0;

	for (int i = 0; i < EXPORT_SLOTS_MAX; i++) {
		const struct guard_conn *h = &srv->conn[i];

		if (h->fd < 0 || h->cut)
			continue;
		live++;
		if (!h->asked && same_addr(&h->addr, &g->addr))
			mine++;
	}
	if (mine > EXPORT_PER_ADDR && (o = guard_oldest(srv, g, &g->addr, false)))
		guard_cut(o);
	else if (live > EXPORT_KEEP &&
		 ((o = guard_oldest(srv, g, NULL, false)) || (o = guard_oldest(srv, g, NULL, true))))
		guard_cut(o);
}

static void on_connection(void *cls, struct MHD_Connection *c, void **ctx,
			  enum MHD_ConnectionNotificationCode what)
{
	struct export_server *srv = cls;
	struct guard_conn *g = *ctx;

	pthread_mutex_lock(&srv->lock);
	if (what == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (g)
			g->fd = -1;
	} else if (what == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *fd = mhd.get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		const union MHD_ConnectionInfo *ad = mhd.get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

		for (int i = 0; !g && i < EXPORT_SLOTS_MAX; i++)
			if (srv->conn[i].fd < 0)
				g = &srv->conn[i];
		if (g && fd) {
			memset(g, 0, sizeof(*g));
			g->fd = fd->connect_fd;
			g->since = guard_ms();
			if (ad && ad->client_addr)
				memcpy(&g->addr, ad->client_addr,
				       ad->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
				       ad->client_addr->sa_family == AF_INET ? sizeof(struct sockaddr_in) : 0);
			guard_admit(srv, g);
		} else {
			if (fd)	/* no slot: cannot happen at libmicrohttpd's limit */
				shutdown(fd->connect_fd, SHUT_RDWR);
			g = NULL;
		}
		*ctx = g;
	}
	pthread_mutex_unlock(&srv->lock);
}

/* Enforces the deadlines, four times a second. */
static void *guard_sweep(void *arg)
{
	struct export_server *srv = arg;
	struct timespec t;

	pthread_mutex_lock(&srv->lock);
	while (!srv->stop) {
		long long now = guard_ms();

		for (int i = 0; i < EXPORT_SLOTS_MAX; i++) {
			struct guard_conn *g = &srv->conn[i];

			if (g->fd >= 0 && !g->cut &&
			    ((!g->asked && now - g->since >= EXPORT_HEADER_MS) || now - g->since >= EXPORT_LIFE_MS))
				guard_cut(g);
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		t.tv_nsec += 250 * 1000000L;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&srv->wake, &srv->lock, &t);
	}
	pthread_mutex_unlock(&srv->lock);
	return NULL;
}

static void guard_stop(struct export_server *srv)
{
	pthread_mutex_lock(&srv->lock);
	srv->stop = true;
	pthread_cond_signal(&srv->wake);
	pthread_mutex_unlock(&srv->lock);
	pthread_join(srv->sweeper, NULL);
}

static void guard_asked(struct export_server *srv, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i = mhd.get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct guard_conn *g = i ? i->socket_context : NULL;

	if (g) {
		pthread_mutex_lock(&srv->lock);
		g->asked = true;
		pthread_mutex_unlock(&srv->lock);
	}
}

static ssize_t reader(void *cls, uint64_t pos, char *buf, size_t max)
{
	const struct scrape *s = cls;
	size_t n;

	if (pos >= s->total)
		return MHD_CONTENT_READER_END_OF_STREAM;
	n = scrape_read(s, pos, buf, max);
	return n ? (ssize_t)n : MHD_CONTENT_READER_END_OF_STREAM;
}

static enum MHD_Result answer_text(struct MHD_Connection *c, unsigned code,
				   const char *text)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = mhd.response_from_buffer(strlen(text), (void *)text,
				     MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	ret = mhd.queue_response(c, code, r);
	mhd.destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct export_server *srv = cls;
	struct MHD_Response *r;
	struct scrape *s;
	enum MHD_Result ret;

	(void)version;
	(void)upload;
	guard_asked(srv, c);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return answer_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n");
	if (*upload_size)
		return MHD_NO;
	(void)con_cls;
	if (!strcmp(url, "/"))
		return answer_text(c, MHD_HTTP_OK,
				   "ibconsole exporter: the metrics are at /metrics\n");
	if (strcmp(url, "/metrics"))
		return answer_text(c, MHD_HTTP_NOT_FOUND, "not found: the metrics are at /metrics\n");
	s = scrape_new(srv->st);
	if (!s)
		return answer_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	r = mhd.response_from_callback(s->total, 64 * 1024, reader, s, scrape_free);
	if (!r) {
		scrape_free(s);
		return MHD_NO;
	}
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, EXPO_CONTENT_TYPE);
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	ret = mhd.queue_response(c, MHD_HTTP_OK, r);
	mhd.destroy_response(r);
	return ret;
}

/* Splits "ADDR:PORT" / "[V6]:PORT" / ":PORT" / "PORT". */
static int split_listen(const char *spec, char *host, size_t hlen, char *port,
			size_t plen)
{
	const char *colon;

	if (spec[0] == '[') {
		const char *end = strchr(spec, ']');

		if (!end || end[1] != ':')
			return -1;
		snprintf(host, hlen, "%.*s", (int)(end - spec - 1), spec + 1);
		snprintf(port, plen, "%s", end + 2);
	} else if ((colon = strrchr(spec, ':'))) {
		if (strchr(spec, ':') != colon)
			return -1;	/* a bare IPv6 address needs brackets */
		snprintf(host, hlen, "%.*s", (int)(colon - spec), spec);
		snprintf(port, plen, "%s", colon + 1);
	} else {
		host[0] = '\0';
		snprintf(port, plen, "%s", spec);
	}
	for (const char *p = port; *p; p++)
		if (*p < '0' || *p > '9')
			return -1;
	return *port && atol(port) >= 1 && atol(port) <= 65535 ? 0 : -1;
}

struct export_server *export_server_start(struct export_store *st, const char *listen_spec,
					  int *status, char *err, size_t errlen)
{
	struct addrinfo hints, *ai = NULL;
	struct export_server *srv;
	char host[256], port[16];
	pthread_condattr_t ca;
	sigset_t all, old;
	int fd, one = 1, rc;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO;

	if (split_listen(listen_spec, host, sizeof(host), port, sizeof(port))) {
		*status = 2;
		snprintf(err, errlen, "bad --listen '%s' — give ADDR:PORT, [IPV6]:PORT or :PORT (port 1-65535)",
			 listen_spec);
		return NULL;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	rc = getaddrinfo(host[0] ? host : NULL, port, &hints, &ai);
	if (rc) {
		*status = 2;
		snprintf(err, errlen, "bad --listen '%s': %s — give a local address and a port",
			 listen_spec, gai_strerror(rc));
		return NULL;
	}
	if (dynlib_need(&mhd_lib, NULL, 0)) {
		freeaddrinfo(ai);
		*status = 3;
		snprintf(err, errlen, "cannot serve HTTP: %s — install libmicrohttpd (apt-get install libmicrohttpd12), or use --textfile",
			 mhd_lib.why);
		return NULL;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1024)) {
		int e = errno;

		*status = 3;
		snprintf(err, errlen, "cannot listen on %s: %s — %s", listen_spec, strerror(e),
			 e == EADDRINUSE ? "another program has the port: pick another with --listen" :
			 e == EACCES ? "ports below 1024 need privileges: pick a port above 1024" :
				       "check the address is one of this host's");
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return NULL;
	}
	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	freeaddrinfo(ai);
	srv = calloc(1, sizeof(*srv));
	if (!srv) {
		close(fd);
		*status = 5;
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	srv->st = st;
	srv->fd = fd;
	pthread_mutex_init(&srv->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&srv->wake, &ca);
	pthread_condattr_destroy(&ca);
	for (int i = 0; i < EXPORT_SLOTS_MAX; i++)
		srv->conn[i].fd = -1;
	/* signals stay with the main thread */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&srv->sweeper, NULL, guard_sweep, srv);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		srv->d = NULL;
	} else {
		srv->d = mhd.start_daemon(flags, 0, NULL, NULL, on_request, srv,
					  MHD_OPTION_LISTEN_SOCKET, fd,
					  MHD_OPTION_CONNECTION_LIMIT, (unsigned)EXPORT_SLOTS_MAX,
					  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)EXPORT_IDLE_S,
					  MHD_OPTION_NOTIFY_CONNECTION, on_connection, srv,
					  MHD_OPTION_END);
		if (!srv->d)
			guard_stop(srv);
	}
	if (!srv->d) {
		close(fd);
		pthread_cond_destroy(&srv->wake);
		pthread_mutex_destroy(&srv->lock);
		free(srv);
		*status = 5;
		snprintf(err, errlen, "libmicrohttpd could not start serving %s — check the system's thread limits",
			 listen_spec);
		return NULL;
	}
	return srv;
}

void export_server_stop(struct export_server *s)
{
	if (!s)
		return;
	guard_stop(s);
	mhd.stop_daemon(s->d);	/* closes the listening socket too */
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	free(s);
}
