// SPDX-License-Identifier: MIT
/* Topology files read: ibnetdiscover's text (also what topowrite.c
 * writes) and the JSON of `fabric --json`. */
#include "config.h"
#include "core/fabric/diff.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/jsonscan.h"
#include "core/base/parse.h"
#include "core/base/jsoncdl.h"

/* ---- reader ---- */

struct tnode {
	char id[FAB_NAME];
	struct fab_node n;
};

struct tline {
	int node;		/* tnode index */
	int port;
	uint64_t port_guid;
	char rid[FAB_NAME];
	int rnode;		/* resolved */
	int rport;
	uint64_t rport_guid;
	char rname[FAB_NAME];	/* from the comment */
	char tok[16];		/* "4xQDR" */
};

/* Node ids are "S-<guid>" / "H-<guid>" / "R-<guid>" in ibnetdiscover's
 * output; ibsim-style names get a stable made-up GUID (FNV-1a). */
static uint64_t id_guid(const char *id)
{
	uint64_t h = 1469598103934665603ULL;
	char *end;

	if ((id[0] == 'S' || id[0] == 'H' || id[0] == 'R') && id[1] == '-') {
		uint64_t g = strtoull(id + 2, &end, 16);

		if (!*end && end != id + 2)
			return g;
	}
	for (; *id; id++)
		h = (h ^ (unsigned char)*id) * 1099511628211ULL;
	return h | (1ULL << 63);
}

static int id_type(const char *id)
{
	return id[0] == 'S' && id[1] == '-' ? FAB_SWITCH :
	       id[0] == 'R' && id[1] == '-' ? FAB_ROUTER : FAB_CA;
}

/* Copies a "quoted" string at *s into buf; advances *s. */
static int quoted(const char **s, char *buf, size_t len)
{
	const char *p = *s, *q;

	while (isspace((unsigned char)*p))
		p++;
	if (*p != '"')
		return -1;
	q = strchr(++p, '"');
	if (!q)
		return -1;
	snprintf(buf, len, "%.*s", (int)(q - p), p);
	*s = q + 1;
	return 0;
}

/* The last "<n>x<SPEED>" word of a comment, e.g. "4xQDR". */
static void rate_token(const char *c, char *buf, size_t len)
{
	buf[0] = '\0';
	for (const char *p = c; *p; p++) {
		if (isdigit((unsigned char)*p) && (p == c || isspace((unsigned char)p[-1]))) {
			const char *q = p;

			while (isdigit((unsigned char)*q))
				q++;
			if (*q == 'x' && isupper((unsigned char)q[1])) {
				size_t n = strcspn(p, " \t\n");

				snprintf(buf, len, "%.*s", (int)n, p);
			}
		}
	}
}

static unsigned comment_lid(const char *c)
{
	const char *p = strstr(c, " lid ");

	return p ? (unsigned)strtoul(p + 5, NULL, 10) : 0;
}

static int grow2(void **arr, int n, int *cap, size_t elem)
{
	void *p;

	if (n < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 64;
	p = realloc(*arr, (size_t)*cap * elem);
	if (!p)
		return -1;
	*arr = p;
	return 0;
}

struct tport { int node, port, line; bool own; };

static int tport_cmp(const void *x, const void *y)
{
	const struct tport *a = x, *b = y;

	/* comparisons, not differences: no overflow whatever the values */
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->port != b->port)
		return a->port < b->port ? -1 : 1;
	return (int)b->own - (int)a->own;	/* own line first */
}

static void tok_to_port(const char *tok, struct fab_port *p)
{
	int lanes = 0;
	char sp[8];

	if (sscanf(tok, "%dx%7s", &lanes, sp) == 2) {
		snprintf(p->width, sizeof(p->width), "%dX", lanes);
		snprintf(p->speed, sizeof(p->speed), "%s", sp);
	}
}

/* Node index by GUID (ibsim-style names are hashed to a GUID by
 * id_guid, so this is the index by name too): open addressing, so a
 * file of any size resolves its remote ends in linear time. */
struct gmap {
	uint64_t *key;
	int *val;
	size_t cap, n;		/* cap a power of two, at most half full */
};

static size_t gmap_slot(const struct gmap *m, uint64_t g)
{
	size_t i = (size_t)((g * 0x9e3779b97f4a7c15ULL) >> 17) & (m->cap - 1);

	while (m->val[i] >= 0 && m->key[i] != g)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int gmap_find(const struct gmap *m, uint64_t g)
{
	return m->cap ? m->val[gmap_slot(m, g)] : -1;
}

/* Adds g -> node unless g is there already; 0, or -1 out of memory. */
static int gmap_add(struct gmap *m, uint64_t g, int node)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct gmap b = { .cap = m->cap ? m->cap * 2 : 256 };

		b.key = malloc(b.cap * sizeof(*b.key));
		b.val = malloc(b.cap * sizeof(*b.val));
		if (!b.key || !b.val) {
			free(b.key);
			free(b.val);
			return -1;
		}
		for (size_t k = 0; k < b.cap; k++)
			b.val[k] = -1;
		for (size_t k = 0; k < m->cap; k++)
			if (m->val[k] >= 0) {
				i = gmap_slot(&b, m->key[k]);
				b.key[i] = m->key[k];
				b.val[i] = m->val[k];
				b.n++;
			}
		free(m->key);
		free(m->val);
		*m = b;
	}
	i = gmap_slot(m, g);
	if (m->val[i] < 0) {
		m->key[i] = g;
		m->val[i] = node;
		m->n++;
	}
	return 0;
}

static void gmap_free(struct gmap *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

/* "[N]" port numbers: 1..254 as InfiniBand allows (255 is reserved, 0
 * is a switch's management port, which has no link). */
static int portnum(const char *s, char **end)
{
	long v;

	if (!isdigit((unsigned char)*s) && !(*s == '-' && isdigit((unsigned char)s[1]))) {
		*end = (char *)s;
		return -1;
	}
	errno = 0;
	v = strtol(s, end, 10);	/* a sign read, to be refused by number */
	return errno || v < 1 || v > 254 ? -1 : (int)v;
}

static int node_port(const struct fabric *f, int node, int portnum)
{
	const struct fab_node *n = &f->nodes[node];

	for (int i = 0; i < n->nports; i++)
		if (f->ports[n->first_port + i].portnum == portnum)
			return n->first_port + i;
	return -1;
}

/* The text reader's state: nodes and link lines as read, and what the
 * next lines inherit. */
struct tparse {
	struct gmap idx;	/* node GUID -> tn */
	struct tnode *tn;
	struct tline *tl;
	int ntn, ctn, ntl, ctl;
	int cur;		/* the node whose lines follow, -1 none */
	uint64_t sysimg;
	unsigned vendid, devid;
};

/* Why a topology could not be read. */
enum tparse_err { TP_OK, TP_NUL, TP_LONG, TP_NPORTS, TP_SYNTAX, TP_BADPORT, TP_OOM };

#define TOPO_LINE_MAX 1023	/* bytes per line, newline excluded */
#define TOPO_STR_(x) #x
#define TOPO_STR(x) TOPO_STR_(x)

/* A "Switch N "id" # "name" lid L" line (also Ca, Rt, Hca): word is its
 * first word, s what follows it, c its comment ("" none). */
static int parse_node_line(struct tparse *t, const char *word, const char *s,
			   const char *c)
{
	struct tnode *n;
	char *end;
	long nports;

	while (isspace((unsigned char)*s))
		s++;
	/* NumPorts: 0..254 (one byte in NodeInfo, 255 reserved) */
	errno = 0;
	nports = isdigit((unsigned char)*s) ? strtol(s, &end, 10) : -1;
	if (nports < 0 || nports > 254 || errno)
		return TP_NPORTS;
	s = end;
	if (grow2((void **)&t->tn, t->ntn, &t->ctn, sizeof(*t->tn)))
		return TP_OOM;
	n = &t->tn[t->ntn];
	memset(n, 0, sizeof(*n));
	if (quoted(&s, n->id, sizeof(n->id)))
		return TP_SYNTAX;
	n->n.type = word[0] == 'S' ? FAB_SWITCH : word[0] == 'R' ? FAB_ROUTER : FAB_CA;
	n->n.guid = id_guid(n->id);
	n->n.numports = (int)nports;
	n->n.vendid = t->vendid;
	n->n.devid = t->devid;
	n->n.sysimg_guid = t->sysimg;
	if (*c) {
		const char *q = c + 1;

		if (quoted(&q, n->n.name, sizeof(n->n.name)))
			snprintf(n->n.name, sizeof(n->n.name), "%s", n->id);
	} else {
		snprintf(n->n.name, sizeof(n->n.name), "%s", n->id);
	}
	snprintf(n->n.desc, sizeof(n->n.desc), "%s", n->n.name);
	n->n.lid = comment_lid(c);
	if (gmap_add(&t->idx, n->n.guid, t->ntn))
		return TP_OOM;
	t->cur = t->ntn++;
	return TP_OK;
}

/* One end of a link line at *s: "[P]" and an optional "(guid)", which
 * must be closed where more follows (closed). *s moves past it. */
static int port_end(const char **s, int *port, uint64_t *guid, bool closed)
{
	const char *p;
	char *end;

	*port = portnum(*s + 1, &end);
	if (*end != ']')
		return TP_SYNTAX;
	if (*port < 0)
		return TP_BADPORT;
	*s = end + 1;
	if (**s != '(')
		return TP_OK;
	*guid = strtoull(*s + 1, NULL, 16);
	p = strchr(*s, ')');
	if (p)
		*s = p + 1;
	return p || !closed ? TP_OK : TP_SYNTAX;
}

/* A "[P](guid) "remote"[P](guid) # ..." link line of the current node. */
static int parse_link_line(struct tparse *t, const char *s, const char *c)
{
	struct tline *l;
	int rc;

	if (t->cur < 0)
		return TP_SYNTAX;
	if (grow2((void **)&t->tl, t->ntl, &t->ctl, sizeof(*t->tl)))
		return TP_OOM;
	l = &t->tl[t->ntl];
	memset(l, 0, sizeof(*l));
	l->node = t->cur;
	rc = port_end(&s, &l->port, &l->port_guid, true);
	if (rc)
		return rc;
	if (quoted(&s, l->rid, sizeof(l->rid)) || *s != '[')
		return TP_SYNTAX;
	rc = port_end(&s, &l->rport, &l->rport_guid, false);
	if (rc)
		return rc;
	if (*c) {
		const char *q = strchr(c, '"');

		if (q && quoted(&q, l->rname, sizeof(l->rname)))
			l->rname[0] = '\0';
		/* a CA's own line starts "# lid N lmc 0 "remote" lid M" */
		rate_token(c, l->tok, sizeof(l->tok));
		if (t->tn[t->cur].n.type != FAB_SWITCH && !t->tn[t->cur].n.lid)
			t->tn[t->cur].n.lid = comment_lid(c);
	}
	t->ntl++;
	return TP_OK;
}

/* One line of the file. */
static int parse_topo_line(struct tparse *t, const char *s)
{
	const char *c;
	char word[16];

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '#')
		return TP_OK;
	c = strchr(s, '#');
	if (!c)
		c = "";
	if (!strncmp(s, "vendid=", 7))
		t->vendid = (unsigned)strtoul(s + 7, NULL, 0);
	else if (!strncmp(s, "devid=", 6))
		t->devid = (unsigned)strtoul(s + 6, NULL, 0);
	else if (!strncmp(s, "sysimgguid=", 11))
		t->sysimg = strtoull(s + 11, NULL, 0);
	else if (strchr(s, '=') && !strchr(s, '"'))
		return TP_OK;	/* switchguid=, caguid=, and others */
	else if (sscanf(s, "%15s", word) == 1 &&
		 (!strcmp(word, "Switch") || !strcmp(word, "Ca") ||
		  !strcmp(word, "Rt") || !strcmp(word, "Hca")))
		return parse_node_line(t, word, s + strlen(word), c);
	else if (*s == '[')
		return parse_link_line(t, s, c);
	return TP_OK;
}

/* Resolves remote ids through the GUID index; nodes known only as
 * remotes get added (and indexed) on first sight. */
static int resolve_remotes(struct tparse *t)
{
	for (int i = 0; i < t->ntl; i++) {
		uint64_t g = id_guid(t->tl[i].rid);
		int k = gmap_find(&t->idx, g);

		if (k < 0) {
			struct tnode *n;

			if (grow2((void **)&t->tn, t->ntn, &t->ctn, sizeof(*t->tn)) ||
			    gmap_add(&t->idx, g, t->ntn))
				return TP_OOM;
			n = &t->tn[t->ntn];
			memset(n, 0, sizeof(*n));
			snprintf(n->id, sizeof(n->id), "%s", t->tl[i].rid);
			n->n.guid = g;
			n->n.type = id_type(t->tl[i].rid);
			snprintf(n->n.name, sizeof(n->n.name), "%s",
				 t->tl[i].rname[0] ? t->tl[i].rname : t->tl[i].rid);
			k = t->ntn++;
		}
		t->tl[i].rnode = k;
	}
	return TP_OK;
}

/* Node i's ports into f: its port ends tp[*k..] (sorted by node). */
static int add_node_ports(struct fabric *f, const struct tparse *t,
			  const struct tport *tp, int ntp, int i, int *k)
{
	for (; *k < ntp && tp[*k].node == i; (*k)++) {
		struct fab_port p = { 0 };
		const struct tline *l = &t->tl[tp[*k].line];

		if (*k > 0 && tp[*k - 1].node == i && tp[*k - 1].port == tp[*k].port)
			continue;	/* seen from the other end already */
		p.node = i;
		p.portnum = tp[*k].port;
		p.remote = -1;
		p.guid = tp[*k].own ? l->port_guid : l->rport_guid;
		p.lid = t->tn[i].n.lid;
		p.state = 4;	/* a link line means the link was up */
		p.phys_state = 5;
		tok_to_port(l->tok, &p);
		if (fabric_add_port(f, &p) < 0)
			return TP_OOM;
	}
	return TP_OK;
}

/* The model of what was read: nodes, every port end (own lines first,
 * grouped per node), the ends paired. NULL out of memory. */
static struct fabric *build_model(const struct tparse *t, const char *name)
{
	struct tport *tp = calloc((size_t)t->ntl * 2 + 1, sizeof(*tp));
	struct fabric *f = tp ? fabric_new() : NULL;
	int ntp = 0;

	if (!f)
		goto oom;
	for (int i = 0; i < t->ntl; i++) {
		tp[ntp++] = (struct tport){ t->tl[i].node, t->tl[i].port, i, true };
		tp[ntp++] = (struct tport){ t->tl[i].rnode, t->tl[i].rport, i, false };
	}
	qsort(tp, (size_t)ntp, sizeof(*tp), tport_cmp);
	snprintf(f->origin, sizeof(f->origin), "%s", name);
	for (int i = 0, k = 0; i < t->ntn; i++)
		if (fabric_add_node(f, &t->tn[i].n) < 0 ||
		    add_node_ports(f, t, tp, ntp, i, &k))
			goto oom;
	/* Pair the ends (fabric node i is tn[i]). */
	for (int i = 0; i < t->ntl; i++) {
		int a = node_port(f, t->tl[i].node, t->tl[i].port);
		int b = node_port(f, t->tl[i].rnode, t->tl[i].rport);

		if (a >= 0 && b >= 0) {
			f->ports[a].remote = b;
			f->ports[b].remote = a;
			if (!f->ports[b].width[0] && a != b) {
				memcpy(f->ports[b].width, f->ports[a].width, sizeof(f->ports[b].width));
				memcpy(f->ports[b].speed, f->ports[a].speed, sizeof(f->ports[b].speed));
			}
		}
	}
	if (fabric_build_links(f))
		goto oom;
	free(tp);
	return f;
oom:
	free(tp);
	fabric_free(f);
	return NULL;
}

static void tparse_error(int rc, const char *name, int lineno, char *err,
			 size_t errlen)
{
	static const char *const why[] = {
		[TP_NUL] = " holds a NUL byte",
		[TP_LONG] = " is longer than " TOPO_STR(TOPO_LINE_MAX) " bytes",
		[TP_NPORTS] = ": the number of ports is not 0..254",
		[TP_SYNTAX] = " is not ibnetdiscover's format",
		[TP_BADPORT] = ": a port number is not 1..254",
	};

	if (rc == TP_OOM) {
		snprintf(err, errlen, "reading the topology %s: out of memory", name);
		return;
	}
	snprintf(err, errlen, "cannot read the topology %s: line %d%s — %s", name, lineno, why[rc],
		 rc == TP_NPORTS || rc == TP_BADPORT ? "fix the line or give ibnetdiscover's output" :
		 "give a file saved with --save or ibnetdiscover's output");
}

struct fabric *fabric_parse_topology(FILE *fp, const char *name, char *err,
				     size_t errlen)
{
	struct tparse t = { .cur = -1 };
	struct fabric *f = NULL;
	char line[TOPO_LINE_MAX + 1];
	int r, rc = TP_OK, lineno = 0;

	while (!rc && (r = parse_line(fp, line, sizeof(line))) != 0) {
		lineno++;
		if (r < 0)
			rc = r == PARSE_LINE_NUL ? TP_NUL : TP_LONG;
		else
			rc = parse_topo_line(&t, line);
	}
	if (!rc)
		rc = resolve_remotes(&t);
	if (!rc && !(f = build_model(&t, name)))
		rc = TP_OOM;
	if (rc)
		tparse_error(rc, name, lineno, err, errlen);
	gmap_free(&t.idx);
	free(t.tn);
	free(t.tl);
	return f;
}

/* ---- the JSON of `fabric --json` ---- */

struct jnode {
	struct fab_node n;
	bool have_guid;
};

struct jend {
	uint64_t guid, port_guid;
	int port;		/* 0: not given */
	unsigned lid;
	int node;		/* resolved */
	int link;
	bool b;			/* the link's b end */
};

struct jlink {
	char width[8], speed[8];
};

struct jread {
	struct jnode *nodes;
	int nnodes, cnodes;
	struct jend *ends;
	int nends, cends;
	struct jlink *links;
	int nlinks, clinks;
	bool schema, oom, bad;
	char why[128];
};

static int jindex(const char *path, const char *arr, const char **rest)
{
	size_t n = strlen(arr);
	char *end;
	long i;

	if (strncmp(path, arr, n) || path[n] != '[' || !isdigit((unsigned char)path[n + 1]))
		return -1;
	errno = 0;
	i = strtol(path + n + 1, &end, 10);
	if (errno || *end != ']' || i < 0 || i > 100000000)
		return -1;
	*rest = end + 1;
	return (int)i;
}

/* Makes room for entry i of an array the scanner walks in order. */
static void *jslot(struct jread *r, void **arr, int *n, int *cap, size_t elem, int i)
{
	while (*n <= i) {
		if (grow2(arr, *n, cap, elem)) {
			r->oom = true;
			return NULL;
		}
		memset((char *)*arr + (size_t)*n * elem, 0, elem);
		(*n)++;
	}
	return (char *)*arr + (size_t)i * elem;
}

static int jguid(const char *v, uint64_t *g)
{
	return parse_u64(v, g);
}

static void jtake(void *arg, const char *path, const char *val, bool is_str)
{
	struct jread *r = arg;
	const char *rest;
	int i;

	if (r->oom || r->bad)
		return;
	if (!strcmp(path, "schema")) {
		r->schema = is_str && !strcmp(val, "ibconsole/fabric/1");
		return;
	}
	if ((i = jindex(path, "nodes", &rest)) >= 0) {
		struct jnode *n = jslot(r, (void **)&r->nodes, &r->nnodes, &r->cnodes, sizeof(*n), i);
		uint64_t v;

		if (!n)
			return;
		if (!strcmp(rest, ".name") && is_str) {
			snprintf(n->n.name, sizeof(n->n.name), "%s", val);
		} else if (!strcmp(rest, ".description") && is_str) {
			snprintf(n->n.desc, sizeof(n->n.desc), "%s", val);
		} else if (!strcmp(rest, ".type") && is_str) {
			n->n.type = !strcmp(val, "Switch") ? FAB_SWITCH : !strcmp(val, "Router") ? FAB_ROUTER : FAB_CA;
		} else if (!strcmp(rest, ".guid")) {
			if (!is_str || jguid(val, &n->n.guid))
				r->bad = true;
			n->have_guid = true;
		} else if (!strcmp(rest, ".lid") && !parse_u64(val, &v) && v <= 0xffff) {
			n->n.lid = (unsigned)v;
		} else if (!strcmp(rest, ".num_ports") && !parse_u64(val, &v) && v <= 254) {
			n->n.numports = (int)v;
		}
		return;
	}
	if ((i = jindex(path, "links", &rest)) >= 0) {
		struct jlink *l = jslot(r, (void **)&r->links, &r->nlinks, &r->clinks, sizeof(*l), i);
		struct jend *e;
		bool b;
		uint64_t v;

		if (!l)
			return;
		if (!strcmp(rest, ".width") && is_str) {
			snprintf(l->width, sizeof(l->width), "%s", val);
			return;
		}
		if (!strcmp(rest, ".speed") && is_str) {
			snprintf(l->speed, sizeof(l->speed), "%s", val);
			return;
		}
		if (strncmp(rest, ".a.", 3) && strncmp(rest, ".b.", 3))
			return;
		b = rest[1] == 'b';
		e = jslot(r, (void **)&r->ends, &r->nends, &r->cends, sizeof(*e), 2 * i + b);
		if (!e)
			return;
		e->link = i;
		e->b = b;
		rest += 3;
		if (!strcmp(rest, "node_guid")) {
			if (!is_str || jguid(val, &e->guid))
				r->bad = true;
		} else if (!strcmp(rest, "port_guid")) {
			if (!is_str || jguid(val, &e->port_guid))
				r->bad = true;
		} else if (!strcmp(rest, "port")) {
			/* as the text reader: 1..254 */
			if (is_str || parse_u64(val, &v) || v < 1 || v > 254) {
				snprintf(r->why, sizeof(r->why), "links[%d].%c.port '%s' is not 1..254", i, b ? 'b' : 'a', val);
				r->bad = true;
			} else {
				e->port = (int)v;
			}
		} else if (!strcmp(rest, "lid") && !parse_u64(val, &v) && v <= 0xffff) {
			e->lid = (unsigned)v;
		}
	}
}

static int jend_cmp(const void *x, const void *y)
{
	const struct jend *a = x, *b = y;

	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->port != b->port)
		return a->port < b->port ? -1 : 1;
	return (a->link > b->link) - (a->link < b->link);
}

/* The saved nodes into f, each with its ports (the sorted link ends
 * r->ends[]; pidx[k]: end k's port in f). 0, or -1 out of memory. */
static int json_add_nodes(struct fabric *f, struct jread *r, int *pidx)
{
	for (int i = 0, k = 0; i < r->nnodes; i++) {
		struct fab_node *n = &r->nodes[i].n;

		if (!n->name[0])
			snprintf(n->name, sizeof(n->name), "0x%016llx", (unsigned long long)n->guid);
		if (fabric_add_node(f, n) < 0)
			return -1;
		for (; k < r->nends && r->ends[k].node == i; k++) {
			const struct jend *e = &r->ends[k];
			const struct jlink *l = &r->links[e->link];
			struct fab_port p = { 0 };

			pidx[k] = -1;
			if (k > 0 && r->ends[k - 1].node == i && r->ends[k - 1].port == e->port) {
				pidx[k] = pidx[k - 1];	/* one port, listed twice */
				continue;
			}
			p.node = i;
			p.portnum = e->port;
			p.guid = e->port_guid;
			p.lid = e->lid;
			p.remote = -1;
			p.state = 4;		/* a link was listed: it was up */
			p.phys_state = 5;
			snprintf(p.width, sizeof(p.width), "%s", l->width);
			snprintf(p.speed, sizeof(p.speed), "%s", l->speed);
			if ((pidx[k] = fabric_add_port(f, &p)) < 0)
				return -1;
		}
	}
	return 0;
}

/* Pairs the two ends of each saved link. 0, or -1 out of memory. */
static int json_pair_ends(struct fabric *f, const struct jread *r, const int *pidx)
{
	int *end_a = malloc(((size_t)r->nlinks + 1) * 2 * sizeof(int));

	if (!end_a)
		return -1;
	for (int k = 0; k < r->nends; k++)
		end_a[2 * r->ends[k].link + r->ends[k].b] = pidx[k];
	for (int i = 0; i < r->nlinks; i++) {
		int a = end_a[2 * i], b = end_a[2 * i + 1];

		if (a != b) {
			f->ports[a].remote = b;
			f->ports[b].remote = a;
		}
	}
	free(end_a);
	return 0;
}

static struct fabric *parse_fabric_json(const char *text, size_t len, const char *name,
					char *err, size_t errlen)
{
	struct jread r = { 0 };
	struct gmap idx = { 0 };
	struct fabric *f = NULL;
	int *pidx = NULL;
	char why[160];

	if (jsoncdl_load(why, sizeof(why))) {
		snprintf(err, errlen, "cannot read the saved fabric %s: %s", name, why);
		goto out;
	}
	if (json_scan(text, len, jtake, &r, why, sizeof(why))) {
		snprintf(err, errlen, "cannot read the saved fabric %s: not valid JSON (%s) — give a file written by ibconsole fabric --json or --save",
			 name, why);
		goto out;
	}
	if (r.oom)
		goto oom;
	if (!r.schema || r.bad || !r.nnodes) {
		snprintf(err, errlen, "cannot read the saved fabric %s: %s — give a file written by ibconsole fabric --json (without --problems) or --save",
			 name, !r.schema ? "JSON, but not ibconsole's fabric (schema ibconsole/fabric/1)" :
			 r.why[0] ? r.why : r.bad ? "a GUID is not a number" : "it lists no nodes");
		goto out;
	}
	for (int i = 0; i < r.nnodes; i++) {
		if (!r.nodes[i].have_guid) {
			snprintf(err, errlen, "cannot read the saved fabric %s: nodes[%d] has no guid — give a file written by ibconsole fabric --json",
				 name, i);
			goto out;
		}
		if (gmap_add(&idx, r.nodes[i].n.guid, i))
			goto oom;
	}
	if (r.nends != 2 * r.nlinks) {
		snprintf(err, errlen, "cannot read the saved fabric %s: links[%d] lacks an end — give a file written by ibconsole fabric --json",
			 name, r.nlinks - 1);
		goto out;
	}
	for (int i = 0; i < r.nends; i++) {
		struct jend *e = &r.ends[i];

		e->node = gmap_find(&idx, e->guid);
		if (e->node < 0 || !e->port) {
			snprintf(err, errlen, "cannot read the saved fabric %s: links[%d].%c %s — give a file written by ibconsole fabric --json",
				 name, e->link, e->b ? 'b' : 'a', e->node < 0 ? "names a node not in nodes" : "has no port");
			goto out;
		}
	}
	/* the model wants each node's ports right after it */
	if (r.nends)
		qsort(r.ends, (size_t)r.nends, sizeof(*r.ends), jend_cmp);
	pidx = malloc(((size_t)r.nends + 1) * sizeof(*pidx));
	f = fabric_new();
	if (!f || !pidx)
		goto oom;
	snprintf(f->origin, sizeof(f->origin), "%s", name);
	if (json_add_nodes(f, &r, pidx) || json_pair_ends(f, &r, pidx))
		goto oom;
	if (fabric_build_links(f))
		goto oom;
	goto done;
oom:
	snprintf(err, errlen, "reading the saved fabric %s: out of memory", name);
out:
	fabric_free(f);
	f = NULL;
done:
	gmap_free(&idx);
	free(pidx);
	free(r.nodes);
	free(r.ends);
	free(r.links);
	return f;
}

/* Whole file into memory (JSON), at most max bytes. */
static char *slurp(FILE *fp, size_t max, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap), *p;

	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, fp);

		n += got;
		if (n < cap)
			break;
		if (cap >= max) {
			free(buf);
			errno = EFBIG;
			return NULL;
		}
		p = realloc(buf, cap * 2);
		if (!p) {
			free(buf);
			return NULL;
		}
		buf = p;
		cap *= 2;
	}
	if (buf && ferror(fp)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

struct fabric *fabric_read_topology(const char *path, char *err, size_t errlen)
{
	char why[96];
	FILE *fp = parse_fopen(path, why, sizeof(why));
	struct fabric *f;
	int c;

	if (!fp) {
		snprintf(err, errlen, "cannot read the saved fabric %s: %s — give a file written by ibconsole fabric --save or --json, or ibnetdiscover's output",
			 path, why);
		return NULL;
	}
	while ((c = getc(fp)) != EOF && isspace(c))
		;
	if (c == '{') {
		size_t len = 0;
		char *text;

		rewind(fp);
		text = slurp(fp, (size_t)1 << 30, &len);
		if (!text) {
			snprintf(err, errlen, "cannot read the saved fabric %s: %s — give a file written by ibconsole fabric --json",
				 path, strerror(errno ? errno : EIO));
			fclose(fp);
			return NULL;
		}
		fclose(fp);
		f = parse_fabric_json(text, len, path, err, errlen);
		free(text);
		return f;
	}
	rewind(fp);
	f = fabric_parse_topology(fp, path, err, errlen);
	fclose(fp);
	/* nothing recognised at all: not a topology, not a fabric to compare */
	if (f && !f->nnodes) {
		snprintf(err, errlen, "cannot read the saved fabric %s: neither ibnetdiscover's topology nor the JSON of ibconsole fabric --json — give a file written by --save or --json",
			 path);
		fabric_free(f);
		return NULL;
	}
	return f;
}
