// SPDX-License-Identifier: MIT
/* Port events and their file: one JSON object per line, written by us
 * with a fixed key order, read back by the same keys. */
#include "config.h"
#include "core/port/events.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "core/base/json.h"
#include "core/base/sysfs.h"
#include "core/port/port.h"
#include "core/port/smpagent.h"

#define IBDIR "/sys/class/infiniband"
#define POLL_SMP_TIMEOUT_MS 500

const char *events_path(char *buf, size_t len)
{
	const char *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");
	/* the simulated fabric of --demo keeps its own file: its flaps
	 * are not this host's */
	const char *f = getenv("IBCONSOLE_DEMO") ? "demo-events.jsonl" : "events.jsonl";

	if (x && *x)
		snprintf(buf, len, "%s/ibconsole/%s", x, f);
	else if (h && *h)
		snprintf(buf, len, "%s/.local/state/ibconsole/%s", h, f);
	else
		return NULL;
	return buf;
}

void events_iso(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;
	int ms = (int)((t - (double)s) * 1000.0);
	char b[32];

	if (ms < 0)
		ms = 0;
	if (ms > 999)
		ms = 999;
	gmtime_r(&s, &tm);
	strftime(b, sizeof(b), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03dZ", b, ms);
}

/* Our strings are device names, counter and state names: anything that
 * would need escaping in JSON is replaced, so the line stays simple. */
static void clean(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < len; i++) {
		unsigned char ch = (unsigned char)src[i];

		dst[i] = (ch < 0x20 || ch == '"' || ch == '\\' || ch > 0x7e) ? '_' : (char)ch;
	}
	dst[i] = '\0';
}

int events_format(const struct port_event *e, char *buf, size_t len)
{
	char when[40], port[64], kind[24], src[8], from[40], to[40];

	events_iso(e->t, when, sizeof(when));
	clean(port, sizeof(port), e->port);
	clean(kind, sizeof(kind), e->kind);
	clean(src, sizeof(src), e->source);
	clean(from, sizeof(from), e->from);
	clean(to, sizeof(to), e->to);
	return snprintf(buf, len,
			"{\"time\":\"%s\",\"t\":%.3f,\"port\":\"%s\",\"event\":\"%s\","
			"\"source\":\"%s\",\"from\":\"%s\",\"to\":\"%s\",\"delta\":%llu}",
			when, e->t, port, kind, src, from, to,
			(unsigned long long)e->delta);
}

/* The string value of "key": in line, into out; -1 when absent. */
static int get_str(const char *line, const char *key, char *out, size_t len)
{
	char pat[32];
	const char *p, *q;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = strstr(line, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	q = strchr(p, '"');
	if (!q || (size_t)(q - p) >= len)
		return -1;
	memcpy(out, p, (size_t)(q - p));
	out[q - p] = '\0';
	return 0;
}

static const char *get_raw(const char *line, const char *key)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(line, pat);
	return p ? p + strlen(pat) : NULL;
}

int events_parse(const char *line, struct port_event *e)
{
	const char *v;
	char *end;

	memset(e, 0, sizeof(*e));
	if (line[0] != '{')
		return -1;
	v = get_raw(line, "t");
	if (!v)
		return -1;
	errno = 0;
	e->t = strtod(v, &end);
	if (end == v || errno || !(e->t > 0) || (*end != ',' && *end != '}'))
		return -1;
	if (get_str(line, "port", e->port, sizeof(e->port)) ||
	    get_str(line, "event", e->kind, sizeof(e->kind)) ||
	    get_str(line, "source", e->source, sizeof(e->source)) ||
	    get_str(line, "from", e->from, sizeof(e->from)) ||
	    get_str(line, "to", e->to, sizeof(e->to)))
		return -1;
	if (!e->port[0] || !e->kind[0])
		return -1;
	v = get_raw(line, "delta");
	if (!v || *v < '0' || *v > '9')
		return -1;
	errno = 0;
	e->delta = strtoull(v, &end, 10);
	if (errno || (*end != ',' && *end != '}'))
		return -1;
	return 0;
}

/* mkdir -p of path's directory. */
static int make_dirs(const char *path, char *err, size_t errlen)
{
	char d[512];
	char *p;

	snprintf(d, sizeof(d), "%s", path);
	p = strrchr(d, '/');
	if (!p || p == d)
		return 0;
	*p = '\0';
	for (p = d + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdir(d, 0700) && errno != EEXIST) {
				snprintf(err, errlen, "cannot create %s: %s", d, strerror(errno));
				return -1;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	return 0;
}

int events_append(const char *path, const struct port_event *e, char *err,
		  size_t errlen)
{
	char line[512], old[600];
	struct stat st;
	int fd, n;
	ssize_t w;

	if (make_dirs(path, err, errlen))
		return -1;
	if (!stat(path, &st) && st.st_size > EVENTS_MAX_BYTES) {
		snprintf(old, sizeof(old), "%s.1", path);
		if (rename(path, old)) {
			snprintf(err, errlen, "cannot rotate %s: %s", path, strerror(errno));
			return -1;
		}
	}
	n = events_format(e, line, sizeof(line) - 1);
	if (n < 0 || n >= (int)sizeof(line) - 1) {
		snprintf(err, errlen, "event line too long");
		return -1;
	}
	line[n++] = '\n';
	/* O_APPEND: one write() per line, so two processes recording at
	 * once interleave whole lines. */
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	w = write(fd, line, (size_t)n);
	if (w != n) {
		snprintf(err, errlen, "cannot write %s: %s", path,
			 w < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	if (close(fd)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int load_one(const char *path, double since, struct port_event *out,
		    int max, int *n, int *bad, char *err, size_t errlen)
{
	char line[1024];
	FILE *f = fopen(path, "re");

	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct port_event e;

		if (events_parse(line, &e)) {
			(*bad)++;
			continue;
		}
		if (e.t < since)
			continue;
		if (*n == max) {	/* keep the newest max */
			memmove(out, out + 1, (size_t)(max - 1) * sizeof(*out));
			(*n)--;
		}
		out[(*n)++] = e;
	}
	fclose(f);
	return 0;
}

int events_load(const char *path, double since, struct port_event *out,
		int max, int *bad, char *err, size_t errlen)
{
	char old[600];
	int n = 0;

	*bad = 0;
	if (max <= 0)
		return 0;
	snprintf(old, sizeof(old), "%s.1", path);
	if (load_one(old, since, out, max, &n, bad, err, errlen) ||
	    load_one(path, since, out, max, &n, bad, err, errlen))
		return -1;
	return n;
}

static void state_text(char *buf, size_t len, int state, int phys)
{
	if (phys)
		snprintf(buf, len, "%s/%s", port_state_name(state), port_phys_state_name(phys));
	else
		snprintf(buf, len, "%s", port_state_name(state));
}

bool events_track(struct port_track *tr, const char *port, int state,
		  int phys, double t, struct port_event *e)
{
	bool changed;

	if (!state)
		return false;	/* nothing learnt from this poll */
	changed = tr->state && (tr->state != state || (phys && tr->phys && tr->phys != phys));
	if (changed) {
		memset(e, 0, sizeof(*e));
		e->t = t;
		snprintf(e->port, sizeof(e->port), "%s", port);
		snprintf(e->kind, sizeof(e->kind), "state");
		snprintf(e->source, sizeof(e->source), "poll");
		state_text(e->from, sizeof(e->from), tr->state, tr->phys);
		state_text(e->to, sizeof(e->to), state, phys);
	}
	snprintf(tr->port, sizeof(tr->port), "%s", port);
	tr->state = state;
	if (phys)
		tr->phys = phys;
	return changed;
}

bool events_from_counter(const char *port, const char *counter,
			 uint64_t delta, double t, struct port_event *e)
{
	const char *kind;

	if (!delta)
		return false;
	if (!strcmp(counter, "LinkDownedCounter"))
		kind = "link_downed";
	else if (!strcmp(counter, "LinkErrorRecoveryCounter"))
		kind = "link_error_recovery";
	else
		return false;
	memset(e, 0, sizeof(*e));
	e->t = t;
	snprintf(e->port, sizeof(e->port), "%s", port);
	snprintf(e->kind, sizeof(e->kind), "%s", kind);
	snprintf(e->source, sizeof(e->source), "counter");
	e->delta = delta;
	return true;
}

/* The port's own SMA: live on real hardware and on ibsim, whose fake
 * sysfs is written once when the process starts. */
static int poll_smp(const char *dev, int port, int *state, int *phys)
{
	int classes[] = { IB_SMI_DIRECT_CLASS };
	uint8_t pi[IB_SMP_DATA_SIZE] = { 0 };
	struct smp_agent a;
	ib_portid_t self;
	int fd;

	/* probe quietly: libibmad prints to stderr when the open fails */
	fd = umad_open_port((char *)dev, port);
	if (fd < 0)
		return -1;
	umad_close_port(fd);
	if (smp_agent_open(&a, dev, port, classes, 1, POLL_SMP_TIMEOUT_MS, 1))
		return -1;
	memset(&self, 0, sizeof(self));	/* directed route, zero hops */
	if (!smp_agent_query(&a, pi, &self, IB_ATTR_PORT_INFO, (unsigned)port)) {
		smp_agent_close(&a);
		return -1;
	}
	smp_agent_close(&a);
	*state = (int)mad_get_field(pi, 0, IB_PORT_STATE_F);
	*phys = (int)mad_get_field(pi, 0, IB_PORT_PHYS_STATE_F);
	return *state ? 0 : -1;
}

int events_poll_state(const char *dev, int port, bool no_smp, int *state,
		      int *phys)
{
	char ll[32] = "";
	long v;

	*state = *phys = 0;
	/* RoCE ports have no SMA; sysfs' link_layer is absent on ibsim */
	if (sysfs_read(ll, sizeof(ll), IBDIR "/%s/ports/%d/link_layer", dev, port))
		ll[0] = '\0';
	if (!no_smp && sysfs_is_real_root() && strcmp(ll, "Ethernet") && poll_smp(dev, port, state, phys) == 0)
		return 0;
	if (!sysfs_read_long(&v, IBDIR "/%s/ports/%d/state", dev, port))
		*state = (int)v;
	if (!sysfs_read_long(&v, IBDIR "/%s/ports/%d/phys_state", dev, port))
		*phys = (int)v;
	return *state ? 0 : -1;
}

void events_json(struct json *j, const struct port_event *e)
{
	char when[40];
	bool counter = !strcmp(e->source, "counter");

	events_iso(e->t, when, sizeof(when));
	json_obj_begin(j, NULL);
	json_str(j, "time", when);
	json_u64(j, "t_ms", (uint64_t)(e->t * 1000.0 + 0.5));	/* Unix ms */
	json_str(j, "port", e->port);
	json_str(j, "event", e->kind);
	json_str(j, "source", e->source);
	json_str(j, "from", e->from[0] ? e->from : NULL);
	json_str(j, "to", e->to[0] ? e->to : NULL);
	if (counter)
		json_u64(j, "delta", e->delta);
	else
		json_null(j, "delta");
	json_obj_end(j);
}

void events_text(const struct port_event *e, char *buf, size_t len)
{
	char when[40];

	events_iso(e->t, when, sizeof(when));
	if (!strcmp(e->source, "counter"))
		snprintf(buf, len, "%s %s %s +%llu (counter)", when, e->port,
			 e->kind, (unsigned long long)e->delta);
	else if (e->from[0] || e->to[0])
		snprintf(buf, len, "%s %s %s %s -> %s (%s)", when, e->port, e->kind,
			 e->from[0] ? e->from : "?", e->to[0] ? e->to : "?", e->source);
	else
		snprintf(buf, len, "%s %s %s (%s)", when, e->port, e->kind, e->source);
}

int events_parse_since(const char *s, double now, double *since)
{
	static const struct { char suffix; double mult; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	};
	struct tm tm;
	const char *end;
	char *e;
	double v;
	time_t t;

	if (!s || !*s)
		return -1;
	if (strlen(s) < 10 || s[4] != '-') {	/* not a date: a duration */
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v = strtod(s, &e);
		if (errno || e == s || !(v >= 0) || v > 1e9)
			return -1;
		if (*e) {
			int k;

			for (k = 0; k < 4 && units[k].suffix != *e; k++)
				;
			if (k == 4 || e[1])
				return -1;
			v *= units[k].mult;
		}
		*since = now - v;
		return 0;
	}
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%d", &tm);
	if (!end)
		return -1;
	if (*end == 'T' || *end == ' ') {
		const char *p = strptime(end + 1, "%H:%M:%S", &tm);

		if (!p)
			p = strptime(end + 1, "%H:%M", &tm);
		if (!p)
			return -1;
		end = p;
	}
	if (!strcmp(end, "Z")) {
		t = timegm(&tm);
	} else if (!*end) {
		tm.tm_isdst = -1;
		t = mktime(&tm);
	} else {
		return -1;
	}
	if (t == (time_t)-1)
		return -1;
	*since = (double)t;
	return 0;
}
