/* SPDX-License-Identifier: MIT */
/* Data sources behind one small table of functions: each either finds
 * ports (enumerate) or fills in what it knows about a found port (refine). */
#ifndef IBC_PORT_SOURCES_H
#define IBC_PORT_SOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/port/snapshot.h"

struct source {
	const char *name;
	/* Adds ports to s; returns how many, or -errno with err filled. */
	int (*enumerate)(struct snapshot *s, const struct snap_opts *o,
			 char *err, size_t errlen);
	/* Fills what the source knows; returns 0 or -1 with why filled
	 * (a non-fatal note: the port stays, the fields stay invalid). */
	int (*refine)(struct port_info *p, const struct snap_opts *o,
		      char *why, size_t whylen);
};

extern const struct source source_umad;	/* libibumad: CAs and ports */
extern const struct source source_sysfs;	/* rooted sysfs: everything else */
extern const struct source source_smp;		/* libibmad SMP PortInfo */
extern const struct source source_verbs;	/* libibverbs ibv_query_port */
extern const struct source source_capture;	/* --from: the captured SMP answers */
/* The GID table: the verbs source reads it in one ioctl where it runs
 * (verbs_reads_gids), else the sysfs source a file per entry (1,024 on
 * rxe). sysfs_port_gids reads it from sysfs and derives the rest;
 * sysfs_port_derive derives, from a filled table, each entry's IPv4
 * address, the port's netdev (when no other path names it) and its RoCE
 * v2 IPv4 index. */
bool verbs_reads_gids(const struct snap_opts *o);
void sysfs_port_gids(struct port_info *p);
void sysfs_port_derive(struct port_info *p);
/* Called with each port's SMP PortInfo after its peer is filled (capture
 * records them); NULL: nothing. */
extern void (*smp_tap)(const struct port_info *p, const uint8_t *portinfo);

/* Shared by the enumerators: a new zeroed port (the array grows; earlier
 * port pointers are stale after it), or NULL when out of memory. */
struct port_info *snapshot_add_port(struct snapshot *s);
/* Device names in the order people expect: mlx5_2 before mlx5_10. */
int snapshot_name_cmp(const char *a, const char *b);
bool snapshot_wants(const struct snap_opts *o, const char *dev, int port);

#endif
