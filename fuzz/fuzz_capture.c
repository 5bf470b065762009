// SPDX-License-Identifier: MIT
/* libFuzzer target: the capture archive's reader (--from FILE), through
 * the same file path a user gives, then the links its member "links"
 * asks for. A refusal always says why; what it accepts extracts into a
 * fresh folder holding only plain files, folders and links that point
 * into its own links.d/, nothing outside it, no more than the caps
 * allow. */
#define _XOPEN_SOURCE 700	/* nftw */
#include "config.h"
#include "fuzzfile.h"

#include <dirent.h>
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/capture/archive.h"
#include "core/capture/links.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long long files, bytes;
static int bad;
static char made[80];	/* where the links may point: DIR/links.d/ */

static int visit(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	char to[4200];
	ssize_t n;

	(void)f;
	if (flag == FTW_SL || flag == FTW_SLN) {
		n = readlink(p, to, sizeof(to) - 1);
		if (n < 0 || strncmp((to[n] = '\0', to), made, strlen(made)) || strstr(to, "/.."))
			bad = 1;
		return 0;
	}
	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))
		bad = 1;
	if (S_ISREG(st->st_mode)) {
		files++;
		bytes += st->st_size;
	}
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	remove(p);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char top[] = "/tmp/fuzz-capture-XXXXXX", dir[64], err[400];
	const char *path = fuzz_file("fuzz-capture", data, size);
	int rc;

	if (!mkdtemp(top))
		__builtin_trap();
	/* the archive extracts one level down: a member escaping by one ".."
	 * would land in top, beside dir, and be seen */
	snprintf(dir, sizeof(dir), "%s/x", top);
	if (mkdir(dir, 0700))
		__builtin_trap();
	err[0] = '\0';
	rc = capar_extract(path, dir, err, sizeof(err));
	if (rc && (!err[0] || !memchr(err, '\0', sizeof(err))))
		__builtin_trap();	/* a refusal always says why */
	snprintf(made, sizeof(made), "%s/links.d/", dir);
	err[0] = '\0';
	if (!rc && links_remake(dir, err, sizeof(err)) && !err[0])
		__builtin_trap();
	files = bytes = 0;
	bad = 0;
	nftw(top, visit, 16, FTW_PHYS);
	if (bad || files > CAPAR_MAX_MEMBERS || bytes > CAPAR_MAX_TOTAL)
		__builtin_trap();
	/* top holds dir and nothing else */
	{
		DIR *d = opendir(top);
		struct dirent *de;

		while (d && (de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strcmp(de->d_name, "x"))
				__builtin_trap();
		if (d)
			closedir(d);
	}
	nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
