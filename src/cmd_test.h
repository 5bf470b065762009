/* SPDX-License-Identifier: MIT */
/* `ibconsole test`: the command-line face of the test engine against a
 * peer agent (tables, JSON, records, verdicts). */
#ifndef IBC_CMD_TEST_H
#define IBC_CMD_TEST_H

#include "cli.h"

struct snap_opts;

/* Prints its results and errors; returns the exit status. */
int cmd_test(const struct cli *c, const struct snap_opts *unused);

#endif
