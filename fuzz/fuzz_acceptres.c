// SPDX-License-Identifier: MIT
/* libFuzzer target: accept.json of `accept --hosts` read back for the
 * console's heat map (--accept-results), through a file as the option
 * gives it: either one line of error, or hosts and pairs that hold
 * together (every pair's ends name a host, strings terminated). */
#define _GNU_SOURCE 1
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/agent/acceptres.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fd = -1;
static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct acceptres *r;
	char err[900];

	if (fd < 0) {
		fd = memfd_create("fuzz-acceptres", 0);
		if (fd < 0)
			__builtin_trap();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		__builtin_trap();
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
		if (!memchr(r->host[i], '\0', sizeof(r->host[i])) || !memchr(r->host_why[i], '\0', sizeof(r->host_why[i])))
			__builtin_trap();
	for (int i = 0; i < r->npairs; i++) {
		const struct acceptres_pair *p = &r->pairs[i];

		if (p->a < 0 || p->a >= r->nhosts || p->b < 0 || p->b >= r->nhosts ||
		    !memchr(p->why, '\0', sizeof(p->why)))
			__builtin_trap();
		(void)acceptres_pair_of(r, p->a, p->b);
	}
	(void)acceptres_best_gbps(r);
	acceptres_free(r);
	return 0;
}
