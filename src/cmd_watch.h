/* SPDX-License-Identifier: MIT */
/* `ibconsole watch` (cmd_watch.c). */
#ifndef IBC_CMD_WATCH_H
#define IBC_CMD_WATCH_H

#include "cli.h"
#include "core/port/snapshot.h"

/* Prints its result on stdout and returns an exit code (0 ok, 1 a rule
 * says act, 2 usage, 3 no device, 4 unreachable, 5 internal), with a
 * one-line message on stderr when it is not 0 or 1. */
int cmd_watch(const struct cli *c, const struct snap_opts *o);

/* The command line entry of `ibconsole watch` (its options: see cmd_watch.c). */
extern const struct cli_command cmd_watch_entry;

#endif
