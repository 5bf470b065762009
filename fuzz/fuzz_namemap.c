// SPDX-License-Identifier: MIT
/* libFuzzer target: our node-name-map reader (ibconsole reads the file
 * itself; libibnetdisc's loader is not used), through a file as
 * --node-name-map gives it, and every name it returns through the JSON
 * writer: the output must be valid UTF-8 whatever the bytes were. */
#define _GNU_SOURCE 1
#include "config.h"
#include "fuzzfile.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/base/json.h"
#include "core/fabric/fabric.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct fab_name *map = NULL;
	char err[640], *out = NULL;
	size_t outlen = 0;
	struct json j;
	FILE *mem;
	int n;

	path = fuzz_file("fuzz-namemap", data, size);
	err[0] = '\0';
	n = fabric_read_name_map(path, &map, err, sizeof(err));
	if (n < 0) {
		if (!err[0] || map)
			__builtin_trap();
		return 0;
	}
	mem = open_memstream(&out, &outlen);
	if (!mem)
		__builtin_trap();
	json_init(&j, mem);
	json_arr_begin(&j, NULL);
	for (int i = 0; i < n; i++) {
		if (!memchr(map[i].name, '\0', sizeof(map[i].name)) || map[i].line < 1)
			__builtin_trap();
		json_obj_begin(&j, NULL);
		json_str(&j, "name", map[i].name);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	fclose(mem);
	if (json_utf8_invalid(out) || strlen(out) != outlen)
		__builtin_trap();
	free(out);
	free(map);
	return 0;
}
