// SPDX-License-Identifier: MIT
/* A small streaming JSON writer: objects, arrays, escaped strings and
 * numbers, with commas and indentation kept track of for the caller.
 *
 * Why ours and not json-c's (which reads JSON here): measured on the
 * 3,072-port fabric's documents (bench/json-writer-bench.sh, figures in
 * bench/RESULTS.md), json-c took about 3x the CPU of this writer for
 * `errors --json` and 5x for `fabric --json`: it builds the whole tree,
 * an allocation per value and a hash insert per key, before it writes a
 * byte, where this streams each value as it is made. It also checks no
 * UTF-8, which this writer does (invalid bytes become U+FFFD). */
#include "config.h"
#include "core/base/json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One document is written by one thread: the stream's lock, taken per
 * call by the plain stdio functions, is a fifth of a watch tick. */
#ifdef __GLIBC__
#define fputc fputc_unlocked
#define fputs fputs_unlocked
#define fwrite fwrite_unlocked
#endif

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
 * U+FFFD each, so every parser takes the output; returns how many.
 * The escaped text is built in a buffer and written in one call per
 * buffer-full: a character at a time through stdio was a quarter of a
 * large document's cost. */
static int put_string(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	char buf[1024];
	size_t n = 0;
	int bad = 0;

	buf[n++] = '"';
	while (*p) {
		unsigned char c = *p;
		int len;

		/* room for the longest piece (\u00XX) and the closing quote */
		if (n > sizeof(buf) - 8) {
			fwrite(buf, 1, n, f);
			n = 0;
		}
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			buf[n++] = (char)c;
			p++;
			continue;
		}
		if (c >= 0x80) {
			len = utf8_len(p);
			if (len) {
				memcpy(buf + n, p, (size_t)len);
				n += (size_t)len;
				p += len;
			} else {
				memcpy(buf + n, "\xef\xbf\xbd", 3);
				n += 3;
				bad++;
				p++;
			}
			continue;
		}
		p++;
		buf[n++] = '\\';
		if (c == '"' || c == '\\') {
			buf[n++] = (char)c;
		} else if (c == '\n') {
			buf[n++] = 'n';
		} else if (c == '\t') {
			buf[n++] = 't';
		} else {	/* other controls and DEL */
			memcpy(buf + n, "u00", 3);
			buf[n + 3] = hex[c >> 4];
			buf[n + 4] = hex[c & 15];
			n += 5;
		}
	}
	buf[n++] = '"';
	fwrite(buf, 1, n, f);
	return bad;
}

/* Decimal digits of v into the end of buf[24]; returns the first. */
static char *u64_digits(char *end, uint64_t v)
{
	*--end = '\0';
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/* Indentation: two spaces a level, written in one call. */
static const char spaces[2 * JSON_MAX_DEPTH + 1] =
	"                                ";

/* A member's lead (comma, indentation, key) and a short value. */
#define LEAD_MAX (1 + 1 + 2 * JSON_MAX_DEPTH + 1 + 160 + 3)

/* Copies a plain key (or short value) to dst; its length, or -1 (with
 * dst's content undefined) when it needs escaping or is too long: in
 * one pass, not a check and a copy after it. */
static int copy_plain(char *dst, const char *s)
{
	int n = 0;

	for (; s[n]; n++) {
		unsigned char c = (unsigned char)s[n];

		if (n >= 160 || c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			return -1;
		dst[n] = (char)c;
	}
	return n;
}

/* The comma, indentation and key before a value into buf, for one write
 * with the value: keys are plain ASCII literals, and three stdio calls
 * per member (the comma, the escaped key, ": ") were a fifth of a
 * 1,000-port watch tick (callgrind). A key that needs escaping is
 * written here, the old way, with what came before it. Returns the
 * bytes left in buf. */
static int lead_buf(struct json *j, const char *key, char *buf)
{
	int n = 0, k;

	if (!j->first[j->depth])
		buf[n++] = ',';
	j->first[j->depth] = false;
	if (j->depth && !j->compact) {
		buf[n++] = '\n';
		memcpy(buf + n, spaces, 2 * (size_t)j->depth);
		n += 2 * j->depth;
	}
	if (key && (k = copy_plain(buf + n + 1, key)) >= 0) {
		buf[n++] = '"';
		n += k;
		memcpy(buf + n, "\": ", 3);
		n += 3;
	} else if (key) {
		fwrite(buf, 1, (size_t)n, j->f);
		j->utf8_replaced += put_string(j->f, key);
		fputs(": ", j->f);
		n = 0;
	}
	return n;
}

static void lead(struct json *j, const char *key)
{
	char buf[LEAD_MAX];
	int n = lead_buf(j, key, buf);

	if (n)
		fwrite(buf, 1, (size_t)n, j->f);
}

/* A member whose value is the literal text v (a number, true, null). */
static void member(struct json *j, const char *key, const char *v)
{
	char buf[LEAD_MAX + 32];
	int n = lead_buf(j, key, buf);
	size_t len = strlen(v);

	memcpy(buf + n, v, len);
	fwrite(buf, 1, (size_t)n + len, j->f);
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
		fwrite(spaces, 1, 2 * (size_t)j->depth, j->f);
	}
	fputc(c, j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void (*json_doc_hook)(struct json *j);

void json_obj_begin(struct json *j, const char *key)
{
	open_(j, key, '{');
	if (j->depth == 1 && json_doc_hook)
		json_doc_hook(j);
}
void json_obj_end(struct json *j) { close_(j, '}'); }
void json_arr_begin(struct json *j, const char *key) { open_(j, key, '['); }
void json_arr_end(struct json *j) { close_(j, ']'); }

void json_str(struct json *j, const char *key, const char *val)
{
	char buf[LEAD_MAX + 160 + 2];
	int bad = 0, n, plain;

	if (!val) {
		member(j, key, "null");
		return;
	}
	/* a short plain value (a counter's name, class, unit, state) goes
	 * out with its lead in one write, as a number does */
	n = lead_buf(j, key, buf);
	plain = copy_plain(buf + n + 1, val);
	if (plain >= 0) {
		buf[n] = '"';
		n += 1 + plain;
		buf[n++] = '"';
		fwrite(buf, 1, (size_t)n, j->f);
		return;
	}
	if (n)
		fwrite(buf, 1, (size_t)n, j->f);
	bad = put_string(j->f, val);
	j->utf8_replaced += bad;
	/* say so beside the value: "name_utf8_replaced": 2 */
	if (bad && key && strlen(key) < 48) {
		char k[64];

		snprintf(k, sizeof(k), "%s_utf8_replaced", key);
		lead(j, k);
		fprintf(j->f, "%d", bad);
	}
}

/* v's digits, after a minus when neg, as a member */
static void member_u64(struct json *j, const char *key, uint64_t v, bool neg)
{
	char d[24], *p = u64_digits(d + sizeof(d), v);

	if (neg)
		*--p = '-';
	member(j, key, p);
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	member_u64(j, key, val, false);
}

void json_int(struct json *j, const char *key, long long val)
{
	/* the magnitude as unsigned: LLONG_MIN has no positive twin */
	member_u64(j, key, val < 0 ? 0 - (uint64_t)val : (uint64_t)val, val < 0);
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

/* 10^k, k <= 38 (10^38 < 2^128) */
static u128 pow10_128(int k)
{
	u128 p = 1;

	while (k-- > 0)
		p *= 10;
	return p;
}

/* round(a x 10^k) for a = m x 2^e, ties to even as printf rounds them
 * (in the default rounding mode), exactly, in 128-bit integers; false
 * when it does not fit them. *trunc: whether a x 10^k < the result's
 * range was met before rounding (the caller's range test). */
static bool scaled_round(uint64_t m, int e, int k, uint64_t *q, uint64_t *q_trunc)
{
	u128 num, den = 1, quo, rem;

	if (k >= 0) {
		if (k > 22)	/* m x 10^k < 2^53 x 2^74 */
			return false;
		num = (u128)m * pow10_128(k);
	} else {
		if (-k > 28)
			return false;
		num = m;
		den = pow10_128(-k);
	}
	if (e >= 0) {
		if (e > 127 - 53 - (k > 0 ? 74 : 0))
			return false;
		num <<= e;
	} else {
		if (-e > (k < 0 ? 127 - 94 : 126))	/* den x 2^-e fits */
			return false;
		den <<= -e;
	}
	if (k >= 0 && e < 0) {	/* den is 2^-e: shifts, not a division */
		quo = num >> -e;
		rem = num & (den - 1);
	} else {
		quo = num / den;
		rem = num % den;
	}
	if (quo >= UINT64_MAX)
		return false;
	*q_trunc = (uint64_t)quo;
	/* a remainder makes den even (a power of 2 or of 10 above 1) */
	if (rem && (2 * rem > den || (2 * rem == den && (quo & 1))))
		quo++;
	*q = (uint64_t)quo;
	return true;
}
#endif

/*
 * What snprintf("%.10g") writes for a finite val that is not a whole
 * number below 1e10, without printf (a fifth of a 1,000-port watch tick
 * was printf's floating-point conversion): the value rounded exactly to
 * ten significant digits, then %g's choice of style (ISO C 7.21.6.1:
 * exponential when the exponent is below -4 or at least the precision)
 * and its trailing zeros removed. 0 when it cannot tell exactly (a
 * magnitude outside about 1e-13 .. 1e38): the caller uses snprintf.
 * tests/unit/test_json checks it against snprintf.
 */
static size_t fast_g10(char *buf, double val)
{
#ifdef __SIZEOF_INT128__
	uint64_t bits, m, q, qt;
	int ebits, e, E, n;
	char d[10], *p = buf;

	memcpy(&bits, &val, sizeof(bits));
	ebits = (int)(bits >> 52 & 0x7ff);
	if (!ebits || ebits == 0x7ff)
		return 0;	/* zero, subnormal, not finite */
	m = (bits & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
	e = ebits - 1075;
	/* |val| in [2^(e+52), 2^(e+53)): its decimal exponent, or one less
	 * (78913 / 2^18 is log10(2) rounded down) */
	E = (int)(((long long)(e + 52) * 78913) >> 18);
	for (int tries = 0;; tries++) {
		if (tries > 2 || !scaled_round(m, e, 9 - E, &q, &qt))
			return 0;
		if (qt >= UINT64_C(10000000000))
			E++;
		else if (qt < UINT64_C(1000000000))
			E--;
		else
			break;
	}
	if (q == UINT64_C(10000000000)) {	/* 9.9999999995 -> 10 */
		q = UINT64_C(1000000000);
		E++;
	}
	for (int i = 9; i >= 0; i--) {
		d[i] = (char)('0' + q % 10);
		q /= 10;
	}
	for (n = 10; n > 1 && d[n - 1] == '0'; n--)
		;
	if (val < 0)
		*p++ = '-';
	if (E < -4 || E >= 10) {
		int x = E < 0 ? -E : E;

		*p++ = d[0];
		if (n > 1) {
			*p++ = '.';
			memcpy(p, d + 1, (size_t)n - 1);
			p += n - 1;
		}
		*p++ = 'e';
		*p++ = E < 0 ? '-' : '+';
		if (x >= 100) {
			*p++ = (char)('0' + x / 100);
			x %= 100;
		}
		*p++ = (char)('0' + x / 10);
		*p++ = (char)('0' + x % 10);
	} else if (E >= 0) {
		memcpy(p, d, (size_t)E + 1);
		p += E + 1;
		if (n > E + 1) {
			*p++ = '.';
			memcpy(p, d + E + 1, (size_t)(n - E - 1));
			p += n - E - 1;
		}
	} else {
		*p++ = '0';
		*p++ = '.';
		for (int z = 0; z < -E - 1; z++)
			*p++ = '0';
		memcpy(p, d, (size_t)n);
		p += n;
	}
	*p = '\0';
	return (size_t)(p - buf);
#else
	(void)buf;
	(void)val;
	return 0;
#endif
}

size_t json_num_text(char *buf, double val)
{
	size_t len;

	/* A whole number below 1e10 prints as %.10g would print it: its
	 * digits (not -0, which %g keeps), without printf. */
	if (val > -1e10 && val < 1e10 && val == (double)(long long)val &&
	    (val != 0 || !signbit(val))) {
		char d[24], *p = u64_digits(d + sizeof(d),
					    val < 0 ? (uint64_t)-(long long)val : (uint64_t)val);
		size_t n;

		if (val < 0)
			*--p = '-';
		n = strlen(p);
		memcpy(buf, p, n + 1);
		return n;
	}
	if (isfinite(val))
		return (len = fast_g10(buf, val)) ? len :
			(size_t)snprintf(buf, JSON_NUM_MAX, "%.10g", val);
	memcpy(buf, "null", 5);
	return 4;
}

void json_num(struct json *j, const char *key, double val)
{
	char g[JSON_NUM_MAX];

	json_num_text(g, val);
	member(j, key, g);
}

void json_raw(struct json *j, const char *key, const char *text, size_t len)
{
	char buf[LEAD_MAX];
	int n = lead_buf(j, key, buf);

	if (n)
		fwrite(buf, 1, (size_t)n, j->f);
	fwrite(text, 1, len, j->f);
}

void json_bool(struct json *j, const char *key, bool val)
{
	member(j, key, val ? "true" : "false");
}

void json_null(struct json *j, const char *key)
{
	member(j, key, "null");
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

bool json_piece_put(struct json *j, const struct json_piece *p)
{
	if (!p->ok || p->compact != j->compact || p->depth != j->depth ||
	    p->first != j->first[j->depth])
		return false;
	fwrite(p->text, 1, p->len, j->f);
	j->first[j->depth] = false;
	j->utf8_replaced += p->utf8;
	return true;
}

void json_piece_make(struct json *j, struct json_piece *p,
		     void (*fn)(struct json *, const void *), const void *arg)
{
	struct json t = *j;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	json_piece_free(p);
	if (!m) {
		fn(j, arg);
		return;
	}
	t.f = m;
	t.utf8_replaced = 0;
	fn(&t, arg);
	if (fclose(m)) {
		free(text);
		fn(j, arg);
		return;
	}
	fwrite(text, 1, len, j->f);
	p->compact = j->compact;
	p->depth = j->depth;
	p->first = j->first[j->depth];
	p->utf8 = t.utf8_replaced;
	/* a run of members: it ends where it began, after one at least */
	p->ok = len && t.depth == j->depth && !t.first[t.depth];
	p->text = text;
	p->len = len;
	memcpy(j->first, t.first, sizeof(j->first));
	j->depth = t.depth;
	j->utf8_replaced += t.utf8_replaced;
}

void json_piece_free(struct json_piece *p)
{
	free(p->text);
	memset(p, 0, sizeof(*p));
}
