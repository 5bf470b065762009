/* SPDX-License-Identifier: MIT */
/* Helpers the command files share: the one-line error, the first line
 * of a --secret-file, the thresholds of --config, a verdict's JSON and
 * the UTC time stamp of a report. */
#ifndef IBC_CMDUTIL_H
#define IBC_CMDUTIL_H

#include <stddef.h>

struct cli;
struct json;
struct thresholds;
struct verdict;

/* "ibconsole: MSG" on stderr. */
void cmd_fail(const char *msg);
/* The first line of a file, for --secret-file (testjob_read_secret,
 * the one reader); on error prints the one-line message and returns the
 * exit status: 2 for the file, 3 when nettle, which the secret is used
 * through, cannot be loaded. */
int cmd_read_secret(const char *path, char *buf, size_t len);
/* The thresholds of --config (or the default file), for watch and
 * errors: 0, or 2 with the message in err. A default file nobody named
 * that cannot be read is a warning on stderr: the defaults still judge. */
int cmd_load_thresholds(const struct cli *c, struct thresholds *th,
			char *err, size_t errlen);
/* The "verdict" object of watch and errors. */
void cmd_json_verdict(struct json *j, const struct verdict *v);
/* A result past "act" (1) comes with a one-line message on stderr;
 * returns rc. */
int cmd_report(int rc, const char *err);
/* Now, as 2024-01-31T12:00:00Z. */
void cmd_iso_time(char *buf, size_t len);

#endif
