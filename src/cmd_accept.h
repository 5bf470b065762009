/* SPDX-License-Identifier: MIT */
/* `ibconsole accept --ref HOST`: every local RDMA device tested against a
 * reference host's agent, judged at the acceptance line, each failure
 * explained from the local evidence. Prints its own output; never exits. */
#ifndef IBC_CMD_ACCEPT_H
#define IBC_CMD_ACCEPT_H

#include "cli.h"

struct snap_opts;
/* Returns 0 when every card passed, 1 when one failed (a missing result
 * is a failure), 2 usage, 3 no device or permission, 4 no card reached
 * the reference, 5 internal. */
int cmd_accept(const struct cli *c, const struct snap_opts *o);

/* The command line entry of `ibconsole accept` (its options: see cmd_accept.c). */
extern const struct cli_command cmd_accept_entry;
/* Its option rows other commands list too. */
extern const struct cli_option cli_opt_hosts;

#endif
