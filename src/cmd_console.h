/* SPDX-License-Identifier: MIT */
/* The interactive console, the command run when none is named. */
#ifndef IBC_CMD_CONSOLE_H
#define IBC_CMD_CONSOLE_H

#include "cli.h"

struct snap_opts;

/* Runs the console until the user quits; returns its exit status. */
int cmd_console(const struct cli *c, const struct snap_opts *o);

/* The command line entry of `ibconsole console` (its options: see cmd_console.c). */
extern const struct cli_command cmd_console_entry;

#endif
