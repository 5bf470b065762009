/* SPDX-License-Identifier: MIT */
/* Jsoncdl: json-c loaded by the commands that read JSON, not linked
 * into every one; the json-c functions jsonscan.c calls forward to it. */
#ifndef IBC_BASE_JSONCDL_H
#define IBC_BASE_JSONCDL_H

#include <stddef.h>

/* Loads json-c (JSONC_SONAME) on the first call; later calls only
 * report the outcome. 0, or -1 with err naming the library and the
 * package. No json-c function may be called before it said 0. */
int jsoncdl_load(char *err, size_t errlen);

#endif
