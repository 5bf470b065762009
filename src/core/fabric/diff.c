// SPDX-License-Identifier: MIT
/* Compare two fabrics by node GUID and (GUID, port) link ends: what
 * disappeared, what appeared, which links changed width or speed. */
#include "config.h"
#include "core/fabric/diff.h"

#include <stdlib.h>
#include <string.h>

struct lkey {
	uint64_t ga, gb;
	int pa, pb;
	int link;
};

/* -1, 0, 1 without subtracting (port numbers read from a file could be
 * anything, and INT_MIN - 1 overflows) */
static int icmp(int a, int b)
{
	return (a > b) - (a < b);
}

static int lkey_cmp(const void *x, const void *y)
{
	const struct lkey *a = x, *b = y;

	if (a->ga != b->ga)
		return a->ga < b->ga ? -1 : 1;
	if (a->pa != b->pa)
		return icmp(a->pa, b->pa);
	if (a->gb != b->gb)
		return a->gb < b->gb ? -1 : 1;
	return icmp(a->pb, b->pb);
}

struct nkey {
	uint64_t guid;
	int node;
};

static int nkey_cmp(const void *x, const void *y)
{
	const struct nkey *a = x, *b = y;

	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

static struct lkey *link_keys(const struct fabric *f)
{
	struct lkey *k = calloc((size_t)f->nlinks + 1, sizeof(*k));

	if (!k)
		return NULL;
	for (int i = 0; i < f->nlinks; i++) {
		const struct fab_port *a = &f->ports[f->links[i].a];
		const struct fab_port *b = &f->ports[f->links[i].b];

		k[i] = (struct lkey){ f->nodes[a->node].guid, f->nodes[b->node].guid,
				      a->portnum, b->portnum, i };
	}
	qsort(k, (size_t)f->nlinks, sizeof(*k), lkey_cmp);
	return k;
}

static struct nkey *node_keys(const struct fabric *f)
{
	struct nkey *k = calloc((size_t)f->nnodes + 1, sizeof(*k));

	if (!k)
		return NULL;
	for (int i = 0; i < f->nnodes; i++)
		k[i] = (struct nkey){ f->nodes[i].guid, i };
	qsort(k, (size_t)f->nnodes, sizeof(*k), nkey_cmp);
	return k;
}

static struct fdiff_entry *fdiff_add(struct fdiff *d, enum fdiff_kind kind)
{
	if (d->n == d->cap) {
		int ncap = d->cap ? d->cap * 2 : 16;
		void *p = realloc(d->e, (size_t)ncap * sizeof(*d->e));

		if (!p)
			return NULL;
		d->e = p;
		d->cap = ncap;
	}
	memset(&d->e[d->n], 0, sizeof(d->e[d->n]));
	d->e[d->n].kind = kind;
	return &d->e[d->n++];
}

static void fill_link(struct fdiff_entry *e, const struct fabric *f, int link)
{
	const struct fab_port *a = &f->ports[f->links[link].a];
	const struct fab_port *b = &f->ports[f->links[link].b];

	e->guid_a = f->nodes[a->node].guid;
	e->guid_b = f->nodes[b->node].guid;
	e->port_a = a->portnum;
	e->port_b = b->portnum;
	snprintf(e->name_a, sizeof(e->name_a), "%s", f->nodes[a->node].name);
	snprintf(e->name_b, sizeof(e->name_b), "%s", f->nodes[b->node].name);
}

static void link_rate(const struct fabric *f, int link, char *buf, size_t len)
{
	fabric_rate_token(&f->ports[f->links[link].a], buf, len);
}

static int entry_order(const void *x, const void *y)
{
	const struct fdiff_entry *a = x, *b = y;

	if (a->kind != b->kind)
		return icmp((int)a->kind, (int)b->kind);
	if (a->guid_a != b->guid_a)
		return a->guid_a < b->guid_a ? -1 : 1;
	return icmp(a->port_a, b->port_a);
}

int fabric_diff(const struct fabric *old, const struct fabric *cur, struct fdiff *d)
{
	struct lkey *lo = link_keys(old), *lc = link_keys(cur);
	struct nkey *no = node_keys(old), *nc = node_keys(cur);
	struct fdiff_entry *e;
	int i = 0, j = 0, rc = -1;

	memset(d, 0, sizeof(*d));
	if (!lo || !lc || !no || !nc)
		goto out;
	while (i < old->nlinks || j < cur->nlinks) {
		int c = i >= old->nlinks ? 1 : j >= cur->nlinks ? -1 :
			lkey_cmp(&lo[i], &lc[j]);

		if (c < 0) {
			if (!(e = fdiff_add(d, FDIFF_LINK_GONE)))
				goto out;
			fill_link(e, old, lo[i].link);
			link_rate(old, lo[i++].link, e->old_rate, sizeof(e->old_rate));
		} else if (c > 0) {
			if (!(e = fdiff_add(d, FDIFF_LINK_NEW)))
				goto out;
			fill_link(e, cur, lc[j].link);
			link_rate(cur, lc[j++].link, e->new_rate, sizeof(e->new_rate));
		} else {
			char ro[16], rn[16];

			link_rate(old, lo[i].link, ro, sizeof(ro));
			link_rate(cur, lc[j].link, rn, sizeof(rn));
			/* a side that does not know the rate is no change */
			if (ro[0] && rn[0] && strcmp(ro, rn)) {
				if (!(e = fdiff_add(d, FDIFF_LINK_RATE)))
					goto out;
				fill_link(e, cur, lc[j].link);
				snprintf(e->old_rate, sizeof(e->old_rate), "%s", ro);
				snprintf(e->new_rate, sizeof(e->new_rate), "%s", rn);
			}
			i++;
			j++;
		}
	}
	for (i = j = 0; i < old->nnodes || j < cur->nnodes;) {
		int c = i >= old->nnodes ? 1 : j >= cur->nnodes ? -1 :
			nkey_cmp(&no[i], &nc[j]);
		const struct fab_node *n;

		if (c == 0) {
			i++;
			j++;
			continue;
		}
		n = c < 0 ? &old->nodes[no[i++].node] : &cur->nodes[nc[j++].node];
		if (!(e = fdiff_add(d, c < 0 ? FDIFF_NODE_GONE : FDIFF_NODE_NEW)))
			goto out;
		e->guid_a = n->guid;
		snprintf(e->name_a, sizeof(e->name_a), "%s", n->name);
		snprintf(e->old_rate, sizeof(e->old_rate), "%s", fabric_type_name(n->type));
	}
	if (d->n)	/* d->e is NULL when nothing changed */
		qsort(d->e, (size_t)d->n, sizeof(*d->e), entry_order);
	rc = 0;
out:
	free(lo);
	free(lc);
	free(no);
	free(nc);
	if (rc)
		fdiff_free(d);
	return rc;
}

void fdiff_free(struct fdiff *d)
{
	free(d->e);
	memset(d, 0, sizeof(*d));
}

const char *fdiff_kind_name(enum fdiff_kind k)
{
	switch (k) {
	case FDIFF_LINK_GONE: return "link_gone";
	case FDIFF_LINK_NEW: return "link_new";
	case FDIFF_LINK_RATE: return "link_rate";
	case FDIFF_NODE_GONE: return "node_gone";
	case FDIFF_NODE_NEW: return "node_new";
	}
	return "?";
}

char *fdiff_describe(const struct fdiff_entry *e, char *buf, size_t len)
{
	switch (e->kind) {
	case FDIFF_LINK_GONE:
		snprintf(buf, len, "link gone: \"%s\"[%d] <-> \"%s\"[%d] (was %s)",
			 e->name_a, e->port_a, e->name_b, e->port_b,
			 e->old_rate[0] ? e->old_rate : "rate unknown");
		break;
	case FDIFF_LINK_NEW:
		snprintf(buf, len, "link new: \"%s\"[%d] <-> \"%s\"[%d] (%s)",
			 e->name_a, e->port_a, e->name_b, e->port_b,
			 e->new_rate[0] ? e->new_rate : "rate unknown");
		break;
	case FDIFF_LINK_RATE:
		snprintf(buf, len, "link rate changed: \"%s\"[%d] <-> \"%s\"[%d] %s -> %s",
			 e->name_a, e->port_a, e->name_b, e->port_b,
			 e->old_rate, e->new_rate);
		break;
	case FDIFF_NODE_GONE:
	case FDIFF_NODE_NEW:
		snprintf(buf, len, "node %s: %s \"%s\" (0x%016llx)",
			 e->kind == FDIFF_NODE_GONE ? "gone" : "new", e->old_rate,
			 e->name_a, (unsigned long long)e->guid_a);
		break;
	}
	return buf;
}
