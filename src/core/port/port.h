/* SPDX-License-Identifier: MIT */
/* Port model: one plain-data record per local HCA port, with a validity
 * flag (and a reason) for every field that may be unknown. */
#ifndef IBC_PORT_PORT_H
#define IBC_PORT_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/optics/report.h"

#define PORT_STR 64
#define PORT_ERR 192
#define PORT_MAX_GIDS 32

/* A field that could not be read carries the reason instead of a value. */
struct port_field_err {
	bool valid;
	char why[PORT_ERR];
};

struct port_gid {
	int index;
	char gid[48];		/* full IPv6 form as sysfs prints it */
	char type[16];		/* "IB/RoCE v1", "RoCE v2", "" when unknown */
	char netdev[32];	/* "" when none */
	char ipv4[16];		/* dotted quad when the GID is IPv4-mapped */
};

struct pcie_info {
	struct port_field_err v;	/* whole block valid? */
	char address[32];		/* PCI function, e.g. 0000:3b:00.0 */
	double cur_gts, max_gts;	/* 0 when unknown */
	int cur_width, max_width;	/* 0 when unknown */
	double cur_gbps, max_gbps;	/* per direction after line encoding */
	int mps;			/* MaxPayloadSize, bytes */
	char mps_source[64];		/* "config space" or "assumed: why" */
	double tlp_eff;			/* payload share of a TLP at mps */
	double usable_gbps, max_usable_gbps;	/* after encoding and TLPs */
	bool degraded;			/* running below capability */
};

struct numa_info {
	struct port_field_err v;
	int node;			/* HCA's node */
	char local_cpus[PORT_STR];	/* device/local_cpulist */
	/* where this process may run, relative to the HCA */
	char relation[16];		/* "local", "remote", "mixed", "unknown" */
	long long node_mem_mb;		/* libnuma / sysfs, -1 unknown */
};

/* The port at the other end of the cable (IB): NodeInfo, NodeDescription
 * and PortInfo asked over the directed route out of the local port. */
struct port_peer {
	struct port_field_err v;	/* valid, or why not */
	char name[72];			/* NodeDescription */
	uint64_t guid;			/* node GUID */
	int type;			/* NodeInfo NodeType: 1 CA, 2 switch, 3 router */
	int port;			/* its port number on this cable */
	unsigned lid;			/* the LID its PMA answers on (switch: port 0's) */
	unsigned vendid, devid;		/* NodeInfo VendorID / DeviceID, 0 unknown */
};

/* "CA", "Switch", "Router", "?" */
const char *port_peer_type_name(int type);

struct port_info {
	/* device-level facts, repeated per port for flat tables */
	char dev[PORT_STR];
	char ca_type[PORT_STR];
	char fw_ver[PORT_STR];
	char hw_ver[PORT_STR];
	char board_id[PORT_STR];
	struct port_field_err board_id_v;
	uint64_t node_guid, sys_guid;

	int port;
	uint64_t port_guid;
	uint64_t gid_prefix;
	struct port_field_err addr_v;	/* lid, lmc, sm_lid, cap_mask, guids */
	unsigned lid, lmc, sm_lid, sm_sl;
	uint32_t cap_mask;

	int state, phys_state;		/* codes 1..7, 0 unknown */
	char link_layer[24];		/* "InfiniBand" / "Ethernet" */
	char rate_sysfs[PORT_STR];	/* kernel's rate string, verbatim */
	unsigned umad_rate;		/* what ibstat prints (2 → "2.5") */

	/* SMP PortInfo (IB) or verbs (RoCE) */
	struct port_field_err link_v;
	unsigned width_active, width_enabled, width_supported;	/* masks */
	unsigned speed_active, speed_enabled, speed_supported;	/* masks */
	unsigned ext_active, ext_enabled, ext_supported;	/* masks */
	unsigned ext2_active, ext2_enabled, ext2_supported;	/* XDR */
	bool caps_valid;		/* enabled / supported known (SMP) */
	bool ext_valid, ext2_valid;
	bool fdr10;
	double lane_gbps;		/* signalling per lane, 0 unknown */
	double rate_gbps;		/* 4X-style "Rate", 0 unknown */
	/* What the link carries after line encoding (QDR 4X: 32 of 40):
	 * every verdict judges against this, never against rate_gbps. */
	double data_rate_gbps;		/* 0 unknown */
	char data_rate_source[96];	/* "4X QDR, 8b/10b", "netdev eth2 speed …" */
	char speed_name[8];		/* SDR … XDR */
	double max_rate_gbps;		/* best both enabled&supported allow */
	bool below_capability;
	char below_why[PORT_ERR];

	struct port_field_err mtu_v;
	int mtu_active, mtu_max;	/* bytes */
	char mtu_source[8];		/* "smp", "verbs" */

	struct port_peer peer;		/* IB only; v.valid false elsewhere */

	char netdev[32];		/* ibdev2netdev mapping, "" none */
	int netdev_mtu;			/* 0 unknown */
	int netdev_speed_mbps;		/* 0 unknown */

	int ngids;
	struct port_gid gids[PORT_MAX_GIDS];
	int roce_v2_ipv4_index;		/* -1 none */

	char hw_counters_dir[256];	/* "" when absent */
	int n_hw_counters;

	struct pcie_info pcie;
	struct numa_info numa;
	/* PCIe usable bandwidth vs the data rate of the function's ports */
	bool pcie_limits;		/* below the acceptance line */
	double pcie_shortfall_gbps;	/* need - usable, 0 when enough */
	double pcie_need_gbps;		/* data rate of the active ports sharing it */
	int pcie_ports;			/* how many ports share the function */
	char pcie_why[320];

	char sources[PORT_STR];		/* "umad+smp+sysfs+verbs" */
	/* MADs cannot be sent from this port (its umad device does not
	 * open for this user): why, and the permission that would help;
	 * "" when they can or it was not tried */
	char mad_why[PORT_ERR + 64];

	/* the pluggable module's readings (snap_opts.modules), or why not */
	bool module_asked;
	struct optics_port module;
};

/* --- pure decoders (unit-tested) --- */
const char *port_state_name(int state);
const char *port_phys_state_name(int phys);
const char *port_width_name(unsigned mask);	/* highest bit: "4X" */
int port_width_lanes(unsigned mask);		/* highest bit: 4 */
/* mask list like "1X or 4X" into buf */
char *port_width_list(unsigned mask, char *buf, int len);
char *port_speed_list(const struct port_info *p, bool enabled, char *buf, int len);
int port_mtu_bytes(int code);			/* 1..5 → 256..4096 */
/* Decodes active speed from the three masks; sets lane_gbps, speed_name,
 * rate_gbps and max_rate_gbps / below_capability. */
void port_decode_rate(struct port_info *p);
/* The kernel driver of an RDMA device and its version, under the sysfs
 * root: the PCI function's driver (name) and its module's
 * /sys/module/<m>/version (what 'ethtool -i' reports as version for an
 * out-of-tree driver); a module without one is in-tree, so version is
 * "in-tree" (its version is the kernel's release). Software devices
 * (rxe, siw) have no PCI function: "soft RDMA on <netdev>", in-tree.
 * 0, or -1 when the driver cannot be named (both "" then). */
int port_driver_version(const char *ibdev, char *name, size_t nlen, char *ver, size_t vlen);
/* Widths a port could train to: the supported 1X / 2X / 4X, and 8X / 12X
 * only when also enabled (simulators claim every width as supported, real
 * HCAs are 4X devices). supported 0 means unknown: enabled stands in. */
unsigned port_capable_widths(unsigned supported, unsigned enabled);
/* The fastest speed in the given masks (classic, extended, XDR), decoded
 * as port_decode_rate does: its name into name and its per-lane rate in
 * Gb/s; 0 when the masks hold none. */
double port_lane_rate(unsigned classic, unsigned ext, bool ext_valid, unsigned ext2,
		      bool ext2_valid, char *name, size_t len);
/*
 * Fills the link fields (state, width / speed masks incl. extended and XDR,
 * MTUs) from a raw 64-byte PortInfo — an SMP answer or libibnetdisc's
 * port->info. capmask decides which extended fields are valid; for a switch
 * port pass port 0's CapabilityMask (IBA vol. 1, PortInfo). State codes already known
 * are kept. Marks link, caps and MTU valid; mtu_source is left to the caller.
 */
void port_read_portinfo(struct port_info *p, const uint8_t *pi, uint32_t capmask);
/* Per-lane data rate after encoding for a speed name ("QDR" → 8), 0 unknown. */
double port_lane_data_gbps(const char *speed_name);
/* RoCE: the netdev's speed wins when the kernel's rate is lower (older
 * kernels cap it at 100 Gb/s); data_rate_source says which won. Call after
 * port_decode_rate with link_layer, netdev and netdev_speed_mbps read. */
void port_pick_data_rate(struct port_info *p);
/* What ibstat prints for "Rate:" given umad's truncated rate. */
const char *port_ibstat_rate(unsigned umad_rate, bool fdr10, char *buf, int len);

#endif
