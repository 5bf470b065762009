// SPDX-License-Identifier: MIT
/* jsonwriter MODE DOC [REPS] — writes one JSON document REPS times with
 * ibconsole's streaming writer (src/core/base/json.c, MODE "ours") or with
 * json-c's (MODE "jsonc": build the json_object tree, serialise it with
 * json_object_to_json_string_ext, write it, free it), as a program would
 * that wrote the same document through each. DOC (say, `ibconsole errors
 * --json` output) is read once with json-c into a flat list of values, so
 * both writers get the same input and neither pays for the reading.
 * Prints "wall_s cpu_s" of the REPS writes to /dev/null.
 *   jsonwriter write-ours DOC / write-jsonc DOC: one write to stdout, to
 *   compare with DOC (ours must give it back byte for byte).
 * Two files because json-c's headers and ours both name json_bool: this
 * one holds json-c's side, jsonwriter_ours.c ours. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "jsonwriter.h"

struct item *items;
size_t nitems;
static size_t capitems;

static struct item *add(enum kind k, const char *key)
{
	if (nitems == capitems) {
		capitems = capitems ? 2 * capitems : 4096;
		items = realloc(items, capitems * sizeof(*items));
		if (!items) {
			fprintf(stderr, "jsonwriter: out of memory\n");
			exit(5);
		}
	}
	items[nitems] = (struct item){ .k = k, .key = key };
	return &items[nitems++];
}

/* Flattens v (under key) into items[], in document order. */
static void flatten(const char *key, struct json_object *v)
{
	struct item *it;

	switch (json_object_get_type(v)) {
	case json_type_object:
		add(K_OBJ, key);
		json_object_object_foreach(v, k, c)
			flatten(k, c);
		add(K_END_OBJ, NULL);
		break;
	case json_type_array:
		add(K_ARR, key);
		for (size_t i = 0; i < json_object_array_length(v); i++)
			flatten(NULL, json_object_array_get_idx(v, i));
		add(K_END_ARR, NULL);
		break;
	case json_type_string:
		add(K_STR, key)->s = json_object_get_string(v);
		break;
	case json_type_boolean:
		add(K_BOOL, key)->i = json_object_get_boolean(v);
		break;
	case json_type_int:
		/* above INT64_MAX json-c keeps the value unsigned */
		if (json_object_get_int64(v) == INT64_MAX) {
			it = add(K_U64, key);
			it->u = json_object_get_uint64(v);
		} else {
			add(K_INT, key)->i = json_object_get_int64(v);
		}
		break;
	case json_type_double:
		add(K_NUM, key)->d = json_object_get_double(v);
		break;
	default:
		add(K_NULL, key);
		break;
	}
}

static struct json_object *value_jsonc(const struct item *it)
{
	switch (it->k) {
	case K_STR: return json_object_new_string(it->s);
	case K_BOOL: return json_object_new_boolean(it->i);
	case K_INT: return json_object_new_int64(it->i);
	case K_U64: return json_object_new_uint64(it->u);
	case K_NUM: return json_object_new_double(it->d);
	default: return NULL;	/* null */
	}
}

/* The same document as a json-c tree, serialised and freed. */
static void write_jsonc(FILE *f)
{
	struct json_object *stack[JW_MAX_DEPTH + 1], *root = NULL;
	int depth = 0;

	for (size_t n = 0; n < nitems; n++) {
		const struct item *it = &items[n];
		struct json_object *v;

		if (it->k == K_END_OBJ || it->k == K_END_ARR) {
			depth--;
			continue;
		}
		v = it->k == K_OBJ ? json_object_new_object() :
		    it->k == K_ARR ? json_object_new_array() : value_jsonc(it);
		if (!depth)
			root = v;
		else if (it->key)
			json_object_object_add(stack[depth - 1], it->key, v);
		else
			json_object_array_add(stack[depth - 1], v);
		if (it->k == K_OBJ || it->k == K_ARR)
			stack[depth++] = v;
	}
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	json_object_put(root);
}

static double now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct json_object *doc;
	void (*w)(FILE *);
	const char *mode = argc > 1 ? argv[1] : "";
	long reps = argc > 3 ? atol(argv[3]) : 20;
	double t0, c0;
	FILE *f;

	if (argc < 3 || reps < 1 || reps > 100000) {
		fprintf(stderr, "usage: jsonwriter ours|jsonc|write-ours|write-jsonc DOC [REPS 1-100000]\n");
		return 2;
	}
	doc = json_object_from_file(argv[2]);
	if (!doc) {
		fprintf(stderr, "jsonwriter: %s: %s\n", argv[2], json_util_get_last_err());
		return 1;
	}
	flatten(NULL, doc);
	/* json.c's number format: %.10g */
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
	w = strstr(mode, "ours") ? write_ours : write_jsonc;
	if (!strncmp(mode, "write-", 6)) {
		w(stdout);
		return fflush(stdout) ? 1 : 0;
	}
	f = fopen("/dev/null", "w");
	if (!f)
		return 1;
	t0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	for (long r = 0; r < reps; r++)
		w(f);
	fflush(f);
	printf("%.6f %.6f\n", now(CLOCK_MONOTONIC) - t0, now(CLOCK_PROCESS_CPUTIME_ID) - c0);
	fclose(f);
	json_object_put(doc);
	return 0;
}
