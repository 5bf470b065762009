// SPDX-License-Identifier: MIT
/* Swept ports' counter texts kept from sweep to sweep (see porttext.h). */
#include "config.h"
#include "core/export/porttext.h"

#include <stdlib.h>
#include <string.h>

#include "core/fabric/sweep.h"

void porttexts_free(struct porttexts *pt)
{
	for (int i = 0; pt->t && i < pt->n; i++) {
		free(pt->t[i].p);
		free(pt->t[i].off);
	}
	for (int k = 0; pt->sect && k < pt->nsect; k++)
		expo_free(&pt->sect[k]);
	free(pt->t);
	free(pt->sect);
	free(pt->dirty);
	memset(pt, 0, sizeof(*pt));
}

int porttexts_fit(struct porttexts *pt, int n, unsigned long list)
{
	if (pt->t && pt->n == n && pt->list == list)
		return 0;
	porttexts_free(pt);
	pt->nsect = export_nsections();
	pt->t = calloc((size_t)n + 1, sizeof(*pt->t));
	pt->sect = calloc((size_t)pt->nsect, sizeof(*pt->sect));
	pt->dirty = malloc((size_t)pt->nsect * sizeof(*pt->dirty));
	if (!pt->t || !pt->sect || !pt->dirty) {
		porttexts_free(pt);
		return -1;
	}
	for (int k = 0; k < pt->nsect; k++)
		pt->dirty[k] = true;
	pt->n = n;
	pt->list = list;
	return 0;
}

/* Port i's raw values in sw when it was read one by one, else NULL. */
static const uint64_t *raw(const struct sweep *sw, int i)
{
	const struct sweep_port *p;

	if (!sw || i >= sw->n)
		return NULL;
	p = &sw->p[i];
	if (p->result != SWEEP_READ || p->vi < 0 || p->vi >= sw->nvals)
		return NULL;
	return sw->vals + (size_t)p->vi * CTR_IDX_COUNT;
}

/* Whether the error counters (what the verdicts judge) of a and b are
 * the same. */
static bool same_errors(const uint64_t *a, const uint64_t *b)
{
	for (int k = 0; k < CTR_IDX_COUNT; k++)
		if (ctr_table[k].cls == CTR_ERROR && a[k] != b[k])
			return false;
	return true;
}

/* Whether port i read the same error counters, the same way, in a and b
 * (both read one by one). */
static bool same(const struct sweep *a, const struct sweep *b, int i)
{
	const uint64_t *va = raw(a, i), *vb = raw(b, i);
	const struct sweep_port *p = &a->p[i], *q;

	if (!va || !vb)
		return false;
	q = &b->p[i];
	return p->has_pce == q->has_pce && p->cap == q->cap && p->cap2 == q->cap2 &&
	       same_errors(va, vb);
}

bool porttexts_fresh(const struct porttexts *pt, int i, const struct sweep *sw,
		     const struct sweep *prev)
{
	const struct porttext *t;
	const struct sweep_port *p;

	if (!pt->t || i >= pt->n || !pt->t[i].p || !pt->t[i].steady || !same(sw, prev, i))
		return false;
	t = &pt->t[i];
	p = &sw->p[i];
	return t->result == p->result && t->has_pce == p->has_pce && t->cap == p->cap &&
	       t->cap2 == p->cap2 && same_errors(t->v, raw(sw, i));
}

/* Marks the sections where port k's text p (offsets off, NULL: none)
 * differs from its kept one. */
static void mark_changed(struct porttexts *pt, const struct porttext *k,
			 const char *p, const uint32_t *off)
{
	for (int s = 0; s < pt->nsect; s++) {
		size_t a = k->p ? k->off[s + 1] - k->off[s] : 0;
		size_t b = p ? off[s + 1] - off[s] : 0;

		if (a != b || (a && memcmp(k->p + k->off[s], p + off[s], a)))
			pt->dirty[s] = true;
	}
}

int porttexts_keep(struct porttexts *pt, int i, const char *prefix,
		   const struct export_target *t, int worst, const struct sweep *sw,
		   const struct sweep *prev)
{
	struct porttext *k = &pt->t[i];
	const uint64_t *v = raw(sw, i);
	uint32_t off[EXPORT_MAX_SECTIONS + 1];
	struct expo_buf b;

	expo_init(&b);
	export_port_text(&b, prefix, t, off, EXPORT_PART_REST);
	if (!b.oom && !b.p)
		b.p = calloc(1, 1);
	if (!k->off)
		k->off = malloc(((size_t)pt->nsect + 1) * sizeof(*k->off));
	if (b.oom || !b.p || !k->off) {
		/* the port has no text now */
		mark_changed(pt, k, NULL, NULL);
		expo_free(&b);
		free(k->p);
		k->p = NULL;
		return -1;
	}
	mark_changed(pt, k, b.p, off);
	free(k->p);
	k->p = b.p;
	memcpy(k->off, off, ((size_t)pt->nsect + 1) * sizeof(*k->off));
	k->present = export_traffic_present(t->cs);
	k->worst = worst;
	k->steady = v && same(sw, prev, i);
	k->result = sw->p[i].result;
	k->has_pce = sw->p[i].has_pce;
	k->cap = sw->p[i].cap;
	k->cap2 = sw->p[i].cap2;
	if (v)
		memcpy(k->v, v, sizeof(k->v));
	return 0;
}

/* Section s of every port's kept text, in port order, into sect[s]. */
static int remake(struct porttexts *pt, int s)
{
	struct expo_buf *b = &pt->sect[s];

	expo_reset(b);
	for (int i = 0; i < pt->n; i++) {
		const struct porttext *k = &pt->t[i];

		if (k->p && k->off[s + 1] > k->off[s])
			expo_append(b, k->p + k->off[s], k->off[s + 1] - k->off[s]);
	}
	if (b->oom) {
		expo_free(b);
		return -1;
	}
	pt->dirty[s] = false;
	return 0;
}

int porttexts_write(struct porttexts *pt, struct expo_buf *b, const char *prefix,
		    const struct export_target *et, const struct sweep *sw)
{
	for (int s = 0; s < pt->nsect; s++) {
		int f = export_section_traffic(s);
		unsigned bit = f < 0 ? 0 : 1u << f;
		bool any = false;

		if (f < 0) {
			if (pt->dirty[s] && remake(pt, s))
				return -1;
			export_section_header(b, prefix, s, pt->sect[s].len > 0);
			if (pt->sect[s].len)
				expo_append(b, pt->sect[s].p, pt->sect[s].len);
			continue;
		}
		/* traffic: this sweep's values, absent where not read */
		for (int i = 0; i < pt->n && !any; i++)
			any = raw(sw, i) && (pt->t[i].present & bit);
		export_section_header(b, prefix, s, any);
		for (int i = 0; any && i < pt->n; i++) {
			const uint64_t *v = raw(sw, i);

			if (v && (pt->t[i].present & bit))
				export_traffic_sample(b, prefix, s, et[i].labels, v);
		}
	}
	return b->oom ? -1 : 0;
}
