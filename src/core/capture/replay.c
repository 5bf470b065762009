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
#include "core/capture/links.h"
#include "core/capture/smpfile.h"
#include "core/capture/sweepfile.h"
#include "core/fabric/diff.h"
#include "core/fabric/fabric.h"
#include "core/fabric/sweep.h"
#include "core/base/jsoncdl.h"

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
	sigset_t stop, old;

	/* first: a host without libarchive is told what to install, not
	 * that the capture was refused */
	if (capar_load(why, sizeof(why)) || jsoncdl_load(why, sizeof(why))) {
		snprintf(err, errlen, "--from %s: %s", archive, why);
		return 3;
	}
	/* a signal between the folder's making and its handler would leave
	 * the folder: held until the handler is there, then delivered */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	snprintf(dir, sizeof(dir), "%s/ibconsole-capture-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		snprintf(err, errlen, "--from %s: cannot make a temporary folder: %s — set TMPDIR to a writable folder",
			 archive, strerror(errno));
		dir[0] = '\0';
		return 5;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (capar_extract(archive, dir, why, sizeof(why)) || read_manifest(why, sizeof(why)) ||
	    links_remake(dir, why, sizeof(why)))
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
