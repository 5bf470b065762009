// SPDX-License-Identifier: MIT
/* Numbers for people: significant digits in plain decimal, with a unit
 * where the text names none (a table's heading carries it). */
#include "config.h"
#include "core/base/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NUMFMT_MAX_DEC 15

char *numfmt_sig(double v, int digits, char *buf, size_t len)
{
	int mag, dec;
	char t[400], *dot, *end;	/* %.0f of 1e308: 309 digits */

	if (!len)
		return buf;
	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	if (digits < 1)
		digits = 1;
	if (digits > 15)
		digits = 15;
	if (v == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	/* decimals for the digits asked: the magnitude decides, not %g,
	 * which turns to exponents below 1e-4 */
	mag = (int)floor(log10(fabs(v)));
	dec = digits - 1 - mag;
	if (dec < 0)
		dec = 0;
	if (dec > NUMFMT_MAX_DEC)
		dec = NUMFMT_MAX_DEC;
	/* whole in t first: the zeros are dropped before a short buf cuts */
	snprintf(t, sizeof(t), "%.*f", dec, v);
	dot = strchr(t, '.');
	if (dot) {
		end = t + strlen(t);
		while (end > dot + 1 && end[-1] == '0')
			*--end = '\0';
		if (end == dot + 1)
			*dot = '\0';
	}
	snprintf(buf, len, "%s", strcmp(t, "-0") ? t : "0");
	return buf;
}

char *numfmt_unit(double v, const char *unit, char *buf, size_t len)
{
	char num[48];

	snprintf(buf, len, "%s %s", numfmt_sig(v, NUMFMT_DIGITS, num, sizeof(num)), unit);
	return buf;
}
