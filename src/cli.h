/* SPDX-License-Identifier: MIT */
/* Command line: one table of options and one of commands, from which
 * parsing, --help text and the man page's option list all come. */
#ifndef IBC_CLI_H
#define IBC_CLI_H

#include <stdbool.h>
#include <stdio.h>

enum cli_cmd { CMD_CONSOLE, CMD_SNAPSHOT,
	/* issue 5: counters */ CMD_WATCH, CMD_ERRORS,
	/* issue 3: fabric */ CMD_FABRIC };

struct cli {
	enum cli_cmd cmd;
	const char *device;
	int port;
	const char *sysfs_root;
	bool json;
	bool demo;
	bool no_color;
	bool no_smp;
	double interval;
	bool help, version;
	/* fabric (issue 3) */
	bool problems;
	const char *save, *diff, *node_name_map;
	int hops, mad_timeout_ms;
	double rediscover_s;
	/* issue 5: counters (watch / errors) */
	bool interval_set;	/* --interval given explicitly */
	long count;		/* --count N, 0: until interrupted */
	const char *lids;	/* --lid LID[:PORT],… remote ports to watch */
	const char *config;	/* --config FILE (thresholds) */
	int inflight;		/* --inflight N: sweep MADs in flight */
};

/* Parses argv into *c. Returns 0, or 2 (usage) with a one-line message
 * in err. Never prints, never exits. */
int cli_parse(struct cli *c, int argc, char **argv, char *err, size_t errlen);
void cli_usage(FILE *f);

#endif
