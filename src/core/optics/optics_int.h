/* SPDX-License-Identifier: MIT */
/* Shared by the three layout decoders: big-endian fields, unit
 * conversions and the vendor strings. */
#ifndef IBC_CORE_OPTICS_INT_H
#define IBC_CORE_OPTICS_INT_H

#include "core/optics/optics.h"

/* A byte at offset off (0-255) of page `page` at address index a (0: 0x50,
 * 1: 0x51): offsets below 128 are the lower half, the rest the page. */
const uint8_t *optics_at(const struct optics_pages *pg, int a, int page, int off);
bool optics_has(const struct optics_pages *pg, int a, int page);
unsigned optics_u16(const uint8_t *p);
int optics_s16(const uint8_t *p);

/* Units shared by SFF-8472, SFF-8636 and CMIS monitors: temperature
 * signed 1/256 °C, supply 100 µV, optical power 0.1 µW, bias 2 µA. */
double optics_temp_c(int raw);
double optics_temp_u16(unsigned raw);	/* the same from an unsigned field */
double optics_vcc_v(unsigned raw);
double optics_mw(unsigned raw);
double optics_bias_ma(unsigned raw);

/* Copies a space-padded ASCII field, trimmed, non-printables as '?'. */
void optics_ascii(char *dst, const uint8_t *src, int len);

/* Four big-endian 16-bit limits high alarm, low alarm, high warning, low
 * warning at p (stride 2), each converted by conv. */
void optics_limits(struct optics_level *l, const uint8_t *p,
		   double (*conv)(unsigned));
/* The power limits in dBm from 0.1 µW fields. */
void optics_power_limits(struct optics_level *l, const uint8_t *p);
void optics_set_power(struct optics_level *l, double *mw, double val_mw);

int optics_decode_sff8636(const struct optics_pages *pg, struct optics_module *m);
int optics_decode_sff8472(const struct optics_pages *pg, struct optics_module *m);
int optics_decode_cmis(const struct optics_pages *pg, struct optics_module *m);

#endif
