// SPDX-License-Identifier: MIT
/* cmocka tests of the strict parsers: numbers that are NaN, infinite,
 * out of range or overflow are refused; files that are not regular files
 * are refused without blocking; long lines are reported, never split. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/base/parse.h"

static void test_num(void **state)
{
	double d = -1;

	assert_int_equal(parse_num("0.5", 0.5, 60, &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(parse_num("1e1", 0.5, 60, &d), 0);
	assert_true(d == 10);
	/* the values strtod accepts and a range check with < / > lets by */
	assert_int_equal(parse_num("nan", 0.5, 60, &d), -1);
	assert_int_equal(parse_num("NaN", 0.5, 60, &d), -1);
	assert_int_equal(parse_num("-nan", 0.5, 60, &d), -1);
	assert_int_equal(parse_num("inf", 0, INFINITY, &d), -1);
	assert_int_equal(parse_num("infinity", 0, 1e308, &d), -1);
	assert_int_equal(parse_num("1e999", 0, INFINITY, &d), -1);
	assert_int_equal(parse_num("0.4", 0.5, 60, &d), -1);
	assert_int_equal(parse_num("60.0001", 0.5, 60, &d), -1);
	assert_int_equal(parse_num("", 0, 1, &d), -1);
	assert_int_equal(parse_num(" 1", 0, 2, &d), -1);
	assert_int_equal(parse_num("1s", 0, 2, &d), -1);
	/* decimal only: strtod reads these as 16, 16 and 1 */
	assert_int_equal(parse_num("0x10", 0, 100, &d), -1);
	assert_int_equal(parse_num("0X10", 0, 100, &d), -1);
	assert_int_equal(parse_num("0x1p4", 0, 100, &d), -1);
	assert_int_equal(parse_num("1 ", 0, 2, &d), -1);
	assert_int_equal(parse_num("1e", 0, 2, &d), -1);
	assert_int_equal(parse_num(".", 0, 2, &d), -1);
	/* no minus sign where negatives are refused: strtod's -0 is >= 0 */
	assert_int_equal(parse_num("-0", 0, 100, &d), -1);
	assert_int_equal(parse_num("-0.0", 0, 100, &d), -1);
	assert_int_equal(parse_num("-0e5", 0, 100, &d), -1);
	assert_true(d == 10);	/* untouched on failure */
	assert_int_equal(parse_num("-0.5", -1, 1, &d), 0);
	assert_true(d == -0.5);
	assert_int_equal(parse_num(".5", 0, 1, &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(parse_num("2.5E+1", 0, 100, &d), 0);
	assert_true(d == 25);
}

static void test_int(void **state)
{
	int v = -7;

	assert_int_equal(parse_int("254", 1, 254, &v), 0);
	assert_int_equal(v, 254);
	assert_int_equal(parse_int("255", 1, 254, &v), -1);
	assert_int_equal(parse_int("0", 1, 254, &v), -1);
	assert_int_equal(parse_int("-2147483648", INT_MIN, INT_MAX, &v), 0);
	assert_int_equal(parse_int("2147483648", INT_MIN, INT_MAX, &v), -1);
	assert_int_equal(parse_int("99999999999999999999", 0, INT_MAX, &v), -1);
	assert_int_equal(parse_int("4x", 0, 10, &v), -1);
	assert_int_equal(parse_int("", 0, 10, &v), -1);
	assert_int_equal(parse_int("0x10", 0, 100, &v), -1);
	assert_int_equal(parse_int(" 1", 0, 100, &v), -1);
	assert_int_equal(parse_int("1.0", 0, 100, &v), -1);
	/* "-0" is refused where negatives are, read where they are not */
	assert_int_equal(parse_int("-0", 0, 100, &v), -1);
	assert_int_equal(parse_int("-1", 0, 100, &v), -1);
	assert_int_equal(v, INT_MIN);
	assert_int_equal(parse_int("-0", -5, 5, &v), 0);
	assert_int_equal(v, 0);
}

static void test_u64(void **state)
{
	uint64_t v = 0;

	assert_int_equal(parse_u64("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse_u64("18446744073709551616", &v), -1);
	assert_int_equal(parse_u64("0x10", &v), 0);
	assert_true(v == 16);
	assert_int_equal(parse_u64("010", &v), 0);	/* ten, not octal */
	assert_true(v == 10);
	assert_int_equal(parse_u64("12\n", &v), 0);	/* as sysfs writes it */
	assert_true(v == 12);
	/* strtoull reads "1e99" as 1 and "-1" as 2^64-1 */
	assert_int_equal(parse_u64("1e99", &v), -1);
	assert_int_equal(parse_u64("-1", &v), -1);
	assert_int_equal(parse_u64("+1", &v), -1);
	assert_int_equal(parse_u64("0x", &v), -1);
	assert_int_equal(parse_u64("0x-1", &v), -1);
	assert_int_equal(parse_u64("N/A (no PMA)", &v), -1);
	assert_int_equal(parse_u64("", &v), -1);
	assert_true(v == 12);
}

/* The inverse for exact sizes: the largest binary unit that holds it. */
static void test_size_name(void **state)
{
	char b[32];
	long long back;

	(void)state;
	assert_string_equal(parse_size_name(2, b, sizeof(b)), "2 B");
	assert_string_equal(parse_size_name(1000, b, sizeof(b)), "1000 B");
	assert_string_equal(parse_size_name(65536, b, sizeof(b)), "64 KiB");
	assert_string_equal(parse_size_name(1536, b, sizeof(b)), "1536 B");
	assert_string_equal(parse_size_name(8u << 20, b, sizeof(b)), "8 MiB");
	assert_string_equal(parse_size_name((1u << 20) + 1024, b, sizeof(b)), "1025 KiB");
	/* what it names parses back to the same size ("64 KiB" → "64K") */
	assert_int_equal(parse_size("1025K", &back), 0);
	assert_int_equal(back, (1 << 20) + 1024);
}

static void test_size(void **state)
{
	long long v = -1;

	assert_int_equal(parse_size("65536", &v), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(parse_size("64K", &v), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(parse_size("8M", &v), 0);
	assert_int_equal(v, 8 << 20);
	assert_int_equal(parse_size("1G", &v), 0);
	assert_int_equal(v, 1 << 30);
	/* LLONG_MAX >> 10 is the largest K value; one more overflows */
	assert_int_equal(parse_size("9007199254740991K", &v), 0);
	assert_int_equal(parse_size("9007199254740992K", &v), -1);
	/* undefined shift, and the value that wrapped to 1024 */
	assert_int_equal(parse_size("9999999999999999K", &v), -1);
	assert_int_equal(parse_size("18014398509481985K", &v), -1);
	assert_int_equal(parse_size("99999999999999999999", &v), -1);
	assert_int_equal(parse_size("-1", &v), -1);
	assert_int_equal(parse_size("1T", &v), -1);
	assert_int_equal(parse_size("K", &v), -1);
	assert_int_equal(parse_size("0x10", &v), -1);
	assert_int_equal(parse_size("-0", &v), -1);
}

static void test_count(void **state)
{
	uint64_t v = 7;

	assert_int_equal(parse_count("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse_count("18446744073709551616", &v), -1);
	assert_int_equal(parse_count("010", &v), 0);
	assert_true(v == 10);
	/* what parse_u64 takes for sysfs and GUIDs, refused in a count */
	assert_int_equal(parse_count("0x10", &v), -1);
	assert_int_equal(parse_count("12\n", &v), -1);
	assert_int_equal(parse_count("-0", &v), -1);
	assert_int_equal(parse_count("+1", &v), -1);
	assert_int_equal(parse_count("", &v), -1);
	assert_true(v == 10);
}

static void test_fopen(void **state)
{
	char dir[] = "/tmp/ibc-parse-XXXXXX", path[64], why[96];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	f = parse_fopen(dir, why, sizeof(why));
	assert_null(f);
	assert_int_equal(errno, EISDIR);
	assert_string_equal(why, "is a directory");
	/* a FIFO with no writer: refused at once, not a hang */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	f = parse_fopen(path, why, sizeof(why));
	assert_null(f);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(why, "FIFO"));
	unlink(path);
	f = parse_fopen(path, why, sizeof(why));
	assert_null(f);
	assert_int_equal(errno, ENOENT);
	f = parse_fopen("/dev/null", why, sizeof(why));
	assert_null(f);
	assert_non_null(strstr(why, "device"));
	f = fopen(path, "w");
	fputs("x\n", f);
	fclose(f);
	f = parse_fopen(path, why, sizeof(why));
	assert_non_null(f);
	assert_int_equal(getc(f), 'x');
	fclose(f);
	unlink(path);
	rmdir(dir);
}

static void test_line(void **state)
{
	static const char text[] = "abc\n0123456\n01234567\n012345678\nlast";
	char buf[9];
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");

	assert_int_equal(parse_line(f, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "abc");
	assert_int_equal(parse_line(f, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "0123456");
	/* exactly len - 1 bytes fit */
	assert_int_equal(parse_line(f, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "01234567");
	/* one more is an error, and the rest of the line is not a new line */
	assert_int_equal(parse_line(f, buf, sizeof(buf)), -1);
	assert_int_equal(parse_line(f, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "last");
	assert_int_equal(parse_line(f, buf, sizeof(buf)), 0);
	fclose(f);
}

/* A NUL byte inside a line: the line is refused whole; what follows the
 * NUL is never read as a line of its own (fgets and strlen would). */
static void test_line_nul(void **state)
{
	static const char text[] = "a=1\n# note\0b=2\nc=3\n\0\nlast\0";
	char buf[32];
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");

	assert_int_equal(parse_line(f, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "a=1");
	assert_int_equal(parse_line(f, buf, sizeof(buf)), PARSE_LINE_NUL);
	assert_string_equal(parse_line_why(PARSE_LINE_NUL), "holds a NUL byte");
	assert_int_equal(parse_line(f, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "c=3");
	assert_int_equal(parse_line(f, buf, sizeof(buf)), PARSE_LINE_NUL);
	/* a NUL in the last line, without a newline */
	assert_int_equal(parse_line(f, buf, sizeof(buf)), PARSE_LINE_NUL);
	assert_int_equal(parse_line(f, buf, sizeof(buf)), 0);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_num),
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_size_name),
		cmocka_unit_test(test_fopen),
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_line_nul),
		cmocka_unit_test(test_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
