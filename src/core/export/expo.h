/* SPDX-License-Identifier: MIT */
/* Prometheus text exposition format (version 0.0.4): a growable text
 * buffer, metric family headers, samples with escaped label values. */
#ifndef IBC_EXPORT_EXPO_H
#define IBC_EXPORT_EXPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The content type a scrape answers with. */
#define EXPO_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

struct expo_buf {
	char *p;
	size_t len, cap;
	bool oom;		/* an append failed: the text is incomplete */
};

void expo_init(struct expo_buf *b);
void expo_free(struct expo_buf *b);
void expo_reset(struct expo_buf *b);
/* Room for n more bytes at once (a writer that knows about how long its
 * text will be grows the buffer in one step, not by doubling). */
void expo_reserve(struct expo_buf *b, size_t n);
void expo_printf(struct expo_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void expo_append(struct expo_buf *b, const char *s, size_t n);

/* "# HELP name help" and "# TYPE name type" (type: gauge, counter). */
void expo_family(struct expo_buf *b, const char *name, const char *type,
		 const char *help);

/* Appends `key="value"` (with a leading comma unless it is the first
 * label in the buffer position given by *first), escaping \, " and
 * newlines in the value as the format requires. */
void expo_label(struct expo_buf *b, bool *first, const char *key,
		const char *value);

/* One sample line: name{labels} value. labels is the already written
 * label text without braces ("" for none); extra one more label pair
 * (NULL key: none). */
void expo_sample(struct expo_buf *b, const char *name, const char *labels,
		 const char *xkey, const char *xval, double v);
/* The same with an exact unsigned integer value (counters). */
void expo_sample_u64(struct expo_buf *b, const char *name, const char *labels,
		     const char *xkey, const char *xval, uint64_t v);

#endif
