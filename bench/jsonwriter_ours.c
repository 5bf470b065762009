// SPDX-License-Identifier: MIT
/* bench/jsonwriter.c's "ours": the flat document through ibconsole's
 * streaming writer (src/core/base/json.c). */
#include "config.h"
#include "jsonwriter.h"

#include "core/base/json.h"

void write_ours(FILE *f)
{
	struct json j;

	json_init(&j, f);
	for (size_t n = 0; n < nitems; n++) {
		const struct item *it = &items[n];

		switch (it->k) {
		case K_OBJ: json_obj_begin(&j, it->key); break;
		case K_ARR: json_arr_begin(&j, it->key); break;
		case K_END_OBJ: json_obj_end(&j); break;
		case K_END_ARR: json_arr_end(&j); break;
		case K_STR: json_str(&j, it->key, it->s); break;
		case K_NULL: json_null(&j, it->key); break;
		case K_BOOL: json_bool(&j, it->key, it->i); break;
		case K_INT: json_int(&j, it->key, it->i); break;
		case K_U64: json_u64(&j, it->key, it->u); break;
		case K_NUM: json_num(&j, it->key, it->d); break;
		}
	}
}
