// SPDX-License-Identifier: MIT
/* Strict parsers for what users type and the files they name: numbers in a
 * range (no NaN, no infinity, no overflow) and regular files read by line. */
#include "config.h"
#include "core/base/parse.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Written as people write numbers: an optional sign (a minus only where
 * negatives are allowed, so no "-0" where they are not), decimal digits,
 * then for a real number a fraction and an exponent. Not hexadecimal
 * ("0x10" is no 16), no blanks, "nan" or "inf": strtol and strtod take
 * all of those. */
static bool decimal(const char *s, bool real, bool negative)
{
	bool digits = false;

	if (*s == '-' && !negative)
		return false;
	if (*s == '-' || *s == '+')
		s++;
	for (; isdigit((unsigned char)*s); s++)
		digits = true;
	if (real && *s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			digits = true;
	if (!digits)
		return false;
	if (real && (*s == 'e' || *s == 'E')) {
		s++;
		if (*s == '-' || *s == '+')
			s++;
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return !*s;
}

int parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	if (!s || !decimal(s, false, lo < 0))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

int parse_num(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	if (!s || !decimal(s, true, lo < 0))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	/* ERANGE on overflow (HUGE_VAL); underflow to 0 is harmless */
	if (end == s || *end || !isfinite(v) || (errno == ERANGE && v != 0))
		return -1;
	if (!(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)*s))
		return -1;	/* no sign, no blank, no "+" */
	errno = 0;
	/* base 10 or 0x: "010" is ten, not octal eight */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		if (!isxdigit((unsigned char)*s))
			return -1;
		v = strtoull(s, &end, 16);
	} else {
		v = strtoull(s, &end, 10);
	}
	if (errno || end == s)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

int parse_count(const char *s, uint64_t *out)
{
	return s && isdigit((unsigned char)*s) && decimal(s, false, false) ? parse_u64(s, out) : -1;
}

int parse_size(const char *s, long long *out)
{
	char *end;
	long long v;
	int shift = 0;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || v < 0)
		return -1;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	default: break;
	}
	if (*end)
		return -1;
	if (v > (LLONG_MAX >> shift))
		return -1;	/* the shift would overflow */
	*out = v << shift;
	return 0;
}

const char *parse_size_name(uint64_t b, char *buf, size_t len)
{
	if (b >= (1u << 20) && !(b & ((1u << 20) - 1)))
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= 1024 && !(b & 1023))
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%llu B", (unsigned long long)b);
	return buf;
}

FILE *parse_fopen(const char *path, char *why, size_t whylen)
{
	struct stat st;
	FILE *f;
	int fd, e;

	/* O_NONBLOCK: opening a FIFO without a writer must not hang */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		snprintf(why, whylen, "%s", strerror(e));
		errno = e;
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		snprintf(why, whylen, "%s", strerror(e));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		snprintf(why, whylen, "%s", S_ISDIR(st.st_mode) ? "is a directory" :
			 S_ISFIFO(st.st_mode) ? "is a FIFO, not a regular file" :
			 S_ISSOCK(st.st_mode) ? "is a socket, not a regular file" :
			 "is a device, not a regular file");
		goto fail;
	}
	if (fcntl(fd, F_SETFL, 0) < 0 || !(f = fdopen(fd, "r"))) {
		e = errno;
		snprintf(why, whylen, "%s", strerror(e));
		goto fail;
	}
	return f;
fail:
	close(fd);
	errno = e;
	return NULL;
}

char *parse_slurp(const char *path, size_t max, size_t *len, char *why, size_t whylen)
{
	FILE *f = parse_fopen(path, why, whylen);
	char *buf = NULL;
	long n = -1;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		snprintf(why, whylen, "unreadable");
	else if (n == 0)
		snprintf(why, whylen, "empty");
	else if ((size_t)n > max)
		snprintf(why, whylen, "larger than %zu bytes", max);
	else if (!(buf = malloc((size_t)n)))
		snprintf(why, whylen, "out of memory");
	else if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		snprintf(why, whylen, "unreadable");
		free(buf);
		buf = NULL;
	} else
		*len = (size_t)n;
	fclose(f);
	return buf;
}

int parse_out_path(const char *path, char *why, size_t whylen)
{
	char dir[4096];
	const char *slash;
	struct stat st;

	if (!*path) {
		snprintf(why, whylen, "the name is empty");
		return -1;
	}
	if (stat(path, &st) == 0) {
		if (S_ISREG(st.st_mode))
			return 0;
		snprintf(why, whylen, "%s", S_ISDIR(st.st_mode) ? "is a directory" :
			 S_ISFIFO(st.st_mode) ? "is a FIFO, not a regular file" :
			 "is not a regular file");
		return -1;
	}
	slash = strrchr(path, '/');
	if (!slash)
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) + (slash == path), path);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "its directory %s does not exist", dir);
		return -1;
	}
	return 0;
}

int parse_line(FILE *f, char *buf, size_t len)
{
	size_t n = 0;
	bool nul = false;
	int c;

	/* byte by byte, counting: a NUL is a byte like any other here, so
	 * nothing after one can pass for the start of a new line */
	while ((c = getc(f)) != EOF && c != '\n') {
		if (!c)
			nul = true;
		if (n + 1 < len)
			buf[n] = (char)c;
		n++;
	}
	if (c == EOF && !n)
		return 0;
	buf[n < len ? n : 0] = '\0';
	if (nul)
		return PARSE_LINE_NUL;
	return n < len ? 1 : PARSE_LINE_LONG;
}

const char *parse_line_why(int r)
{
	return r == PARSE_LINE_NUL ? "holds a NUL byte" : "is too long";
}
