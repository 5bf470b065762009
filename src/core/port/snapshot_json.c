// SPDX-License-Identifier: MIT
/* Snapshot output for scripts: the documented JSON (ibconsole/snapshot/1)
 * and an aligned one-row-per-port table. */
#include "config.h"
#include "core/port/snapshot.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <infiniband/mad.h>

#include "core/base/json.h"
#include "core/base/sysfs.h"
#include "core/optics/report.h"

static const char *guid(uint64_t g, char *buf, size_t len)
{
	snprintf(buf, len, "0x%016llx", (unsigned long long)g);
	return buf;
}

void snapshot_json_peer_members(struct json *j, const struct port_peer *q)
{
	char g[24];

	json_str(j, "name", q->name);
	json_str(j, "guid", guid(q->guid, g, sizeof(g)));
	json_str(j, "type", port_peer_type_name(q->type));
	json_int(j, "port", q->port);
	json_int_or_null(j, "lid", q->lid != 0, q->lid);
}

/* smpquery's own wording, from libibmad's formatter */
static const char *mad_words(enum MAD_FIELDS f, unsigned v, char *buf, int len)
{
	int val = (int)v;

	mad_dump_val(f, buf, len, &val);
	return buf;
}

static void json_mask_pair(struct json *j, const char *key, bool valid,
			   enum MAD_FIELDS f, unsigned mask)
{
	char k[48], buf[96];

	json_str(j, key, valid ? mad_words(f, mask, buf, sizeof(buf)) : NULL);
	snprintf(k, sizeof(k), "%s_mask", key);
	json_int_or_null(j, k, valid, mask);
}

static void json_link(struct json *j, const struct port_info *p)
{
	bool v = p->link_v.valid, caps = v && p->caps_valid;
	bool ext = v && p->ext_valid && caps;

	if (!v)
		json_str(j, "link_error", p->link_v.why);
	json_mask_pair(j, "width_active", v, IB_PORT_LINK_WIDTH_ACTIVE_F, p->width_active);
	json_mask_pair(j, "width_enabled", caps, IB_PORT_LINK_WIDTH_ENABLED_F, p->width_enabled);
	json_mask_pair(j, "width_supported", caps, IB_PORT_LINK_WIDTH_SUPPORTED_F, p->width_supported);
	json_mask_pair(j, "speed_active", v && p->speed_active, IB_PORT_LINK_SPEED_ACTIVE_F, p->speed_active);
	json_mask_pair(j, "speed_enabled", caps, IB_PORT_LINK_SPEED_ENABLED_F, p->speed_enabled);
	json_mask_pair(j, "speed_supported", caps, IB_PORT_LINK_SPEED_SUPPORTED_F, p->speed_supported);
	json_mask_pair(j, "speed_ext_active", v && p->ext_valid, IB_PORT_LINK_SPEED_EXT_ACTIVE_F, p->ext_active);
	json_mask_pair(j, "speed_ext_enabled", ext, IB_PORT_LINK_SPEED_EXT_ENABLED_F, p->ext_enabled);
	json_mask_pair(j, "speed_ext_supported", ext, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F, p->ext_supported);
	if (p->ext2_valid) {
		json_int(j, "speed_ext2_active_mask", p->ext2_active);
		json_int(j, "speed_ext2_enabled_mask", p->ext2_enabled);
		json_int(j, "speed_ext2_supported_mask", p->ext2_supported);
	}
	json_str(j, "speed", p->speed_name[0] ? p->speed_name : NULL);
	if (p->lane_gbps) {
		json_num(j, "lane_gbps", p->lane_gbps);
		json_num(j, "rate_gbps", p->rate_gbps);
	} else {
		json_null(j, "lane_gbps");
		json_null(j, "rate_gbps");
	}
	if (p->data_rate_gbps > 0) {
		json_num(j, "data_rate_gbps", p->data_rate_gbps);
		json_str(j, "data_rate_source", p->data_rate_source);
	} else {
		json_null(j, "data_rate_gbps");
		json_str(j, "data_rate_source", NULL);
	}
	if (p->max_rate_gbps) {
		json_num(j, "max_rate_gbps", p->max_rate_gbps);
		json_bool(j, "below_capability", p->below_capability);
		json_str(j, "below_capability_reason", p->below_capability ? p->below_why : NULL);
	} else {
		json_null(j, "max_rate_gbps");
		json_null(j, "below_capability");
		json_str(j, "below_capability_reason", NULL);
	}
}

/* The MTU, the netdev and the GID table. */
static void json_mtu_gids(struct json *j, const struct port_info *p)
{
	if (p->mtu_v.valid) {
		json_int(j, "mtu_active", p->mtu_active);
		json_int(j, "mtu_max", p->mtu_max);
		json_str(j, "mtu_source", p->mtu_source);
	} else {
		json_null(j, "mtu_active");
		json_null(j, "mtu_max");
		json_str(j, "mtu_error", p->mtu_v.why);
	}
	json_str(j, "netdev", p->netdev[0] ? p->netdev : NULL);
	json_int_or_null(j, "netdev_mtu", p->netdev_mtu, p->netdev_mtu);
	json_int_or_null(j, "netdev_speed_mbps", p->netdev_speed_mbps, p->netdev_speed_mbps);

	json_arr_begin(j, "gids");
	for (int i = 0; i < p->ngids; i++) {
		const struct port_gid *g = &p->gids[i];

		json_obj_begin(j, NULL);
		json_int(j, "index", g->index);
		json_str(j, "gid", g->gid);
		json_str(j, "type", g->type[0] ? g->type : NULL);
		json_str(j, "netdev", g->netdev[0] ? g->netdev : NULL);
		json_str(j, "ipv4", g->ipv4[0] ? g->ipv4 : NULL);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_int_or_null(j, "roce_v2_ipv4_gid_index", p->roce_v2_ipv4_index >= 0, p->roce_v2_ipv4_index);
	json_str(j, "hw_counters_dir", p->hw_counters_dir[0] ? p->hw_counters_dir : NULL);
	json_int(j, "hw_counters_count", p->n_hw_counters);
}

/* The HCA's PCIe link and whether it limits the port's data rate. */
static void json_pcie(struct json *j, const struct port_info *p)
{
	if (p->pcie.v.valid) {
		json_obj_begin(j, "pcie");
		json_str(j, "address", p->pcie.address);
		json_num(j, "current_speed_gts", p->pcie.cur_gts);
		json_int(j, "current_width", p->pcie.cur_width);
		json_num(j, "max_speed_gts", p->pcie.max_gts);
		json_int(j, "max_width", p->pcie.max_width);
		json_num(j, "current_gbps", p->pcie.cur_gbps);
		json_num(j, "max_gbps", p->pcie.max_gbps);
		json_int(j, "max_payload_bytes", p->pcie.mps);
		json_str(j, "max_payload_source", p->pcie.mps_source);
		json_num(j, "tlp_efficiency", p->pcie.tlp_eff);
		json_num(j, "usable_gbps", p->pcie.usable_gbps);
		json_num(j, "max_usable_gbps", p->pcie.max_usable_gbps);
		json_bool(j, "degraded", p->pcie.degraded);
		json_obj_end(j);
	} else {
		json_null(j, "pcie");
		json_str(j, "pcie_error", p->pcie.v.why);
	}
	if (p->pcie_why[0]) {
		json_bool(j, "pcie_limits_data_rate", p->pcie_limits);
		json_num(j, "pcie_shortfall_gbps", p->pcie_shortfall_gbps);
		json_num(j, "pcie_need_gbps", p->pcie_need_gbps);
		json_int(j, "pcie_ports_sharing", p->pcie_ports);
		json_str(j, "pcie_verdict", p->pcie_why);
	} else {
		json_null(j, "pcie_limits_data_rate");
		json_null(j, "pcie_shortfall_gbps");
		json_null(j, "pcie_need_gbps");
		json_null(j, "pcie_ports_sharing");
		json_str(j, "pcie_verdict", NULL);
	}
}

/* The HCA's NUMA node and the link's other end. */
static void json_numa_peer(struct json *j, const struct port_info *p)
{
	if (p->numa.v.valid) {
		json_obj_begin(j, "numa");
		json_int(j, "node", p->numa.node);
		json_str(j, "local_cpus", p->numa.local_cpus[0] ? p->numa.local_cpus : NULL);
		json_str(j, "relation", p->numa.relation);
		json_int_or_null(j, "node_mem_mb", p->numa.node_mem_mb >= 0, p->numa.node_mem_mb);
		json_obj_end(j);
	} else {
		json_null(j, "numa");
		json_str(j, "numa_error", p->numa.v.why);
	}
	if (p->peer.v.valid) {
		json_obj_begin(j, "peer");
		snapshot_json_peer_members(j, &p->peer);
		json_obj_end(j);
	} else {
		json_null(j, "peer");
		json_str(j, "peer_error", p->peer.v.why);
	}
}

static void json_port(struct json *j, const struct port_info *p,
		      snapshot_port_extra_fn extra, int idx, void *arg)
{
	char buf[64];

	json_obj_begin(j, NULL);
	json_str(j, "device", p->dev);
	json_int(j, "port", p->port);
	json_str(j, "ca_type", p->ca_type[0] ? p->ca_type : NULL);
	json_str(j, "fw_ver", p->fw_ver[0] ? p->fw_ver : NULL);
	json_str(j, "hw_ver", p->hw_ver[0] ? p->hw_ver : NULL);
	json_str_or_err(j, "board_id", p->board_id_v.valid, p->board_id, p->board_id_v.why);
	json_str(j, "node_guid", guid(p->node_guid, buf, sizeof(buf)));
	json_str(j, "sys_image_guid", guid(p->sys_guid, buf, sizeof(buf)));
	json_str(j, "port_guid", guid(p->port_guid, buf, sizeof(buf)));
	json_str(j, "gid_prefix", guid(p->gid_prefix, buf, sizeof(buf)));
	json_str(j, "state", port_state_name(p->state));
	json_int(j, "state_code", p->state);
	json_str(j, "phys_state", port_phys_state_name(p->phys_state));
	json_int(j, "phys_state_code", p->phys_state);
	json_str(j, "link_layer", p->link_layer);
	json_int(j, "lid", p->lid);
	json_int(j, "lmc", p->lmc);
	json_int(j, "sm_lid", p->sm_lid);
	json_int(j, "sm_sl", p->sm_sl);
	snprintf(buf, sizeof(buf), "0x%08x", p->cap_mask);
	json_str(j, "cap_mask", buf);
	json_str(j, "rate_sysfs", p->rate_sysfs[0] ? p->rate_sysfs : NULL);
	json_str(j, "ibstat_rate", port_ibstat_rate(p->umad_rate, p->fdr10, buf, sizeof(buf)));
	json_link(j, p);
	json_mtu_gids(j, p);
	json_pcie(j, p);
	json_numa_peer(j, p);
	json_str(j, "sources", p->sources);
	if (p->module_asked)
		optics_json(j, "module", &p->module);
	if (extra)
		extra(j, idx, arg);
	json_obj_end(j);
}

void snapshot_write_json(FILE *f, const struct snapshot *s)
{
	snapshot_write_json_extra(f, s, NULL, NULL);
}

void snapshot_write_json_extra(FILE *f, const struct snapshot *s,
			       snapshot_port_extra_fn extra, void *arg)
{
	struct json j;
	char when[32];
	struct tm tm;

	gmtime_r(&s->taken.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_init(&j, f);
	json_obj_begin(&j, NULL);
	json_str(&j, "schema", "ibconsole/snapshot/1");
	json_str(&j, "host", s->host);
	json_str(&j, "time", when);
	json_str(&j, "sysfs_root", sysfs_root_label());
	json_str(&j, "sources", s->sources);
	json_str(&j, "warning", s->warning[0] ? s->warning : NULL);
	json_arr_begin(&j, "ports");
	for (int i = 0; i < s->nports; i++)
		json_port(&j, &s->ports[i], extra, i, arg);
	json_arr_end(&j);
	json_obj_end(&j);
}

void snapshot_write_table(FILE *f, const struct snapshot *s)
{
	fprintf(f, "%-12s %4s %-8s %-9s %-10s %-9s %9s %10s %11s %5s %-10s %-5s %s\n",
		"DEVICE", "PORT", "STATE", "PHYS", "LAYER", "LINK", "RATE", "DATA",
		"MTU act/max", "LID", "NETDEV", "NUMA", "NOTES");
	for (int i = 0; i < s->nports; i++) {
		const struct port_info *p = &s->ports[i];
		char link[24] = "n/a", rate[24] = "n/a", data[24] = "n/a", mtu[24] = "n/a", numa[16] = "n/a";
		char notes[PORT_ERR + 128] = "";

		if (p->link_v.valid && p->speed_name[0]) {
			snprintf(link, sizeof(link), "%s %s", port_width_name(p->width_active),
				 p->speed_name);
			snprintf(rate, sizeof(rate), "%g Gb/s", p->rate_gbps);
		}
		if (p->data_rate_gbps > 0)
			snprintf(data, sizeof(data), "%.4g Gb/s", p->data_rate_gbps);
		if (p->mtu_v.valid)
			snprintf(mtu, sizeof(mtu), "%d/%d", p->mtu_active, p->mtu_max);
		if (p->numa.v.valid)
			snprintf(numa, sizeof(numa), "%d", p->numa.node);
		if (p->below_capability)
			snprintf(notes, sizeof(notes), "below capability: %s", p->below_why);
		if (p->pcie.v.valid && (p->pcie.degraded || p->pcie_limits))
			snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes),
				 "%sPCIe %g GT/s x%d of %g GT/s x%d%s", *notes ? "; " : "",
				 p->pcie.cur_gts, p->pcie.cur_width, p->pcie.max_gts,
				 p->pcie.max_width, p->pcie_limits ? " limits the data rate" : "");
		fprintf(f, "%-12s %4d %-8s %-9s %-10s %-9s %9s %10s %11s %5u %-10s %-5s %s\n",
			p->dev, p->port, port_state_name(p->state),
			port_phys_state_name(p->phys_state), p->link_layer, link, rate, data, mtu,
			p->lid, p->netdev[0] ? p->netdev : "-", numa, notes);
	}
	if (s->warning[0])
		fprintf(f, "warning: %s\n", s->warning);
}
