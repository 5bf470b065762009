/* SPDX-License-Identifier: MIT */
/* `ibconsole snapshot`: every local port once, as a table or as JSON with
 * each port's counters. */
#ifndef IBC_CMD_SNAPSHOT_H
#define IBC_CMD_SNAPSHOT_H

#include "cli.h"

struct snap_opts;

/* Prints the snapshot on stdout, errors on stderr (one line); returns 0,
 * or 3 (no device / permission) / 5 (internal). */
int cmd_snapshot(const struct cli *c, const struct snap_opts *o);

/* The command line entry of `ibconsole snapshot` (its options: see cmd_snapshot.c). */
extern const struct cli_command cmd_snapshot_entry;

#endif
