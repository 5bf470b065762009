// SPDX-License-Identifier: MIT
/* The exporter's metric model. Names follow Prometheus' conventions: base
 * units in the name (bytes, bits_per_second, seconds), _total on
 * counters, low-cardinality labels; every family is written once, all
 * its samples together, as the text format requires. */
#include "config.h"
#include "core/export/metrics.h"

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
	const char *suffix;
	unsigned mult;
	const char *help;
} pma_families[] = {
	{ "PortXmitData", "transmit_bytes_total", 4,
	  "Data transmitted, in bytes (PortXmitData counts 4-octet words: multiplied by 4 here, IBTA PortCounters)." },
	{ "PortRcvData", "receive_bytes_total", 4,
	  "Data received, in bytes (PortRcvData counts 4-octet words: multiplied by 4 here, IBTA PortCounters)." },
	{ "PortXmitPkts", "transmit_packets_total", 1, "Packets transmitted (PortXmitPkts)." },
	{ "PortRcvPkts", "receive_packets_total", 1, "Packets received (PortRcvPkts)." },
	{ "PortUnicastXmitPkts", "unicast_transmit_packets_total", 1, "Unicast packets transmitted (PortUnicastXmitPkts)." },
	{ "PortUnicastRcvPkts", "unicast_receive_packets_total", 1, "Unicast packets received (PortUnicastRcvPkts)." },
	{ "PortMulticastXmitPkts", "multicast_transmit_packets_total", 1, "Multicast packets transmitted (PortMulticastXmitPkts)." },
	{ "PortMulticastRcvPkts", "multicast_receive_packets_total", 1, "Multicast packets received (PortMulticastRcvPkts)." },
	{ "PortXmitWait", "transmit_wait_total", 1,
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

/* PMA data, packets and PortXmitWait: a family each. */
static void write_pma_families(struct expo_buf *b, const char *prefix,
			       const struct export_target *t, int n)
{
	char name[96];

	for (int k = 0; k < NPMA_FAMILIES; k++) {
		const struct pma_family *fam = &pma_families[k];
		bool header = false;

		name_of(name, sizeof(name), prefix, fam->suffix);
		for (int i = 0; i < n; i++) {
			const struct ctr_value *v;

			if (!t[i].cs || !t[i].cs->valid)
				continue;
			v = counters_find(t[i].cs, fam->ctr);
			if (!v || !v->valid)
				continue;	/* absent is absent, never 0 */
			if (!header) {
				expo_family(b, name, "counter", fam->help);
				header = true;
			}
			expo_sample_u64(b, name, t[i].labels, NULL, NULL, v->value * fam->mult);
		}
	}
}

/* The error counters, one family with the PMA name as a label. */
static void write_error_counters(struct expo_buf *b, const char *prefix,
				 const struct export_target *t, int n)
{
	char name[96];

	name_of(name, sizeof(name), prefix, "errors_total");
	expo_family(b, name, "counter",
		    "Error counters of the port by their PMA name (IBTA PortCounters; the classic ones stop at their maximum instead of wrapping).");
	for (int c = 0; c < ctr_table_count; c++) {
		if (ctr_table[c].cls != CTR_ERROR)
			continue;
		for (int i = 0; i < n; i++) {
			const struct ctr_value *v;

			if (!t[i].cs || !t[i].cs->valid)
				continue;
			v = counters_find(t[i].cs, ctr_table[c].name);
			if (v && v->valid)
				expo_sample_u64(b, name, t[i].labels, "counter",
						ctr_table[c].name, v->value);
		}
	}
}

/* Driver hw_counters (RoCE: retries, sequence errors, CNPs ...) and
 * netdev pause / PFC statistics (ethtool -S names). */
static void write_driver_counters(struct expo_buf *b, const char *prefix,
				  const struct export_target *t, int n)
{
	char name[96];

	name_of(name, sizeof(name), prefix, "hw_events_total");
	expo_family(b, name, "counter",
		    "Driver counters from the port's hw_counters directory in sysfs (RoCE), by file name; class is error, congestion or traffic.");
	for (int i = 0; i < n; i++) {
		const struct counter_set *cs = t[i].cs;

		if (!cs || !cs->valid)
			continue;
		for (int c = 0; c < cs->n; c++) {
			const struct ctr_value *v = &cs->c[c];

			if (v->valid && !is_table_counter(v->name) && !strchr(v->name, ':'))
				sample_plus(b, name, t[i].labels, "counter", v->name,
					    "class", ctr_class_name(v->cls), v->value);
		}
	}
	/* netdev pause / PFC statistics (ethtool -S names) */
	name_of(name, sizeof(name), prefix, "netdev_pause_stats_total");
	expo_family(b, name, "counter",
		    "Pause and PFC statistics of the port's network device (ethtool -S names containing pause or pfc).");
	for (int i = 0; i < n; i++) {
		const struct counter_set *cs = t[i].cs;

		if (!cs || !cs->valid)
			continue;
		for (int c = 0; c < cs->n; c++) {
			const struct ctr_value *v = &cs->c[c];
			const char *colon = strchr(v->name, ':');
			char netdev[CTR_NAME];

			if (!v->valid || !colon)
				continue;
			snprintf(netdev, sizeof(netdev), "%.*s", (int)(colon - v->name), v->name);
			sample_plus(b, name, t[i].labels, "netdev", netdev, "counter", colon + 1,
				    v->value);
		}
	}
}

/* Whether the counters could be read, why not, and from where. */
static void write_read_state(struct expo_buf *b, const char *prefix,
			     const struct export_target *t, int n)
{
	char name[96];

	name_of(name, sizeof(name), prefix, "counters_up");
	expo_family(b, name, "gauge",
		    "1 when the port's counters were read in the last collection, 0 when not (see the _counters_error_info series).");
	for (int i = 0; i < n; i++)
		expo_sample(b, name, t[i].labels, NULL, NULL, t[i].cs && t[i].cs->valid ? 1 : 0);
	name_of(name, sizeof(name), prefix, "counters_error_info");
	expo_family(b, name, "gauge", "Why the port's counters could not be read (value always 1).");
	for (int i = 0; i < n; i++)
		if (t[i].cs && !t[i].cs->valid)
			expo_sample(b, name, t[i].labels, "error", t[i].cs->why, 1);
	name_of(name, sizeof(name), prefix, "counters_info");
	expo_family(b, name, "gauge",
		    "Where the counters come from (source pma or sysfs) and which PMA attributes and widths are in use (value always 1).");
	for (int i = 0; i < n; i++) {
		const struct counter_set *cs = t[i].cs;

		if (cs && cs->valid)
			sample_plus(b, name, t[i].labels, "source",
				    cs->source == CTR_SRC_PMA ? "pma" : "sysfs", "mode", cs->mode, 1);
	}
}

/* The counter rules' verdicts, and which counter decided each. */
static void write_verdicts(struct expo_buf *b, const char *prefix,
			   const struct export_target *t, int n)
{
	char name[96], help[256];

	name_of(name, sizeof(name), prefix, "verdict");
	snprintf(help, sizeof(help),
		 "Verdict of each counter rule on the port: 0 ok, 1 watch, 2 act (thresholds from the configuration file, defaults of the reference procedure).");
	expo_family(b, name, "gauge", help);
	for (int r = 0; r < EXPORT_NRULES; r++)
		for (int i = 0; i < n; i++)
			if (t[i].verdict[r] >= 0)
				expo_sample(b, name, t[i].labels, "rule", export_rule_names[r],
					    t[i].verdict[r]);
	/* which counter decided it and the class whose advice applies */
	name_of(name, sizeof(name), prefix, "verdict_class");
	expo_family(b, name, "gauge",
		    "The counter that decided a verdict above ok and its class (physical link: check the optic / cable; congestion / discards; configuration; SM traffic; local buffer; …): the verdict's level.");
	for (int r = 0; r < EXPORT_NRULES; r++)
		for (int i = 0; i < n; i++) {
			struct expo_buf l;
			bool first = !t[i].labels[0];

			if (t[i].verdict[r] < 1 || !t[i].vclass[r])
				continue;
			expo_init(&l);
			expo_printf(&l, "%s", t[i].labels);
			expo_label(&l, &first, "rule", export_rule_names[r]);
			sample_plus(b, name, l.p, "counter", t[i].vcounter[r], "class",
				    t[i].vclass[r], (uint64_t)t[i].verdict[r]);
			expo_free(&l);
		}
}

/* The bit error rate families of the ports that have one. */
static void write_ber(struct expo_buf *b, const char *prefix, const struct export_target *t, int n)
{
	static const struct {
		const char *suffix, *help;
	} fam[] = {
		{ "_bit_error_rate", "Effective bit error rate since the exporter started: SymbolErrorCounter "
		  "over lanes x lane signalling rate x seconds (post-FEC on links with FEC); with no error, "
		  "the 95 % upper bound." },
		{ "_bit_error_rate_bound", "1 when _bit_error_rate is an upper bound (no symbol error seen)." },
		{ "_bit_error_rate_window_seconds", "The window _bit_error_rate covers." },
	};
	char name[96];

	for (size_t k = 0; k < sizeof(fam) / sizeof(fam[0]); k++) {
		bool header = false;

		snprintf(name, sizeof(name), "%s%s", prefix, fam[k].suffix);
		for (int i = 0; i < n; i++) {
			if (!t[i].ber_valid)
				continue;
			if (!header) {
				expo_family(b, name, "gauge", fam[k].help);
				header = true;
			}
			expo_sample(b, name, t[i].labels, NULL, NULL,
				    k == 0 ? t[i].ber : k == 1 ? (double)t[i].ber_bound : t[i].ber_window_s);
		}
	}
}

void export_write_counters(struct expo_buf *b, const char *prefix,
			   const struct export_target *t, int n)
{
	write_ber(b, prefix, t, n);
	write_pma_families(b, prefix, t, n);
	write_error_counters(b, prefix, t, n);
	write_driver_counters(b, prefix, t, n);
	write_read_state(b, prefix, t, n);
	write_verdicts(b, prefix, t, n);
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

void export_write_fabric(struct expo_buf *b, const struct fabric *f,
			 const struct export_target *t, const int *fport, int n)
{
	struct link_vals *l;
	const char *name;
	int *up;

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
	/* up: every port of the node answered its PMA queries */
	up = calloc((size_t)f->nnodes + 1, sizeof(*up));
	l = calloc((size_t)n + 1, sizeof(*l));
	if (!up || !l) {
		b->oom = true;
		free(up);
		free(l);
		return;
	}
	for (int k = 0; k < f->nnodes; k++)
		up[k] = -1;	/* no port swept */
	for (int i = 0; i < n; i++) {
		int k = f->ports[fport[i]].node;
		bool ok = t[i].cs && t[i].cs->valid;

		up[k] = up[k] == -1 ? ok : (up[k] && ok);
	}
	name = "ibconsole_fabric_node_up";
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
	free(up);
}
