// SPDX-License-Identifier: MIT
/* SFF-8636 (QSFP+, QSFP28): lower page 00h monitors and flags, upper page
 * 00h identity, upper page 03h the module's thresholds. Byte offsets are
 * SFF-8636 rev 2.10a's memory map (the same as ethtool's qsfp.h uses). */
#include "config.h"
#include "core/optics/optics.h"

#include <stdio.h>
#include <string.h>

#include "core/optics/optics_int.h"

#define QSFP_STATUS2		2	/* bit 2: flat memory (no upper pages 01h-03h) */
#define QSFP_FLAT_MEM		0x04
#define QSFP_LOS		3	/* bits 0-3: Rx LOS lanes 1-4 */
#define QSFP_TEMP_FLAGS		6	/* bits 7-4: high alarm, low alarm, high warning, low warning */
#define QSFP_VCC_FLAGS		7
#define QSFP_RX_PWR_FLAGS	9	/* bytes 9-10: two lanes a byte, lane 1 in the high nibble */
#define QSFP_BIAS_FLAGS		11	/* bytes 11-12 */
#define QSFP_TX_PWR_FLAGS	13	/* bytes 13-14 */
#define QSFP_TEMP		22	/* bytes 22-23 */
#define QSFP_VCC		26	/* bytes 26-27 */
#define QSFP_RX_PWR		34	/* bytes 34-41, lanes 1-4 */
#define QSFP_BIAS		42	/* bytes 42-49 */
#define QSFP_TX_PWR		50	/* bytes 50-57 */
/* Upper page 00h */
#define QSFP_VENDOR_NAME	148	/* 148-163 */
#define QSFP_VENDOR_PN		168	/* 168-183 */
#define QSFP_VENDOR_SN		196	/* 196-211 */
#define QSFP_DIAG_TYPE		220	/* bit 2: Tx power monitored */
/* Upper page 03h: each limit four 16-bit fields, high alarm first */
#define QSFP_TEMP_THR		128
#define QSFP_VCC_THR		144
#define QSFP_RX_PWR_THR		176
#define QSFP_BIAS_THR		184
#define QSFP_TX_PWR_THR		192

#define QSFP_LANES 4

/* The four flag bits of one quantity in a nibble: alarm high, alarm low,
 * warning high, warning low, from the nibble's most significant bit. */
static unsigned nibble_flags(unsigned nib)
{
	return (nib & 8 ? OPTICS_HIGH_ALARM : 0) | (nib & 4 ? OPTICS_LOW_ALARM : 0) |
	       (nib & 2 ? OPTICS_HIGH_WARN : 0) | (nib & 1 ? OPTICS_LOW_WARN : 0);
}

static unsigned lane_flags(const uint8_t *lo, int base, int lane)
{
	unsigned b = lo[base + lane / 2];

	return nibble_flags(lane % 2 == 0 ? b >> 4 : b & 0x0f);
}

static void set_flags(struct optics_level *l, unsigned flags)
{
	l->have_flags = true;
	l->flags = flags;
}

int optics_decode_sff8636(const struct optics_pages *pg, struct optics_module *m)
{
	const uint8_t *lo = pg->lower[0];
	bool thr = optics_has(pg, 0, 3) && !(lo[QSFP_STATUS2] & QSFP_FLAT_MEM);
	bool txpwr = true;

	if (optics_has(pg, 0, 0)) {
		optics_ascii(m->vendor, optics_at(pg, 0, 0, QSFP_VENDOR_NAME), 16);
		optics_ascii(m->part, optics_at(pg, 0, 0, QSFP_VENDOR_PN), 16);
		optics_ascii(m->serial, optics_at(pg, 0, 0, QSFP_VENDOR_SN), 16);
		txpwr = *optics_at(pg, 0, 0, QSFP_DIAG_TYPE) & 0x04;
	} else {
		snprintf(m->note, sizeof(m->note), "upper page 00h not read: no vendor, part or serial");
	}
	/* SFF-8636 has no "monitoring implemented" bit for the module as a
	 * whole; a module without monitors reads 0 in the fields. */
	m->ddm = true;
	m->temp.valid = true;
	m->temp.value = optics_temp_c(optics_s16(lo + QSFP_TEMP));
	set_flags(&m->temp, nibble_flags(lo[QSFP_TEMP_FLAGS] >> 4));
	m->vcc.valid = true;
	m->vcc.value = optics_vcc_v(optics_u16(lo + QSFP_VCC));
	set_flags(&m->vcc, nibble_flags(lo[QSFP_VCC_FLAGS] >> 4));
	if (thr) {
		optics_limits(&m->temp, optics_at(pg, 0, 3, QSFP_TEMP_THR), optics_temp_u16);
		optics_limits(&m->vcc, optics_at(pg, 0, 3, QSFP_VCC_THR), optics_vcc_v);
	} else if (!m->note[0]) {
		snprintf(m->note, sizeof(m->note), "%s",
			 lo[QSFP_STATUS2] & QSFP_FLAT_MEM
				 ? "flat memory: the module has no page 03h thresholds"
				 : "page 03h not read: no thresholds");
	}
	m->nlanes = QSFP_LANES;
	for (int i = 0; i < QSFP_LANES; i++) {
		struct optics_lane *l = &m->lane[i];

		optics_set_power(&l->rx, &l->rx_mw, optics_mw(optics_u16(lo + QSFP_RX_PWR + 2 * i)));
		set_flags(&l->rx, lane_flags(lo, QSFP_RX_PWR_FLAGS, i));
		if (txpwr) {
			optics_set_power(&l->tx, &l->tx_mw,
					 optics_mw(optics_u16(lo + QSFP_TX_PWR + 2 * i)));
			set_flags(&l->tx, lane_flags(lo, QSFP_TX_PWR_FLAGS, i));
		}
		l->bias.valid = true;
		l->bias.value = optics_bias_ma(optics_u16(lo + QSFP_BIAS + 2 * i));
		set_flags(&l->bias, lane_flags(lo, QSFP_BIAS_FLAGS, i));
		l->los_valid = true;
		l->rx_los = lo[QSFP_LOS] >> i & 1u;
		if (thr) {
			optics_power_limits(&l->rx, optics_at(pg, 0, 3, QSFP_RX_PWR_THR));
			optics_power_limits(&l->tx, optics_at(pg, 0, 3, QSFP_TX_PWR_THR));
			optics_limits(&l->bias, optics_at(pg, 0, 3, QSFP_BIAS_THR), optics_bias_ma);
			l->tx.thr_valid = txpwr;
		}
	}
	return 0;
}
