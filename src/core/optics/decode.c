// SPDX-License-Identifier: MIT
/* The layout chosen by the module's identifier, the units the three
 * specifications share, and what the readings mean against the limits. */
#include "config.h"
#include "core/optics/optics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/optics/optics_int.h"

const uint8_t *optics_at(const struct optics_pages *pg, int a, int page, int off)
{
	if (off < OPTICS_PAGE_LEN)
		return &pg->lower[a][off];
	return &pg->upper[a][page][off - OPTICS_PAGE_LEN];
}

bool optics_has(const struct optics_pages *pg, int a, int page)
{
	return page >= 0 && page < OPTICS_NPAGES && (pg->have_upper[a] >> page & 1u);
}

unsigned optics_u16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

int optics_s16(const uint8_t *p)
{
	return (int16_t)optics_u16(p);
}

double optics_temp_c(int raw)
{
	return raw / 256.0;
}

double optics_vcc_v(unsigned raw)
{
	return raw * 100e-6;
}

double optics_mw(unsigned raw)
{
	return raw * 1e-4;	/* 0.1 µW = 1e-4 mW */
}

double optics_bias_ma(unsigned raw)
{
	return raw * 2e-3;	/* 2 µA = 2e-3 mA */
}

double optics_dbm(double mw)
{
	return mw > 0 ? 10.0 * log10(mw) : -INFINITY;
}

void optics_ascii(char *dst, const uint8_t *src, int len)
{
	int n = 0;

	for (int i = 0; i < len; i++)
		dst[n++] = src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
	while (n > 0 && (dst[n - 1] == ' ' || dst[n - 1] == '?'))
		n--;
	dst[n] = '\0';
}

double optics_temp_u16(unsigned raw)
{
	return optics_temp_c((int16_t)raw);
}

void optics_limits(struct optics_level *l, const uint8_t *p,
		   double (*conv)(unsigned))
{
	l->high_alarm = conv(optics_u16(p));
	l->low_alarm = conv(optics_u16(p + 2));
	l->high_warn = conv(optics_u16(p + 4));
	l->low_warn = conv(optics_u16(p + 6));
	l->thr_valid = true;
}

static double power_limit(unsigned raw)
{
	return optics_dbm(optics_mw(raw));
}

void optics_power_limits(struct optics_level *l, const uint8_t *p)
{
	optics_limits(l, p, power_limit);
}

void optics_set_power(struct optics_level *l, double *mw, double val_mw)
{
	*mw = val_mw;
	l->value = optics_dbm(val_mw);
	l->valid = true;
}

/* SFF-8024 Table 4-1, the identifier values. */
static const struct {
	uint8_t id;
	enum optics_layout layout;
	const char *name;
} ids[] = {
	{ 0x03, OPTICS_SFF8472, "SFP" },
	{ 0x0c, OPTICS_SFF8636, "QSFP" },
	{ 0x0d, OPTICS_SFF8636, "QSFP+" },
	{ 0x11, OPTICS_SFF8636, "QSFP28" },
	{ 0x18, OPTICS_CMIS, "QSFP-DD" },
	{ 0x19, OPTICS_CMIS, "OSFP" },
	{ 0x1e, OPTICS_CMIS, "QSFP+ (CMIS)" },
};

int optics_decode(const struct optics_pages *pg, struct optics_module *m,
		  char *err, size_t errlen)
{
	size_t i;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	if (!pg->have_lower[0]) {
		snprintf(err, errlen, "the module's lower page was not read");
		return -1;
	}
	m->id = pg->lower[0][0];
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (ids[i].id == m->id)
			break;
	if (i == sizeof(ids) / sizeof(ids[0])) {
		snprintf(err, errlen, "module identifier 0x%02x is not one this decoder knows "
			 "(SFP, QSFP/QSFP28, QSFP-DD/OSFP)", m->id);
		return -1;
	}
	m->layout = ids[i].layout;
	snprintf(m->type, sizeof(m->type), "%s", ids[i].name);
	switch (m->layout) {
	case OPTICS_SFF8472:
		rc = optics_decode_sff8472(pg, m);
		break;
	case OPTICS_SFF8636:
		rc = optics_decode_sff8636(pg, m);
		break;
	case OPTICS_CMIS:
		rc = optics_decode_cmis(pg, m);
		break;
	case OPTICS_UNKNOWN:
		break;
	}
	if (rc < 0)
		snprintf(err, errlen, "%s", m->note);
	return rc;
}

static unsigned level_bits(const struct optics_level *l)
{
	unsigned b = 0;

	if (!l->have_flags)
		return 0;
	if (l->flags & (OPTICS_HIGH_ALARM | OPTICS_LOW_ALARM))
		b |= OPTICS_ALARM;
	if (l->flags & (OPTICS_HIGH_WARN | OPTICS_LOW_WARN))
		b |= OPTICS_WARN;
	return b;
}

/* The margin is taken to the nearest of the two alarms; a reading
 * already past an alarm has a negative margin. */
static void rx_margin(struct optics_lane *l)
{
	double lo, hi;

	l->margin_valid = false;
	if (!l->rx.valid || !l->rx.thr_valid || !isfinite(l->rx.value))
		return;
	lo = l->rx.value - l->rx.low_alarm;
	hi = l->rx.high_alarm - l->rx.value;
	if (!isfinite(lo) && !isfinite(hi))
		return;
	l->margin_low = !isfinite(hi) || (isfinite(lo) && lo <= hi);
	l->margin_db = l->margin_low ? lo : hi;
	l->margin_valid = true;
}

void optics_judge(struct optics_module *m, double near_db, int link_up)
{
	m->judged = level_bits(&m->temp) | level_bits(&m->vcc);
	for (int i = 0; i < m->nlanes; i++) {
		struct optics_lane *l = &m->lane[i];
		bool dark;

		l->judged = level_bits(&l->rx) | level_bits(&l->tx) | level_bits(&l->bias);
		rx_margin(l);
		/* No source gives a number for "close to the alarm": the
		 * reference procedure's example is -12.5 dBm against -14. */
		if (l->rx.valid && l->rx.thr_valid && isfinite(l->rx.low_alarm) &&
		    l->rx.value - l->rx.low_alarm <= near_db)
			l->judged |= OPTICS_NEAR_LOW_RX;
		dark = (l->los_valid && l->rx_los) || (l->rx.valid && l->rx_mw <= 0);
		if (dark && link_up == 1)
			l->judged |= OPTICS_DARK;
		m->judged |= l->judged;
	}
}

void optics_margin_text(const struct optics_lane *l, char *buf, size_t n)
{
	double d;

	if (!l->margin_valid) {
		snprintf(buf, n, "%s", "");
		return;
	}
	d = l->margin_db;
	if (l->margin_low)
		snprintf(buf, n, "%.1f dB %s the low receive-power alarm",
			 fabs(d), d >= 0 ? "above" : "below");
	else
		snprintf(buf, n, "%.1f dB %s the high receive-power alarm",
			 fabs(d), d >= 0 ? "below" : "above");
}
