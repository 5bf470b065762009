/* SPDX-License-Identifier: MIT */
/* `ibconsole fabric`: the scriptable fabric command (discover, judge,
 * print, save, compare). Prints its own output; never exits. */
#ifndef IBC_CMD_FABRIC_H
#define IBC_CMD_FABRIC_H

#include "cli.h"
#include "core/fabric/fabric.h"

/* Returns the exit status: 0 healthy, 1 findings to act on (or, with
 * --diff, any difference), 2 usage / unreadable saved file, 3 discovery
 * failed, 5 internal. */
struct snap_opts;
int cmd_fabric(const struct cli *c, const struct snap_opts *unused);
/* The discovery options the command line asks for. */
void cmd_fabric_opts(const struct cli *c, struct fab_opts *o);

/* The command line entry of `ibconsole fabric` (its options: see cmd_fabric.c). */
extern const struct cli_command cmd_fabric_entry;
/* Its option rows other commands list too. */
extern const struct cli_option cli_opt_save, cli_opt_hops, cli_opt_mad_timeout,
	cli_opt_node_name_map;

#endif
