// SPDX-License-Identifier: MIT
/* A small streaming JSON writer: objects, arrays, escaped strings and
 * numbers, with commas and indentation kept track of for the caller. */
#include "config.h"
#include "core/base/json.h"

#include <math.h>
#include <string.h>

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->first[0] = true;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void lead(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (j->depth && !j->compact) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	if (key) {
		put_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_(struct json *j, const char *key, char c)
{
	lead(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth)
		j->depth--;
	if (!empty && !j->compact) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void json_obj_begin(struct json *j, const char *key) { open_(j, key, '{'); }
void json_obj_end(struct json *j) { close_(j, '}'); }
void json_arr_begin(struct json *j, const char *key) { open_(j, key, '['); }
void json_arr_end(struct json *j) { close_(j, ']'); }

void json_str(struct json *j, const char *key, const char *val)
{
	lead(j, key);
	if (val)
		put_string(j->f, val);
	else
		fputs("null", j->f);
}

void json_int(struct json *j, const char *key, long long val)
{
	lead(j, key);
	fprintf(j->f, "%lld", val);
}

void json_num(struct json *j, const char *key, double val)
{
	lead(j, key);
	if (isfinite(val))
		fprintf(j->f, "%.10g", val);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *key, bool val)
{
	lead(j, key);
	fputs(val ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	lead(j, key);
	fputs("null", j->f);
}

void json_str_or_err(struct json *j, const char *key, bool valid,
		     const char *val, const char *why)
{
	char ekey[64];

	json_str(j, key, valid ? val : NULL);
	if (!valid) {
		snprintf(ekey, sizeof(ekey), "%s_error", key);
		json_str(j, ekey, why);
	}
}

void json_int_or_null(struct json *j, const char *key, bool have, long long val)
{
	if (have)
		json_int(j, key, val);
	else
		json_null(j, key);
}

void json_num_or_null(struct json *j, const char *key, bool have, double val)
{
	if (have)
		json_num(j, key, val);
	else
		json_null(j, key);
}
