// SPDX-License-Identifier: MIT
/* Prometheus text exposition: appends to one growable buffer; a failed
 * allocation marks the buffer instead of losing text silently. */
#include "config.h"
#include "core/export/expo.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void expo_init(struct expo_buf *b)
{
	memset(b, 0, sizeof(*b));
}

void expo_free(struct expo_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void expo_reset(struct expo_buf *b)
{
	b->len = 0;
	b->oom = false;
	if (b->p)
		b->p[0] = '\0';
}

static bool reserve(struct expo_buf *b, size_t more)
{
	size_t want = b->len + more + 1, ncap;
	char *p;

	if (b->oom)
		return false;
	if (want <= b->cap)
		return true;
	ncap = b->cap ? b->cap : 4096;
	while (ncap < want)
		ncap *= 2;
	p = realloc(b->p, ncap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = ncap;
	return true;
}

void expo_reserve(struct expo_buf *b, size_t n)
{
	reserve(b, n);
}

void expo_append(struct expo_buf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void expo_printf(struct expo_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* formatted once where the room is there already (a sweep's text
	 * is hundreds of thousands of short lines), measured first only
	 * when it is not */
	if (reserve(b, 128)) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		b->p[b->len] = '\0';
	}
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static void put_str(struct expo_buf *b, const char *s)
{
	expo_append(b, s, strlen(s));
}

/* An unsigned decimal without printf: the counters are most of a sweep's
 * text. */
static void put_u64(struct expo_buf *b, unsigned long long v)
{
	char d[24];
	int i = (int)sizeof(d);

	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	expo_append(b, d + i, sizeof(d) - (size_t)i);
}

/* HELP text: backslash and newline escaped. */
static void put_help(struct expo_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			expo_append(b, "\\\\", 2);
		else if (*s == '\n')
			expo_append(b, "\\n", 2);
		else
			expo_append(b, s, 1);
	}
}

void expo_family(struct expo_buf *b, const char *name, const char *type,
		 const char *help)
{
	expo_printf(b, "# HELP %s ", name);
	put_help(b, help);
	expo_printf(b, "\n# TYPE %s %s\n", name, type);
}

void expo_label(struct expo_buf *b, bool *first, const char *key,
		const char *value)
{
	const char *s;

	if (!*first)
		expo_append(b, ",", 1);
	put_str(b, key);
	expo_append(b, "=\"", 2);
	*first = false;
	for (s = value ? value : ""; *s;) {
		size_t run = strcspn(s, "\\\"\n");

		expo_append(b, s, run);	/* the plain stretch at once */
		s += run;
		if (*s == '\\')
			expo_append(b, "\\\\", 2);
		else if (*s == '"')
			expo_append(b, "\\\"", 2);
		else if (*s == '\n')
			expo_append(b, "\\n", 2);
		if (*s)
			s++;
	}
	expo_append(b, "\"", 1);
}

static void put_name_labels(struct expo_buf *b, const char *name,
			    const char *labels, const char *xkey,
			    const char *xval)
{
	bool first = !labels || !*labels;

	put_str(b, name);
	if (first && !xkey)
		return;
	expo_append(b, "{", 1);
	if (!first)
		put_str(b, labels);
	if (xkey)
		expo_label(b, &first, xkey, xval);
	expo_append(b, "}", 1);
}

void expo_sample(struct expo_buf *b, const char *name, const char *labels,
		 const char *xkey, const char *xval, double v)
{
	put_name_labels(b, name, labels, xkey, xval);
	if (isnan(v))
		expo_printf(b, " NaN\n");
	else if (isinf(v))
		expo_printf(b, " %sInf\n", v > 0 ? "+" : "-");
	else if (v == (double)(long long)v && fabs(v) < 1e15) {
		expo_append(b, v < 0 ? " -" : " ", v < 0 ? 2 : 1);
		put_u64(b, (unsigned long long)fabs(v));
		expo_append(b, "\n", 1);
	} else
		expo_printf(b, " %.17g\n", v);
}

void expo_sample_u64(struct expo_buf *b, const char *name, const char *labels,
		     const char *xkey, const char *xval, uint64_t v)
{
	put_name_labels(b, name, labels, xkey, xval);
	expo_append(b, " ", 1);
	put_u64(b, (unsigned long long)v);
	expo_append(b, "\n", 1);
}
