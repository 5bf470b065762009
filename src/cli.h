/* SPDX-License-Identifier: MIT */
/* Command line: one table of options and one of commands, from which
 * parsing, --help text and the man page's option list all come. */
#ifndef IBC_CLI_H
#define IBC_CLI_H

#include <stdbool.h>
#include <stdio.h>

enum cli_cmd { CMD_CONSOLE, CMD_SNAPSHOT,
	/* counters */ CMD_WATCH, CMD_ERRORS, CMD_EVENTS,
	/* fabric */ CMD_FABRIC,
	/* test engine */ CMD_TEST, CMD_SERVE,
	/* triage */ CMD_TRIAGE,
	/* exporter */ CMD_EXPORT,
	/* acceptance */ CMD_ACCEPT };

/* ---- test / serve options; -1 / 0 / NULL: not given ---- */
struct cli_test {
	int kind;		/* KIND_BW / LAT / RATE (core/proto.h), 3 tcp */
	int op;			/* -1: the kind's default */
	int conn;		/* CONN_RC / CONN_UD */
	long long size;		/* -1 */
	bool sweep, bidir;
	int qps;		/* 0 */
	long long iters;	/* 0 */
	double duration_s;	/* 0 */
	int gid_index;		/* -1 */
	int tx_depth, inline_size, cq_mod;	/* -1 */
	int tcp_port;		/* 0 */
	const char *bind, *secret_file, *compare, *peer;	/* --save: cli.save; triage: --peer */
	bool no_record;
	bool perftest;		/* test --perftest: the peer runs a perftest server */
	bool report_gbits;	/* --report_gbits: the perftest server's unit */
	double timeout_s;	/* 0: 10 s */
	long long max_mem_mb;	/* 0: 1024 */
	int sessions;		/* serve --once: 1 */
	double line_rate;	/* 0: the port's data rate */
	bool accept;		/* --accept: judge by the acceptance line */
};

struct cli {
	enum cli_cmd cmd;
	const char *device;
	int port;
	const char *sysfs_root;
	bool json;
	bool demo;
	bool demo_roce;		/* --demo roce: the two Soft-RoCE VMs */
	bool no_color;
	bool no_smp;
	double interval;
	bool help, version;
	bool cmd_named;		/* a command word was given */
	/* fabric */
	bool problems;
	const char *save, *diff, *node_name_map;
	int hops, mad_timeout_ms;
	double rediscover_s;
	/* counters (watch / errors) */
	bool interval_set;	/* --interval given explicitly */
	long count;		/* --count N, 0: until interrupted */
	const char *lids;	/* --lid LID[:PORT],… remote ports to watch */
	const char *config;	/* --config FILE (thresholds) */
	const char *since;	/* events --since T */
	int inflight;		/* --inflight N: sweep MADs in flight */
	/* test / serve */
	struct cli_test t;
	/* triage */
	const char *report;	/* --report FILE */
	/* export */
	const char *listen;	/* --listen ADDR:PORT, NULL: the default */
	const char *textfile;	/* --textfile DIR */
	bool fabric;		/* --fabric */
	double sweep_interval;	/* --sweep-interval S, 0: the default */
	bool once;		/* --once (serve: one session; export: one collection) */
	/* accept */
	const char *ref;	/* --ref HOST: the reference's agent */
	const char *hosts;	/* accept --hosts FILE: all pairs; serve: order targets */
	const char *results;	/* accept --results DIR */
	const char *accept_results;	/* console --accept-results DIR */
#define CLI_MAX_DEVICES 16
	const char *devices[CLI_MAX_DEVICES];	/* every -d given, in order */
	int ndevices;
};

struct snap_opts;

/* One command: its name, synopsis, the options it takes besides the
 * common ones (-d, -i, --sysfs-root, --config, --no-color, --demo, -h,
 * -V) and the function that runs it, which prints its own output and
 * errors and returns the exit status. */
struct cli_command {
	const char *name;
	enum cli_cmd cmd;
	const char *usage;	/* after "ibconsole NAME" */
	const char *help;	/* one line */
	const int *opts;	/* option ids, 0-terminated */
	int (*run)(const struct cli *c, const struct snap_opts *o);
};

/* The command c->cmd names (the console when none was given). */
const struct cli_command *cli_command_of(const struct cli *c);

/* Parses argv into *c. Returns 0, or 2 (usage) with a one-line message
 * in err: a bad value, an unknown option or command, or an option the
 * command does not take. Never prints, never exits. */
int cli_parse(struct cli *c, int argc, char **argv, char *err, size_t errlen);
/* --help: every command and option; with a command named on the command
 * line, that command's synopsis and options. */
void cli_usage(FILE *f, const struct cli *c);

#endif
