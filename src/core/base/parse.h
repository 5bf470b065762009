/* SPDX-License-Identifier: MIT */
/* Strict parsers for what users type and the files they name: numbers in a
 * range (no NaN, no infinity, no overflow) and regular files read by line. */
#ifndef IBC_BASE_PARSE_H
#define IBC_BASE_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Decimal integer in lo..hi, nothing after it: no "0x10", no blanks, and
 * no minus sign at all (not even "-0") when lo >= 0. 0, or -1. */
int parse_int(const char *s, int lo, int hi, int *out);
/* A finite decimal number in lo..hi: digits, a fraction, an exponent
 * ("1e3" is 1000); hexadecimal ("0x10"), "nan", "inf", blanks, values
 * that overflow a double and a minus sign where lo >= 0 ("-0") are
 * refused. 0, or -1. */
int parse_num(const char *s, double lo, double hi, double *out);
/* An unsigned 64-bit count, decimal or 0x hex; no sign, no overflow,
 * trailing blanks allowed ("12\n" as sysfs writes it). 0, or -1. */
int parse_u64(const char *s, uint64_t *out);
/* A count as people write it: decimal digits only ("0x10", signs and
 * blanks refused), no overflow. 0, or -1. */
int parse_count(const char *s, uint64_t *out);
/* A size: "65536", "64K", "8M", "1G" (binary multiples); -1 when it is
 * not one or does not fit in a long long. */
int parse_size(const char *s, long long *out);
/* The other way: b in the largest binary unit that holds it exactly,
 * "64 KiB", "1 MiB", "4097 B" (what sizes a test names look like). */
const char *parse_size_name(uint64_t b, char *buf, size_t len);

/*
 * Opens path for reading only when it is a regular file: a directory, a
 * FIFO, a device or a socket is refused without blocking on it. Returns
 * the stream, or NULL with errno set (EISDIR for a directory, EINVAL for
 * other non-regular files, else open's) and why filled with a short
 * reason ("is a directory", "Permission denied", ...).
 */
FILE *parse_fopen(const char *path, char *why, size_t whylen);
/* A whole regular file (opened as parse_fopen does) into a new buffer of
 * *len bytes, not NUL-terminated; NULL with why ("empty", "larger than
 * N bytes", open's reason) when it cannot be had. The caller frees it. */
char *parse_slurp(const char *path, size_t max, size_t *len, char *why, size_t whylen);

/*
 * Whether path can be written as a new or replaced regular file, before
 * any work is done: 0, or -1 with why ("is a directory", "is a FIFO, not
 * a regular file", "its directory /x does not exist"). Never opens it,
 * so a FIFO cannot block.
 */
int parse_out_path(const char *path, char *why, size_t whylen);

/*
 * Reads one line into buf (newline removed), by its length: a NUL byte
 * neither ends it nor starts another. Returns 1 with a line, 0 at the end
 * of the file, PARSE_LINE_LONG when the line does not fit in len - 1
 * bytes, PARSE_LINE_NUL when it holds a NUL byte (the rest of that line
 * is skipped either way, so the caller can report it and stop: a line is
 * never split into two). parse_line_why(r) says which, for a message
 * ("is too long", "holds a NUL byte").
 */
#define PARSE_LINE_LONG (-1)
#define PARSE_LINE_NUL (-2)
int parse_line(FILE *f, char *buf, size_t len);
const char *parse_line_why(int r);

#endif
