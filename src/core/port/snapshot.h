/* SPDX-License-Identifier: MIT */
/* Snapshot: every local port, gathered once from all sources; the one
 * model the console, the JSON writer and the rules all read. */
#ifndef IBC_PORT_SNAPSHOT_H
#define IBC_PORT_SNAPSHOT_H

#include <stddef.h>
#include <time.h>
#include "core/port/port.h"

struct snap_opts {
	const char *device;	/* NULL: all */
	int port;		/* 0: all */
	bool no_smp;		/* skip SMP queries (fixture trees) */
	bool no_verbs;
	/* read each port's module through its netdev (kernel ethtool); a
	 * lane within module_near_db of its low receive alarm is flagged
	 * (0: OPTICS_NEAR_DB_DEFAULT) */
	bool modules;
	double module_near_db;
};

/* Ports have no fixed limit: ports grows as they are found. Start from a
 * zeroed struct (calloc, or = { 0 }); snapshot_release frees the ports,
 * snapshot_copy duplicates one (a plain struct copy would share them). */
struct snapshot {
	struct timespec taken;		/* CLOCK_REALTIME */
	char host[64];
	char sources[64];		/* which sources answered */
	/* non-fatal trouble, e.g. "SMP query failed on mlx5_0/1: ..." */
	char warning[PORT_ERR + 64];
	int nports;
	int cap;			/* allocated entries in ports */
	struct port_info *ports;
};

/* Status codes double as exit codes (see EXIT STATUS in the man page). */
enum snap_status {
	SNAP_OK = 0,
	SNAP_NODEV = 3,		/* no device / no permission */
	SNAP_INTERNAL = 5,
};

/* Frees what *s holds (not s itself); it can be collected into again. */
void snapshot_release(struct snapshot *s);
/* *dst becomes a copy of *src (dst's own ports reused or grown);
 * 0, or -1 when out of memory (dst then has no ports). */
int snapshot_copy(struct snapshot *dst, const struct snapshot *src);

/* Fills *s. On failure returns a status and a one-line message in err
 * ("<what failed>: <why> — <what to do>"). Never prints, never exits. */
enum snap_status snapshot_collect(struct snapshot *s,
				  const struct snap_opts *o,
				  char *err, size_t errlen);

/* JSON contract (schema ibconsole/snapshot/1), also in man/ibconsole.8:
 * `ibconsole snapshot --json [-d DEV] [-i PORT] [--sysfs-root DIR]` prints ONE JSON object:
 * { "schema": "ibconsole/snapshot/1", "host": str, "time": ISO-8601 UTC str, "sysfs_root": str,
 *   "sources": str (e.g. "umad+smp+sysfs"), "warning": str|null,
 *   "ports": [ one object per local port:
 *     "device": "ibsim0", "port": 1, "ca_type": str, "fw_ver": str, "hw_ver": str,
 *     "board_id": str|null (+ "board_id_error" when null),
 *     "node_guid": "0x0000000000100000", "sys_image_guid": "0x…", "port_guid": "0x…", "gid_prefix": "0x…",
 *     "state": "Active", "state_code": 4, "phys_state": "LinkUp", "phys_state_code": 5,
 *     "link_layer": "InfiniBand"|"Ethernet",
 *     "lid": 1, "lmc": 0, "sm_lid": 1, "sm_sl": 0, "cap_mask": "0x0050c048",
 *     "rate_sysfs": str|null (kernel rate string verbatim), "ibstat_rate": "10" (exactly what ibstat prints after "Rate: "),
 *     -- link block (SMP PortInfo on IB, verbs on RoCE); when unknown these are null and "link_error" says why --
 *     "width_active": "4X", "width_enabled": "1X or 4X" (smpquery wording), "width_supported": "1X or 4X or 8X or 12X or 2X",
 *     "width_active_mask", "width_enabled_mask", "width_supported_mask": ints,
 *     "speed_active": "2.5 Gbps" (smpquery LinkSpeedActive wording, verbatim),
 *     "speed_ext_active", "speed_ext_enabled", "speed_ext_supported": smpquery LinkSpeedExt* wording
 *       verbatim (e.g. "25.78125 Gbps", "No Extended Speed"); null when CapMask bit 14 is clear,
 *     "speed_enabled": "2.5 Gbps" , "speed_supported": "2.5 Gbps or 5.0 Gbps or 10.0 Gbps" (smpquery wording of LinkSpeedEnabled/Supported),
 *     "speed_active_mask","speed_enabled_mask","speed_supported_mask","speed_ext_active_mask","speed_ext_enabled_mask","speed_ext_supported_mask": ints,
 *     "speed": "SDR"|"DDR"|"QDR"|"FDR10"|"FDR"|"EDR"|"HDR"|"NDR"|"XDR", "lane_gbps": 2.5, "rate_gbps": 10.0 (active lanes × lane rate, ibstat "Rate" semantics),
 *     "max_rate_gbps": best rate the port is capable of (widest supported width of 1X/2X/4X — 8X/12X only when also enabled, since ibsim claims all widths — times the fastest supported speed), "below_capability": bool, "below_capability_reason": str|null,
 *     "mtu_active": 2048 (bytes; IB: NeighborMTU from SMP, RoCE: verbs active_mtu), "mtu_max": 2048 (IB: MtuCap), "mtu_source": "smp"|"verbs",
 *     "netdev": str|null, "netdev_mtu": int|null, "netdev_speed_mbps": int|null,
 *     "gids": [ {"index": 0, "gid": "fe80:0000:…" (sysfs full form), "type": "RoCE v2"|"IB/RoCE v1"|null, "netdev": str|null, "ipv4": "10.0.2.15"|null} ],
 *     "roce_v2_ipv4_gid_index": int|null (the RoCE v2 GID whose IPv4-mapped address is on the port's netdev),
 *     "hw_counters_dir": str|null (absolute path as seen under the sysfs root), "hw_counters_count": int,
 *     "pcie": {"address": "0000:3b:00.0", "current_speed_gts": 8.0, "current_width": 8, "max_speed_gts": 16.0, "max_width": 16,
 *              "current_gbps": 63.0, "max_gbps": 252.0, "degraded": bool} | null (+ "pcie_error"),
 *     "pcie_limits_line_rate": bool|null, "pcie_shortfall_gbps": number|null,
 *     "numa": {"node": 0, "local_cpus": "0-15", "relation": "local"|"remote"|"mixed"|"unknown", "node_mem_mb": int|null} | null (+ "numa_error"),
 *     "peer": {"name": "Switch1" (NodeDescription), "guid": "0x…" (node GUID), "type": "CA"|"Switch"|"Router",
 *              "port": 1 (its port on this cable), "lid": int|null (where its PMA answers)} | null (+ "peer_error"),
 *     "sources": "umad+smp+sysfs" ] }
 * Exit status: 0 when at least one port was read; 3 no RDMA device / no permission (one line on stderr:
 * "ibconsole: <what failed>: <why> — <what to do>"); 2 usage; 5 internal.
 * Plain `ibconsole snapshot` prints an aligned table (one row per port) instead.
 */
#include <stdio.h>
void snapshot_write_json(FILE *f, const struct snapshot *s);
void snapshot_write_table(FILE *f, const struct snapshot *s);
/* the same JSON with extra members per port (e.g. "counters"),
 * written by fn just before each port object closes. */
struct json;
typedef void (*snapshot_port_extra_fn)(struct json *j, int port_index, void *arg);
/* name, guid, type, port, lid of a neighbour, into the open object */
void snapshot_json_peer_members(struct json *j, const struct port_peer *q);
void snapshot_write_json_extra(FILE *f, const struct snapshot *s,
			       snapshot_port_extra_fn fn, void *arg);

#endif
