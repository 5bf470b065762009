/* SPDX-License-Identifier: MIT */
#ifndef IBC_CMD_CAPTURE_H
#define IBC_CMD_CAPTURE_H

#include "cli.h"

struct snap_opts;
int cmd_capture(const struct cli *c, const struct snap_opts *o);
extern const struct cli_command cmd_capture_entry;

#endif
