/* SPDX-License-Identifier: MIT */
/* `ibconsole errors` (cmd_errors.c). */
#ifndef IBC_CMD_ERRORS_H
#define IBC_CMD_ERRORS_H

#include "cli.h"
#include "core/port/snapshot.h"

/* Prints its result on stdout and returns an exit code (0 ok, 1 a rule
 * says act, 2 usage, 3 no device, 4 unreachable, 5 internal), with a
 * one-line message on stderr when it is not 0 or 1. */
int cmd_errors(const struct cli *c, const struct snap_opts *o);

/* The command line entry of `ibconsole errors` (its options: see cmd_errors.c). */
extern const struct cli_command cmd_errors_entry;
/* Its option rows other commands list too. */
extern const struct cli_option cli_opt_inflight;

#endif
