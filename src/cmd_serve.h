/* SPDX-License-Identifier: MIT */
/* `ibconsole serve`: the peer agent on the command line. */
#ifndef IBC_CMD_SERVE_H
#define IBC_CMD_SERVE_H

#include "cli.h"

struct snap_opts;

/* Serves until interrupted (or one session with --once); prints its log
 * and errors on stderr; returns the exit status. */
int cmd_serve(const struct cli *c, const struct snap_opts *unused);

/* The command line entry of `ibconsole serve` (its options: see cmd_serve.c). */
extern const struct cli_command cmd_serve_entry;
/* Its option rows other commands list too. */
extern const struct cli_option cli_opt_once;

#endif
