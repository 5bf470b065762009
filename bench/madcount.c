// SPDX-License-Identifier: MIT
/* madcount.so — an LD_PRELOAD shim for the benchmarks: counts the MADs
 * a process sends and receives through libibumad (umad_send /
 * umad_recv, which libibmad and libibnetdisc both call) and appends
 * "sent received" to the file named by $MADCOUNT_OUT at exit. Used the
 * same way on ibconsole and on the reference tools, so both counts mean
 * the same thing and the simulator's floor can be computed from them.
 * With $MADCOUNT_CLASSES set it also appends, for each second since the
 * process's first send and each management class sent in it, a line
 * "SECOND CLASS COUNT" (class in hex: 1 and 81 SMPs, 4 PMA), so a bench
 * can tell a discovery's SMPs from a sweep's PMA queries over time.
 *   cc -shared -fPIC -O2 -o madcount.so bench/madcount.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <infiniband/umad.h>

static atomic_long sent, received;

/* per second (up to an hour) and class: SMP LID-routed, directed, PMA, other */
#define MC_SECONDS 3600
static const uint8_t mc_class[] = { 0x01, 0x81, 0x04, 0 };
static atomic_long by_class[MC_SECONDS][4];
static double first_send;

static double mc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void count_class(const void *umad)
{
	uint8_t cls = ((const struct ib_user_mad *)umad)->data[1];
	double t = mc_now();
	long sec;
	int k = 0;

	if (!first_send)
		first_send = t;
	sec = (long)(t - first_send);
	while (mc_class[k] && mc_class[k] != cls)
		k++;
	if (sec >= 0 && sec < MC_SECONDS)
		atomic_fetch_add(&by_class[sec][k], 1);
}

int umad_send(int fd, int agentid, void *umad, int length, int timeout_ms,
	      int retries)
{
	static int (*next)(int, int, void *, int, int, int);
	int rc;

	if (!next)
		next = (int (*)(int, int, void *, int, int, int))dlsym(RTLD_NEXT, "umad_send");
	rc = next(fd, agentid, umad, length, timeout_ms, retries);
	if (rc >= 0) {
		atomic_fetch_add(&sent, 1);
		count_class(umad);
	}
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
	const char *out = getenv("MADCOUNT_OUT"), *cls = getenv("MADCOUNT_CLASSES");
	FILE *f;

	if (cls && (f = fopen(cls, "a"))) {
		for (int s = 0; s < MC_SECONDS; s++)
			for (int k = 0; k < 4; k++)
				if (atomic_load(&by_class[s][k]))
					fprintf(f, "%d %x %ld\n", s, mc_class[k] ? mc_class[k] : 0xff,
						atomic_load(&by_class[s][k]));
		fclose(f);
	}
	if (!out || !(f = fopen(out, "a")))
		return;
	fprintf(f, "%ld %ld\n", atomic_load(&sent), atomic_load(&received));
	fclose(f);
}
