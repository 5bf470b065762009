// SPDX-License-Identifier: MIT
/* The exporter's metric model. Names follow Prometheus' conventions: base
 * units in the name (bytes, bits_per_second, seconds), _total on
 * counters, low-cardinality labels; every family is written once, all
 * its samples together, as the text format requires. */
#include "config.h"
#include "core/export/metrics.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fabric/fabric.h"
#include "core/optics/report.h"
#include "core/port/snapshot.h"

const char *const export_rule_names[EXPORT_NRULES] = {
	"errors-in-window", "errors-in-interval", "errors-since-clear", "slow-growth",
};

/* PMA counters with a family of their own; the error counters share
 * <prefix>_errors_total{counter=...}. */
static const struct pma_family {
	const char *ctr;
	enum ctr_idx idx;	/* its ctr_table row */
	const char *suffix;
	unsigned mult;
	const char *help;
} pma_families[] = {
	{ "PortXmitData", CTR_IDX_XMIT_DATA, "transmit_bytes_total", 4,
	  "Data transmitted, in bytes (PortXmitData counts 4-octet words: multiplied by 4 here, IBTA PortCounters)." },
	{ "PortRcvData", CTR_IDX_RCV_DATA, "receive_bytes_total", 4,
	  "Data received, in bytes (PortRcvData counts 4-octet words: multiplied by 4 here, IBTA PortCounters)." },
	{ "PortXmitPkts", CTR_IDX_XMIT_PKTS, "transmit_packets_total", 1, "Packets transmitted (PortXmitPkts)." },
	{ "PortRcvPkts", CTR_IDX_RCV_PKTS, "receive_packets_total", 1, "Packets received (PortRcvPkts)." },
	{ "PortUnicastXmitPkts", CTR_IDX_UNICAST_XMIT_PKTS, "unicast_transmit_packets_total", 1,
	  "Unicast packets transmitted (PortUnicastXmitPkts)." },
	{ "PortUnicastRcvPkts", CTR_IDX_UNICAST_RCV_PKTS, "unicast_receive_packets_total", 1,
	  "Unicast packets received (PortUnicastRcvPkts)." },
	{ "PortMulticastXmitPkts", CTR_IDX_MULTICAST_XMIT_PKTS, "multicast_transmit_packets_total", 1,
	  "Multicast packets transmitted (PortMulticastXmitPkts)." },
	{ "PortMulticastRcvPkts", CTR_IDX_MULTICAST_RCV_PKTS, "multicast_receive_packets_total", 1,
	  "Multicast packets received (PortMulticastRcvPkts)." },
	{ "PortXmitWait", CTR_IDX_XMIT_WAIT, "transmit_wait_total", 1,
	  "Ticks during which the port had data to send but no flow-control credits (PortXmitWait; congestion, not an error)." },
};
#define NPMA_FAMILIES (int)(sizeof(pma_families) / sizeof(*pma_families))

const char *export_pma_family(const char *ctr, unsigned *mult)
{
	for (int i = 0; i < NPMA_FAMILIES; i++)
		if (!strcmp(pma_families[i].ctr, ctr)) {
			*mult = pma_families[i].mult;
			return pma_families[i].suffix;
		}
	*mult = 1;
	return NULL;
}

/* A counter of the PMA table (by its PMA name), as opposed to a driver
 * hw_counter or a netdev statistic. */
static bool is_table_counter(const char *name)
{
	for (int i = 0; i < ctr_table_count; i++)
		if (!strcmp(ctr_table[i].name, name))
			return true;
	return false;
}

void export_labels_local(struct export_target *t, const char *dev, int port)
{
	struct expo_buf b;
	bool first = true;
	char num[16];

	t->ber_valid = false;	/* until the caller computes one */
	expo_init(&b);
	snprintf(num, sizeof(num), "%d", port);
	expo_label(&b, &first, "device", dev);
	expo_label(&b, &first, "port", num);
	snprintf(t->labels, sizeof(t->labels), "%s", b.p ? b.p : "");
	expo_free(&b);
}

void export_labels_fabric(struct export_target *t, const struct fabric *f,
			  int port_index)
{
	const struct fab_port *p = &f->ports[port_index];
	const struct fab_node *n = &f->nodes[p->node];
	struct expo_buf b;
	bool first = true;
	char guid[24], num[16];

	t->ber_valid = false;	/* until the caller computes one */
	expo_init(&b);
	snprintf(guid, sizeof(guid), "0x%016llx", (unsigned long long)n->guid);
	snprintf(num, sizeof(num), "%d", p->portnum);
	expo_label(&b, &first, "node_guid", guid);
	expo_label(&b, &first, "node", n->name);
	expo_label(&b, &first, "port", num);
	snprintf(t->labels, sizeof(t->labels), "%s", b.p ? b.p : "");
	expo_free(&b);
}

static void name_of(char *buf, size_t len, const char *prefix, const char *suffix)
{
	snprintf(buf, len, "%s_%s", prefix, suffix);
}

/* One sample whose labels are the port's plus key="val" and xkey="xval". */
static void sample_plus(struct expo_buf *b, const char *name, const char *labels,
			const char *key, const char *val, const char *xkey,
			const char *xval, uint64_t v)
{
	struct expo_buf l;
	bool first = !labels || !*labels;

	expo_init(&l);
	expo_printf(&l, "%s", labels ? labels : "");
	expo_label(&l, &first, key, val);
	expo_sample_u64(b, name, l.p, xkey, xval, v);
	expo_free(&l);
}

/* A GUID label in the form every tool prints it (0x and 16 digits). */
static void label_guid(struct expo_buf *x, bool *first, const char *key, uint64_t guid)
{
	char g[24];

	snprintf(g, sizeof(g), "0x%016llx", (unsigned long long)guid);
	expo_label(x, first, key, g);
}

/*
 * The counter families of export_write_counters(), in their order. The
 * text format wants every family's samples together; each family has
 * one or more sections (the error counters: one per counter, the
 * verdicts: one per rule), and a port's text holds its samples of every
 * section (export_port_text()), so the families can be written from
 * texts kept from an earlier collection (export_write_texts()).
 */
enum sect_kind {
	SK_BER, SK_PMA, SK_ERR, SK_HW, SK_PAUSE, SK_UP, SK_ERRINFO, SK_INFO,
	SK_VERDICT, SK_VCLASS,
};

struct section {
	uint8_t kind;		/* enum sect_kind */
	short arg;		/* BER / PMA family, counter row, rule */
};

static const struct {
	const char *suffix, *help;
} ber_fams[] = {
	{ "bit_error_rate", "Effective bit error rate since the exporter started: SymbolErrorCounter "
	  "over lanes x lane signalling rate x seconds (post-FEC on links with FEC); with no error, "
	  "the 95 % upper bound." },
	{ "bit_error_rate_bound", "1 when _bit_error_rate is an upper bound (no symbol error seen)." },
	{ "bit_error_rate_window_seconds", "The window _bit_error_rate covers." },
};

/* Headers of the families with one section each or a fixed name. */
static const struct {
	const char *suffix, *type, *help;
} fixed_fams[] = {
	[SK_ERR] = { "errors_total", "counter",
		     "Error counters of the port by their PMA name (IBTA PortCounters; the classic ones stop at their maximum instead of wrapping)." },
	[SK_HW] = { "hw_events_total", "counter",
		    "Driver counters from the port's hw_counters directory in sysfs (RoCE), by file name; class is error, congestion or traffic." },
	[SK_PAUSE] = { "netdev_pause_stats_total", "counter",
		       "Pause and PFC statistics of the port's network device (ethtool -S names containing pause or pfc)." },
	[SK_UP] = { "counters_up", "gauge",
		    "1 when the port's counters were read in the last collection, 0 when not (see the _counters_error_info series)." },
	[SK_ERRINFO] = { "counters_error_info", "gauge", "Why the port's counters could not be read (value always 1)." },
	[SK_INFO] = { "counters_info", "gauge",
		      "Where the counters come from (source pma or sysfs) and which PMA attributes and widths are in use (value always 1)." },
	[SK_VERDICT] = { "verdict", "gauge",
			 "Verdict of each counter rule on the port: 0 ok, 1 watch, 2 act (thresholds from the configuration file, defaults of the reference procedure)." },
	[SK_VCLASS] = { "verdict_class", "gauge",
			"The counter that decided a verdict above ok and its class (physical link: check the optic / cable; congestion / discards; configuration; SM traffic; local buffer; …): the verdict's level." },
};

/* The sections in order into s (EXPORT_MAX_SECTIONS): their count. */
static int build_sections(struct section *s)
{
	int n = 0;

	for (int k = 0; k < (int)(sizeof(ber_fams) / sizeof(*ber_fams)); k++)
		s[n++] = (struct section){ SK_BER, (short)k };
	for (int k = 0; k < NPMA_FAMILIES; k++)
		s[n++] = (struct section){ SK_PMA, (short)k };
	for (int c = 0; c < ctr_table_count && n < EXPORT_MAX_SECTIONS - 13; c++)
		if (ctr_table[c].cls == CTR_ERROR)
			s[n++] = (struct section){ SK_ERR, (short)c };
	for (int k = SK_HW; k <= SK_INFO; k++)
		s[n++] = (struct section){ (uint8_t)k, 0 };
	for (int r = 0; r < EXPORT_NRULES; r++)
		s[n++] = (struct section){ SK_VERDICT, (short)r };
	for (int r = 0; r < EXPORT_NRULES; r++)
		s[n++] = (struct section){ SK_VCLASS, (short)r };
	return n;
}

/* The order never changes: made once, read by every port's text. */
static struct section section_tab[EXPORT_MAX_SECTIONS];
static int section_n;
static pthread_once_t section_once = PTHREAD_ONCE_INIT;

static void make_sections(void)
{
	section_n = build_sections(section_tab);
}

static const struct section *sections(int *n)
{
	pthread_once(&section_once, make_sections);
	*n = section_n;
	return section_tab;
}

int export_nsections(void)
{
	int n;

	sections(&n);
	return n;
}

static void section_name(char *buf, size_t len, const char *prefix,
			 const struct section *s)
{
	name_of(buf, len, prefix, s->kind == SK_BER ? ber_fams[s->arg].suffix :
		s->kind == SK_PMA ? pma_families[s->arg].suffix : fixed_fams[s->kind].suffix);
}

/* Every section's family name under one prefix, made on the first call
 * for that prefix in a thread: a port's text names a family for each of
 * its samples, and a full sweep writes hundreds of thousands of them. */
struct section_names {
	char prefix[64];
	char name[EXPORT_MAX_SECTIONS][96];
};

static const struct section_names *names_for(const char *prefix)
{
	static _Thread_local struct section_names nm;
	int ns;
	const struct section *s = sections(&ns);

	/* a prefix too long for the key is named again on each call */
	if (!nm.prefix[0] || strcmp(nm.prefix, prefix)) {
		snprintf(nm.prefix, sizeof(nm.prefix), "%s", prefix);
		for (int k = 0; k < ns; k++)
			section_name(nm.name[k], sizeof(nm.name[k]), prefix, &s[k]);
	}
	return &nm;
}

/* The header of the family section s starts, if it starts one. BER and
 * PMA families are written only where a port has a sample (any). */
static void section_header(struct expo_buf *b, const char *prefix,
			   const struct section *s, const struct section *before,
			   bool any)
{
	char name[96];

	if (s->kind == SK_BER || s->kind == SK_PMA) {
		if (!any)
			return;
	} else if (before && before->kind == s->kind) {
		return;		/* the same family goes on */
	}
	section_name(name, sizeof(name), prefix, s);
	if (s->kind == SK_BER)
		expo_family(b, name, "gauge", ber_fams[s->arg].help);
	else if (s->kind == SK_PMA)
		expo_family(b, name, "counter", pma_families[s->arg].help);
	else
		expo_family(b, name, fixed_fams[s->kind].type, fixed_fams[s->kind].help);
}

/* Driver hw_counters (RoCE: retries, sequence errors, CNPs ...) or
 * netdev pause / PFC statistics (ethtool -S names, pause). */
static void driver_samples(struct expo_buf *b, const char *name,
			   const struct export_target *t, bool pause)
{
	const struct counter_set *cs = t->cs;

	for (int c = 0; c < cs->n; c++) {
		const struct ctr_value *v = &cs->c[c];
		const char *colon = strchr(v->name, ':');
		char netdev[CTR_NAME];

		if (!v->valid || (pause ? !colon : colon || is_table_counter(v->name)))
			continue;
		if (!pause) {
			sample_plus(b, name, t->labels, "counter", v->name,
				    "class", ctr_class_name(v->cls), v->value);
			continue;
		}
		snprintf(netdev, sizeof(netdev), "%.*s", (int)(colon - v->name), v->name);
		sample_plus(b, name, t->labels, "netdev", netdev, "counter", colon + 1, v->value);
	}
}

/* The verdict decided by a counter: its level, with the counter and
 * its class (physical link, congestion / discards, ...). */
static void verdict_class(struct expo_buf *b, const char *name,
			  const struct export_target *t, int r)
{
	struct expo_buf l;
	bool first = !t->labels[0];

	if (t->verdict[r] < 1 || !t->vclass[r])
		return;
	expo_init(&l);
	expo_printf(&l, "%s", t->labels);
	expo_label(&l, &first, "rule", export_rule_names[r]);
	sample_plus(b, name, l.p, "counter", t->vcounter[r], "class", t->vclass[r],
		    (uint64_t)t->verdict[r]);
	expo_free(&l);
}

/* Port t's samples of section s, whose family is name. */
static void port_section(struct expo_buf *b, const char *name,
			 const struct export_target *t, const struct section *s)
{
	const struct counter_set *cs = t->cs;
	bool ok = cs && cs->valid;
	const struct ctr_value *v;

	switch ((enum sect_kind)s->kind) {
	case SK_BER:
		if (t->ber_valid)
			expo_sample(b, name, t->labels, NULL, NULL, s->arg == 0 ? t->ber :
				    s->arg == 1 ? (double)t->ber_bound : t->ber_window_s);
		break;
	case SK_PMA:
		/* absent is absent, never 0 */
		if (ok && (v = counters_find(cs, pma_families[s->arg].ctr)) && v->valid)
			expo_sample_u64(b, name, t->labels, NULL, NULL,
					v->value * pma_families[s->arg].mult);
		break;
	case SK_ERR:
		if (ok && (v = counters_find(cs, ctr_table[s->arg].name)) && v->valid)
			expo_sample_u64(b, name, t->labels, "counter", ctr_table[s->arg].name,
					v->value);
		break;
	case SK_HW:
	case SK_PAUSE:
		if (ok)
			driver_samples(b, name, t, s->kind == SK_PAUSE);
		break;
	case SK_UP:
		expo_sample(b, name, t->labels, NULL, NULL, ok ? 1 : 0);
		break;
	case SK_ERRINFO:
		if (cs && !cs->valid)
			expo_sample(b, name, t->labels, "error", cs->why, 1);
		break;
	case SK_INFO:
		if (ok)
			sample_plus(b, name, t->labels, "source",
				    cs->source == CTR_SRC_PMA ? "pma" : "sysfs", "mode", cs->mode, 1);
		break;
	case SK_VERDICT:
		if (t->verdict[s->arg] >= 0)
			expo_sample(b, name, t->labels, "rule", export_rule_names[s->arg],
				    t->verdict[s->arg]);
		break;
	case SK_VCLASS:
		verdict_class(b, name, t, s->arg);
		break;
	}
}

void export_port_text(struct expo_buf *b, const char *prefix,
		      const struct export_target *t, uint32_t *off,
		      enum export_part part)
{
	int ns;
	const struct section *s = sections(&ns);
	const struct section_names *nm = names_for(prefix);
	size_t base = b->len;

	for (int k = 0; k < ns; k++) {
		bool traffic = s[k].kind == SK_PMA;

		off[k] = (uint32_t)(b->len - base);
		if (part == EXPORT_PART_ALL || traffic == (part == EXPORT_PART_TRAFFIC))
			port_section(b, nm->name[k], t, &s[k]);
	}
	off[ns] = (uint32_t)(b->len - base);
}

unsigned export_traffic_present(const struct counter_set *cs)
{
	unsigned present = 0;

	for (int k = 0; cs && cs->valid && k < NPMA_FAMILIES; k++) {
		const struct ctr_value *v = counters_find(cs, pma_families[k].ctr);

		if (v && v->valid)
			present |= 1u << k;
	}
	return present;
}

int export_section_traffic(int k)
{
	int ns;
	const struct section *s = sections(&ns);

	return k >= 0 && k < ns && s[k].kind == SK_PMA ? s[k].arg : -1;
}

void export_section_header(struct expo_buf *b, const char *prefix, int k, bool any)
{
	int ns;
	const struct section *s = sections(&ns);

	if (k >= 0 && k < ns)
		section_header(b, prefix, &s[k], k ? &s[k - 1] : NULL, any);
}

void export_traffic_sample(struct expo_buf *b, const char *prefix, int k,
			   const char *labels, const uint64_t *v)
{
	int f = export_section_traffic(k);

	if (f >= 0)
		expo_sample_u64(b, names_for(prefix)->name[k], labels, NULL, NULL,
				v[pma_families[f].idx] * pma_families[f].mult);
}

void export_write_texts(struct expo_buf *b, const char *prefix,
			const struct export_port_text *pt, int n)
{
	int ns;
	const struct section *s = sections(&ns);

	for (int k = 0; k < ns; k++) {
		bool any = false;

		for (int i = 0; i < n && !any; i++)
			any = pt[i].off[k + 1] > pt[i].off[k];
		section_header(b, prefix, &s[k], k ? &s[k - 1] : NULL, any);
		for (int i = 0; i < n; i++) {
			const struct export_port_text *x = &pt[i];

			if (x->off[k + 1] > x->off[k])
				expo_append(b, x->p + x->off[k], x->off[k + 1] - x->off[k]);
		}
	}
}

void export_write_counters(struct expo_buf *b, const char *prefix,
			   const struct export_target *t, int n)
{
	int ns = export_nsections();
	struct export_port_text *pt = calloc((size_t)n + 1, sizeof(*pt));
	uint32_t *off = calloc(((size_t)n + 1) * ((size_t)ns + 1), sizeof(*off));
	struct expo_buf x;

	expo_init(&x);
	if (!pt || !off) {
		b->oom = true;
		goto out;
	}
	for (int i = 0; i < n; i++)
		export_port_text(&x, prefix, &t[i], off + (size_t)i * (ns + 1), EXPORT_PART_ALL);
	if (x.oom) {
		b->oom = true;
		goto out;
	}
	/* each port's text as one stretch of x, its offsets made absolute */
	for (size_t i = 0, at = 0; i < (size_t)n; i++) {
		uint32_t *o = off + i * (size_t)(ns + 1);

		for (int k = 0; k <= ns; k++)
			o[k] += (uint32_t)at;
		at = o[ns];
		pt[i].p = x.p;
		pt[i].off = o;
	}
	export_write_texts(b, prefix, pt, n);
out:
	expo_free(&x);
	free(pt);
	free(off);
}

/* The link families shared by local and fabric ports. */
struct link_vals {
	int state, phys;		/* 0 unknown */
	int lanes;			/* 0 unknown */
	double sig_Bps, data_Bps;	/* bytes per second, 0 unknown */
	int mtu;			/* 0 unknown */
};

static void link_of_info(const struct port_info *p, bool link_valid,
			 bool mtu_valid, struct link_vals *l)
{
	memset(l, 0, sizeof(*l));
	l->state = p->state;
	l->phys = p->phys_state;
	if (link_valid && p->speed_name[0] && p->lane_gbps > 0) {
		l->lanes = port_width_lanes(p->width_active);
		l->sig_Bps = l->lanes * p->lane_gbps * 1e9 / 8;
		/* the port model's data rate after encoding (a RoCE port's
		 * from its netdev); a fabric port's from its lanes */
		l->data_Bps = (p->data_rate_gbps > 0 ? p->data_rate_gbps :
			       l->lanes * port_lane_data_gbps(p->speed_name)) * 1e9 / 8;
	}
	if (mtu_valid && p->mtu_active > 0)
		l->mtu = p->mtu_active;
}

static void write_links(struct expo_buf *b, const char *prefix,
			const struct export_target *t, const struct link_vals *l,
			int n)
{
	static const struct {
		const char *suffix, *help;
	} fams[] = {
		{ "state", "Logical port state: 1 Down, 2 Init, 3 Armed, 4 Active (PortInfo LinkState)." },
		{ "physical_state", "Physical port state: 1 Sleep, 2 Polling, 3 Disabled, 4 PortConfigurationTraining, 5 LinkUp, 6 LinkErrorRecovery, 7 PhyTest (PortInfo PhysLinkState)." },
		{ "link_width_lanes", "Active link width in lanes (1X, 2X, 4X, 8X, 12X)." },
		{ "signalling_rate_bytes_per_second", "Signalling rate of the link in bytes per second (bits / 8): lanes times the lane rate, e.g. 4 x 53.125 Gb/s for HDR." },
		{ "data_rate_bytes_per_second", "Data rate of the link after line encoding in bytes per second (bits / 8): 8b/10b to QDR, 64b/66b for FDR and EDR, the nominal rate for the PAM4 speeds." },
		{ "mtu_bytes", "Active MTU in bytes (IB: NeighborMTU; RoCE: the verbs active MTU)." },
	};
	char name[96];

	for (size_t k = 0; k < sizeof(fams) / sizeof(*fams); k++) {
		bool header = false;

		name_of(name, sizeof(name), prefix, fams[k].suffix);
		for (int i = 0; i < n; i++) {
			double v = 0;

			switch (k) {
			case 0: v = l[i].state; break;
			case 1: v = l[i].phys; break;
			case 2: v = l[i].lanes; break;
			case 3: v = l[i].sig_Bps; break;
			case 4: v = l[i].data_Bps; break;
			case 5: v = l[i].mtu; break;
			}
			if (v <= 0)
				continue;	/* unknown: no sample rather than 0 */
			if (!header) {
				expo_family(b, name, "gauge", fams[k].help);
				header = true;
			}
			expo_sample(b, name, t[i].labels, NULL, NULL, v);
		}
	}
}

/* The modules of the ports whose snapshot read them. */
static void write_modules(struct expo_buf *b, const struct snapshot *s,
			  const struct export_target *t)
{
	const struct optics_port **p = calloc(s->nports > 0 ? (size_t)s->nports : 1, sizeof(*p));
	const char **labels = calloc(s->nports > 0 ? (size_t)s->nports : 1, sizeof(*labels));
	int n = 0;

	for (int i = 0; p && labels && i < s->nports; i++)
		if (s->ports[i].module_asked) {
			p[n] = &s->ports[i].module;
			labels[n++] = t[i].labels;
		}
	if (n > 0)
		optics_expo(b, p, labels, n);
	free(p);
	free(labels);
}

void export_write_local(struct expo_buf *b, const struct snapshot *s,
			const struct export_target *t)
{
	/* one per port, however many (out of memory: the link families go) */
	struct link_vals *l = calloc(s->nports > 0 ? (size_t)s->nports : 1, sizeof(*l));
	const char *name;

	name = "ibconsole_port_info";
	expo_family(b, name, "gauge",
		    "Names and identities of a local port (value always 1): GUIDs, device type, firmware, board, link layer, network device.");
	for (int i = 0; i < s->nports; i++) {
		const struct port_info *p = &s->ports[i];
		struct expo_buf x;
		bool first = false;
		char g[24];

		expo_init(&x);
		expo_printf(&x, "%s", t[i].labels);
		label_guid(&x, &first, "node_guid", p->node_guid);
		label_guid(&x, &first, "port_guid", p->port_guid);
		expo_label(&x, &first, "ca_type", p->ca_type);
		expo_label(&x, &first, "fw_ver", p->fw_ver);
		expo_label(&x, &first, "hw_ver", p->hw_ver);
		expo_label(&x, &first, "board_id", p->board_id_v.valid ? p->board_id : "");
		expo_label(&x, &first, "link_layer", p->link_layer);
		expo_label(&x, &first, "netdev", p->netdev);
		snprintf(g, sizeof(g), "%u", p->lid);
		expo_sample(b, name, x.p, "lid", g, 1);
		expo_free(&x);
	}
	if (l) {
		for (int i = 0; i < s->nports; i++)
			link_of_info(&s->ports[i], s->ports[i].link_v.valid,
				     s->ports[i].mtu_v.valid, &l[i]);
		write_links(b, "ibconsole_port", t, l, s->nports);
		free(l);
	}

	static const struct {
		const char *name, *help;
	} pcie[] = {
		{ "ibconsole_port_pcie_link_speed_transfers_per_second", "PCIe link speed the HCA trained at, in transfers per second per lane (8 GT/s = 8e9)." },
		{ "ibconsole_port_pcie_link_width_lanes", "PCIe link width the HCA trained at, in lanes." },
		{ "ibconsole_port_pcie_bandwidth_bytes_per_second", "Usable PCIe bandwidth per direction after line encoding, at the trained speed and width, in bytes per second." },
		{ "ibconsole_port_pcie_max_bandwidth_bytes_per_second", "Usable PCIe bandwidth per direction the slot and card are capable of, in bytes per second." },
	};
	for (size_t k = 0; k < sizeof(pcie) / sizeof(*pcie); k++) {
		bool header = false;

		for (int i = 0; i < s->nports; i++) {
			const struct pcie_info *pc = &s->ports[i].pcie;
			double v = 0;

			if (!pc->v.valid)
				continue;
			switch (k) {
			case 0: v = pc->cur_gts * 1e9; break;
			case 1: v = pc->cur_width; break;
			case 2: v = pc->cur_gbps * 1e9 / 8; break;
			case 3: v = pc->max_gbps * 1e9 / 8; break;
			}
			if (v <= 0)
				continue;
			if (!header) {
				expo_family(b, pcie[k].name, "gauge", pcie[k].help);
				header = true;
			}
			expo_sample(b, pcie[k].name, t[i].labels, NULL, NULL, v);
		}
	}
	name = "ibconsole_port_numa_node";
	expo_family(b, name, "gauge", "NUMA node of the HCA (-1: the platform reports none).");
	for (int i = 0; i < s->nports; i++)
		if (s->ports[i].numa.v.valid)
			expo_sample(b, name, t[i].labels, NULL, NULL, s->ports[i].numa.node);
	write_modules(b, s, t);
}

void export_write_node_up(struct expo_buf *b, const struct fabric *f,
			  const bool *ok, const int *fport, int n)
{
	/* up: every port of the node answered its PMA queries */
	int *up = calloc((size_t)f->nnodes + 1, sizeof(*up));
	const char *name = "ibconsole_fabric_node_up";

	if (!up) {
		b->oom = true;
		return;
	}
	for (int k = 0; k < f->nnodes; k++)
		up[k] = -1;	/* no port swept */
	for (int i = 0; i < n; i++) {
		int k = f->ports[fport[i]].node;

		up[k] = up[k] == -1 ? ok[i] : (up[k] && ok[i]);
	}
	expo_family(b, name, "gauge",
		    "1 when every port of the node answered its PMA queries in the last complete sweep, else 0.");
	for (int k = 0; k < f->nnodes; k++) {
		char g[24];

		if (up[k] < 0)
			continue;
		snprintf(g, sizeof(g), "0x%016llx", (unsigned long long)f->nodes[k].guid);
		sample_plus(b, name, NULL, "node_guid", g, "node", f->nodes[k].name,
			    (uint64_t)up[k]);
	}
	free(up);
}

void export_write_fabric(struct expo_buf *b, const struct fabric *f,
			 const struct export_target *t, const int *fport, int n)
{
	bool *ok = calloc((size_t)n + 1, sizeof(*ok));

	if (!ok) {
		b->oom = true;
		return;
	}
	for (int i = 0; i < n; i++)
		ok[i] = t[i].cs && t[i].cs->valid;
	export_write_node_up(b, f, ok, fport, n);
	free(ok);
	export_write_fabric_model(b, f, t, fport, n);
}

void export_write_fabric_model(struct expo_buf *b, const struct fabric *f,
			       const struct export_target *t, const int *fport, int n)
{
	struct link_vals *l;
	const char *name;

	name = "ibconsole_fabric_node_info";
	expo_family(b, name, "gauge",
		    "A node the discovery found (value always 1): name from the node-name map (else its description), description, type, LID.");
	for (int k = 0; k < f->nnodes; k++) {
		const struct fab_node *nd = &f->nodes[k];
		struct expo_buf x;
		bool first = true;
		char g[24];

		expo_init(&x);
		label_guid(&x, &first, "node_guid", nd->guid);
		expo_label(&x, &first, "node", nd->name);
		expo_label(&x, &first, "description", nd->desc);
		expo_label(&x, &first, "type", fabric_type_name(nd->type));
		snprintf(g, sizeof(g), "%u", nd->lid);
		expo_sample(b, name, x.p, "lid", g, 1);
		expo_free(&x);
	}
	l = calloc((size_t)n + 1, sizeof(*l));
	if (!l) {
		b->oom = true;
		return;
	}
	name = "ibconsole_fabric_port_link_info";
	expo_family(b, name, "gauge",
		    "The remote end of the port's link (value always 1).");
	for (int i = 0; i < n; i++) {
		const struct fab_port *p = &f->ports[fport[i]], *r;
		struct expo_buf x;
		bool first = false;
		char g[24];

		if (p->remote < 0)
			continue;
		r = &f->ports[p->remote];
		expo_init(&x);
		expo_printf(&x, "%s", t[i].labels);
		label_guid(&x, &first, "remote_node_guid", f->nodes[r->node].guid);
		expo_label(&x, &first, "remote_node", f->nodes[r->node].name);
		snprintf(g, sizeof(g), "%d", r->portnum);
		expo_sample(b, name, x.p, "remote_port", g, 1);
		expo_free(&x);
	}
	for (int i = 0; i < n; i++) {
		const struct fab_port *p = &f->ports[fport[i]];
		struct port_info pi;

		fabric_port_to_info(p, &pi);
		if (p->info_valid && p->state >= 2)
			port_decode_rate(&pi);
		link_of_info(&pi, p->info_valid && p->state >= 2, p->info_valid, &l[i]);
	}
	write_links(b, "ibconsole_fabric_port", t, l, n);
	free(l);
}
