// SPDX-License-Identifier: MIT
/* CMIS (QSFP-DD, OSFP, QSFP with CMIS): lower page module monitors and
 * flags, page 00h identity, page 01h advertising, page 02h thresholds,
 * page 11h (bank 0) lane flags and monitors. Byte offsets are CMIS 5.2's
 * memory map (the same as ethtool's cmis.h uses). */
#include "config.h"
#include "core/optics/optics.h"

#include <stdio.h>
#include <string.h>

#include "core/optics/optics_int.h"

#define CMIS_MEMORY_MODEL	2	/* bit 7: flat memory (no pages beyond 00h) */
#define CMIS_FLAT_MEM		0x80
#define CMIS_MOD_FLAGS		9	/* bits 0-3 temperature, 4-7 Vcc: high alarm, low alarm, high warning, low warning */
#define CMIS_TEMP		14	/* 14-15 */
#define CMIS_VCC		16	/* 16-17 */
/* Page 00h */
#define CMIS_VENDOR_NAME	129	/* 129-144 */
#define CMIS_VENDOR_PN		148	/* 148-163 */
#define CMIS_VENDOR_SN		166	/* 166-181 */
/* Page 01h */
#define CMIS_MON_ADVER		160	/* bits 0-2: bias, Tx power, Rx power monitored; 3-4 bias multiplier */
/* Page 02h: four 16-bit limits each, high alarm first */
#define CMIS_TEMP_THR		128
#define CMIS_VCC_THR		136
#define CMIS_TX_PWR_THR		176
#define CMIS_BIAS_THR		184
#define CMIS_RX_PWR_THR		192
/* Page 11h: one bit a lane (bit 0 lane 1), then the lane monitors */
#define CMIS_TX_PWR_FLAGS	139	/* 139-142: high alarm, low alarm, high warning, low warning */
#define CMIS_BIAS_FLAGS		143	/* 143-146 */
#define CMIS_RX_LOS		147
#define CMIS_RX_PWR_FLAGS	149	/* 149-152 */
#define CMIS_TX_PWR		154	/* 154-169, lanes 1-8 */
#define CMIS_BIAS		170	/* 170-185 */
#define CMIS_RX_PWR		186	/* 186-201 */

#define CMIS_LANES 8

static unsigned module_flags(unsigned nib)
{
	return (nib & 1 ? OPTICS_HIGH_ALARM : 0) | (nib & 2 ? OPTICS_LOW_ALARM : 0) |
	       (nib & 4 ? OPTICS_HIGH_WARN : 0) | (nib & 8 ? OPTICS_LOW_WARN : 0);
}

static unsigned lane_flags(const struct optics_pages *pg, int at, int lane)
{
	unsigned f = 0;
	static const unsigned bit[4] = { OPTICS_HIGH_ALARM, OPTICS_LOW_ALARM,
					 OPTICS_HIGH_WARN, OPTICS_LOW_WARN };

	for (int k = 0; k < 4; k++)
		if (*optics_at(pg, 0, 0x11, at + k) >> lane & 1u)
			f |= bit[k];
	return f;
}

static void lane_level(struct optics_level *l, const struct optics_pages *pg, int flags_at,
		       int lane)
{
	l->have_flags = true;
	l->flags = lane_flags(pg, flags_at, lane);
}

static void lanes(const struct optics_pages *pg, struct optics_module *m, bool thr)
{
	unsigned adv = 0x07, mult = 1;

	/* Without page 01h every monitor is taken as present, bias unscaled. */
	if (optics_has(pg, 0, 1)) {
		adv = *optics_at(pg, 0, 1, CMIS_MON_ADVER);
		mult = 1u << (adv >> 3 & 3u);
	}
	m->nlanes = CMIS_LANES;
	for (int i = 0; i < CMIS_LANES; i++) {
		struct optics_lane *l = &m->lane[i];

		if (adv & 0x04) {
			optics_set_power(&l->rx, &l->rx_mw,
					 optics_mw(optics_u16(optics_at(pg, 0, 0x11, CMIS_RX_PWR + 2 * i))));
			lane_level(&l->rx, pg, CMIS_RX_PWR_FLAGS, i);
		}
		if (adv & 0x02) {
			optics_set_power(&l->tx, &l->tx_mw,
					 optics_mw(optics_u16(optics_at(pg, 0, 0x11, CMIS_TX_PWR + 2 * i))));
			lane_level(&l->tx, pg, CMIS_TX_PWR_FLAGS, i);
		}
		if (adv & 0x01) {
			l->bias.valid = true;
			l->bias.value = optics_bias_ma(optics_u16(optics_at(pg, 0, 0x11, CMIS_BIAS + 2 * i))) * mult;
			lane_level(&l->bias, pg, CMIS_BIAS_FLAGS, i);
		}
		l->los_valid = true;
		l->rx_los = *optics_at(pg, 0, 0x11, CMIS_RX_LOS) >> i & 1u;
		if (thr) {
			optics_power_limits(&l->rx, optics_at(pg, 0, 2, CMIS_RX_PWR_THR));
			optics_power_limits(&l->tx, optics_at(pg, 0, 2, CMIS_TX_PWR_THR));
			optics_limits(&l->bias, optics_at(pg, 0, 2, CMIS_BIAS_THR), optics_bias_ma);
			l->bias.high_alarm *= mult;
			l->bias.low_alarm *= mult;
			l->bias.high_warn *= mult;
			l->bias.low_warn *= mult;
		}
	}
}

int optics_decode_cmis(const struct optics_pages *pg, struct optics_module *m)
{
	const uint8_t *lo = pg->lower[0];
	bool flat = lo[CMIS_MEMORY_MODEL] & CMIS_FLAT_MEM;
	bool thr = !flat && optics_has(pg, 0, 2);

	if (optics_has(pg, 0, 0)) {
		optics_ascii(m->vendor, optics_at(pg, 0, 0, CMIS_VENDOR_NAME), 16);
		optics_ascii(m->part, optics_at(pg, 0, 0, CMIS_VENDOR_PN), 16);
		optics_ascii(m->serial, optics_at(pg, 0, 0, CMIS_VENDOR_SN), 16);
	}
	m->ddm = true;
	m->temp.valid = true;
	m->temp.value = optics_temp_c(optics_s16(lo + CMIS_TEMP));
	m->temp.have_flags = true;
	m->temp.flags = module_flags(lo[CMIS_MOD_FLAGS] & 0x0f);
	m->vcc.valid = true;
	m->vcc.value = optics_vcc_v(optics_u16(lo + CMIS_VCC));
	m->vcc.have_flags = true;
	m->vcc.flags = module_flags(lo[CMIS_MOD_FLAGS] >> 4);
	if (thr) {
		optics_limits(&m->temp, optics_at(pg, 0, 2, CMIS_TEMP_THR), optics_temp_u16);
		optics_limits(&m->vcc, optics_at(pg, 0, 2, CMIS_VCC_THR), optics_vcc_v);
	}
	if (flat) {
		snprintf(m->note, sizeof(m->note),
			 "flat memory (a passive cable): no lane monitors or thresholds");
		return 0;
	}
	if (!optics_has(pg, 0, 0x11)) {
		snprintf(m->note, sizeof(m->note), "page 11h not read: no lane monitors");
		return 0;
	}
	if (!thr)
		snprintf(m->note, sizeof(m->note), "page 02h not read: no thresholds");
	lanes(pg, m, thr);
	return 0;
}
