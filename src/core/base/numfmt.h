/* SPDX-License-Identifier: MIT */
/* Numbers for people: a figure to a few significant digits in plain
 * decimal, so a 400 Gb/s port and an emulated wire's 0.0012 Gb/s both
 * show their digits (never "0.000", never "2.00" for 2, never 1e-05). */
#ifndef IBC_BASE_NUMFMT_H
#define IBC_BASE_NUMFMT_H

#include <stddef.h>

/* The significant digits of the text outputs (four: a ratio of two
 * figures read off a table holds to 0.05 %). */
#define NUMFMT_DIGITS 4

/* v to digits significant digits (1..15), plain decimal, trailing zeros
 * and a trailing point dropped: 196 → "196", 2.5 → "2.5", 2.0 → "2",
 * 0.0791234 → "0.07912", 123456 → "123456"; 0 → "0"; "n/a" when v is
 * not finite. Returns buf. */
char *numfmt_sig(double v, int digits, char *buf, size_t len);

/* numfmt_sig to NUMFMT_DIGITS, a space and unit: "0.07912 Gb/s". */
char *numfmt_unit(double v, const char *unit, char *buf, size_t len);

#endif
