/* SPDX-License-Identifier: MIT */
/* `ibconsole test` and `ibconsole serve`: the command-line faces of the
 * test engine and the peer agent (tables, JSON, records, verdicts). */
#ifndef IBC_CMD_TEST_H
#define IBC_CMD_TEST_H

#include "cli.h"

struct snap_opts;

/* Both print their results and errors; return the exit status. */
int cmd_test(const struct cli *c, const struct snap_opts *unused);
int cmd_serve(const struct cli *c, const struct snap_opts *unused);

#endif
