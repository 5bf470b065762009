// SPDX-License-Identifier: MIT
/* libFuzzer target: the saved-fabric reader (ibnetdiscover's topology text
 * and the JSON of `fabric --json`, through the same file path a user gives
 * --diff). What it accepts must diff empty against itself, with every
 * port number in 1..254 and every link end inside the model. */
#include "config.h"
#include "fuzzfile.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/fabric/diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct fabric *f;
	struct fdiff d;
	char err[640];

	path = fuzz_file("fuzz-topo", data, size);
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
