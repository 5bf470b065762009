/* SPDX-License-Identifier: MIT */
/* Fabric model: every node, port and link libibnetdisc found (or a saved
 * topology file describes), as plain data the rules, screens and writers read. */
#ifndef IBC_FABRIC_FABRIC_H
#define IBC_FABRIC_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "core/port/port.h"

#define FAB_NAME 65

enum fab_node_type { FAB_UNKNOWN = 0, FAB_CA = 1, FAB_SWITCH = 2, FAB_ROUTER = 3 };

/* fabric_same() compares every field of fab_port and fab_node. */
struct fab_port {
	int node;			/* index into fabric.nodes */
	int portnum;
	uint64_t guid;			/* port GUID (switch ports: port 0's) */
	unsigned lid, lmc;
	bool info_valid;		/* PortInfo read (false: from a file) */
	int state, phys_state;		/* PortInfo codes, 0 unknown */
	unsigned width_active, width_enabled, width_supported;	/* masks */
	unsigned speed_active, speed_enabled, speed_supported;
	unsigned ext_active, ext_enabled, ext_supported;
	unsigned ext2_active, ext2_enabled, ext2_supported;	/* XDR */
	bool ext_valid, ext2_valid, fdr10;
	int mtu_active, mtu_cap;	/* bytes, 0 unknown */
	int remote;			/* index into fabric.ports, -1 none */
	/* decoded once with port.c's decoders */
	char width[8];			/* "4X", "" unknown */
	char speed[8];			/* "QDR", "" unknown */
	double rate_gbps;		/* ibstat "Rate" semantics, 0 unknown */
	int lanes;			/* active lanes, 0 unknown */
	double lane_gbps;		/* signalling per lane (smpquery's), 0 unknown */
};

struct fab_node {
	char name[FAB_NAME];		/* node-name-map entry, else description */
	char desc[FAB_NAME];		/* NodeDescription as the node says it */
	int type;
	uint64_t guid, sysimg_guid;
	unsigned vendid, devid;
	unsigned lid;			/* switches: port 0; CAs: first port's */
	int numports;			/* NodeInfo NumPorts */
	int first_port, nports;		/* slice of fabric.ports */
};

struct fab_link {
	int a, b;			/* port indices; a sorts before b */
};

struct fabric {
	struct fab_node *nodes;
	int nnodes;
	struct fab_port *ports;
	int nports;
	struct fab_link *links;
	int nlinks;
	int from_node;			/* where discovery started, -1 unknown */
	struct timespec taken;		/* CLOCK_REALTIME */
	double discover_s;		/* wall time of the discovery */
	char origin[128];		/* "discovered from ibsim0/1" or file name */
	int node_cap, port_cap;		/* allocated sizes (builders only) */
};

struct fab_opts {
	const char *ca;			/* local device, NULL: the first */
	int ca_port;			/* 0: the first usable */
	int max_hops;			/* 0: no limit */
	int timeout_ms;			/* per MAD, 0: libibnetdisc's 1000 */
	int retries;			/* 0: libibnetdisc's 3 */
	int max_smps;			/* outstanding SMPs, 0: 16 */
	const char *node_name_map;	/* ibnetdiscover's file, NULL none */
	/* A saved fabric instead of a discovery (--from FILE: the
	 * capture's), NULL with err; set, no MAD is sent. NULL: discover. */
	struct fabric *(*load)(char *err, size_t errlen);
};

/* Runs libibnetdisc (blocking; call it off the UI thread). Returns a new
 * fabric, or NULL with a one-line "<what>: <why> — <what to do>" in err. */
struct fabric *fabric_discover(const struct fab_opts *o, char *err, size_t errlen);
void fabric_free(struct fabric *f);

/* Node-name map (ibnetdiscover --node-name-map): "0xGUID "name"" lines.
 * Returns entries read (in file order, line numbers kept), or -1 with err naming
 * the file (not a regular file, a line over 511 bytes, no GUID). *map
 * must be freed with free(). */
struct fab_name { uint64_t guid; int line; char name[FAB_NAME]; };
int fabric_read_name_map(const char *path, struct fab_name **map,
			 char *err, size_t errlen);

/* Builders shared by the discoverer and the topology-file reader. */
struct fabric *fabric_new(void);
int fabric_add_node(struct fabric *f, const struct fab_node *n);	/* index or -1 */
int fabric_add_port(struct fabric *f, const struct fab_port *p);	/* index or -1 */
/* Decodes width / speed / rate of one port with port.c's decoders. */
void fabric_port_decode(struct fab_port *p);
/* Fills a temporary port_info with p's masks (for port.c's helpers). */
void fabric_port_to_info(const struct fab_port *p, struct port_info *pi);
/* Pairs up remote ports into links, sorted by (node GUID, port). */
int fabric_build_links(struct fabric *f);
int fabric_find_port(const struct fabric *f, uint64_t node_guid, int portnum);
int fabric_find_node(const struct fabric *f, uint64_t node_guid);
/* True when a and b hold the same model: every node, port and link
 * field equal, in the same order (when and how fast each was discovered
 * aside), so whatever was judged or laid out from one holds for the
 * other. A field added to fab_node or fab_port belongs in it too. */
bool fabric_same(const struct fabric *a, const struct fabric *b);

const char *fabric_type_name(int type);		/* "Switch", "CA", "Router" */
/* ibnetdiscover's rate token, e.g. "4xQDR"; "" when unknown. */
char *fabric_rate_token(const struct fab_port *p, char *buf, size_t len);
/* "sw-a"[3] */
char *fabric_port_label(const struct fabric *f, int port, char *buf, size_t len);

#endif
