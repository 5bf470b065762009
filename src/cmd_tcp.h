/* SPDX-License-Identifier: MIT */
/* `ibconsole test tcp PEER`: the TCP baseline against the agent. */
#ifndef IBC_CMD_TCP_H
#define IBC_CMD_TCP_H

#include "cli.h"

/* Prints the result (text or JSON) and errors; returns the exit status. */
int cmd_test_tcp(const struct cli *c);

#endif
