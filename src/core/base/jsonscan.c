// SPDX-License-Identifier: MIT
/* JSON reading: a small scanner that calls back for every scalar of a
 * document with its dotted path; used by the test records (--compare),
 * the topology file's JSON form and the acceptance results reader. */
#include "config.h"
#include "core/base/jsonscan.h"

#include <stdio.h>
#include <string.h>

struct scan {
	const char *s;
	size_t len, off;
	int depth;
	char path[512];
	void (*fn)(void *, const char *, const char *, bool);
	void *arg;
	char *why;
	size_t whylen;
};

static int bad(struct scan *sc, const char *what)
{
	snprintf(sc->why, sc->whylen, "%s at byte %zu", what, sc->off);
	return -1;
}

static void ws(struct scan *sc)
{
	while (sc->off < sc->len && strchr(" \t\r\n", sc->s[sc->off]))
		sc->off++;
}

static int string(struct scan *sc, char *out, size_t cap)
{
	size_t n = 0;

	if (sc->off >= sc->len || sc->s[sc->off] != '"')
		return bad(sc, "expected a string");
	sc->off++;
	while (sc->off < sc->len && sc->s[sc->off] != '"') {
		char c = sc->s[sc->off++];

		if (c == '\\') {
			if (sc->off >= sc->len)
				return bad(sc, "unterminated escape");
			c = sc->s[sc->off++];
			if (c == 'u') {
				if (sc->len - sc->off < 4)
					return bad(sc, "short \\u escape");
				sc->off += 4;
				c = '?';
			} else if (c == 'n') {
				c = '\n';
			} else if (c == 't') {
				c = '\t';
			}
		}
		if (n + 1 < cap)
			out[n++] = c;
	}
	if (sc->off >= sc->len)
		return bad(sc, "unterminated string");
	sc->off++;
	out[n] = '\0';
	return 0;
}

static int value(struct scan *sc);

static int with_path(struct scan *sc, const char *suffix)
{
	size_t keep = strlen(sc->path);
	int rc;

	if (keep + strlen(suffix) + 1 >= sizeof(sc->path))
		return bad(sc, "nesting too deep");
	strcat(sc->path, suffix);
	rc = value(sc);
	sc->path[keep] = '\0';
	return rc;
}

/* After a member or an element: ',' goes on (0), the closing bracket
 * ends the object or array (1), anything else is an error (-1). */
static int next_or_close(struct scan *sc, char close)
{
	ws(sc);
	if (sc->off < sc->len && sc->s[sc->off] == ',') {
		sc->off++;
		return 0;
	}
	if (sc->off < sc->len && sc->s[sc->off] == close) {
		sc->off++;
		return 1;
	}
	return bad(sc, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
}

static int value(struct scan *sc)
{
	int rc;

	char buf[256], key[160];

	ws(sc);
	if (sc->off >= sc->len)
		return bad(sc, "unexpected end");
	if (++sc->depth > 32)
		return bad(sc, "nesting too deep");
	switch (sc->s[sc->off]) {
	case '{':
		sc->off++;
		ws(sc);
		if (sc->off < sc->len && sc->s[sc->off] == '}') {
			sc->off++;
			break;
		}
		for (;;) {
			ws(sc);
			if (string(sc, key, sizeof(key)))
				return -1;
			ws(sc);
			if (sc->off >= sc->len || sc->s[sc->off] != ':')
				return bad(sc, "expected ':'");
			sc->off++;
			snprintf(buf, sizeof(buf), "%s%s", sc->path[0] ? "." : "", key);
			if (with_path(sc, buf) || (rc = next_or_close(sc, '}')) < 0)
				return -1;
			if (rc)
				break;
		}
		break;
	case '[':
		sc->off++;
		ws(sc);
		if (sc->off < sc->len && sc->s[sc->off] == ']') {
			sc->off++;
			break;
		}
		for (int i = 0;; i++) {
			snprintf(buf, sizeof(buf), "[%d]", i);
			if (with_path(sc, buf) || (rc = next_or_close(sc, ']')) < 0)
				return -1;
			if (rc)
				break;
		}
		break;
	case '"':
		if (string(sc, buf, sizeof(buf)))
			return -1;
		sc->fn(sc->arg, sc->path, buf, true);
		break;
	default: {
		size_t n = 0;

		while (sc->off < sc->len && strchr("0123456789+-.eEtruefalsn", sc->s[sc->off]) && n + 1 < sizeof(buf))
			buf[n++] = sc->s[sc->off++];
		buf[n] = '\0';
		if (!n)
			return bad(sc, "unexpected character");
		sc->fn(sc->arg, sc->path, buf, false);
	}
	}
	sc->depth--;
	return 0;
}

int json_scan(const char *text, size_t len,
	      void (*fn)(void *, const char *, const char *, bool), void *arg,
	      char *why, size_t whylen)
{
	struct scan sc = { .s = text, .len = len, .fn = fn, .arg = arg, .why = why, .whylen = whylen };

	if (value(&sc))
		return -1;
	ws(&sc);
	if (sc.off != sc.len)
		return bad(&sc, "trailing data");
	return 0;
}
