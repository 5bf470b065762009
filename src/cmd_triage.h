/* SPDX-License-Identifier: MIT */
/* `ibconsole triage`: the seven-step triage for scripts — the walk as
 * text or JSON, a report for a ticket. Prints its own output; never exits. */
#ifndef IBC_CMD_TRIAGE_H
#define IBC_CMD_TRIAGE_H

#include "cli.h"

struct snap_opts;
/* Returns 0 when no step failed, 1 when one did, 2 usage, 3 no device
 * or permission, 5 internal. */
int cmd_triage(const struct cli *c, const struct snap_opts *o);

/* The command line entry of `ibconsole triage` (its options: see cmd_triage.c). */
extern const struct cli_command cmd_triage_entry;
/* Its option rows other commands list too. */
extern const struct cli_option cli_opt_peer;

#endif
