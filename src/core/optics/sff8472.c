// SPDX-License-Identifier: MIT
/* SFF-8472 (SFP, SFP+, SFP28): identity at address A0h, monitors, flags and
 * thresholds at A2h, internal or external calibration. Byte offsets are
 * SFF-8472 rev 12.4's memory map: A0h section 4, A2h section 9 (the same
 * as ethtool's sfpid.c and sfpdiag.c use). */
#include "config.h"
#include "core/optics/optics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/optics/optics_int.h"

/* A0h */
#define SFP_VENDOR_NAME		20	/* 20-35 */
#define SFP_VENDOR_PN		40	/* 40-55 */
#define SFP_VENDOR_SN		68	/* 68-83 */
#define SFP_DIAG_TYPE		92	/* bit 6 implemented, bit 5 internal, bit 4 external calibration */
#define SFP_DDM_IMPL		0x40
#define SFP_EXT_CAL		0x10
/* A2h, limits: four 16-bit fields each, high alarm first */
#define SFP_TEMP_THR		0
#define SFP_VCC_THR		8
#define SFP_BIAS_THR		16
#define SFP_TX_PWR_THR		24
#define SFP_RX_PWR_THR		32
/* A2h, external calibration constants (Table 9-6) */
#define SFP_CAL_RX_PWR4		56	/* five IEEE-754 floats, Rx_PWR(4) down to Rx_PWR(0) */
#define SFP_CAL_BIAS		76	/* slope (unsigned 8.8) and offset (signed) pairs */
#define SFP_CAL_TX_PWR		80
#define SFP_CAL_TEMP		84
#define SFP_CAL_VCC		88
/* A2h, monitors and status */
#define SFP_TEMP		96
#define SFP_VCC			98
#define SFP_BIAS		100
#define SFP_TX_PWR		102
#define SFP_RX_PWR		104
#define SFP_STATUS		110	/* bit 1: Rx LOS state */
#define SFP_ALARMS		112	/* 112-113 */
#define SFP_WARNINGS		116	/* 116-117 */

static double be_float(const uint8_t *p)
{
	uint32_t u = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* A linear calibration (SFF-8472, "External Calibration"): the raw
 * reading times the slope (unsigned fixed point, 8.8) plus the offset,
 * the result in the internally calibrated field's unit. */
struct cal {
	bool ext;
	const uint8_t *a2;
	int at;		/* SFP_CAL_* of the slope/offset pair, or the Rx polynomial */
	bool is_signed;
};

static double calib(const struct cal *c, unsigned raw)
{
	double x;

	if (!c->ext)
		return c->is_signed ? (double)(int16_t)raw : (double)raw;
	x = c->is_signed ? (double)(int16_t)raw : (double)raw;
	if (c->at == SFP_CAL_RX_PWR4) {
		double y = 0;

		for (int i = 0; i < 5; i++)
			y = y * x + be_float(c->a2 + SFP_CAL_RX_PWR4 + 4 * i);
		return y;
	}
	return x * optics_u16(c->a2 + c->at) / 256.0 + optics_s16(c->a2 + c->at + 2);
}

static void limits(struct optics_level *l, const struct cal *c, const uint8_t *p,
		   double (*unit)(double))
{
	l->high_alarm = unit(calib(c, optics_u16(p)));
	l->low_alarm = unit(calib(c, optics_u16(p + 2)));
	l->high_warn = unit(calib(c, optics_u16(p + 4)));
	l->low_warn = unit(calib(c, optics_u16(p + 6)));
	l->thr_valid = true;
}

static double u_temp(double v) { return v / 256.0; }
static double u_vcc(double v) { return v * 100e-6; }
static double u_bias(double v) { return v * 2e-3; }
static double u_mw(double v) { return v > 0 ? v * 1e-4 : 0; }
static double u_dbm(double v) { return optics_dbm(u_mw(v)); }

/* Byte 112/116 bits 7-0: temperature high/low, Vcc high/low, bias
 * high/low, Tx power high/low; byte 113/117 bits 7-6: Rx power high/low. */
static unsigned pair(const uint8_t *a2, int byte, int bit)
{
	return (a2[SFP_ALARMS + byte] >> bit & 1u ? OPTICS_HIGH_ALARM : 0) |
	       (a2[SFP_ALARMS + byte] >> (bit - 1) & 1u ? OPTICS_LOW_ALARM : 0) |
	       (a2[SFP_WARNINGS + byte] >> bit & 1u ? OPTICS_HIGH_WARN : 0) |
	       (a2[SFP_WARNINGS + byte] >> (bit - 1) & 1u ? OPTICS_LOW_WARN : 0);
}

static void reading(struct optics_level *l, const struct cal *c, const uint8_t *a2,
		    int at, int thr, double (*unit)(double), unsigned flags)
{
	l->valid = true;
	l->value = unit(calib(c, optics_u16(a2 + at)));
	limits(l, c, a2 + thr, unit);
	l->have_flags = true;
	l->flags = flags;
}

int optics_decode_sff8472(const struct optics_pages *pg, struct optics_module *m)
{
	const uint8_t *a0 = pg->lower[0];
	uint8_t a2[256];
	struct optics_lane *l = &m->lane[0];
	struct cal c;

	optics_ascii(m->vendor, a0 + SFP_VENDOR_NAME, 16);
	optics_ascii(m->part, a0 + SFP_VENDOR_PN, 16);
	optics_ascii(m->serial, a0 + SFP_VENDOR_SN, 16);
	m->ddm = a0[SFP_DIAG_TYPE] & SFP_DDM_IMPL;
	m->ext_cal = a0[SFP_DIAG_TYPE] & SFP_EXT_CAL;
	m->nlanes = 1;
	if (!m->ddm) {
		snprintf(m->note, sizeof(m->note), "the module does not implement diagnostics (A0h byte 92)");
		return 0;
	}
	if (!pg->have_lower[1] || !optics_has(pg, 1, 0)) {
		snprintf(m->note, sizeof(m->note), "address A2h not read: no diagnostics");
		return 0;
	}
	memcpy(a2, pg->lower[1], OPTICS_PAGE_LEN);
	memcpy(a2 + OPTICS_PAGE_LEN, pg->upper[1][0], OPTICS_PAGE_LEN);
	c = (struct cal){ m->ext_cal, a2, SFP_CAL_TEMP, true };
	reading(&m->temp, &c, a2, SFP_TEMP, SFP_TEMP_THR, u_temp, pair(a2, 0, 7));
	c.at = SFP_CAL_VCC;
	c.is_signed = false;
	reading(&m->vcc, &c, a2, SFP_VCC, SFP_VCC_THR, u_vcc, pair(a2, 0, 5));
	c.at = SFP_CAL_BIAS;
	reading(&l->bias, &c, a2, SFP_BIAS, SFP_BIAS_THR, u_bias, pair(a2, 0, 3));
	c.at = SFP_CAL_TX_PWR;
	reading(&l->tx, &c, a2, SFP_TX_PWR, SFP_TX_PWR_THR, u_dbm, pair(a2, 0, 1));
	l->tx_mw = u_mw(calib(&c, optics_u16(a2 + SFP_TX_PWR)));
	c.at = SFP_CAL_RX_PWR4;
	reading(&l->rx, &c, a2, SFP_RX_PWR, SFP_RX_PWR_THR, u_dbm, pair(a2, 1, 7));
	l->rx_mw = u_mw(calib(&c, optics_u16(a2 + SFP_RX_PWR)));
	l->los_valid = true;
	l->rx_los = a2[SFP_STATUS] >> 1 & 1u;
	return 0;
}
