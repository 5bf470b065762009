// SPDX-License-Identifier: MIT
/* Rooted sysfs reads: every path is taken under a configurable root so
 * fixture trees can stand in for /sys. */
#include "config.h"
#include "core/base/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static char root[PATH_MAX] = "/";
static char label[PATH_MAX];

void sysfs_set_root(const char *r)
{
	size_t n;

	snprintf(root, sizeof(root), "%s", r && *r ? r : "/");
	n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		root[--n] = '\0';
}

const char *sysfs_root(void)
{
	return root;
}

void sysfs_set_root_label(const char *l)
{
	snprintf(label, sizeof(label), "%s", l ? l : "");
}

const char *sysfs_root_label(void)
{
	return label[0] ? label : root;
}

bool sysfs_is_real_root(void)
{
	return strcmp(root, "/") == 0;
}

static int rooted(char *out, size_t len, const char *fmt, va_list ap)
{
	char rel[PATH_MAX];
	int n = vsnprintf(rel, sizeof(rel), fmt, ap);

	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	n = snprintf(out, len, "%s%s", sysfs_is_real_root() ? "" : root, rel);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void (*sysfs_tap)(const char *path, const char *line);
void (*sysfs_link_tap)(const char *path, const char *name);
void (*sysfs_bin_tap)(const char *path, const void *data, size_t len);

/* The path under the root, as the taps name it. */
static const char *under_root(const char *path)
{
	return path + (sysfs_is_real_root() ? 0 : strlen(root));
}

static int read_path(char *buf, size_t len, const char *path)
{
	/* O_NONBLOCK and a regular file only: a FIFO (or a device) in a
	 * fixture tree must not hang the read; sysfs attributes are
	 * regular files */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (sysfs_tap)
		sysfs_tap(under_root(path), buf);
	return 0;
}

int sysfs_read_bin(void *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	ssize_t n;
	int rc, fd;

	va_start(ap, fmt);
	rc = rooted(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (rc)
		return rc;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len);
	rc = n < 0 ? -errno : (int)n;
	close(fd);
	if (n > 0 && sysfs_bin_tap)
		sysfs_bin_tap(under_root(path), buf, (size_t)n);
	return rc;
}

int sysfs_read(char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int rc;

	buf[0] = '\0';
	va_start(ap, fmt);
	rc = rooted(path, sizeof(path), fmt, ap);
	va_end(ap);
	return rc ? rc : read_path(buf, len, path);
}

int sysfs_read_long(long *val, const char *fmt, ...)
{
	char path[PATH_MAX], buf[64], *end;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = rooted(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (rc || (rc = read_path(buf, sizeof(buf), path)))
		return rc;
	errno = 0;
	*val = strtol(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

int sysfs_link_name(char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	va_list ap;
	ssize_t n;
	int rc;

	va_start(ap, fmt);
	rc = rooted(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (rc)
		return rc;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	snprintf(buf, len, "%s", base ? base + 1 : target);
	if (sysfs_link_tap)
		sysfs_link_tap(under_root(path), buf);
	return 0;
}

int sysfs_list(const char *rel, void (*fn)(const char *name, void *arg), void *arg)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int count = 0;

	if (snprintf(path, sizeof(path), "%s%s", sysfs_is_real_root() ? "" : root,
		     rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		fn(de->d_name, arg);
		count++;
	}
	closedir(d);
	return count;
}
