// SPDX-License-Identifier: MIT
/* JSON reading through json-c: the document is parsed strictly (RFC 8259;
 * no comments, no trailing commas, nothing after the value) and walked in
 * file order, calling back for every scalar with its dotted path. Used by
 * the test records (--compare), the topology file's JSON form and the
 * acceptance results reader. Malformed input fails with the reason and
 * the byte where parsing stopped. */
#include "config.h"
#include "core/base/jsonscan.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "core/base/jsoncdl.h"

/* The walker's limits, as the callers' buffers expect them. */
#define SCAN_DEPTH 32		/* nested values, the document itself included */
#define SCAN_KEY 160		/* a member name, longer ones are cut */
#define SCAN_VAL 256		/* a scalar's text, longer ones are cut */

struct scan {
	char path[512];
	void (*fn)(void *, const char *, const char *, bool);
	void *arg;
	char *why;
	size_t whylen;
	size_t end;		/* where the parse ended, for the messages */
};

static int bad(struct scan *sc, const char *what)
{
	snprintf(sc->why, sc->whylen, "%s at byte %zu", what, sc->end);
	return -1;
}

static int value(struct scan *sc, struct json_object *o, int depth);

static int with_path(struct scan *sc, const char *suffix, struct json_object *o, int depth)
{
	size_t keep = strlen(sc->path);
	int rc;

	if (keep + strlen(suffix) + 1 >= sizeof(sc->path))
		return bad(sc, "nesting too deep");
	strcat(sc->path, suffix);
	rc = value(sc, o, depth);
	sc->path[keep] = '\0';
	return rc;
}

/* A scalar's text: strings as they are (cut to SCAN_VAL), numbers as
 * written (json-c keeps a double's text; 64-bit integers print exactly,
 * unsigned ones above INT64_MAX through json_object_get_uint64). */
static void scalar(struct scan *sc, struct json_object *o)
{
	char buf[SCAN_VAL];
	bool is_str = false;

	switch (json_object_get_type(o)) {
	case json_type_null:
		snprintf(buf, sizeof(buf), "null");
		break;
	case json_type_boolean:
		snprintf(buf, sizeof(buf), "%s", json_object_get_boolean(o) ? "true" : "false");
		break;
	case json_type_int:
		if (json_object_get_int64(o) == INT64_MAX)
			snprintf(buf, sizeof(buf), "%" PRIu64, json_object_get_uint64(o));
		else
			snprintf(buf, sizeof(buf), "%" PRId64, json_object_get_int64(o));
		break;
	case json_type_string:
		is_str = true;
		snprintf(buf, sizeof(buf), "%s", json_object_get_string(o));
		/* an escaped control character (\u001b, \r …) never reaches a
		 * terminal: '?' as before, only newline and tab kept */
		for (char *c = buf; *c; c++)
			if (((unsigned char)*c < 0x20 && *c != '\n' && *c != '\t') || *c == 0x7f)
				*c = '?';
		break;
	default:		/* json_type_double: the text it was read from */
		snprintf(buf, sizeof(buf), "%s", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		break;
	}
	sc->fn(sc->arg, sc->path, buf, is_str);
}

static int value(struct scan *sc, struct json_object *o, int depth)
{
	char buf[SCAN_KEY + 2];

	if (depth > SCAN_DEPTH)
		return bad(sc, "nesting too deep");
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, member) {
			snprintf(buf, sizeof(buf), "%s%.*s", sc->path[0] ? "." : "", SCAN_KEY - 1, key);
			if (with_path(sc, buf, member, depth + 1))
				return -1;
		}
	} else if (json_object_is_type(o, json_type_array)) {
		size_t n = json_object_array_length(o);

		for (size_t i = 0; i < n; i++) {
			snprintf(buf, sizeof(buf), "[%zu]", i);
			if (with_path(sc, buf, json_object_array_get_idx(o, i), depth + 1))
				return -1;
		}
	} else {
		scalar(sc, o);
	}
	return 0;
}

/* json-c's reason in the words the readers' messages have always used. */
static const char *reason(enum json_tokener_error e)
{
	switch (e) {
	case json_tokener_continue:
	case json_tokener_error_parse_eof:
		return "unexpected end";
	case json_tokener_error_depth:
		return "nesting too deep";
	case json_tokener_error_parse_array:
		return "expected ',' or ']'";
	case json_tokener_error_parse_object_key_name:
		return "expected a string";
	case json_tokener_error_parse_object_key_sep:
		return "expected ':'";
	case json_tokener_error_parse_object_value_sep:
		return "expected ',' or '}'";
	case json_tokener_error_parse_string:
	case json_tokener_error_parse_utf8_string:
		return "bad string";
	default:
		return "unexpected character";
	}
}

int json_scan(const char *text, size_t len,
	      void (*fn)(void *, const char *, const char *, bool), void *arg,
	      char *why, size_t whylen)
{
	struct scan sc = { .fn = fn, .arg = arg, .why = why, .whylen = whylen };
	struct json_tokener *tok;
	struct json_object *doc;
	int rc;

	if (jsoncdl_load(why, whylen))
		return -1;
	tok = json_tokener_new_ex(SCAN_DEPTH);
	if (!tok) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (len > INT32_MAX) {
		json_tokener_free(tok);
		snprintf(why, whylen, "document too large");
		return -1;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
	doc = json_tokener_parse_ex(tok, text, (int)len);
	sc.end = json_tokener_get_parse_end(tok);
	if (!doc) {
		enum json_tokener_error e = json_tokener_get_error(tok);

		/* a value that may go on (a number, a literal) ends the text */
		if (e == json_tokener_continue) {
			doc = json_tokener_parse_ex(tok, "", 1);
			sc.end = len;
			e = json_tokener_get_error(tok);
		}
		if (!doc) {
			json_tokener_free(tok);
			return bad(&sc, reason(e));
		}
	}
	json_tokener_free(tok);
	while (sc.end < len && strchr(" \t\r\n", text[sc.end]))
		sc.end++;
	if (sc.end < len) {
		json_object_put(doc);
		return bad(&sc, "trailing data");
	}
	rc = value(&sc, doc, 1);
	json_object_put(doc);
	return rc;
}
