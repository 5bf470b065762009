/* SPDX-License-Identifier: MIT */
/* `ibconsole events`: the port events (link state changes, LinkDowned /
 * LinkErrorRecovery increments) kept in the state directory. */
#ifndef IBC_CMD_EVENTS_H
#define IBC_CMD_EVENTS_H

#include "cli.h"

struct snap_opts;

/* Prints the kept events (all, or since --since), a table or --json;
 * returns 0, 2 (bad --since) or 3 (the file cannot be read). */
int cmd_events(const struct cli *c, const struct snap_opts *o);

/* The command line entry of `ibconsole events` (its options: see cmd_events.c). */
extern const struct cli_command cmd_events_entry;

#endif
