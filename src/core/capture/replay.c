// SPDX-License-Identifier: MIT
/* --from FILE (see replay.h). */
#include "config.h"
#include "core/capture/replay.h"

#include <errno.h>
#include <sys/stat.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/base/json.h"
#include "core/base/jsonscan.h"
#include "core/base/parse.h"
#include "core/capture/archive.h"
#include "core/capture/smpfile.h"
#include "core/capture/sweepfile.h"
#include "core/fabric/diff.h"
#include "core/fabric/fabric.h"
#include "core/fabric/sweep.h"

/* A host's RDMA devices read three links each (device, its driver, the
 * module): this leaves room for a thousand and bounds the work. */
#define REPLAY_MAX_LINKS 4096

static char dir[4096];
static char host[256], when[64];
static double interval = -1;

bool replay_active(void)
{
	return dir[0] != '\0';
}

const char *replay_path(const char *name, char *buf, size_t len)
{
	if (!replay_active())
		return NULL;
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

const char *replay_host(void) { return host; }
const char *replay_time(void) { return when; }
double replay_interval(void) { return interval; }

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	remove(p);
	return 0;
}

void replay_close(void)
{
	if (!dir[0])
		return;
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	dir[0] = '\0';
	json_doc_hook = NULL;
}

/* Stopped before the command's own clean-up: the folder goes, then the
 * program dies of the signal as it would have. */
static void on_signal(int sig)
{
	replay_close();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void marker(struct json *j)
{
	json_obj_begin(j, "capture");
	json_str(j, "host", host);
	json_str(j, "time", when);
	json_obj_end(j);
}

static void take(void *arg, const char *path, const char *val, bool is_str)
{
	(void)arg;
	if (!is_str) {
		if (!strcmp(path, "interval_s"))
			interval = strtod(val, NULL);
		return;
	}
	if (!strcmp(path, "host"))
		snprintf(host, sizeof(host), "%s", val);
	else if (!strcmp(path, "time"))
		snprintf(when, sizeof(when), "%s", val);
}

/* The captured PortInfo fields of the fabric's ports onto f (a capture
 * without them, by an older ibconsole: f as read, not judged again). */
static int fabric_ports(struct fabric *f, char *err, size_t errlen)
{
	char path[4200], why[200];
	size_t len;
	char *text;
	int rc;

	replay_path(CAPTURE_FABPORTS, path, sizeof(path));
	if (access(path, F_OK))
		return 0;
	text = parse_slurp(path, CAPAR_MAX_MEMBER, &len, why, sizeof(why));
	rc = text ? smpfile_fabric_apply(f, text, len, why, sizeof(why)) : -1;
	if (rc)
		snprintf(err, errlen, "--from: the capture's %s: %s — capture again", CAPTURE_FABPORTS, why);
	free(text);
	return rc;
}

struct fabric *replay_fabric(char *err, size_t errlen)
{
	char path[4200];
	struct fabric *f;

	replay_path(CAPTURE_TOPO ".json", path, sizeof(path));
	if (access(path, F_OK))
		replay_path(CAPTURE_TOPO, path, sizeof(path));
	if (access(path, F_OK)) {
		snprintf(err, errlen, "the capture of %s holds no fabric (taken with --no-smp, or without a MAD path) — capture again without --no-smp",
			 host);
		return NULL;
	}
	f = fabric_read_topology(path, err, errlen);
	if (f && fabric_ports(f, err, errlen)) {
		fabric_free(f);
		return NULL;
	}
	if (f) {
		struct tm tm = { 0 };

		/* said as the capture, not as the temporary file it came from */
		snprintf(f->origin, sizeof(f->origin), "capture of %.60s at %.40s", host, when);
		if (strptime(when, "%Y-%m-%dT%H:%M:%SZ", &tm))
			f->taken.tv_sec = timegm(&tm);
	}
	return f;
}

int replay_sweeps(struct sweep *sw, char *time, size_t tlen, char *err, size_t errlen)
{
	char path[4200], name[32], why[200];

	memset(sw, 0, 2 * sizeof(*sw));
	for (int i = 0; i < 2; i++) {
		size_t len;
		char *text;

		snprintf(name, sizeof(name), CAPTURE_SWEEP, i + 1);
		replay_path(name, path, sizeof(path));
		if (access(path, F_OK)) {
			snprintf(err, errlen, "the capture of %s holds no fabric-wide counter sweep (taken with --no-smp, without a MAD path, or by an older ibconsole) — capture again without --no-smp",
				 host);
			sweep_free(&sw[0]);
			return 3;
		}
		text = parse_slurp(path, CAPAR_MAX_MEMBER, &len, why, sizeof(why));
		if (!text || sweepfile_read(text, len, &sw[i], time, tlen, why, sizeof(why))) {
			snprintf(err, errlen, "--from: the capture's %s: %s — capture again", name, why);
			free(text);
			sweep_free(&sw[0]);
			return 2;
		}
		free(text);
	}
	return 0;
}

/* Makes every folder above the file at p (all inside the extracted
 * tree, which holds no links but the ones relink made). */
static int mkdir_above(char *p)
{
	for (char *c = strchr(p + strlen(dir) + 1, '/'); c; c = strchr(c + 1, '/')) {
		*c = '\0';
		if (mkdir(p, 0700) && errno != EEXIST) {
			*c = '/';
			return -1;
		}
		*c = '/';
	}
	return 0;
}

/* Whether a links line names a path under /sys and a plain name. */
static bool link_ok(const char *path, const char *name)
{
	return !strncmp(path, "/sys/", 5) && !strstr(path, "/../") && !strstr(path, "/./") &&
	       !strstr(path, "//") && strcmp(path + strlen(path) - 3, "/..") &&
	       strcmp(path + strlen(path) - 2, "/.") && name[0] && !strchr(name, '/') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

static int by_length(const void *a, const void *b)
{
	size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);

	return x < y ? -1 : x > y;
}

/* One link PATH -> NAME made again as the K-th: the folder at PATH (or a
 * new, empty one) moves to links.d/K/NAME and PATH links to it. */
static int relink_one(const char *path, const char *name, int k, char *err, size_t errlen)
{
	char at[4200], to[4400];
	struct stat st;

	snprintf(at, sizeof(at), "%s/%s%s", dir, CAPTURE_SYSFS, path);
	snprintf(to, sizeof(to), "%s/links.d/%d", dir, k);
	if ((mkdir_above(to) || mkdir(to, 0700)) && errno != EEXIST)
		goto bad;
	snprintf(to + strlen(to), sizeof(to) - strlen(to), "/%s", name);
	if (!lstat(at, &st)) {
		if (!S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "links: '%.200s' is there already as a file or link", path);
			return -1;
		}
		if (rename(at, to))
			goto bad;
	} else if (mkdir_above(at) || mkdir(to, 0700)) {
		goto bad;
	}
	if (symlink(to, at))
		goto bad;
	return 0;
bad:
	snprintf(err, errlen, "links: cannot make '%.200s' again: %s", path, strerror(errno));
	return -1;
}

/* The links the sources read on the host (capture's member "links":
 * PATH TAB NAME a line, a PCI function's device link, its driver and
 * module) made again in the extracted tree, so sysfs_link_name() names
 * what it named there. Parents first (shortest paths first), so a link
 * below another (device/driver) is made through it. A line that would
 * leave /sys, or names more than a plain name, refuses the archive. */
static int relink(char *err, size_t errlen)
{
	char path[4200], why[160], *text, *l, *save = NULL, **line;
	size_t len;
	int n = 0, rc = 0;

	replay_path(CAPTURE_LINKS, path, sizeof(path));
	if (access(path, F_OK))
		return 0;	/* none read, or an older capture */
	text = parse_slurp(path, 1 << 20, &len, why, sizeof(why));
	if (!text) {
		snprintf(err, errlen, "links: %s", why);
		return -1;
	}
	text[len - 1] = '\0';	/* its last byte is a line end */
	line = calloc(len / 2 + 1, sizeof(*line));
	for (l = strtok_r(text, "\n", &save); l && line; l = strtok_r(NULL, "\n", &save))
		line[n++] = l;
	if (n > REPLAY_MAX_LINKS) {
		snprintf(err, errlen, "links: more than %d", REPLAY_MAX_LINKS);
		n = 0;
		rc = -1;
	}
	qsort(line, (size_t)n, sizeof(*line), by_length);
	for (int i = 0; i < n && !rc; i++) {
		char *tab = strchr(line[i], '\t');

		if (!tab || (*tab = '\0', !link_ok(line[i], tab + 1))) {
			snprintf(err, errlen, "links: line '%.200s' is not a path under /sys and a name", line[i]);
			rc = -1;
		} else {
			rc = relink_one(line[i], tab + 1, i, err, errlen);
		}
	}
	if (!line) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	free(line);
	free(text);
	return rc;
}

static int read_manifest(char *err, size_t errlen)
{
	char path[4200], text[65536], why[160];
	FILE *f;
	size_t n;

	replay_path(CAPTURE_MANIFEST, path, sizeof(path));
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "no %s in it", CAPTURE_MANIFEST);
		return -1;
	}
	n = fread(text, 1, sizeof(text), f);
	fclose(f);
	if (n == sizeof(text)) {
		snprintf(err, errlen, "its %s is over 64 KiB", CAPTURE_MANIFEST);
		return -1;
	}
	if (json_scan(text, n, take, NULL, why, sizeof(why))) {
		snprintf(err, errlen, "its %s is not JSON: %s", CAPTURE_MANIFEST, why);
		return -1;
	}
	if (!host[0] || !when[0]) {
		snprintf(err, errlen, "its %s names no host or time", CAPTURE_MANIFEST);
		return -1;
	}
	return 0;
}

int replay_open(const char *archive, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	char why[400];
	int rc = 0;

	snprintf(dir, sizeof(dir), "%s/ibconsole-capture-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "--from %s: cannot make a temporary folder: %s — set TMPDIR to a writable folder",
			 archive, strerror(errno));
		dir[0] = '\0';
		return 5;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	if (capar_extract(archive, dir, why, sizeof(why)) || read_manifest(why, sizeof(why)) ||
	    relink(why, sizeof(why)))
		rc = 2;
	if (rc) {
		snprintf(err, errlen, "--from %s: refused: %s — give a file written by ibconsole capture",
			 archive, why);
		replay_close();
		return rc;
	}
	json_doc_hook = marker;
	return 0;
}
