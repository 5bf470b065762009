// SPDX-License-Identifier: MIT
/* Saved module pages, one file a half page: the fixtures' source, and a
 * way to look at a module copied from another host. */
#include "config.h"
#include "core/optics/source.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Returns 1 read, 0 absent, -1 malformed (why in err). */
static int load_half(const char *path, uint8_t out[OPTICS_PAGE_LEN], char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int n = 0, lineno = 0;

	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *c = strchr(line, '#');

		lineno++;
		if (c)
			*c = '\0';
		for (char *w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
			size_t len = strlen(w);

			if (w[len - 1] == ':')
				continue;
			if (len != 2 || !isxdigit((unsigned char)w[0]) ||
			    !isxdigit((unsigned char)w[1]) || n >= OPTICS_PAGE_LEN) {
				snprintf(err, errlen, "%s:%d: %s", path, lineno,
					 n >= OPTICS_PAGE_LEN ? "more than 128 bytes"
							      : "not a hex byte pair");
				fclose(f);
				return -1;
			}
			sscanf(w, "%2hhx", &out[n++]);
		}
	}
	fclose(f);
	if (n != OPTICS_PAGE_LEN) {
		snprintf(err, errlen, "%s: %d bytes, a half page is 128", path, n);
		return -1;
	}
	return 1;
}

int optics_load_dump(const char *dir, struct optics_pages *pg, char *err, size_t errlen)
{
	static const char *const addr[2] = { "50", "51" };
	char path[4096];

	memset(pg, 0, sizeof(*pg));
	for (int a = 0; a < 2; a++) {
		int rc;

		snprintf(path, sizeof(path), "%s/%s-lower.hex", dir, addr[a]);
		rc = load_half(path, pg->lower[a], err, errlen);
		if (rc < 0)
			return -1;
		pg->have_lower[a] = rc == 1;
		for (int p = 0; p < OPTICS_NPAGES; p++) {
			snprintf(path, sizeof(path), "%s/%s-page-%02x.hex", dir, addr[a], p);
			rc = load_half(path, pg->upper[a][p], err, errlen);
			if (rc < 0)
				return -1;
			if (rc == 1)
				pg->have_upper[a] |= 1u << p;
		}
	}
	if (!pg->have_lower[0]) {
		snprintf(err, errlen, "%s: no saved module pages (50-lower.hex)", dir);
		return -1;
	}
	return 0;
}
