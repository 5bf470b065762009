// SPDX-License-Identifier: MIT
/* Jsoncdl (see jsoncdl.h). The json-c functions jsonscan.c calls are
 * defined here with json-c's own prototypes, as calls through pointers
 * that dlsym() filled, so nothing links json-c. json_scan() loads it
 * before its first call; a function not defined here fails the link:
 * add it to JSONC_FUNCS and below. */
#include "config.h"
#include "core/base/jsoncdl.h"

#include <json-c/json.h>

#include "core/base/dynlib.h"

/* Called through jc, named without the json_ prefix:
 * jc.tokener_free() is json-c's json_tokener_free(). */
#define JSONC_FUNCS(X) X(object_array_get_idx) X(object_array_length) \
	X(object_get_boolean) X(object_get_int64) X(object_get_object) \
	X(object_get_string) X(object_get_type) X(object_get_uint64) \
	X(object_is_type) X(object_put) X(object_to_json_string_ext) \
	X(tokener_free) X(tokener_get_error) X(tokener_get_parse_end) \
	X(tokener_new_ex) X(tokener_parse_ex) X(tokener_set_flags)

static struct {
#define JC_FIELD(f) __typeof__(json_##f) *f;
	JSONC_FUNCS(JC_FIELD)
#undef JC_FIELD
} jc;
#define JC_SYM(f) { "json_" #f, (void **)&jc.f },
static const struct dynlib_sym jc_syms[] = { JSONC_FUNCS(JC_SYM) };
#undef JC_SYM
static struct dynlib jc_lib = DYNLIB(JSONC_SONAME, "json-c", "libjson-c5", jc_syms);

int jsoncdl_load(char *err, size_t errlen)
{
	return dynlib_need(&jc_lib, err, errlen);
}

struct json_object *json_object_array_get_idx(const struct json_object *obj, size_t idx)
{
	return jc.object_array_get_idx(obj, idx);
}

size_t json_object_array_length(const struct json_object *obj)
{
	return jc.object_array_length(obj);
}

json_bool json_object_get_boolean(const struct json_object *obj)
{
	return jc.object_get_boolean(obj);
}

int64_t json_object_get_int64(const struct json_object *obj)
{
	return jc.object_get_int64(obj);
}

struct lh_table *json_object_get_object(const struct json_object *obj)
{
	return jc.object_get_object(obj);
}

const char *json_object_get_string(struct json_object *obj)
{
	return jc.object_get_string(obj);
}

enum json_type json_object_get_type(const struct json_object *obj)
{
	return jc.object_get_type(obj);
}

uint64_t json_object_get_uint64(const struct json_object *obj)
{
	return jc.object_get_uint64(obj);
}

int json_object_is_type(const struct json_object *obj, enum json_type type)
{
	return jc.object_is_type(obj, type);
}

int json_object_put(struct json_object *obj)
{
	return jc.object_put(obj);
}

const char *json_object_to_json_string_ext(struct json_object *obj, int flags)
{
	return jc.object_to_json_string_ext(obj, flags);
}

void json_tokener_free(struct json_tokener *tok)
{
	jc.tokener_free(tok);
}

enum json_tokener_error json_tokener_get_error(struct json_tokener *tok)
{
	return jc.tokener_get_error(tok);
}

size_t json_tokener_get_parse_end(struct json_tokener *tok)
{
	return jc.tokener_get_parse_end(tok);
}

struct json_tokener *json_tokener_new_ex(int depth)
{
	return jc.tokener_new_ex(depth);
}

struct json_object *json_tokener_parse_ex(struct json_tokener *tok, const char *str, int len)
{
	return jc.tokener_parse_ex(tok, str, len);
}

void json_tokener_set_flags(struct json_tokener *tok, int flags)
{
	jc.tokener_set_flags(tok, flags);
}
