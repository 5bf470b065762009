// SPDX-License-Identifier: MIT
/* accept.json of `accept --hosts` read back through the JSON
 * scanner: the hosts come before the pairs in the file, so each pair's
 * host names resolve as they are read. */
#include "config.h"
#include "core/accept/acceptres.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/base/jsonscan.h"
#include "core/base/parse.h"

#define ACCEPTRES_MAX_BYTES (64 << 20)

struct take_ctx {
	struct acceptres *r;
	int maxpairs;
	bool schema, hosts_mode;
	char bad[160];		/* the first inconsistency found */
};

/* Text for the screen: control characters (a \n escape, a stray ESC)
 * would move the cursor, so they become '?'. */
static void copy_clean(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
	for (char *c = dst; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

static int host_index(const struct acceptres *r, const char *name)
{
	for (int i = 0; i < r->nhosts; i++)
		if (!strcmp(r->host[i], name))
			return i;
	return -1;
}

static void take_pair(struct take_ctx *x, int i, const char *field, const char *val, bool is_str)
{
	struct acceptres *r = x->r;
	struct acceptres_pair *p;
	bool null = !is_str && !strcmp(val, "null");

	if (i < 0 || i >= x->maxpairs) {
		if (!x->bad[0])
			snprintf(x->bad, sizeof(x->bad), "more pairs than %d hosts have", r->nhosts);
		return;
	}
	/* the hosts came first: as many pairs as they can have */
	if (!r->pairs && !(r->pairs = calloc((size_t)x->maxpairs, sizeof(*r->pairs)))) {
		snprintf(x->bad, sizeof(x->bad), "out of memory");
		return;
	}
	p = &r->pairs[i];
	if (i >= r->npairs) {
		for (int k = r->npairs; k <= i; k++)
			r->pairs[k].a = r->pairs[k].b = -1;
		r->npairs = i + 1;
	}
	if ((!strcmp(field, "a") || !strcmp(field, "b")) && is_str) {
		char name[sizeof(r->host[0])];
		int h;

		copy_clean(name, sizeof(name), val);
		h = host_index(r, name);

		if (h < 0 && !x->bad[0])
			snprintf(x->bad, sizeof(x->bad), "pair %d names a host not in the hosts list", i + 1);
		*(field[0] == 'a' ? &p->a : &p->b) = h;
	} else if (!strcmp(field, "verdict") && is_str) {
		p->bad = !strcmp(val, "bad");
	} else if (!strcmp(field, "bw_gbps") && !null) {
		p->ok = true;
		p->bw_gbps = strtod(val, NULL);
	} else if (!strcmp(field, "lat_p99_us") && !null) {
		p->lat_p99_us = strtod(val, NULL);
	} else if ((!strcmp(field, "why") || (!strcmp(field, "error") && !p->why[0])) && is_str) {
		copy_clean(p->why, sizeof(p->why), val);
	} else if (!strcmp(field, "retested")) {
		p->retested = !strcmp(val, "true");
	}
}

static void take(void *arg, const char *path, const char *val, bool is_str)
{
	struct take_ctx *x = arg;
	struct acceptres *r = x->r;
	char field[64];
	int i;

	if (!strcmp(path, "schema"))
		x->schema = is_str && !strcmp(val, "ibconsole/accept/1");
	else if (!strcmp(path, "mode"))
		x->hosts_mode = is_str && !strcmp(val, "hosts");
	else if (!strcmp(path, "time") && is_str)
		copy_clean(r->time, sizeof(r->time), val);
	else if (!strcmp(path, "bw_op") && is_str)
		copy_clean(r->bw_op, sizeof(r->bw_op), val);
	else if (!strcmp(path, "bw_size_bytes") && !is_str)
		r->bw_size = strtoull(val, NULL, 10);
	else if (!strcmp(path, "accept_pct") && !is_str)
		r->accept_pct = strtod(val, NULL);
	else if (!strcmp(path, "fleet_bw_pct") && !is_str)
		r->fleet_bw_pct = strtod(val, NULL);
	else if (sscanf(path, "hosts[%d].%63s", &i, field) == 2) {
		if (i < 0 || i >= HOSTLIST_MAX) {
			if (!x->bad[0])
				snprintf(x->bad, sizeof(x->bad), "more than %d hosts", HOSTLIST_MAX);
			return;
		}
		if (r->pairs) {
			if (!x->bad[0])
				snprintf(x->bad, sizeof(x->bad), "a host after the pairs");
			return;
		}
		if (i >= r->nhosts)
			r->nhosts = i + 1;
		x->maxpairs = r->nhosts * (r->nhosts - 1) / 2;
		if (!strcmp(field, "host") && is_str)
			copy_clean(r->host[i], sizeof(r->host[i]), val);
		else if (!strcmp(field, "bad"))
			r->host_bad[i] = !strcmp(val, "true");
		else if (!strcmp(field, "evidence") && is_str)
			copy_clean(r->host_why[i], sizeof(r->host_why[i]), val);
	} else if (sscanf(path, "pairs[%d].%63s", &i, field) == 2) {
		take_pair(x, i, field, val, is_str);
	}
}

struct acceptres *acceptres_load(const char *path, char *err, size_t errlen)
{
	struct acceptres *r = calloc(1, sizeof(*r));
	struct take_ctx x = { .r = r };
	struct stat st;
	char why[200] = "";
	char *text = NULL;
	size_t len = 0;

	if (!r) {
		snprintf(err, errlen, "cannot read the acceptance results: out of memory — close other programs and retry");
		acceptres_free(r);
		return NULL;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		snprintf(r->path, sizeof(r->path), "%s/accept.json", path);
	else
		snprintf(r->path, sizeof(r->path), "%s", path);
	r->accept_pct = r->fleet_bw_pct = -1;
	text = parse_slurp(r->path, ACCEPTRES_MAX_BYTES, &len, why, sizeof(why));
	if (text && !json_scan(text, len, take, &x, why, sizeof(why))) {
		if (!x.schema || !x.hosts_mode)
			snprintf(why, sizeof(why), "not the results of accept --hosts (schema ibconsole/accept/1, mode hosts)");
		else if (x.bad[0])
			snprintf(why, sizeof(why), "%s", x.bad);
		else if (r->nhosts < 2)
			snprintf(why, sizeof(why), "fewer than two hosts");
		else
			why[0] = '\0';
		for (int i = 0; !why[0] && i < r->npairs; i++)
			if (r->pairs[i].a < 0 || r->pairs[i].b < 0)
				snprintf(why, sizeof(why), "pair %d lacks a host", i + 1);
	}
	free(text);
	if (why[0]) {
		snprintf(err, errlen, "cannot read %s: %s — give the results directory that accept --hosts wrote (accept.json inside)",
			 r->path, why);
		acceptres_free(r);
		return NULL;
	}
	return r;
}

void acceptres_free(struct acceptres *r)
{
	if (!r)
		return;
	free(r->pairs);
	free(r);
}

const struct acceptres_pair *acceptres_pair_of(const struct acceptres *r, int a, int b)
{
	for (int i = 0; i < r->npairs; i++)
		if ((r->pairs[i].a == a && r->pairs[i].b == b) || (r->pairs[i].a == b && r->pairs[i].b == a))
			return &r->pairs[i];
	return NULL;
}

double acceptres_best_gbps(const struct acceptres *r)
{
	double best = 0;

	for (int i = 0; i < r->npairs; i++)
		if (r->pairs[i].ok && r->pairs[i].bw_gbps > best)
			best = r->pairs[i].bw_gbps;
	return best;
}
