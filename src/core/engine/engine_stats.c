// SPDX-License-Identifier: MIT
/* Test engine, pure part: perftest's latency and peak-bandwidth maths,
 * the memlock decision and names; no verbs, so it is unit-tested. */
#include "config.h"
#include "core/engine/engine.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The receive ring of send tests, per QP (see engine_run.c). */
#define ENG_RX_DEPTH 512

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* perftest's get_median() */
static double median(uint64_t n, const uint64_t *d)
{
	if ((n - 1) % 2)
		return (double)(d[n / 2] + d[n / 2 - 1]) / 2.0;
	return (double)d[n / 2];
}

void eng_lat_stats(uint64_t *gaps, uint64_t n, bool halve, struct eng_result *r)
{
	double f = halve ? 2000.0 : 1000.0;	/* ns → µs, halved for ping-pong */
	double sum = 0, var = 0;
	uint64_t N;

	r->lat_valid = false;
	r->lat_halved = halve;
	r->lat_samples = 0;
	if (n < 3)
		return;
	qsort(gaps, n, sizeof(*gaps), cmp_u64);
	N = n - 2;		/* LAT_MEASURE_TAIL: the two largest are dropped */
	r->lat_samples = N;
	r->lat_min = gaps[0] / f;
	r->lat_max = gaps[N] / f;	/* sic: perftest reports delta[N] */
	r->lat_median = median(N, gaps) / f;
	r->lat_p99 = gaps[(uint64_t)ceil(0.99 * (double)N)] / f;
	r->lat_p999 = gaps[(uint64_t)ceil(0.999 * (double)N)] / f;
	for (uint64_t i = 0; i < N; i++)
		sum += gaps[i] / f;
	r->lat_avg = sum / (double)N;
	for (uint64_t i = 0; i < N; i++) {
		double d = r->lat_avg - gaps[i] / f;

		var += d * d;
	}
	r->lat_stdev = sqrt(var / (double)N);
	for (int i = 0; i < ENG_HIST; i++)
		r->hist[i] = 0;
	for (uint64_t i = 0; i < N; i++) {
		double ns = gaps[i] * 1000.0 / f;	/* reported value, ns */
		int b = 0;

		while (b < ENG_HIST - 1 && ns >= 128.0 * (double)(2ull << b))
			b++;
		r->hist[b]++;
	}
	r->lat_valid = true;
}

int eng_lat_bucket(uint64_t ns)
{
	int o;

	if (ns < 128)
		return 0;
	o = 63 - __builtin_clzll(ns) - 7;	/* octave above 128 ns */
	if (o >= ENG_HIST)
		return ENG_LAT_BUCKETS - 1;
	/* the ENG_LAT_SUB (8 = 2^3) bits below the leading one */
	return o * ENG_LAT_SUB + (int)((ns >> (o + 7 - 3)) & (ENG_LAT_SUB - 1));
}

double eng_lat_bucket_lo_ns(int b)
{
	int o = b / ENG_LAT_SUB, s = b % ENG_LAT_SUB;

	return 128.0 * (double)(1ull << o) * (1.0 + (double)s / ENG_LAT_SUB);
}

void eng_lat_live_add(struct eng_lat_live *h, uint64_t ns)
{
	if (!h->n || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->n++;
	h->b[eng_lat_bucket(ns)]++;
}

double eng_lat_live_quantile_us(const struct eng_lat_live *h, double q)
{
	uint64_t rank, cum = 0;
	double v = 0;

	if (!h->n || q <= 0)
		return 0;
	rank = (uint64_t)ceil(q * (double)h->n);
	if (rank < 1)
		rank = 1;
	if (rank > h->n)
		rank = h->n;
	for (int b = 0; b < ENG_LAT_BUCKETS; b++) {
		double lo, hi;

		if (cum + h->b[b] < rank) {
			cum += h->b[b];
			continue;
		}
		lo = eng_lat_bucket_lo_ns(b);
		hi = b + 1 < ENG_LAT_BUCKETS ? eng_lat_bucket_lo_ns(b + 1) : (double)h->max_ns;
		/* the rank-th of the bucket's samples, spread evenly over it */
		v = lo + (hi - lo) * (double)(rank - cum) / (double)h->b[b];
		break;
	}
	if (v < (double)h->min_ns)
		v = (double)h->min_ns;
	if (v > (double)h->max_ns)
		v = (double)h->max_ns;
	return v / 1000.0;
}

double eng_bw_peak_gbps(const uint64_t *tp, const uint64_t *tc, uint64_t n, uint64_t size)
{
	/* perftest looks at every window; bound the work for long runs */
	uint64_t w = n <= 4096 ? n : 40000000 / n + 1;
	double best = 0;

	for (uint64_t i = 0; i < n; i++) {
		for (uint64_t j = i; j < n && j - i < w; j++) {
			double t;

			if (tc[j] <= tp[i])
				continue;
			t = (double)(tc[j] - tp[i]) / (double)(j - i + 1);
			if (best == 0 || t < best)
				best = t;
		}
	}
	return best > 0 ? (double)size * 8.0 / best : 0;	/* bits per ns = Gb/s */
}

uint64_t eng_mem_need(const struct proto_params *p)
{
	uint64_t buf = (2 * p->size + 4095) / 4096 * 4096;
	uint64_t q = (uint64_t)p->qps * (p->tx_depth + ENG_RX_DEPTH) * 256;

	return (uint64_t)p->qps * buf + q + (1u << 20);
}

int eng_memlock_check(uint64_t need, uint64_t limit, bool unlimited, bool cap_ipc_lock,
		      char *err, size_t errlen)
{
	if (unlimited || cap_ipc_lock || limit >= need)
		return 0;
	snprintf(err, errlen,
		 "cannot register the test buffers: they need %" PRIu64 " KiB of locked memory "
		 "but the limit (ulimit -l) is %" PRIu64 " KiB — run 'ulimit -l unlimited' "
		 "(memlock in /etc/security/limits.conf; containers also need IPC_LOCK)",
		 (need + 1023) / 1024, limit / 1024);
	return -1;
}

const char *eng_kind_name(int kind)
{
	return kind == KIND_BW ? "bw" : kind == KIND_LAT ? "lat" : kind == KIND_RATE ? "rate" : "?";
}

const char *eng_op_name(int op)
{
	return op == OP_WRITE ? "write" : op == OP_READ ? "read" : op == OP_SEND ? "send" : "?";
}
