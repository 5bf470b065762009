// SPDX-License-Identifier: MIT
/* libFuzzer target: the saved-fabric reader (ibnetdiscover's topology text
 * and the JSON of `fabric --json`, through the same file path a user gives
 * --diff). What it accepts must diff empty against itself, with every
 * port number in 1..254 and every link end inside the model. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/fabric/diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fd = -1;
static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fabric *f;
	struct fdiff d;
	char err[640];

	if (fd < 0) {
		fd = memfd_create("fuzz-topo", 0);
		if (fd < 0)
			__builtin_trap();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		__builtin_trap();
	err[0] = '\0';
	f = fabric_read_topology(path, err, sizeof(err));
	if (!f) {
		if (!err[0] || !memchr(err, '\0', sizeof(err)))
			__builtin_trap();	/* a refusal always says why */
		return 0;
	}
	for (int i = 0; i < f->nports; i++) {
		const struct fab_port *p = &f->ports[i];

		if (p->portnum < 1 || p->portnum > 254 || p->node < 0 || p->node >= f->nnodes ||
		    p->remote < -1 || p->remote >= f->nports)
			__builtin_trap();
	}
	for (int i = 0; i < f->nlinks; i++)
		if (f->links[i].a < 0 || f->links[i].a >= f->nports ||
		    f->links[i].b < 0 || f->links[i].b >= f->nports)
			__builtin_trap();
	if (fabric_diff(f, f, &d) || d.n)
		__builtin_trap();
	fdiff_free(&d);
	fabric_free(f);
	return 0;
}
