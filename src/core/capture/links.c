// SPDX-License-Identifier: MIT
/* The sysfs links a capture records (member "links"), made again in
 * the extracted tree (see links.h). */
#include "config.h"
#include "core/capture/links.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/parse.h"
#include "core/capture/replay.h"

/* A host's RDMA devices read three links each (device, its driver, the
 * module): this leaves room for a thousand and bounds the work. */
#define REPLAY_MAX_LINKS 4096

/* Makes every folder above the file at p (all inside the extracted
 * tree, which holds no links but the ones made here). */
static int mkdir_above(const char *dir, char *p)
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
static int relink_one(const char *dir, const char *path, const char *name, int k, char *err,
		      size_t errlen)
{
	char at[4200], to[4400];
	struct stat st;

	snprintf(at, sizeof(at), "%s/%s%s", dir, CAPTURE_SYSFS, path);
	snprintf(to, sizeof(to), "%s/links.d/%d", dir, k);
	if ((mkdir_above(dir, to) || mkdir(to, 0700)) && errno != EEXIST)
		goto bad;
	snprintf(to + strlen(to), sizeof(to) - strlen(to), "/%s", name);
	if (!lstat(at, &st)) {
		if (!S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "links: '%.200s' is there already as a file or link", path);
			return -1;
		}
		if (rename(at, to))
			goto bad;
	} else if (mkdir_above(dir, at) || mkdir(to, 0700)) {
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
int links_remake(const char *dir, char *err, size_t errlen)
{
	char path[4200], why[160], *text, *l, *save = NULL, **line;
	size_t len;
	int n = 0, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, CAPTURE_LINKS);
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
			rc = relink_one(dir, line[i], tab + 1, i, err, errlen);
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
