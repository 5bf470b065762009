// SPDX-License-Identifier: MIT
/* libFuzzer target: accept.json of `accept --hosts` read back for the
 * console's heat map (--accept-results), through a file as the option
 * gives it: either one line of error, or hosts and pairs that hold
 * together (every pair's ends name a host, strings terminated, no
 * control character left to move the console's cursor). */
#define _GNU_SOURCE 1
#include "config.h"
#include "fuzzfile.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/accept/acceptres.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct acceptres *r;
	char err[900];

	path = fuzz_file("fuzz-acceptres", data, size);
	err[0] = '\0';
	r = acceptres_load(path, err, sizeof(err));
	if (!r) {
		if (!err[0] || strchr(err, '\n'))
			__builtin_trap();
		return 0;
	}
	if (r->nhosts < 2 || r->nhosts > HOSTLIST_MAX || r->npairs > r->nhosts * (r->nhosts - 1) / 2)
		__builtin_trap();
	for (int i = 0; i < r->nhosts; i++)
		if (!memchr(r->host[i], '\0', sizeof(r->host[i])) || !memchr(r->host_why[i], '\0', sizeof(r->host_why[i])) ||
		    has_control(r->host[i]) || has_control(r->host_why[i]))
			__builtin_trap();
	for (int i = 0; i < r->npairs; i++) {
		const struct acceptres_pair *p = &r->pairs[i];

		if (p->a < 0 || p->a >= r->nhosts || p->b < 0 || p->b >= r->nhosts ||
		    !memchr(p->why, '\0', sizeof(p->why)) || has_control(p->why))
			__builtin_trap();
		(void)acceptres_pair_of(r, p->a, p->b);
	}
	(void)acceptres_best_gbps(r);
	acceptres_free(r);
	return 0;
}
