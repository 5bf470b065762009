/* SPDX-License-Identifier: MIT */
/* A small streaming JSON writer: objects, arrays, escaped strings and
 * numbers, with commas and indentation kept track of for the caller. */
#ifndef IBC_BASE_JSON_H
#define IBC_BASE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	int depth;
	bool first[JSON_MAX_DEPTH];
	bool compact;	/* one line per top-level value (JSON Lines) */
	int utf8_replaced;	/* bytes written as U+FFFD: not valid UTF-8 */
};

void json_init(struct json *j, FILE *f);
/* Called after the top-level object of every document opens (--from: the
 * capture marker); NULL: nothing. */
extern void (*json_doc_hook)(struct json *j);
void json_obj_begin(struct json *j, const char *key);	/* key NULL in arrays */
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j, const char *key);
void json_arr_end(struct json *j);
/* NULL → null. Bytes that are not valid UTF-8 are written as U+FFFD,
 * counted in utf8_replaced and, for a keyed value, said in a sibling
 * "<key>_utf8_replaced": N. */
void json_str(struct json *j, const char *key, const char *val);
/* Every 64-bit count exactly (18446744073709551615, not 1.8e+19). */
void json_u64(struct json *j, const char *key, uint64_t val);
/* Number of bytes of s that json_str would replace. */
int json_utf8_invalid(const char *s);
void json_int(struct json *j, const char *key, long long val);
void json_num(struct json *j, const char *key, double val);
/* The text json_num writes for val into buf[JSON_NUM_MAX] (NUL ended);
 * returns its length. For writers that build a value's text themselves. */
#define JSON_NUM_MAX 32
size_t json_num_text(char *buf, double val);
/* JSON text the caller built (len bytes), written as it is after the
 * comma and key the writer keeps track of (key NULL in arrays): a value,
 * or a value and further members of the same object ("v", "k2": v2 …),
 * their separators following the writer's (compact or indented). */
void json_raw(struct json *j, const char *key, const char *text, size_t len);
/* A run of members of one object written once and again as it is while
 * what it says is the same (the caller's key decides): the verdict and
 * error details most ports share, interval after interval. */
struct json_piece {
	char *text;
	size_t len;
	bool ok;
	/* the writer's state it was made in: its comma, its indentation */
	bool compact, first;
	int depth, utf8;
};
/* Writes p again when j is in the state p was made in: true; false:
 * nothing written (make it). */
bool json_piece_put(struct json *j, const struct json_piece *p);
/* What fn(writer, arg) writes, written to j and kept in p. */
void json_piece_make(struct json *j, struct json_piece *p,
		     void (*fn)(struct json *, const void *), const void *arg);
void json_piece_free(struct json_piece *p);
void json_bool(struct json *j, const char *key, bool val);
void json_null(struct json *j, const char *key);
/* A value that may be unknown: val when have, else null. */
void json_int_or_null(struct json *j, const char *key, bool have, long long val);
void json_num_or_null(struct json *j, const char *key, bool have, double val);
/* A value that may be missing: null plus a sibling "<key>_error". */
void json_str_or_err(struct json *j, const char *key, bool valid,
		     const char *val, const char *why);

#endif
