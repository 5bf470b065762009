// SPDX-License-Identifier: MIT
/* Fabric discovery through libibnetdisc and the plain model built from it:
 * nodes, ports with their PortInfo masks, and links paired by both ends. */
#include "config.h"
#include "core/fabric/fabric.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "core/base/parse.h"
#include "core/base/umadlock.h"
#include "core/port/madaccess.h"
#include "core/port/smpagent.h"

#define MLNX_FDR10 1			/* MLNX ExtPortInfo LinkSpeedActive */

struct fabric *fabric_new(void)
{
	struct fabric *f = calloc(1, sizeof(*f));

	if (f)
		f->from_node = -1;
	return f;
}

void fabric_free(struct fabric *f)
{
	if (!f)
		return;
	free(f->nodes);
	free(f->ports);
	free(f->links);
	free(f);
}

/* Grows *arr (of elem bytes) to hold n + 1 entries. */
static int grow(void **arr, int n, int *cap, size_t elem)
{
	void *p;
	int ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

/* Room for exactly nodes / ports more: arrays grown by doubling leave
 * their earlier copies behind as holes in the heap, which a large
 * fabric's peak memory pays for. */
static int fabric_reserve(struct fabric *f, int nodes, int ports)
{
	void *p;

	if (f->nnodes + nodes > f->node_cap) {
		p = realloc(f->nodes, (size_t)(f->nnodes + nodes) * sizeof(*f->nodes));
		if (!p)
			return -1;
		f->nodes = p;
		f->node_cap = f->nnodes + nodes;
	}
	if (f->nports + ports > f->port_cap) {
		p = realloc(f->ports, (size_t)(f->nports + ports) * sizeof(*f->ports));
		if (!p)
			return -1;
		f->ports = p;
		f->port_cap = f->nports + ports;
	}
	return 0;
}

int fabric_add_node(struct fabric *f, const struct fab_node *n)
{
	if (grow((void **)&f->nodes, f->nnodes, &f->node_cap, sizeof(*n)))
		return -1;
	f->nodes[f->nnodes] = *n;
	f->nodes[f->nnodes].first_port = f->nports;
	f->nodes[f->nnodes].nports = 0;
	return f->nnodes++;
}

int fabric_add_port(struct fabric *f, const struct fab_port *p)
{
	if (grow((void **)&f->ports, f->nports, &f->port_cap, sizeof(*p)))
		return -1;
	f->ports[f->nports] = *p;
	if (p->node >= 0 && p->node < f->nnodes)
		f->nodes[p->node].nports++;
	return f->nports++;
}

void fabric_port_to_info(const struct fab_port *p, struct port_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->port = p->portnum;
	pi->state = p->state;
	pi->phys_state = p->phys_state;
	pi->width_active = p->width_active;
	pi->width_enabled = p->width_enabled;
	pi->width_supported = p->width_supported;
	pi->speed_active = p->speed_active;
	pi->speed_enabled = p->speed_enabled;
	pi->speed_supported = p->speed_supported;
	pi->ext_active = p->ext_active;
	pi->ext_enabled = p->ext_enabled;
	pi->ext_supported = p->ext_supported;
	pi->ext_valid = p->ext_valid;
	pi->ext2_active = p->ext2_active;
	pi->ext2_enabled = p->ext2_enabled;
	pi->ext2_supported = p->ext2_supported;
	pi->ext2_valid = p->ext2_valid;
	pi->fdr10 = p->fdr10;
	pi->mtu_active = p->mtu_active;
	pi->mtu_max = p->mtu_cap;
}

/* The link fields of a decoded PortInfo, back into the fabric's port. */
static void fabric_port_from_info(struct fab_port *p, const struct port_info *pi)
{
	p->state = pi->state;
	p->phys_state = pi->phys_state;
	p->width_active = pi->width_active;
	p->width_enabled = pi->width_enabled;
	p->width_supported = pi->width_supported;
	p->speed_active = pi->speed_active;
	p->speed_enabled = pi->speed_enabled;
	p->speed_supported = pi->speed_supported;
	p->ext_active = pi->ext_active;
	p->ext_enabled = pi->ext_enabled;
	p->ext_supported = pi->ext_supported;
	p->ext_valid = pi->ext_valid;
	p->ext2_active = pi->ext2_active;
	p->ext2_enabled = pi->ext2_enabled;
	p->ext2_supported = pi->ext2_supported;
	p->ext2_valid = pi->ext2_valid;
	p->mtu_active = pi->mtu_active;
	p->mtu_cap = pi->mtu_max;
}

void fabric_port_decode(struct fab_port *p)
{
	struct port_info pi;

	if (!p->info_valid)
		return;		/* a file gave width / speed as text */
	fabric_port_to_info(p, &pi);
	port_decode_rate(&pi);
	p->width[0] = p->speed[0] = '\0';
	p->rate_gbps = p->lane_gbps = 0;
	p->lanes = 0;
	/* A port that is not up has no meaningful active width / speed. */
	if (p->state < 2 || !pi.speed_name[0])
		return;
	snprintf(p->width, sizeof(p->width), "%s", port_width_name(p->width_active));
	snprintf(p->speed, sizeof(p->speed), "%s", pi.speed_name);
	p->rate_gbps = pi.rate_gbps;
	p->lanes = port_width_lanes(p->width_active);
	p->lane_gbps = pi.lane_gbps;
}

const char *fabric_type_name(int type)
{
	switch (type) {
	case FAB_CA: return "CA";
	case FAB_SWITCH: return "Switch";
	case FAB_ROUTER: return "Router";
	default: return "?";
	}
}

char *fabric_rate_token(const struct fab_port *p, char *buf, size_t len)
{
	int lanes = 0;

	buf[0] = '\0';
	if (!p->width[0] || !p->speed[0])
		return buf;
	sscanf(p->width, "%d", &lanes);
	snprintf(buf, len, "%dx%s", lanes, p->speed);
	return buf;
}

char *fabric_port_label(const struct fabric *f, int port, char *buf, size_t len)
{
	if (port < 0 || port >= f->nports) {
		snprintf(buf, len, "?");
		return buf;
	}
	snprintf(buf, len, "\"%s\"[%d]", f->nodes[f->ports[port].node].name,
		 f->ports[port].portnum);
	return buf;
}

int fabric_find_node(const struct fabric *f, uint64_t node_guid)
{
	for (int i = 0; i < f->nnodes; i++)
		if (f->nodes[i].guid == node_guid)
			return i;
	return -1;
}

int fabric_find_port(const struct fabric *f, uint64_t node_guid, int portnum)
{
	int n = fabric_find_node(f, node_guid);

	if (n < 0)
		return -1;
	for (int i = 0; i < f->nodes[n].nports; i++)
		if (f->ports[f->nodes[n].first_port + i].portnum == portnum)
			return f->nodes[n].first_port + i;
	return -1;
}

static bool node_same(const struct fab_node *a, const struct fab_node *b)
{
	return !strcmp(a->name, b->name) && !strcmp(a->desc, b->desc) && a->type == b->type &&
	       a->guid == b->guid && a->sysimg_guid == b->sysimg_guid &&
	       a->vendid == b->vendid && a->devid == b->devid && a->lid == b->lid &&
	       a->numports == b->numports && a->first_port == b->first_port &&
	       a->nports == b->nports;
}

static bool port_same(const struct fab_port *a, const struct fab_port *b)
{
	return a->node == b->node && a->portnum == b->portnum && a->guid == b->guid &&
	       a->lid == b->lid && a->lmc == b->lmc && a->info_valid == b->info_valid &&
	       a->state == b->state && a->phys_state == b->phys_state &&
	       a->width_active == b->width_active && a->width_enabled == b->width_enabled &&
	       a->width_supported == b->width_supported &&
	       a->speed_active == b->speed_active && a->speed_enabled == b->speed_enabled &&
	       a->speed_supported == b->speed_supported &&
	       a->ext_active == b->ext_active && a->ext_enabled == b->ext_enabled &&
	       a->ext_supported == b->ext_supported &&
	       a->ext2_active == b->ext2_active && a->ext2_enabled == b->ext2_enabled &&
	       a->ext2_supported == b->ext2_supported &&
	       a->ext_valid == b->ext_valid && a->ext2_valid == b->ext2_valid &&
	       a->fdr10 == b->fdr10 && a->mtu_active == b->mtu_active &&
	       a->mtu_cap == b->mtu_cap && a->remote == b->remote &&
	       !strcmp(a->width, b->width) && !strcmp(a->speed, b->speed) &&
	       a->rate_gbps == b->rate_gbps && a->lanes == b->lanes &&
	       a->lane_gbps == b->lane_gbps;
}

bool fabric_same(const struct fabric *a, const struct fabric *b)
{
	if (!a || !b)
		return false;
	if (a->nnodes != b->nnodes || a->nports != b->nports || a->nlinks != b->nlinks ||
	    a->from_node != b->from_node)
		return false;
	for (int i = 0; i < a->nnodes; i++)
		if (!node_same(&a->nodes[i], &b->nodes[i]))
			return false;
	for (int i = 0; i < a->nports; i++)
		if (!port_same(&a->ports[i], &b->ports[i]))
			return false;
	for (int i = 0; i < a->nlinks; i++)
		if (a->links[i].a != b->links[i].a || a->links[i].b != b->links[i].b)
			return false;
	return true;
}

static int link_cmp(const void *a, const void *b, void *ctx)
{
	const struct fabric *f = ctx;
	const struct fab_link *x = a, *y = b;
	const struct fab_port *xa = &f->ports[x->a], *ya = &f->ports[y->a];
	uint64_t gx = f->nodes[xa->node].guid, gy = f->nodes[ya->node].guid;

	if (gx != gy)
		return gx < gy ? -1 : 1;
	/* not a difference: port numbers from a file may be anything */
	return (xa->portnum > ya->portnum) - (xa->portnum < ya->portnum);
}

static bool port_before(const struct fabric *f, int a, int b)
{
	uint64_t ga = f->nodes[f->ports[a].node].guid;
	uint64_t gb = f->nodes[f->ports[b].node].guid;

	return ga != gb ? ga < gb : f->ports[a].portnum < f->ports[b].portnum;
}

int fabric_build_links(struct fabric *f)
{
	int n = 0;

	free(f->links);
	f->links = NULL;
	f->nlinks = 0;
	for (int i = 0; i < f->nports; i++)
		if (f->ports[i].remote >= 0 && port_before(f, i, f->ports[i].remote))
			n++;
	if (!n)
		return 0;
	f->links = calloc((size_t)n, sizeof(*f->links));
	if (!f->links)
		return -1;
	for (int i = 0; i < f->nports; i++)
		if (f->ports[i].remote >= 0 && port_before(f, i, f->ports[i].remote))
			f->links[f->nlinks++] = (struct fab_link){ i, f->ports[i].remote };
	qsort_r(f->links, (size_t)f->nlinks, sizeof(*f->links), link_cmp, f);
	return 0;
}

/* ---- node-name map ---- */

static int name_cmp(const void *x, const void *y)
{
	const struct fab_name *a = x, *b = y;

	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

int fabric_read_name_map(const char *path, struct fab_name **map,
			 char *err, size_t errlen)
{
	char line[512], why[96];
	FILE *fp = parse_fopen(path, why, sizeof(why));
	int n = 0, cap = 0, lineno = 0, r;

	*map = NULL;
	if (!fp) {
		snprintf(err, errlen, "cannot read the node-name map %s: %s — check the path given to --node-name-map",
			 path, why);
		return -1;
	}
	while ((r = parse_line(fp, line, sizeof(line))) != 0) {
		char *s = line, *end, *q;
		uint64_t guid;

		lineno++;
		if (r < 0) {
			if (r == PARSE_LINE_NUL)
				snprintf(err, errlen, "node-name map %s line %d: holds a NUL byte — fix the line",
					 path, lineno);
			else
				snprintf(err, errlen, "node-name map %s line %d: longer than %zu bytes — shorten the line",
					 path, lineno, sizeof(line) - 1);
			goto fail;
		}
		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			continue;
		errno = 0;
		guid = strtoull(s, &end, 0);
		if (end == s || errno) {
			snprintf(err, errlen, "node-name map %s line %d: no GUID — write lines as 0xGUID \"name\"",
				 path, lineno);
			goto fail;
		}
		s = end;
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '"') {
			q = strchr(++s, '"');
			if (!q) {
				snprintf(err, errlen, "node-name map %s line %d: unterminated quote — close the name with \"",
					 path, lineno);
				goto fail;
			}
		} else {
			for (q = s; *q && !isspace((unsigned char)*q); q++)
				;
		}
		*q = '\0';
		if (grow((void **)map, n, &cap, sizeof(**map)))
			goto oom;
		(*map)[n].guid = guid;
		(*map)[n].line = lineno;
		snprintf((*map)[n].name, sizeof((*map)[n].name), "%s", s);
		n++;
	}
	fclose(fp);
	return n;
oom:
	snprintf(err, errlen, "reading the node-name map: out of memory");
fail:
	fclose(fp);
	free(*map);
	*map = NULL;
	return -1;
}

static const char *name_map_find(const struct fab_name *map, int n, uint64_t guid)
{
	int lo = 0, hi = n;

	/* the first entry of that GUID: the map is sorted, stably by line */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (map[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && map[lo].guid == guid ? map[lo].name : NULL;
}

/* ---- discovery ---- */

static int node_type(int t)
{
	switch (t) {
	case IB_NODE_CA: return FAB_CA;
	case IB_NODE_SWITCH: return FAB_SWITCH;
	case IB_NODE_ROUTER: return FAB_ROUTER;
	default: return FAB_UNKNOWN;
	}
}

/* Node descriptions may carry trailing blanks and control bytes. */
static void clean_desc(char *dst, size_t len, const char *src)
{
	size_t i, n = 0;

	for (i = 0; src[i] && n + 1 < len; i++)
		dst[n++] = isprint((unsigned char)src[i]) ? src[i] : '?';
	while (n && dst[n - 1] == ' ')
		n--;
	dst[n] = '\0';
}

static void port_from_ibnd(struct fab_port *fp, ibnd_port_t *p, uint32_t capmask)
{
	struct port_info info = { 0 };
	uint8_t *pi = p->info;

	fp->portnum = p->portnum;
	fp->guid = p->guid;
	fp->lid = p->base_lid;
	fp->lmc = p->lmc;
	port_read_portinfo(&info, pi, capmask);	/* the snapshot's decoder */
	/* libibnetdisc keeps ports whose PortInfo query failed: all zero */
	fp->info_valid = info.state != 0;
	fabric_port_from_info(fp, &info);
	/* FDR10 lives in Mellanox's ExtendedPortInfo (IBND_CONFIG_MLX_EPI). */
	fp->fdr10 = !fp->ext_active &&
		    mad_get_field(p->ext_info, 0, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F) == MLNX_FDR10;
	fp->remote = -1;
	fabric_port_decode(fp);
}

struct pmap { const void *ptr; int idx; };

static int pmap_cmp(const void *a, const void *b)
{
	const struct pmap *x = a, *y = b;

	return x->ptr < y->ptr ? -1 : x->ptr > y->ptr;
}

static int convert(struct fabric *f, ibnd_fabric_t *nf, const struct fab_name *map,
		   int nmap)
{
	struct pmap *pm = NULL;
	int npm = 0, pmcap = 0, nn = 0, np = 0;

	for (ibnd_node_t *n = nf->nodes; n; n = n->next, nn++)
		for (int i = 0; n->ports && i <= n->numports; i++)
			np += n->ports[i] != NULL;
	pmcap = np ? np : 1;
	pm = malloc((size_t)pmcap * sizeof(*pm));
	if (!pm || fabric_reserve(f, nn, np))
		goto oom;
	for (ibnd_node_t *n = nf->nodes; n; n = n->next) {
		struct fab_node fn = { 0 };
		uint32_t capmask = 0;
		const char *mapped = name_map_find(map, nmap, n->guid);
		int ni;

		fn.type = node_type(n->type);
		fn.guid = n->guid;
		fn.sysimg_guid = mad_get_field64(n->info, 0, IB_NODE_SYSTEM_GUID_F);
		fn.vendid = mad_get_field(n->info, 0, IB_NODE_VENDORID_F);
		fn.devid = mad_get_field(n->info, 0, IB_NODE_DEVID_F);
		fn.numports = n->numports;
		clean_desc(fn.desc, sizeof(fn.desc), n->nodedesc);
		if (mapped)
			snprintf(fn.name, sizeof(fn.name), "%s", mapped);
		else if (fn.desc[0])
			snprintf(fn.name, sizeof(fn.name), "%s", fn.desc);
		else	/* NodeDescription did not answer */
			snprintf(fn.name, sizeof(fn.name), "0x%016llx", (unsigned long long)fn.guid);
		if (fn.type == FAB_SWITCH && n->ports && n->ports[0]) {
			capmask = mad_get_field(n->ports[0]->info, 0, IB_PORT_CAPMASK_F);
			fn.lid = n->ports[0]->base_lid;
		}
		ni = fabric_add_node(f, &fn);
		if (ni < 0)
			goto oom;
		if (n == nf->from_node)
			f->from_node = ni;
		for (int i = 0; n->ports && i <= n->numports; i++) {
			ibnd_port_t *p = n->ports[i];
			struct fab_port fp = { 0 };
			int pi;

			if (!p)
				continue;
			fp.node = ni;
			/* a switch port's extended-speed validity is port 0's */
			port_from_ibnd(&fp, p, fn.type == FAB_SWITCH ? capmask :
				       mad_get_field(p->info, 0, IB_PORT_CAPMASK_F));
			if (fn.type == FAB_SWITCH && i > 0)
				fp.lid = fn.lid;
			if (fn.type != FAB_SWITCH && !f->nodes[ni].lid)
				f->nodes[ni].lid = fp.lid;
			pi = fabric_add_port(f, &fp);
			if (pi < 0 || grow((void **)&pm, npm, &pmcap, sizeof(*pm)))
				goto oom;
			pm[npm++] = (struct pmap){ p, pi };
		}
	}
	if (npm)
		qsort(pm, (size_t)npm, sizeof(*pm), pmap_cmp);
	for (int i = 0; i < npm; i++) {
		const ibnd_port_t *p = pm[i].ptr;
		struct pmap key = { p->remoteport, 0 }, *hit;

		if (!p->remoteport || p->portnum == 0)
			continue;
		hit = bsearch(&key, pm, (size_t)npm, sizeof(*pm), pmap_cmp);
		if (hit)
			f->ports[pm[i].idx].remote = hit->idx;
	}
	free(pm);
	return fabric_build_links(f);
oom:
	free(pm);
	return -1;
}

/* libibumad names a made-up "mthca0" when sysfs has no devices, so ask
 * sysfs itself (through opendir, which ibsim's preload redirects too). */
static bool have_device(void)
{
	DIR *d = opendir("/sys/class/infiniband");
	struct dirent *de;
	bool any = false;

	if (!d)
		return false;
	while (!any && (de = readdir(d)))
		any = de->d_name[0] != '.';
	closedir(d);
	return any;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* RoCE ports have no SMPs: say so instead of libibnetdisc's time-outs.
 * Returns true (with err) when the port discovery would use is Ethernet. */
/* The CA discovery leaves from: --ca, else libibnetdisc's first. */
static const char *discovery_ca(const struct fab_opts *o,
				char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN])
{
	if (o->ca)
		return o->ca;
	return umad_get_cas_names(names, UMAD_MAX_DEVICES) > 0 ? names[0] : NULL;
}

static bool roce_only(const struct fab_opts *o, char *err, size_t errlen)
{
	char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
	const char *ca = discovery_ca(o, names);
	umad_ca_t c;
	bool eth = false;

	if (!ca)
		return false;	/* fabric_discover reports it */
	if (umad_get_ca(ca, &c) < 0)
		return false;
	for (int p = 1; p <= c.numports && p < UMAD_CA_MAX_PORTS; p++) {
		if (!c.ports[p] || (o->ca_port && p != o->ca_port))
			continue;
		eth = !strcmp(c.ports[p]->link_layer, "Ethernet");
		break;
	}
	if (eth)
		snprintf(err, errlen, "fabric discovery: %s is a RoCE (Ethernet) port, which has no subnet management packets — fabric discovery needs an InfiniBand port; use the ports view or snapshot for RoCE",
			 c.ca_name);
	umad_release_ca(&c);
	return eth;
}

/*
 * libibnetdisc under ibsim's umad2sim preload: when it fails (its own
 * PortInfo query timed out, or an answer came that it did not ask for)
 * it closes its agents with queries unanswered, whose late answers would
 * crash the process (umadlock.h). A fence on an agent of ours right after
 * leaves only the moment between its close and our agent's registration.
 * Parked agents are fenced before: libibnetdisc fails on an answer it did
 * not ask for.
 */
static ibnd_fabric_t *discover_fenced(const struct fab_opts *o, struct ibnd_config *cfg)
{
	int timeout_ms = cfg->timeout_ms ? (int)cfg->timeout_ms : 1000;	/* libibnetdisc's */
	ibnd_fabric_t *nf;

	umadlock_span_begin();
	if (umadlock_parked())
		smp_agent_fence(o->ca, o->ca_port, timeout_ms);
	nf = ibnd_discover_fabric((char *)o->ca, o->ca_port, NULL, cfg);
	if (!nf)
		smp_agent_fence(o->ca, o->ca_port, timeout_ms);
	umadlock_span_end();
	return nf;
}

struct fabric *fabric_discover(const struct fab_opts *o, char *err, size_t errlen)
{
	struct ibnd_config cfg;
	ibnd_fabric_t *nf;
	struct fabric *f;
	struct fab_name *map = NULL;
	int nmap = 0;
	double t0;

	if (o->node_name_map) {
		nmap = fabric_read_name_map(o->node_name_map, &map, err, errlen);
		if (nmap < 0)
			return NULL;
		/* sorted for name_map_find; the first line of a GUID wins */
		if (nmap)
			qsort(map, (size_t)nmap, sizeof(*map), name_cmp);
	}
	/* No device at all: one line, not libibumad's warnings about
	 * ib_umad and a "port 0" that does not exist. */
	if (!o->ca && !have_device()) {
		snprintf(err, errlen, "fabric discovery: no RDMA device — load the HCA driver (ibstat lists the devices) or try ibconsole --demo");
		free(map);
		return NULL;
	}
	if (roce_only(o, err, errlen)) {
		free(map);
		return NULL;
	}
	/* Never NULL: libibnetdisc (rdma-core 44) dereferences the config. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.max_smps = o->max_smps > 0 ? (unsigned)o->max_smps : 16;
	cfg.max_hops = o->max_hops > 0 ? (unsigned)o->max_hops : 0;
	cfg.timeout_ms = o->timeout_ms > 0 ? (unsigned)o->timeout_ms : 0;
	cfg.retries = o->retries > 0 ? (unsigned)o->retries : 0;
	cfg.flags = IBND_CONFIG_MLX_EPI;

	t0 = now_s();
	nf = discover_fenced(o, &cfg);
	if (!nf) {
		char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN], why[256];
		const char *ca = discovery_ca(o, names);

		if (ca && madaccess_probe(ca, o->ca_port ? o->ca_port : 1, why, sizeof(why))) {
			snprintf(err, errlen, "fabric discovery needs MADs: %s", why);
			free(map);
			return NULL;
		}
		snprintf(err, errlen, "fabric discovery failed: libibnetdisc found nothing through %s%s%.0d — check that the port is Active and an SM has run (ibstat), and that you may open /dev/infiniband/umad*",
			 o->ca ? o->ca : "the first HCA", o->ca_port ? " port " : "", o->ca_port);
		free(map);
		return NULL;
	}
	f = fabric_new();
	if (!f || convert(f, nf, map, nmap)) {
		snprintf(err, errlen, "building the fabric model: out of memory");
		fabric_free(f);
		ibnd_destroy_fabric(nf);
		free(map);
		return NULL;
	}
	f->discover_s = now_s() - t0;
	clock_gettime(CLOCK_REALTIME, &f->taken);
	snprintf(f->origin, sizeof(f->origin), "discovered from %s port %d",
		 o->ca ? o->ca : "the first HCA",
		 nf->from_portnum ? nf->from_portnum : o->ca_port);
	ibnd_destroy_fabric(nf);
	free(map);
	/* libibnetdisc's fabric (4.7 MB at 2,146 nodes) leaves holes in the
	 * heap that what comes next, the sweep's answers and values above
	 * all, only partly fits into: give their pages back, or the first
	 * sweep's peak is that much above the discovery's */
	malloc_trim(0);
	return f;
}
