// SPDX-License-Identifier: MIT
/* Swept ports' counter texts kept from sweep to sweep (see porttext.h). */
#include "config.h"
#include "core/export/porttext.h"

#include <stdlib.h>
#include <string.h>

#include "core/fabric/sweep.h"

/* a port with no text: nothing in any section */
static const char empty[] = "";
static const uint32_t no_off[EXPORT_MAX_SECTIONS + 1];

void porttexts_free(struct porttexts *pt)
{
	for (int i = 0; pt->t && i < pt->n; i++) {
		free(pt->t[i].p);
		free(pt->t[i].off);
	}
	free(pt->t);
	free(pt->view);
	free(pt->toff);
	expo_free(&pt->traffic);
	memset(pt, 0, sizeof(*pt));
}

int porttexts_fit(struct porttexts *pt, int n, unsigned long list)
{
	if (pt->t && pt->n == n && pt->list == list)
		return 0;
	porttexts_free(pt);
	pt->nsect = export_nsections();
	pt->t = calloc((size_t)n + 1, sizeof(*pt->t));
	pt->view = calloc((size_t)n + 1, sizeof(*pt->view));
	pt->toff = malloc(((size_t)n + 1) * ((size_t)pt->nsect + 1) * sizeof(*pt->toff));
	if (!pt->t || !pt->view || !pt->toff) {
		porttexts_free(pt);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		pt->view[i].p = empty;
		pt->view[i].off = no_off;
	}
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

int porttexts_keep(struct porttexts *pt, int i, const char *prefix,
		   const struct export_target *t, int worst, const struct sweep *sw,
		   const struct sweep *prev)
{
	struct porttext *k = &pt->t[i];
	const uint64_t *v = raw(sw, i);
	struct expo_buf b;

	free(k->p);
	k->p = NULL;
	pt->view[i].p = empty;
	pt->view[i].off = no_off;
	if (!k->off)
		k->off = malloc(((size_t)pt->nsect + 1) * sizeof(*k->off));
	if (!k->off)
		return -1;
	expo_init(&b);
	export_port_text(&b, prefix, t, k->off, EXPORT_PART_REST);
	if (b.oom) {
		expo_free(&b);
		return -1;
	}
	k->p = b.p ? b.p : calloc(1, 1);
	if (!k->p)
		return -1;
	k->present = export_traffic_present(t->cs);
	k->worst = worst;
	k->steady = v && same(sw, prev, i);
	k->result = sw->p[i].result;
	k->has_pce = sw->p[i].has_pce;
	k->cap = sw->p[i].cap;
	k->cap2 = sw->p[i].cap2;
	if (v)
		memcpy(k->v, v, sizeof(k->v));
	pt->view[i].p = k->p;
	pt->view[i].off = k->off;
	return 0;
}

int porttexts_traffic(struct porttexts *pt, const char *prefix,
		      const struct export_target *et, const struct sweep *sw)
{
	static const uint64_t zero[CTR_IDX_COUNT];
	size_t ns = (size_t)pt->nsect + 1, at = 0;

	expo_reset(&pt->traffic);
	for (int i = 0; i < pt->n; i++) {
		const uint64_t *v = raw(sw, i);

		export_port_traffic(&pt->traffic, prefix, et[i].labels, v ? v : zero,
				    v ? pt->t[i].present : 0, pt->toff + (size_t)i * ns);
	}
	if (pt->traffic.oom)
		return -1;
	/* one stretch each, in port order */
	for (int i = 0; i < pt->n; i++) {
		pt->view[i].p2 = pt->traffic.p ? pt->traffic.p + at : empty;
		pt->view[i].off2 = pt->toff + (size_t)i * ns;
		at += pt->view[i].off2[ns - 1];
	}
	return 0;
}
