/* SPDX-License-Identifier: MIT */
/* For fuzz targets whose parser opens a path (as its option gives it):
 * the input written to one memfd per process, its /proc path returned. */
#ifndef IBC_FUZZ_FUZZFILE_H
#define IBC_FUZZ_FUZZFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create(name, 0);
		if (fd < 0)
			__builtin_trap();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		__builtin_trap();
	return path;
}

#endif
