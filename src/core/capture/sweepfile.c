// SPDX-License-Identifier: MIT
/* The text of a captured sweep (see sweepfile.h):
 *   ibconsole-sweep 2
 *   time T
 *   sweep NODES DISCOVER_S QUERY_S MADS_SENT MADS_FAILED PORTS
 *   p GUID PORT_GUID LID PORT SWITCH PCE RESULT CAP CAP2 FI T NV V…\tDESC
 * one p line per port, NV 0 or the counter table's row count, the node
 * description last (tabs and line ends in it written as spaces). */
#include "config.h"
#include "core/capture/sweepfile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void sweepfile_write(FILE *f, const struct sweep *sw, const char *time)
{
	fprintf(f, "%s\ntime %s\nsweep %d %.6f %.6f %lu %lu %d\n", SWEEPFILE_MAGIC, time,
		sw->nodes, sw->discover_s, sw->query_s, sw->mads_sent, sw->mads_failed, sw->n);
	for (int i = 0; i < sw->n; i++) {
		const struct sweep_port *p = &sw->p[i];
		bool vals = p->result == SWEEP_READ && p->vi >= 0 && p->vi < sw->nvals;

		/* t: the query's CLOCK_MONOTONIC seconds; both rounds are
		 * taken by one process, so their difference is the port's
		 * own window (a bit error rate's denominator) */
		fprintf(f, "p 0x%016" PRIx64 " 0x%016" PRIx64 " %u %d %d %d %d %u %" PRIu32 " %d %.6f %d",
			p->guid, p->port_guid, p->lid, p->port, p->is_switch, p->has_pce, p->result,
			p->cap, p->cap2, p->fi, p->t_mono, vals ? CTR_IDX_COUNT : 0);
		for (int k = 0; vals && k < CTR_IDX_COUNT; k++)
			fprintf(f, " %" PRIu64, sw->vals[(size_t)p->vi * CTR_IDX_COUNT + k]);
		fputc('\t', f);
		for (const char *c = p->node_desc ? p->node_desc : ""; *c; c++)
			fputc(*c == '\n' || *c == '\r' || *c == '\t' ? ' ' : *c, f);
		fputc('\n', f);
	}
}

/* The next line of the text at *pos, NUL-terminated in place of its
 * end (the text is the caller's copy); NULL at the end. */
static char *next_line(char *t, size_t len, size_t *pos)
{
	char *s, *e;

	if (*pos >= len)
		return NULL;
	s = t + *pos;
	e = memchr(s, '\n', len - *pos);
	if (!e)
		e = t + len;
	*e = '\0';
	*pos = (size_t)(e - t) + 1;
	return s;
}

/* One p line into port p (its values appended to sw->vals, its
 * description to descs at *dlen): 0, or -1. */
static int read_port(char *line, struct sweep *sw, struct sweep_port *p, char *descs,
		     size_t *dlen)
{
	unsigned cap, sw_, pce, result;
	int nv, used, n;
	char *tab = strchr(line, '\t');

	if (!tab)
		return -1;
	*tab = '\0';
	n = sscanf(line, "p %" SCNx64 " %" SCNx64 " %u %d %u %u %u %u %" SCNu32 " %d %lf %d%n",
		   &p->guid, &p->port_guid, &p->lid, &p->port, &sw_, &pce, &result, &cap,
		   &p->cap2, &p->fi, &p->t_mono, &nv, &used);
	if (n != 12 || !(p->t_mono >= 0 && p->t_mono < 1e12) || sw_ > 1 || pce > 1 || result > SWEEP_READ || cap > 0xffff ||
	    p->port < 0 || p->port > 255 || (nv != 0 && nv != CTR_IDX_COUNT) ||
	    (nv && result != SWEEP_READ))
		return -1;
	p->is_switch = sw_;
	p->has_pce = pce;
	p->result = (uint8_t)result;
	p->cap = (uint16_t)cap;
	p->vi = -1;
	if (result == SWEEP_READ) {
		uint64_t *v = sw->vals + (size_t)sw->nvals * CTR_IDX_COUNT;
		char *s = line + used;

		if (!nv)
			return -1;
		for (int k = 0; k < CTR_IDX_COUNT; k++) {
			char *e;

			if (*s != ' ')
				return -1;
			v[k] = strtoull(s, &e, 10);
			if (e == s)
				return -1;
			s = e;
		}
		if (*s)
			return -1;
		p->vi = sw->nvals++;
	} else if (line[used]) {
		return -1;
	}
	/* the description: pointed at where it is kept */
	n = (int)strlen(tab + 1);
	memcpy(descs + *dlen, tab + 1, (size_t)n + 1);
	p->node_desc = descs + *dlen;
	*dlen += (size_t)n + 1;
	return 0;
}

static int fail(struct sweep *sw, char *t, char *err, size_t errlen, const char *why, int line)
{
	snprintf(err, errlen, "line %d: %s", line, why);
	/* as sweep_free(), without its module (the fuzz target links none) */
	free(sw->p);
	free(sw->descs);
	free(sw->vals);
	memset(sw, 0, sizeof(*sw));
	free(t);
	return -1;
}

int sweepfile_read(const char *text, size_t len, struct sweep *sw, char *time,
		   size_t tlen, char *err, size_t errlen)
{
	char *t = malloc(len + 1), *l;
	size_t pos = 0, dlen = 0;
	int n, ln = 3;

	memset(sw, 0, sizeof(*sw));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(t, text, len);
	t[len] = '\0';
	l = next_line(t, len, &pos);
	if (!l || strcmp(l, SWEEPFILE_MAGIC))
		return fail(sw, t, err, errlen, "not a captured sweep (no '" SWEEPFILE_MAGIC "')", 1);
	l = next_line(t, len, &pos);
	if (!l || strncmp(l, "time ", 5) || !l[5] || strlen(l + 5) >= tlen)
		return fail(sw, t, err, errlen, "no time", 2);
	snprintf(time, tlen, "%s", l + 5);
	l = next_line(t, len, &pos);
	if (!l || sscanf(l, "sweep %d %lf %lf %lu %lu %d%n", &sw->nodes, &sw->discover_s,
			 &sw->query_s, &sw->mads_sent, &sw->mads_failed, &sw->n, &n) != 6 ||
	    l[n] || sw->nodes < 0 || sw->n < 0 ||
	    /* each port takes a line of more than 30 bytes */
	    (size_t)sw->n > len / 30)
		return fail(sw, t, err, errlen, "no sweep line, or more ports than the text holds", 3);
	sw->p = calloc((size_t)sw->n + 1, sizeof(*sw->p));
	sw->vals = malloc(((size_t)sw->n * CTR_IDX_COUNT + 1) * sizeof(*sw->vals));
	sw->descs = malloc(len + 1);
	if (!sw->p || !sw->vals || !sw->descs)
		return fail(sw, t, err, errlen, "out of memory", 3);
	for (int i = 0; i < sw->n; i++) {
		l = next_line(t, len, &pos);
		ln++;
		if (!l || read_port(l, sw, &sw->p[i], sw->descs, &dlen))
			return fail(sw, t, err, errlen, "not a port line", ln);
	}
	if (next_line(t, len, &pos))
		return fail(sw, t, err, errlen, "more lines than the sweep line counts", ln + 1);
	free(t);
	return 0;
}
