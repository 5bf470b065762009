/* SPDX-License-Identifier: MIT */
/* Where a module's pages come from: the kernel's ethtool interface
 * (netlink page read, the ioctl where that is missing) or saved dumps. */
#ifndef IBC_CORE_OPTICS_SOURCE_H
#define IBC_CORE_OPTICS_SOURCE_H

#include <stddef.h>
#include "core/optics/optics.h"
#include "core/optics/report.h"

/* Which pages a decoder needs, from the lower page already read:
 * fills want[i] = { address index (0: 0x50, 1: 0x51), page (-1: the
 * lower half) }; returns how many. */
int optics_pages_wanted(const struct optics_pages *pg, int want[][2], int max);

/* Saved pages: dir holds <addr>-lower.hex and <addr>-page-<NN>.hex
 * (addr 50 or 51, NN the page in hex), each 128 bytes written as hex
 * pairs; '#' starts a comment, a word ending in ':' (an offset label) is
 * skipped. Returns 0, or -1 with why (no lower page, a malformed file). */
int optics_load_dump(const char *dir, struct optics_pages *pg, char *err, size_t errlen);

/* The kernel's ethtool module EEPROM read of netdev ifname. Returns 0, or
 * -1 with one line saying why not (no such netdev, the driver does not
 * expose the module, no module plugged). */
int optics_read_ethtool(const char *ifname, struct optics_pages *pg, char *err,
			size_t errlen);

/* The module behind ifname, decoded: from dump_root/ifname when dump_root
 * is set, else through ethtool. Returns 0, or -1 with why in err. */
int optics_read_module(const char *ifname, const char *dump_root,
		       struct optics_module *m, char *err, size_t errlen);

/* Saved dumps instead of the kernel for every later read (NULL or "":
 * the kernel); the folder holds one sub-folder per netdev. */
void optics_set_dump_root(const char *dir);

/* Reads, decodes and judges ifname's module into p; p->why when not. */
void optics_port_read(struct optics_port *p, const char *ifname, double near_db, int link_up);

#endif
