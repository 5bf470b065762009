/* SPDX-License-Identifier: MIT */
/* `ibconsole test`: the command-line face of the test engine against a
 * peer agent (tables, JSON, records, verdicts). */
#ifndef IBC_CMD_TEST_H
#define IBC_CMD_TEST_H

#include "cli.h"

struct snap_opts;

/* Prints its results and errors; returns the exit status. */
int cmd_test(const struct cli *c, const struct snap_opts *unused);

/* The command line entry of `ibconsole test` (its options: see cmd_test.c). */
extern const struct cli_command cmd_test_entry;
/* Its option rows other commands list too. */
extern const struct cli_option cli_opt_op, cli_opt_size, cli_opt_iters,
	cli_opt_duration, cli_opt_gid_index, cli_opt_port, cli_opt_secret_file, cli_opt_timeout,
	cli_opt_line_rate;

#endif
