// SPDX-License-Identifier: MIT
/* Numadl (see numadl.h). The numa_* functions we call are defined here
 * with <numa.h>'s prototypes, as calls through pointers that dlsym()
 * filled, so nothing links libnuma. numa_available() comes first, as
 * libnuma asks of its callers, and is the one that loads; a function
 * not defined here fails the link: add it to NUMA_FUNCS and below. */
#include "config.h"
#include "core/port/numadl.h"

#include <numa.h>

#include "core/base/dynlib.h"

/* Called through nd, named without the numa_ prefix. */
#define NUMA_FUNCS(X) X(available) X(max_node) X(node_size64) X(run_on_node) \
	X(alloc_onnode) X(free)

static struct {
#define ND_FIELD(f) __typeof__(numa_##f) *f;
	NUMA_FUNCS(ND_FIELD)
#undef ND_FIELD
} nd;
#define ND_SYM(f) { "numa_" #f, (void **)&nd.f },
static const struct dynlib_sym nd_syms[] = { NUMA_FUNCS(ND_SYM) };
#undef ND_SYM
static struct dynlib nd_lib = DYNLIB(NUMA_SONAME, "libnuma", "libnuma1", nd_syms);

int numadl_load(char *err, size_t errlen)
{
	return dynlib_need(&nd_lib, err, errlen);
}

int numa_available(void)
{
	return dynlib_need(&nd_lib, NULL, 0) ? -1 : nd.available();
}

int numa_max_node(void)
{
	return nd.max_node();
}

long long numa_node_size64(int node, long long *freep)
{
	return nd.node_size64(node, freep);
}

int numa_run_on_node(int node)
{
	return nd.run_on_node(node);
}

void *numa_alloc_onnode(size_t size, int node)
{
	return nd.alloc_onnode(size, node);
}

void numa_free(void *mem, size_t size)
{
	nd.free(mem, size);
}
