// SPDX-License-Identifier: MIT
/* The capture archive (see archive.h). libarchive writes and, above all,
 * reads it: parsing tar and gzip from an untrusted file is its job, and
 * the checks here are on what it decoded, never on raw bytes. */
#include "config.h"
#include "core/capture/archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/base/dynlib.h"

/* libarchive is loaded by capture and --from, not linked (configure.ac
 * says what linking it costs every command). Each function is called
 * through la, named without its archive_ prefix: la.read_new() is
 * archive_read_new(). */
#define LA_FUNCS(X) X(entry_filetype) X(entry_free) X(entry_hardlink) \
	X(entry_new) X(entry_pathname) X(entry_set_filetype) X(entry_set_mtime) \
	X(entry_set_pathname) X(entry_set_perm) X(entry_set_size) X(entry_size) \
	X(entry_size_is_set) X(entry_sparse_count) X(error_string) X(read_data) \
	X(read_free) X(read_new) X(read_next_header) X(read_open_filename) \
	X(read_support_filter_gzip) X(read_support_format_tar) \
	X(write_add_filter_gzip) X(write_close) X(write_data) X(write_free) \
	X(write_header) X(write_new) X(write_open_filename) \
	X(write_set_format_pax_restricted)

static struct {
#define LA_FIELD(f) __typeof__(archive_##f) *f;
	LA_FUNCS(LA_FIELD)
#undef LA_FIELD
} la;
#define LA_SYM(f) { "archive_" #f, (void **)&la.f },
static const struct dynlib_sym la_syms[] = { LA_FUNCS(LA_SYM) };
#undef LA_SYM
static struct dynlib la_lib = DYNLIB(ARCHIVE_SONAME, "libarchive", "libarchive13", la_syms);

int capar_load(char *err, size_t errlen)
{
	return dynlib_need(&la_lib, err, errlen);
}

struct capar_writer {
	struct archive *a;
	time_t now;
};

struct capar_writer *capar_create(const char *path, char *err, size_t errlen)
{
	struct capar_writer *w;

	if (capar_load(err, errlen))
		return NULL;
	w = calloc(1, sizeof(*w));
	if (!w || !(w->a = la.write_new())) {
		snprintf(err, errlen, "out of memory");
		free(w);
		return NULL;
	}
	w->now = time(NULL);
	if (la.write_set_format_pax_restricted(w->a) != ARCHIVE_OK ||
	    la.write_add_filter_gzip(w->a) != ARCHIVE_OK ||
	    la.write_open_filename(w->a, path) != ARCHIVE_OK) {
		snprintf(err, errlen, "cannot write %s: %s", path, la.error_string(w->a));
		la.write_free(w->a);
		free(w);
		return NULL;
	}
	return w;
}

int capar_add(struct capar_writer *w, const char *name, const void *data, size_t len,
	      char *err, size_t errlen)
{
	struct archive_entry *e = la.entry_new();
	int rc = 0;

	if (!e) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	la.entry_set_pathname(e, name);
	la.entry_set_filetype(e, AE_IFREG);
	la.entry_set_perm(e, 0644);
	la.entry_set_size(e, (la_int64_t)len);
	la.entry_set_mtime(e, w->now, 0);
	if (la.write_header(w->a, e) != ARCHIVE_OK ||
	    (len && la.write_data(w->a, data, len) != (la_ssize_t)len)) {
		snprintf(err, errlen, "cannot write %s into the archive: %s", name,
			 la.error_string(w->a));
		rc = -1;
	}
	la.entry_free(e);
	return rc;
}

int capar_close(struct capar_writer *w, char *err, size_t errlen)
{
	int rc = 0;

	if (!w)
		return 0;
	if (la.write_close(w->a) != ARCHIVE_OK) {
		snprintf(err, errlen, "cannot finish the archive: %s", la.error_string(w->a));
		rc = -1;
	}
	la.write_free(w->a);
	free(w);
	return rc;
}

/* ---- reading ---- */

static struct archive *open_read(const char *path, char *err, size_t errlen)
{
	struct archive *a;

	if (capar_load(err, errlen))
		return NULL;
	a = la.read_new();
	if (!a) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* gzip (or none) around tar: nothing else is a capture */
	la.read_support_filter_gzip(a);
	la.read_support_format_tar(a);
	if (la.read_open_filename(a, path, 16384) != ARCHIVE_OK) {
		snprintf(err, errlen, "cannot read %s: %s", path, la.error_string(a));
		la.read_free(a);
		return NULL;
	}
	return a;
}

/* A member's path stays inside the folder: relative, no ".." part, no
 * empty name. */
static bool path_ok(const char *p)
{
	const char *s = p;

	if (!p || !*p || *p == '/')
		return false;
	while (*s) {
		size_t n = strcspn(s, "/");

		if (n == 2 && s[0] == '.' && s[1] == '.')
			return false;
		s += n;
		s += *s == '/';
	}
	return true;
}

/* One header against the rules; *total adds its size. 0, or -1 with err. */
static int member_ok(struct archive_entry *e, long long *total, char *err, size_t errlen)
{
	const char *name = la.entry_pathname(e);
	mode_t type = la.entry_filetype(e);
	long long size = la.entry_size_is_set(e) ? (long long)la.entry_size(e) : 0;
	const char *why = NULL;

	if (!path_ok(name))
		why = name && *name == '/' ? "an absolute path" : "a path that leaves the folder";
	else if (la.entry_hardlink(e) || type == AE_IFLNK)
		why = "a link";
	else if (type != AE_IFREG && type != AE_IFDIR)
		why = "not a plain file or folder (a device, FIFO or socket)";
	else if (la.entry_sparse_count(e) > 0)
		why = "a sparse file";
	else if (size < 0 || size > CAPAR_MAX_MEMBER)
		why = "larger than the 64 MiB a member may be";
	else if ((*total += size) > CAPAR_MAX_TOTAL)
		why = "past the 256 MiB the whole capture may expand to";
	if (!why)
		return 0;
	snprintf(err, errlen, "member '%.200s' is %s", name ? name : "", why);
	return -1;
}

int capar_check(const char *path, char *err, size_t errlen)
{
	struct archive *a = open_read(path, err, errlen);
	struct archive_entry *e;
	long long total = 0;
	int n = 0, r, rc = 0;

	if (!a)
		return -1;
	while ((r = la.read_next_header(a, &e)) == ARCHIVE_OK) {
		if (++n > CAPAR_MAX_MEMBERS) {
			snprintf(err, errlen, "more than %d members", CAPAR_MAX_MEMBERS);
			rc = -1;
			break;
		}
		if (member_ok(e, &total, err, errlen)) {
			rc = -1;
			break;
		}
	}
	if (!rc && r != ARCHIVE_EOF) {
		snprintf(err, errlen, "not a readable tar.gz: %s", la.error_string(a));
		rc = -1;
	}
	if (!rc && n == 0) {
		snprintf(err, errlen, "the archive is empty");
		rc = -1;
	}
	la.read_free(a);
	return rc;
}

/* Opens (making as needed) the folder that holds NAME under dirfd, one
 * part at a time, never following a link; *base: NAME's last part.
 * A descriptor, or -1. */
static int parent_dir(int dirfd, char *name, char **base)
{
	int fd = dup(dirfd);
	char *s = name, *slash;

	while (fd >= 0 && (slash = strchr(s, '/'))) {
		int next;

		*slash = '\0';
		if (*s && strcmp(s, ".")) {
			if (mkdirat(fd, s, 0700) && errno != EEXIST) {
				close(fd);
				return -1;
			}
			next = openat(fd, s, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			close(fd);
			fd = next;
		}
		s = slash + 1;
	}
	*base = s;
	return fd;
}

static int extract_one(struct archive *a, struct archive_entry *e, int dirfd,
		       char *err, size_t errlen)
{
	char name[4096], *base;
	bool isdir = la.entry_filetype(e) == AE_IFDIR;
	long long left = (long long)la.entry_size(e);
	int pfd, fd;

	snprintf(name, sizeof(name), "%s%s", la.entry_pathname(e), isdir ? "/" : "");
	pfd = parent_dir(dirfd, name, &base);
	if (pfd < 0) {
		snprintf(err, errlen, "member '%.200s': cannot make its folder: %s",
			 la.entry_pathname(e), strerror(errno));
		return -1;
	}
	if (isdir || !*base || !strcmp(base, ".")) {
		close(pfd);
		return 0;
	}
	fd = openat(pfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	close(pfd);
	if (fd < 0) {
		snprintf(err, errlen, "member '%.200s': %s", la.entry_pathname(e),
			 errno == EEXIST ? "given twice" : strerror(errno));
		return -1;
	}
	for (;;) {
		char buf[16384];
		la_ssize_t n = la.read_data(a, buf, sizeof(buf));

		if (n == 0)
			break;
		/* more bytes than the header declared: refused too */
		if (n < 0 || (left -= n) < 0 || write(fd, buf, (size_t)n) != n) {
			snprintf(err, errlen, "member '%.200s': %s", la.entry_pathname(e),
				 n < 0 ? la.error_string(a) : left < 0 ? "longer than its header says" :
				 strerror(errno));
			close(fd);
			return -1;
		}
	}
	return close(fd);
}

int capar_extract(const char *path, const char *dir, char *err, size_t errlen)
{
	struct archive *a;
	struct archive_entry *e;
	int dirfd, r, rc = 0;

	if (capar_check(path, err, errlen))
		return -1;
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", dir, strerror(errno));
		return -1;
	}
	a = open_read(path, err, errlen);
	if (!a) {
		close(dirfd);
		return -1;
	}
	/* the file may have changed since the check: each member again */
	{
		long long total = 0;
		int n = 0;

		while (!rc && (r = la.read_next_header(a, &e)) == ARCHIVE_OK) {
			if (++n > CAPAR_MAX_MEMBERS) {
				snprintf(err, errlen, "more than %d members", CAPAR_MAX_MEMBERS);
				rc = -1;
			} else
				rc = member_ok(e, &total, err, errlen) ||
				     extract_one(a, e, dirfd, err, errlen) ? -1 : 0;
		}
		if (!rc && r != ARCHIVE_EOF) {
			snprintf(err, errlen, "not a readable tar.gz: %s", la.error_string(a));
			rc = -1;
		}
	}
	la.read_free(a);
	close(dirfd);
	return rc;
}
