// SPDX-License-Identifier: MIT
/* A small streaming JSON writer: objects, arrays, escaped strings and
 * numbers, with commas and indentation kept track of for the caller. */
#include "config.h"
#include "core/base/json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->first[0] = true;
}

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF), 0 when the byte at s does not
 * start one. */
static int utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	int n;
	unsigned lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

int json_utf8_invalid(const char *s)
{
	int bad = 0;

	while (*s) {
		int n = utf8_len((const unsigned char *)s);

		bad += !n;
		s += n ? n : 1;
	}
	return bad;
}

/* Invalid bytes (a latin-1 node-name map, a NodeDescription) become
 * U+FFFD each, so every parser takes the output; returns how many. */
static int put_string(FILE *f, const char *s)
{
	int bad = 0;

	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		int n = c < 0x80 ? 1 : utf8_len((const unsigned char *)s);

		if (n > 1) {
			fwrite(s, 1, (size_t)n, f);
			s += n - 1;
			continue;
		}
		if (!n) {
			fputs("\xef\xbf\xbd", f);
			bad++;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else if (c == 0x7f)
			fputs("\\u007f", f);
		else
			fputc(c, f);
	}
	fputc('"', f);
	return bad;
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
		j->utf8_replaced += put_string(j->f, key);
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
	int bad = 0;

	lead(j, key);
	if (val)
		bad = put_string(j->f, val);
	else
		fputs("null", j->f);
	j->utf8_replaced += bad;
	/* say so beside the value: "name_utf8_replaced": 2 */
	if (bad && key && strlen(key) < 48) {
		char k[64];

		snprintf(k, sizeof(k), "%s_utf8_replaced", key);
		lead(j, k);
		fprintf(j->f, "%d", bad);
	}
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	lead(j, key);
	fprintf(j->f, "%" PRIu64, val);
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
