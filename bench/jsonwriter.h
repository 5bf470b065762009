/* SPDX-License-Identifier: MIT */
/* The flat document both writers of bench/jsonwriter.c write. */
#ifndef IBC_BENCH_JSONWRITER_H
#define IBC_BENCH_JSONWRITER_H

#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 16	/* json.h's JSON_MAX_DEPTH */

enum kind { K_OBJ, K_ARR, K_END_OBJ, K_END_ARR, K_STR, K_NULL, K_BOOL, K_INT, K_U64, K_NUM };

struct item {
	enum kind k;
	const char *key;	/* NULL inside arrays */
	const char *s;
	long long i;
	uint64_t u;
	double d;
};

extern struct item *items;
extern size_t nitems;

void write_ours(FILE *f);

#endif
