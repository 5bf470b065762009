// SPDX-License-Identifier: MIT
/* `ibconsole capture`: one .tar.gz holding what the console reads on this
 * host, for `ibconsole --from FILE` anywhere: the sysfs files the port
 * sources read (recorded as they read them, no others), the counters
 * sampled twice --interval apart, the fabric topology (our own
 * `fabric --save`, unless --no-smp), the recent port events, the newest
 * test / triage records, the config in force and a manifest. */
#include "config.h"
#include "cmd_capture.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cmdutil.h"
#include "core/base/clock.h"
#include "core/base/json.h"
#include "core/base/parse.h"
#include "core/base/spawn.h"
#include "core/base/sysfs.h"
#include "core/capture/archive.h"
#include "core/capture/replay.h"
#include "core/capture/smpfile.h"
#include "core/capture/sweepfile.h"
#include "core/counters/counters_json.h"
#include "core/counters/reader.h"
#include "core/fabric/sweeper.h"
#include "core/port/events.h"
#include "core/port/snapshot.h"
#include "core/port/sources.h"
#include "core/testrun/testjob.h"
#include "diag/thresholds.h"

/* What goes into the archive, in memory until it is written. */
struct member {
	char name[320];
	char *data;
	size_t len;
};

#define MAX_MEMBERS CAPAR_MAX_MEMBERS
#define MAX_MISSING 32

static struct capture {
	struct member *m;
	int n;
	bool full;
	struct { char what[160], why[200]; } miss[MAX_MISSING];
	int nmiss;
} cap;

/* Adds (or, for a sysfs file read again, replaces) member NAME. */
static void put(const char *name, const char *data, size_t len)
{
	struct member *m = NULL;
	char *copy = malloc(len + 1);

	for (int i = 0; i < cap.n && !m; i++)
		if (!strcmp(cap.m[i].name, name))
			m = &cap.m[i];
	if (!m && cap.n < MAX_MEMBERS)
		m = &cap.m[cap.n++];
	if (!m || !copy) {
		cap.full = true;
		free(copy);
		return;
	}
	memcpy(copy, data, len);
	free(m->data);
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->data = copy;
	m->len = len;
}

static void missing(const char *what, const char *why)
{
	if (cap.nmiss == MAX_MISSING)
		return;
	snprintf(cap.miss[cap.nmiss].what, sizeof(cap.miss[0].what), "%.150s", what);
	snprintf(cap.miss[cap.nmiss].why, sizeof(cap.miss[0].why), "%.190s", why);
	cap.nmiss++;
}

/* sysfs_tap: each file the sources read, under sysfs/ at its path. */
static void tap(const char *path, const char *line)
{
	char name[320], text[4200];
	int n = snprintf(text, sizeof(text), "%s\n", line);

	snprintf(name, sizeof(name), "%s%s", CAPTURE_SYSFS, path);
	put(name, text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
}

/* sysfs_bin_tap: a binary file (a PCI function's config) as it was read. */
static void bin_tap(const char *path, const void *data, size_t len)
{
	char name[320];

	snprintf(name, sizeof(name), "%s%s", CAPTURE_SYSFS, path);
	put(name, data, len);
}

/* sysfs_link_tap: each link read, a line "PATH TAB NAME" of member
 * links (replay makes them again); a link read twice, once. */
static char *links;
static size_t links_len;

static void link_tap(const char *path, const char *target)
{
	char line[600];
	int n = snprintf(line, sizeof(line), "%s\t%s\n", path, target);
	char *grown;

	if (n <= 0 || (size_t)n >= sizeof(line) || (links && strstr(links, line)))
		return;
	grown = realloc(links, links_len + (size_t)n + 1);
	if (!grown) {
		cap.full = true;
		return;
	}
	links = grown;
	memcpy(links + links_len, line, (size_t)n + 1);
	links_len += (size_t)n;
}

/* smp_tap: each port's SMP PortInfo and peer, under smp/DEV/PORT. */
static void smp_rec(const struct port_info *p, const uint8_t *pi)
{
	char name[320], text[512];
	int n = smpfile_format(text, sizeof(text), p, pi);

	snprintf(name, sizeof(name), "smp/%.200s/%d", p->dev, p->port);
	if (n > 0)
		put(name, text, (size_t)n);
}

/* A whole file into member NAME; a miss into the manifest. */
static void put_file(const char *name, const char *path, const char *what)
{
	char why[200];
	size_t len;
	char *d = parse_slurp(path, CAPAR_MAX_MEMBER, &len, why, sizeof(why));

	if (!d) {
		char w[240];

		snprintf(w, sizeof(w), "%s (%s)", what, path);
		missing(w, why);
		return;
	}
	put(name, d, len);
	free(d);
}

/* What fn(f, arg) writes into member NAME. */
static void put_stream(const char *name, void (*fn)(FILE *f, void *arg), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		missing(name, "out of memory");
		return;
	}
	fn(f, arg);
	fclose(f);
	put(name, buf, len);
	free(buf);
}

struct json_doc {
	void (*fn)(struct json *j, void *arg);
	void *arg;
};

static void write_json(FILE *f, void *arg)
{
	struct json_doc *d = arg;
	struct json j;

	json_init(&j, f);
	d->fn(&j, d->arg);
	fputc('\n', f);
}

/* A JSON document written by fn(j, arg) into member NAME. */
static void put_json(const char *name, void (*fn)(struct json *j, void *arg), void *arg)
{
	struct json_doc d = { fn, arg };

	put_stream(name, write_json, &d);
}

struct sample {
	const struct snapshot *s;
	struct ctr_reader *r;
	struct ctr_target t[CTRS_MAX_TARGETS];
	int nt;
	char time[32];
};

static void sample_json(struct json *j, void *arg)
{
	struct sample *x = arg;
	struct counter_set *cs = calloc(1, sizeof(*cs));

	json_obj_begin(j, NULL);
	json_str(j, "time", x->time);
	json_arr_begin(j, "ports");
	for (int i = 0; i < x->nt && cs; i++) {
		memset(cs, 0, sizeof(*cs));
		reader_read(x->r, &x->t[i], cs);
		json_obj_begin(j, NULL);
		json_str(j, "label", x->t[i].label);
		json_str(j, "device", x->t[i].dev);
		json_int(j, "port", x->t[i].port);
		counters_json_set(j, cs);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	free(cs);
}

/* Our own `fabric --save` in a child (the path a user takes), its files
 * read back from a private folder. */
static void capture_fabric(const struct cli *c)
{
	char tmpl[] = "/tmp/ibconsole-capture-XXXXXX", topo[128], json[140], port[16];
	char *argv[12];
	struct spawn sp;
	int a = 0, rc = -1;

	if (!mkdtemp(tmpl)) {
		missing("fabric", strerror(errno));
		return;
	}
	snprintf(topo, sizeof(topo), "%s/%s", tmpl, CAPTURE_TOPO);
	snprintf(json, sizeof(json), "%s.json", topo);
	argv[a++] = "/proc/self/exe";
	if (c->device) {
		argv[a++] = "-d";
		argv[a++] = (char *)c->device;
	}
	if (c->port) {
		snprintf(port, sizeof(port), "%d", c->port);
		argv[a++] = "-i";
		argv[a++] = port;
	}
	argv[a++] = "fabric";
	argv[a++] = "--save";
	argv[a++] = topo;
	argv[a] = NULL;
	if (spawn_start(&sp, argv, 120) == 0) {
		while (!spawn_poll(&sp, &rc)) {
			struct pollfd p = { sp.fd, POLLIN, 0 };

			poll(&p, 1, 200);
		}
	}
	/* 1: the fabric has findings, still saved */
	if (rc == 0 || rc == 1) {
		put_file(CAPTURE_TOPO, topo, "fabric topology");
		put_file(CAPTURE_TOPO ".json", json, "fabric JSON");
	} else {
		char why[200];

		snprintf(why, sizeof(why), "fabric discovery failed: %.150s", sp.out[0] ? sp.out : "no output");
		why[strcspn(why, "\n")] = '\0';
		missing("fabric", why);
	}
	unlink(topo);
	unlink(json);
	rmdir(tmpl);
}

/* The newest files of the records folder (test and triage records). */
static void capture_records(void)
{
	char base[400], path[800], name[300];
	struct { char n[256]; time_t t; } best[4] = { 0 };
	struct dirent *de;
	struct stat sb;
	DIR *d;

	if (testjob_record_dir(base, sizeof(base))) {
		missing("records", "no state directory: neither XDG_STATE_HOME nor HOME is set");
		return;
	}
	d = opendir(base);
	if (!d) {
		missing("records", errno == ENOENT ? "none yet" : strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		int k = 3;

		snprintf(path, sizeof(path), "%s/%s", base, de->d_name);
		if (de->d_name[0] == '.' || stat(path, &sb) || !S_ISREG(sb.st_mode))
			continue;
		/* keep the four newest, newest first */
		if (best[k].n[0] && sb.st_mtime <= best[k].t)
			continue;
		while (k > 0 && (!best[k - 1].n[0] || sb.st_mtime > best[k - 1].t)) {
			best[k] = best[k - 1];
			k--;
		}
		snprintf(best[k].n, sizeof(best[k].n), "%s", de->d_name);
		best[k].t = sb.st_mtime;
	}
	closedir(d);
	for (int i = 0; i < 4 && best[i].n[0]; i++) {
		snprintf(path, sizeof(path), "%.400s/%.255s", base, best[i].n);
		snprintf(name, sizeof(name), "records/%.255s", best[i].n);
		put_file(name, path, "record");
	}
}

/* What --from reads is the sysfs source's view (a capture root is no
 * live device): that source walks the real /sys once here, on a scratch
 * snapshot, so every file it reads is recorded. The live sources ran
 * first; their answers are in the snapshot itself. */
static void sysfs_pass(const struct snap_opts *o)
{
	struct snapshot *t = calloc(1, sizeof(*t));
	/* the GID table too: a replay reads it from the archive's sysfs,
	 * where the verbs source is not there to read it */
	struct snap_opts so = *o;
	char err[320];

	so.no_verbs = true;
	if (!t) {
		missing("sysfs", "out of memory");
		return;
	}
	if (source_sysfs.enumerate(t, &so, err, sizeof(err)) <= 0)
		missing("sysfs ports", err[0] ? err : "none found");
	for (int i = 0; i < t->nports; i++)
		source_sysfs.refine(&t->ports[i], &so, err, sizeof(err));
	snapshot_release(t);
	free(t);
}

struct manifest {
	const char *host, *t0, *t1, *t2;
	double interval;
	bool no_smp;
};

static void manifest_json(struct json *j, void *arg)
{
	const struct manifest *m = arg;

	json_obj_begin(j, NULL);
	json_str(j, "format", "ibconsole-capture");
	json_str(j, "version", PACKAGE_VERSION);
	json_str(j, "host", m->host);
	json_str(j, "time", m->t1);
	json_str(j, "started", m->t0);
	json_str(j, "finished", m->t2);
	json_num(j, "interval_s", m->interval);
	json_bool(j, "no_smp", m->no_smp);
	json_int(j, "members", cap.n + 1);
	json_arr_begin(j, "unreadable");
	for (int i = 0; i < cap.nmiss; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "what", cap.miss[i].what);
		json_str(j, "why", cap.miss[i].why);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void free_members(void)
{
	for (int i = 0; i < cap.n; i++)
		free(cap.m[i].data);
	free(cap.m);
	memset(&cap, 0, sizeof(cap));
	free(links);
	links = NULL;
	links_len = 0;
}

static int write_archive(const char *out, char *err, size_t errlen)
{
	char part[1100];
	struct capar_writer *w;
	int rc = 0;

	/* written beside, renamed when whole: no half archive under the name */
	snprintf(part, sizeof(part), "%s.part", out);
	w = capar_create(part, err, errlen);
	if (!w)
		return -1;
	for (int i = 0; i < cap.n && !rc; i++)
		rc = capar_add(w, cap.m[i].name, cap.m[i].data, cap.m[i].len, err, errlen);
	if (capar_close(w, err, errlen))
		rc = -1;
	if (!rc && rename(part, out)) {
		snprintf(err, errlen, "cannot rename %.280s to %.280s: %s", part, out, strerror(errno));
		rc = -1;
	}
	if (rc)
		unlink(part);
	return rc;
}

/* The archive's name: -o, or ibconsole-capture-HOST-YYYYMMDDTHHMMSSZ.tar.gz. */
static void out_name(const struct cli *c, const char *host, char *out, size_t len)
{
	char stamp[32];
	struct tm tm;
	time_t now = time(NULL);

	if (c->capture_out) {
		snprintf(out, len, "%s", c->capture_out);
		return;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(out, len, "ibconsole-capture-%s-%s.tar.gz", host, stamp);
}

struct sweep_doc {
	const struct sweep *sw;
	const char *time;
};

static void write_sweep(FILE *f, void *arg)
{
	struct sweep_doc *d = arg;

	sweepfile_write(f, d->sw, d->time);
}

/* The discovered ports' PortInfo fields: what the saved topology lacks
 * for the link rules. */
static void write_fabric_ports(FILE *f, void *arg)
{
	smpfile_fabric_write(f, arg);
}

/* One round of the fabric-wide sweep `errors` makes (the same sweeper,
 * the same options), into member errors-ROUND.sweep; false when it
 * failed (said in the manifest, and no second round). */
static bool sweep_round(struct sweeper *sw, int round, const char *time)
{
	char err[320], name[32];

	snprintf(name, sizeof(name), CAPTURE_SWEEP, round);
	if (round == 2 && sweeper_keep(sw)) {
		missing("fabric counters", "out of memory");
		return false;
	}
	if (sweeper_query(sw, err, sizeof(err))) {
		missing("fabric counters", err);
		return false;
	}
	struct sweep_doc d = { sweeper_sweep(sw), time };

	put_stream(name, write_sweep, &d);
	if (round == 1 && sweeper_fabric(sw))
		put_stream(CAPTURE_FABPORTS, write_fabric_ports, (void *)sweeper_fabric(sw));
	return true;
}

/* The counters of every local port and, unless --no-smp, of every port
 * of the fabric (errors' sweep), sampled twice interval apart; the first
 * sample's time is the capture's. A signal ends the program in the wait
 * (nothing is written before the end, so nothing is left behind). */
static void sample_counters(const struct cli *c, struct snapshot *s, double interval,
			    struct manifest *mf)
{
	struct sample *x = calloc(1, sizeof(*x));
	struct sweeper_opts so = { 0 };
	struct sweeper *sw = NULL;
	bool swept = false;
	double t2;

	if (!x) {
		missing("counters", "out of memory");
		return;
	}
	so.so.dev = c->device;
	so.so.port = c->port;
	so.keep_model = true;	/* its ports' PortInfo for fabric.ports */
	if (!c->no_smp && !(sw = sweeper_open(&so)))
		missing("fabric counters", "out of memory");
	x->s = s;
	x->r = reader_open();
	x->nt = x->r ? reader_targets_local(s, x->t, CTRS_MAX_TARGETS) : 0;
	for (int i = 0; i < x->nt && c->no_smp; i++)
		x->t[i].lid = 0;	/* --no-smp: no PMA query either, sysfs only */
	if (!x->r)
		missing("counters", "out of memory");
	cmd_iso_time(x->time, sizeof(x->time));
	mf->t1 = strdup(x->time);
	if (x->r) {
		put_json("counters-1.json", sample_json, x);
		reader_release(x->r);	/* the sweep's PMA client next */
	}
	/* each second sample interval after its first: the sweep follows
	 * the local ports in both rounds */
	t2 = mono_s() + interval;
	swept = sw && sweep_round(sw, 1, x->time);
	fprintf(stderr, "ibconsole: capture: counters, sample 1 of 2 taken; sample 2 in %g s…\n", interval);
	clock_sleep_until(t2, NULL);
	cmd_iso_time(x->time, sizeof(x->time));
	if (x->r) {
		put_json("counters-2.json", sample_json, x);
		reader_close(x->r);
	}
	if (swept)
		sweep_round(sw, 2, x->time);
	sweeper_free(sw);
	free(x);
}

/* What follows the ports and counters: the fabric, events, records, config. */
static void capture_rest(const struct cli *c)
{
	char buf[600];
	const char *cfg;

	if (c->no_smp) {
		missing("fabric", "--no-smp: no MADs sent");
	} else {
		fprintf(stderr, "ibconsole: capture: discovering the fabric…\n");
		capture_fabric(c);
	}
	fprintf(stderr, "ibconsole: capture: events, records, config…\n");
	if (events_path(buf, sizeof(buf)))
		put_file("events.log", buf, "port events");
	else
		missing("port events", "neither XDG_STATE_HOME nor HOME is set");
	capture_records();
	cfg = thresholds_config_path(c->config, buf, sizeof(buf));
	if (cfg)
		put_file("config", cfg, "config");
	else
		missing("config", "none in force: the defaults judge");
}

int cmd_capture(const struct cli *c, const struct snap_opts *o)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	struct manifest mf = { 0 };
	char host[256] = "", out[1024], why[200], err[640], t0[32], t2[32];
	double interval = c->interval_set ? c->interval : 10;
	enum snap_status st;
	int rc = 0;

	cap.m = calloc(MAX_MEMBERS, sizeof(*cap.m));
	if (!s || !cap.m) {
		cmd_fail("out of memory");
		free(s);
		free(cap.m);
		return 5;
	}
	gethostname(host, sizeof(host) - 1);
	cmd_iso_time(t0, sizeof(t0));
	out_name(c, host, out, sizeof(out));
	if (parse_out_path(out, why, sizeof(why))) {
		snprintf(err, sizeof(err), "cannot write the capture to %.400s: %.150s — give a file name in an existing directory",
			 out, why);
		cmd_fail(err);
		rc = 2;
		goto done;
	}
	/* before the seconds of reading, not after: the archive needs it */
	if (capar_load(err, sizeof(err))) {
		cmd_fail(err);
		rc = 3;
		goto done;
	}

	fprintf(stderr, "ibconsole: capture: reading the ports…\n");
	sysfs_tap = tap;
	sysfs_link_tap = link_tap;
	sysfs_bin_tap = bin_tap;
	smp_tap = smp_rec;
	st = snapshot_collect(s, o, err, sizeof(err));
	smp_tap = NULL;
	if (st != SNAP_OK) {
		sysfs_tap = NULL;
		sysfs_link_tap = NULL;
		sysfs_bin_tap = NULL;
		cmd_fail(err);
		rc = st;
		goto done;
	}
	sysfs_pass(o);
	sample_counters(c, s, interval, &mf);
	sysfs_tap = NULL;
	sysfs_link_tap = NULL;
	sysfs_bin_tap = NULL;
	if (links)
		put(CAPTURE_LINKS, links, links_len);
	capture_rest(c);

	cmd_iso_time(t2, sizeof(t2));
	mf.host = host;
	mf.t0 = t0;
	mf.t2 = t2;
	mf.interval = interval;
	mf.no_smp = c->no_smp;
	if (cap.full)
		missing("some files", "more than the archive may hold");
	put_json(CAPTURE_MANIFEST, manifest_json, &mf);
	if (write_archive(out, err, sizeof(err))) {
		cmd_fail(err);
		rc = 3;
		goto done;
	}
	fprintf(stderr, "ibconsole: capture: %d files written to %s (%d could not be read: see %s)\n",
		cap.n, out, cap.nmiss, CAPTURE_MANIFEST);
	printf("%s\n", out);
done:
	free((char *)mf.t1);
	snapshot_release(s);
	free(s);
	free_members();
	return rc;
}

/* ---- the command line: the entry of capture (see cli.h) ---- */

static const struct cli_option opt_output = {
	"output", NULL, 'o', "FILE",
	"capture: write the archive to FILE (default ibconsole-capture-HOST-YYYYMMDDTHHMMSSZ.tar.gz)",
	.type = OT_STR, .off = CLI_AT(capture_out) };

/* declared elsewhere: --interval (cli.c), --no-smp (cli.c) */
static const struct cli_option *const capture_opts[] = {
	&opt_output, &cli_opt_interval, &cli_opt_no_smp, NULL
};

const struct cli_command cmd_capture_entry = {
	"capture",
	"[-o FILE] [--interval S] [--no-smp]",
	"save this host's RDMA state to one .tar.gz (counters sampled twice --interval apart, default 10 s) for --from",
	capture_opts, NULL, cmd_capture
};
