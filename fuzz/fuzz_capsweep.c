// SPDX-License-Identifier: MIT
/* libFuzzer target: a capture's sweep files (errors-1.sweep and
 * errors-2.sweep, read by --from FILE errors). A refusal always says why
 * and leaves nothing; what it accepts points only inside itself (each
 * port's description in the kept text, its values in range), and
 * written again and read back it is the same sweep. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/capture/sweepfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct sweep *sw, size_t size)
{
	int nread = 0;

	if (sw->n < 0 || (size_t)sw->n > size / 30 || sw->nvals > sw->n)
		__builtin_trap();
	for (int i = 0; i < sw->n; i++) {
		const struct sweep_port *p = &sw->p[i];

		if (!p->node_desc || p->node_desc < sw->descs || p->node_desc >= sw->descs + size + 1)
			__builtin_trap();
		if ((p->result == SWEEP_READ) != (p->vi >= 0) || p->vi >= sw->nvals)
			__builtin_trap();
		nread += p->result == SWEEP_READ;
	}
	if (nread != sw->nvals)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sweep a, b;
	char err[200] = "", t1[64], t2[64], *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (sweepfile_read((const char *)data, size, &a, t1, sizeof(t1), err, sizeof(err))) {
		if (!err[0] || a.p || a.vals || a.descs)
			__builtin_trap();
		return 0;
	}
	check(&a, size);
	f = open_memstream(&buf, &len);
	if (!f)
		__builtin_trap();
	sweepfile_write(f, &a, t1);
	fclose(f);
	if (sweepfile_read(buf, len, &b, t2, sizeof(t2), err, sizeof(err)) || strcmp(t1, t2) ||
	    a.n != b.n || a.nvals != b.nvals ||
	    memcmp(a.vals, b.vals, (size_t)a.nvals * CTR_IDX_COUNT * sizeof(*a.vals)))
		__builtin_trap();
	for (int i = 0; i < a.n; i++)
		if (a.p[i].guid != b.p[i].guid || a.p[i].lid != b.p[i].lid || a.p[i].port != b.p[i].port ||
		    a.p[i].result != b.p[i].result || a.p[i].cap != b.p[i].cap)
			__builtin_trap();
	free(a.p), free(a.descs), free(a.vals);
	free(b.p), free(b.descs), free(b.vals);
	free(buf);
	return 0;
}
