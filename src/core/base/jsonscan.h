/* SPDX-License-Identifier: MIT */
/* JSON reading: every scalar of a document with its dotted path. */
#ifndef IBC_BASE_JSONSCAN_H
#define IBC_BASE_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>

/* Calls fn for every scalar of a JSON text with its dotted path
 * ("phases[2].bw_avg_gbps"; is_str for strings, the literal text for
 * numbers, true, false and null); 0, or -1 with why ("… at byte N") on
 * malformed input. */
int json_scan(const char *text, size_t len,
	      void (*fn)(void *arg, const char *path, const char *val, bool is_str),
	      void *arg, char *why, size_t whylen);

#endif
