/* SPDX-License-Identifier: MIT */
/* `ibconsole test` and `ibconsole serve`: the command-line faces of the
 * test engine and the peer agent (tables, JSON, records, verdicts). */
#ifndef IBC_CMD_TEST_H
#define IBC_CMD_TEST_H

#include "cli.h"

int cmd_test(const struct cli *c);
int cmd_serve(const struct cli *c);
/* `ibconsole test tcp PEER`: the TCP baseline (cmd_tcp.c). */
int cmd_test_tcp(const struct cli *c);

#endif
