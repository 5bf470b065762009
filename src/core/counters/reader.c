// SPDX-License-Identifier: MIT
/* Counter sampling over targets: one PMA client per local port, opened on
 * first use; sysfs for RoCE ports and fixture trees. */
#include "config.h"
#include "core/counters/reader.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mad.h>

#include "core/base/sysfs.h"
#include "core/base/umadlock.h"

#define CTRS_CLIENTS 8

struct ctr_client {
	char dev[64];
	int port;
	struct pma_client *c;
	/* A query went unanswered: its answer (or a retry's) may still
	 * come. good_lid/good_port: the last target that answered. */
	bool late;
	unsigned good_lid;
	int good_port;
};

struct ctr_reader {
	struct ctr_client cl[CTRS_CLIENTS];
	int ncl;
};

struct ctr_reader *reader_open(void)
{
	return calloc(1, sizeof(struct ctr_reader));
}

/* The client's time-out (client_for); a fence answered sooner than this
 * was sent once. */
#define READER_TIMEOUT_MS 500

/*
 * Under ibsim's umad2sim preload an answer that arrives after its agent
 * closed crashes the process (umadlock.h): a client whose queries were
 * late is closed only after a fence, a ClassPortInfo Get to a LID that
 * answered before, or else parked.
 */
static int client_fence(void *arg)
{
	struct ctr_client *k = arg;
	uint8_t buf[IB_PC_DATA_SZ];
	char why[200];
	long own = 0;

	/* none answered yet: the local port's own PMA */
	if (!k->good_lid && !sysfs_read_long(&own, "/sys/class/infiniband/%s/ports/%d/lid", k->dev, k->port) &&
	    own > 0 && own < 0xc000) {
		k->good_lid = (unsigned)own;
		k->good_port = k->port;
	}
	if (!k->good_lid)
		return -1;
	return pma_get(k->c, k->good_lid, k->good_port, CLASS_PORT_INFO, buf, why, sizeof(why));
}

static void close_pma(void *c)
{
	pma_close(c);
}

static void client_close(struct ctr_client *k)
{
	umadlock_let_go(k->c, close_pma, umadlock_fenced(k->late, READER_TIMEOUT_MS, client_fence, k));
}

/* The outcome of one query on client k: answered or not. */
static void client_note(struct ctr_client *k, unsigned lid, int port, bool answered)
{
	if (!answered) {
		k->late = true;
	} else {
		k->good_lid = lid;
		k->good_port = port;
	}
}

/* A run of queries on k that began at t0 has ended: one that took the
 * time-out or longer may have sent a retry, whose answer may still come
 * though the query itself was answered. */
static void client_ran(struct ctr_client *k, double t0)
{
	if (counters_now() - t0 >= READER_TIMEOUT_MS / 1000.0)
		k->late = true;
}

void reader_release(struct ctr_reader *s)
{
	for (int i = 0; i < s->ncl; i++)
		client_close(&s->cl[i]);
	s->ncl = 0;
}

void reader_close(struct ctr_reader *s)
{
	if (!s)
		return;
	reader_release(s);
	free(s);
}

static bool is_ib(const struct port_info *p)
{
	return strcmp(p->link_layer, "Ethernet") != 0;
}

int reader_targets_local(const struct snapshot *s, struct ctr_target *t, int max)
{
	int n = 0;

	for (int i = 0; i < s->nports && n < max; i++) {
		const struct port_info *p = &s->ports[i];
		struct ctr_target *x = &t[n++];

		memset(x, 0, sizeof(*x));
		/* device names are at most 63 bytes; the port number keeps room */
		snprintf(x->label, sizeof(x->label), "%.50s/%d", p->dev, p->port);
		snprintf(x->dev, sizeof(x->dev), "%s", p->dev);
		x->port = p->port;
		x->pma_port = p->port;
		if (is_ib(p) && sysfs_is_real_root() && p->lid && !p->mad_why[0])
			x->lid = p->lid;
		snprintf(x->no_mad, sizeof(x->no_mad), "%s", p->mad_why);
		snprintf(x->netdev, sizeof(x->netdev), "%s", p->netdev);
		x->node_type = 1;	/* a local port: the host's channel adapter */
		x->lanes = port_width_lanes(p->width_active);
	}
	return n;
}

double reader_target_lane_gbps(const struct snapshot *s, const struct ctr_target *t)
{
	for (int k = 0; !t->remote && k < s->nports; k++)
		if (!strcmp(s->ports[k].dev, t->dev) && s->ports[k].port == t->port)
			return port_lane_data_gbps(s->ports[k].speed_name);
	return 0;
}

int reader_target_peer(const struct port_info *p, struct ctr_target *t)
{
	memset(t, 0, sizeof(*t));
	if (!is_ib(p) || !sysfs_is_real_root() || !p->lid || !p->peer.v.valid ||
	    !p->peer.lid || p->peer.port <= 0)
		return -1;
	snprintf(t->label, sizeof(t->label), "%.40s port %d", p->peer.name[0] ?
		 p->peer.name : "neighbour", p->peer.port);
	snprintf(t->dev, sizeof(t->dev), "%.31s", p->dev);
	t->port = p->port;
	t->lid = p->peer.lid;
	t->pma_port = p->peer.port;
	t->remote = true;
	t->node_type = p->peer.type;
	t->vendid = p->peer.vendid;
	t->devid = p->peer.devid;
	t->lanes = port_width_lanes(p->width_active);	/* the same cable */
	return 0;
}

int reader_remote_count(const char *spec)
{
	int n = *spec != 0;

	for (const char *q = spec; *q; q++)
		n += *q == ',' && q[1];
	return n;
}

int reader_targets_remote(const char *spec, const struct snapshot *s,
			struct ctr_target *t, int max, char *err, size_t errlen)
{
	const struct port_info *via = NULL;
	const char *q = spec;
	int n = 0;

	for (int i = 0; i < s->nports; i++)
		if (is_ib(&s->ports[i]) && s->ports[i].lid) {
			via = &s->ports[i];
			break;
		}
	if (!via) {
		snprintf(err, errlen, "no local InfiniBand port with a LID to reach --lid %s from — check the port is Active and an SM has run", spec);
		return -1;
	}
	if (reader_remote_count(spec) > max) {
		snprintf(err, errlen, "--lid names %d ports, more than the %d this run can take — watch fewer ports per run",
			 reader_remote_count(spec), max);
		return -1;
	}
	while (*q && n < max) {
		char *end;
		/* decimal, or 0x hex as LIDs are also written; never octal
		 * (strtoul's base 0 reads "010" as 8) */
		bool hex = q[0] == '0' && (q[1] == 'x' || q[1] == 'X');
		unsigned long lid = strtoul(q, &end, hex ? 16 : 10), port = 1;
		struct ctr_target *x;

		/* strtoul takes "-1" as ULONG_MAX: digits only */
		if (!isdigit((unsigned char)*q) || end == q || !lid || lid > 0xbfff)
			goto bad;
		q = end;
		if (*q == ':') {
			port = strtoul(q + 1, &end, 10);
			if (!isdigit((unsigned char)q[1]) || end == q + 1 || port > 254)
				goto bad;
			q = end;
		}
		if (*q == ',')
			q++;
		else if (*q)
			goto bad;
		x = &t[n++];
		memset(x, 0, sizeof(*x));
		snprintf(x->label, sizeof(x->label), "lid %lu port %lu", lid, port);
		snprintf(x->dev, sizeof(x->dev), "%s", via->dev);
		x->port = via->port;
		x->lid = (unsigned)lid;
		x->pma_port = (int)port;
		x->remote = true;
	}
	return n;
bad:
	snprintf(err, errlen, "bad --lid '%s' — give LID[:PORT][,LID[:PORT]…], e.g. 3:1", spec);
	return -1;
}

static struct ctr_client *client_for(struct ctr_reader *s,
				     const struct ctr_target *t, char *err,
				     size_t errlen)
{
	struct ctr_client *k;
	struct pma_client *c;

	for (int i = 0; i < s->ncl; i++)
		if (!strcmp(s->cl[i].dev, t->dev) && s->cl[i].port == t->port)
			return &s->cl[i];
	if (s->ncl >= CTRS_CLIENTS) {
		snprintf(err, errlen, "too many local ports in use");
		return NULL;
	}
	c = pma_open(t->dev, t->port, READER_TIMEOUT_MS, err, errlen);
	if (!c)
		return NULL;
	k = &s->cl[s->ncl++];
	memset(k, 0, sizeof(*k));
	snprintf(k->dev, sizeof(k->dev), "%s", t->dev);
	k->port = t->port;
	k->c = c;
	return k;
}

int reader_read_many(struct ctr_reader *s, const struct ctr_target *t,
		     struct counter_set *cs, int n)
{
	struct pma_sample_req *q = NULL;
	bool *done = calloc((size_t)n + 1, sizeof(*done));
	int bad = 0;

	if (n > 0)
		q = calloc((size_t)n, sizeof(*q));
	for (int i = 0; i < n; i++) {
		memset(&cs[i], 0, offsetof(struct counter_set, c));
		counters_copy_str(cs[i].label, sizeof(cs[i].label), t[i].label);
		counters_copy_str(cs[i].no_mad, sizeof(cs[i].no_mad), t[i].no_mad);
		if (!q || !done) {
			snprintf(cs[i].why, sizeof(cs[i].why), "out of memory");
			bad++;
		} else if (!t[i].lid) {
			bad += counters_sysfs_sample(t[i].dev, t[i].port, t[i].netdev, &cs[i]) != 0;
			done[i] = true;
		}
	}
	/* the PMA targets, one round per local port they leave from */
	for (int i = 0; q && done && i < n; i++) {
		struct ctr_client *c;
		double t0;
		int m = 0;

		if (done[i])
			continue;
		c = client_for(s, &t[i], cs[i].why, sizeof(cs[i].why));
		for (int k = i; k < n; k++) {
			if (done[k] || strcmp(t[k].dev, t[i].dev) || t[k].port != t[i].port)
				continue;
			done[k] = true;
			if (!c) {
				if (k != i)
					snprintf(cs[k].why, sizeof(cs[k].why), "%s", cs[i].why);
				bad++;
				continue;
			}
			q[m].lid = t[k].lid;
			q[m].port = t[k].pma_port;
			q[m++].cs = &cs[k];
			if (!t[k].remote)
				counters_copy_str(cs[k].dev, sizeof(cs[k].dev), t[k].dev);
		}
		t0 = counters_now();
		if (m && pma_sample_many(c->c, q, m))
			for (int k = 0; k < m; k++)
				bad += !q[k].cs->valid;
		for (int k = 0; k < m; k++)
			client_note(c, q[k].lid, q[k].port, q[k].cs->valid);
		if (c)
			client_ran(c, t0);
	}
	free(q);
	free(done);
	return bad ? -1 : 0;
}

int reader_read(struct ctr_reader *s, const struct ctr_target *t,
		struct counter_set *cs)
{
	return reader_read_many(s, t, cs, 1);
}

int reader_pma_get(struct ctr_reader *s, const struct ctr_target *t, int attr,
		   uint8_t *out, char *why, size_t whylen)
{
	struct ctr_client *c;
	double t0;
	int rc;

	if (!t->lid) {
		snprintf(why, whylen, "%s is read from sysfs: no PMA", t->label);
		return -1;
	}
	c = client_for(s, t, why, whylen);
	if (!c)
		return -1;
	t0 = counters_now();
	rc = pma_get(c->c, t->lid, t->pma_port, attr, out, why, whylen);
	client_note(c, t->lid, t->pma_port, !rc);
	client_ran(c, t0);
	return rc;
}

int reader_pma_get_many(struct ctr_reader *s, const struct ctr_target *t, int n,
			int attr, uint8_t *out, int *ok)
{
	struct pma_sample_req *q = calloc((size_t)n + 1, sizeof(*q));
	int *idx = calloc((size_t)n + 1, sizeof(*idx)), *st = calloc((size_t)n + 1, sizeof(*st));
	uint8_t *buf = calloc((size_t)n + 1, IB_PC_DATA_SZ);
	bool *done = calloc((size_t)n + 1, sizeof(*done));
	int rc = q && idx && st && buf && done ? 0 : -1;

	for (int i = 0; i < n; i++)
		ok[i] = 0;
	/* one pipelined run per local port the targets leave from */
	for (int i = 0; !rc && i < n; i++) {
		struct ctr_client *c;
		char why[200];
		double t0;
		int m = 0;

		if (done[i] || !t[i].lid)
			continue;
		c = client_for(s, &t[i], why, sizeof(why));
		for (int k = i; k < n; k++) {
			if (done[k] || !t[k].lid || strcmp(t[k].dev, t[i].dev) || t[k].port != t[i].port)
				continue;
			done[k] = true;
			q[m].lid = t[k].lid;
			q[m].port = t[k].pma_port;
			idx[m++] = k;
		}
		if (!c)
			continue;
		t0 = counters_now();
		if (pma_get_many(c->c, q, m, attr, buf, st) < 0) {
			c->late = true;
			continue;
		}
		for (int k = 0; k < m; k++)
			client_note(c, q[k].lid, q[k].port, st[k] >= 0);
		client_ran(c, t0);
		for (int k = 0; k < m; k++)
			if (!st[k]) {
				ok[idx[k]] = 1;
				memcpy(out + (size_t)idx[k] * IB_PC_DATA_SZ, buf + (size_t)k * IB_PC_DATA_SZ,
				       IB_PC_DATA_SZ);
			}
	}
	free(q);
	free(idx);
	free(st);
	free(buf);
	free(done);
	return rc;
}

int reader_clear(struct ctr_reader *s, const struct ctr_target *t, char *err,
	       size_t errlen)
{
	struct ctr_client *c;
	double t0;
	int rc;

	if (!t->lid) {
		snprintf(err, errlen, "%s: counters are read from sysfs and cannot be cleared from here", t->label);
		return -1;
	}
	c = client_for(s, t, err, errlen);
	if (!c)
		return -1;
	t0 = counters_now();
	rc = pma_clear(c->c, t->lid, t->pma_port, err, errlen);
	client_note(c, t->lid, t->pma_port, !rc);
	client_ran(c, t0);
	return rc;
}
