/* SPDX-License-Identifier: MIT */
/* The capture archive: a gzip-compressed tar written and read with
 * libarchive. The reader takes archives from strangers: it refuses,
 * from the headers alone and before anything is written, a member whose
 * path leaves the folder (absolute, "..") or is not a plain file or a
 * folder (links, devices, FIFOs), one larger than CAPAR_MAX_MEMBER, more
 * than CAPAR_MAX_MEMBERS members, or more than CAPAR_MAX_TOTAL in all. */
#ifndef IBC_CAPTURE_ARCHIVE_H
#define IBC_CAPTURE_ARCHIVE_H

#include <stddef.h>

/* The caps. A capture holds a few thousand small sysfs files and a
 * fabric topology of a few MiB at most: these leave room for a large
 * fabric and stop a bomb long before it costs a second. No source gives
 * these numbers; they are the reader's own. */
#define CAPAR_MAX_MEMBER (64LL << 20)
#define CAPAR_MAX_MEMBERS 20000
#define CAPAR_MAX_TOTAL (256LL << 20)

struct capar_writer;

/* Loads libarchive, which is dlopen()ed by capture and --from rather
 * than linked (the functions below load it too): 0, or -1 with one line
 * in err that says what to install. */
int capar_load(char *err, size_t errlen);

/* Opens FILE for writing (tar, gzip). NULL with err filled. */
struct capar_writer *capar_create(const char *path, char *err, size_t errlen);
/* Adds one plain file NAME (relative, folders made as needed) with its
 * bytes. 0, or -1 with err filled. */
int capar_add(struct capar_writer *w, const char *name, const void *data, size_t len,
	      char *err, size_t errlen);
/* Finishes and frees the writer (also after an error). 0, or -1 with err. */
int capar_close(struct capar_writer *w, char *err, size_t errlen);

/* Checks the archive at PATH against the caps without extracting:
 * 0, or -1 with a one-line reason in err ("member 'x': …"). */
int capar_check(const char *path, char *err, size_t errlen);
/* capar_check, then extracts into the existing, empty folder DIR (files
 * 0600, folders 0700, never following a link). 0, or -1 with err. */
int capar_extract(const char *path, const char *dir, char *err, size_t errlen);

#endif
