/* SPDX-License-Identifier: MIT */
/* `ibconsole export`: the Prometheus exporter — /metrics over HTTP and a
 * textfile for node_exporter; local ports, and the fabric with --fabric. */
#ifndef IBC_CMD_EXPORT_H
#define IBC_CMD_EXPORT_H

#include "cli.h"

/* The port /metrics is served on when --listen is not given. */
#define EXPORT_DEFAULT_PORT 9879

struct snap_opts;
/* Runs until SIGINT / SIGTERM (0), or once with --once (0; 1 when a
 * verdict says act). 2 usage, 3 no device / cannot listen, 4 fabric
 * unreachable (--once --fabric), 5 internal. */
int cmd_export(const struct cli *c, const struct snap_opts *o);

/* The command line entry of `ibconsole export` (its options: see cmd_export.c). */
extern const struct cli_command cmd_export_entry;

#endif
