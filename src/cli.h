/* SPDX-License-Identifier: MIT */
/* Command line: the option rows and command entries (each command's in
 * its cmd_<name>.c, the shared ones in cli.c), from which parsing and
 * --help text come. */
#ifndef IBC_CLI_H
#define IBC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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

/* ---- watch ---- */
struct cli_watch {
	long count;		/* --count N, 0: until interrupted */
	const char *lids;	/* --lid LID[:PORT],… remote ports to watch */
};

/* ---- accept (and serve's --hosts) ---- */
struct cli_accept {
	const char *ref;	/* --ref HOST: the reference's agent */
	const char *hosts;	/* accept --hosts FILE: all pairs; serve: order targets */
	const char *results;	/* accept --results DIR */
};

/* ---- console ---- */
struct cli_console {
	double rediscover_s;	/* --rediscover S, 0: only on key r */
	const char *accept_results;	/* --accept-results DIR */
};

/* Everything the command line says; each command reads its part (the
 * per-command structs above, and fields here several share). */
struct cli_command;

struct cli {
	const struct cli_command *command;	/* the one named; NULL: none (the console) */
	const char *device;
	int port;
	const char *sysfs_root;
	const char *from;	/* --from FILE: a capture instead of this host */
	const char *capture_out;	/* capture -o FILE */
	bool json;
	bool demo;
	bool demo_roce;		/* --demo roce: the two Soft-RoCE VMs */
	bool no_color;
	bool no_smp;
	double interval;
	bool help, version;
	/* fabric */
	bool problems;
	const char *save, *diff, *node_name_map;
	int hops, mad_timeout_ms;
	/* counters (watch / errors) */
	bool interval_set;	/* --interval given explicitly */
	struct cli_watch w;
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
	struct cli_accept a;	/* accept; serve: --hosts */
	struct cli_console con;
#define CLI_MAX_DEVICES 16
	const char *devices[CLI_MAX_DEVICES];	/* every -d given, in order */
	int ndevices;
};

struct snap_opts;

/* How an option's value is read: a flag (true), a string, a number in
 * [lo, hi] (int, long, double, a double kept as long long, a size with
 * K/M/G suffixes), one word of choices (its index), or a function. */
enum cli_opt_type { OT_FLAG, OT_STR, OT_INT, OT_LONG, OT_NUM, OT_NUM_LL, OT_SIZE,
		    OT_CHOICE, OT_FN };

/* One option row: its spellings, its help, and where its value goes (off
 * in struct cli; set: a bool there made true too). A bad value is
 * "BAD 'VALUE' — GIVE". A row is declared once, in the file of the
 * command it belongs to (or in cli.c when several commands share it),
 * and any command lists it. */
struct cli_option {
	const char *name;
	const char *alias;	/* perftest's long spelling, accepted too */
	char letter;		/* -X (perftest's letters), 0: long only */
	const char *arg;	/* the value's name; NULL: a flag */
	const char *help;
	enum cli_opt_type type;
	size_t off, set;
	double lo, hi;
	const char *bad, *give;
	const char *const *choices;
	bool nocase;
	int (*fn)(struct cli *c, const char *v, char *err, size_t errlen);
};

/* A row's off / set: where in struct cli the value goes. */
#define CLI_AT(field) offsetof(struct cli, field)

/* Rows several commands list, kept in cli.c. */
extern const struct cli_option cli_opt_json, cli_opt_interval, cli_opt_no_smp;

/* One command, as each cmd_<name>.c declares it (cmd_<name>_entry): its
 * name, synopsis, the options it takes besides the common ones (-d, -i,
 * --sysfs-root, --config, --no-color, --demo, -h, -V), what reads its
 * words after the name, and the function that runs it, which prints its
 * own output and errors and returns the exit status. */
struct cli_command {
	const char *name;
	const char *usage;	/* after "ibconsole NAME" */
	const char *help;	/* one line */
	const struct cli_option *const *opts;	/* NULL-terminated, in --help order */
	/* The words after NAME (argv[0] is the first): how many it took, or
	 * -1 with a one-line message in err. NULL: it takes none. */
	int (*words)(struct cli *c, int argc, char **argv, char *err, size_t errlen);
	int (*run)(const struct cli *c, const struct snap_opts *o);
};

/* The command c names (the console when none was given). */
const struct cli_command *cli_command_of(const struct cli *c);

/* Parses argv into *c. Returns 0, or 2 (usage) with a one-line message
 * in err: a bad value, an unknown option or command, or an option the
 * command does not take. Never prints, never exits. */
int cli_parse(struct cli *c, int argc, char **argv, char *err, size_t errlen);
/* --help: every command and option; with a command named on the command
 * line, that command's synopsis and options. */
void cli_usage(FILE *f, const struct cli *c);

#endif
