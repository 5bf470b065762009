// SPDX-License-Identifier: MIT
/* madcount.so — an LD_PRELOAD shim for the benchmarks: counts the MADs
 * a process sends and receives through libibumad (umad_send /
 * umad_recv, which libibmad and libibnetdisc both call) and appends
 * "sent received" to the file named by $MADCOUNT_OUT at exit. Used the
 * same way on ibconsole and on the reference tools, so both counts mean
 * the same thing and the simulator's floor can be computed from them.
 *   cc -shared -fPIC -O2 -o madcount.so bench/madcount.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_long sent, received;

int umad_send(int fd, int agentid, void *umad, int length, int timeout_ms,
	      int retries)
{
	static int (*next)(int, int, void *, int, int, int);
	int rc;

	if (!next)
		next = (int (*)(int, int, void *, int, int, int))dlsym(RTLD_NEXT, "umad_send");
	rc = next(fd, agentid, umad, length, timeout_ms, retries);
	if (rc >= 0)
		atomic_fetch_add(&sent, 1);
	return rc;
}

int umad_recv(int fd, void *umad, int *length, int timeout_ms)
{
	static int (*next)(int, void *, int *, int);
	int rc;

	if (!next)
		next = (int (*)(int, void *, int *, int))dlsym(RTLD_NEXT, "umad_recv");
	rc = next(fd, umad, length, timeout_ms);
	if (rc >= 0)
		atomic_fetch_add(&received, 1);
	return rc;
}

__attribute__((destructor)) static void madcount_report(void)
{
	const char *out = getenv("MADCOUNT_OUT");
	FILE *f;

	if (!out || !(f = fopen(out, "a")))
		return;
	fprintf(f, "%ld %ld\n", atomic_load(&sent), atomic_load(&received));
	fclose(f);
}
