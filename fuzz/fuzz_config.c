// SPDX-License-Identifier: MIT
/* libFuzzer target: the config / thresholds parser, through a file as
 * --config gives it. What it accepts has every watch level at most its
 * act level and a finite window in range; what it refuses says why. */
#include "config.h"
#include "fuzzfile.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diag/thresholds.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	static struct thresholds th;
	char err[512];
	uint64_t w, a;
	int rc;

	path = fuzz_file("fuzz-config", data, size);
	thresholds_defaults(&th);
	err[0] = '\0';
	rc = thresholds_load(&th, path, err, sizeof(err));
	if (rc < 0) {
		if (!err[0])
			__builtin_trap();
		return 0;
	}
	if (rc != 0 || th.watch > th.act || !isfinite(th.window_s) ||
	    th.window_s < 5 || th.window_s > 600 || th.n < 0 || th.n > THRESH_MAX)
		__builtin_trap();
	for (int i = 0; i < th.n; i++) {
		thresholds_get(&th, th.t[i].counter, &w, &a);
		if (w > a || !memchr(th.t[i].counter, '\0', sizeof(th.t[i].counter)))
			__builtin_trap();
	}
	return 0;
}
