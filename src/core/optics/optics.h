/* SPDX-License-Identifier: MIT */
/* A pluggable module's own readings (SFF-8472 SFP, SFF-8636 QSFP/QSFP28,
 * CMIS QSFP-DD/OSFP) decoded from its memory pages, beside its limits. */
#ifndef IBC_CORE_OPTICS_H
#define IBC_CORE_OPTICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The module's memory as the kernel hands it out: per two-wire address
 * (0x50, and 0x51 for SFF-8472's diagnostics) a lower half (bytes 0-127)
 * and upper pages (bytes 128-255 of page N). */
#define OPTICS_PAGE_LEN 128
#define OPTICS_NPAGES 32	/* pages 00h-1Fh: CMIS's 11h is the highest we read */
#define OPTICS_MAX_LANES 8

struct optics_pages {
	bool have_lower[2];
	uint8_t lower[2][OPTICS_PAGE_LEN];
	uint32_t have_upper[2];	/* bit N: upper page N was read */
	uint8_t upper[2][OPTICS_NPAGES][OPTICS_PAGE_LEN];
};

enum optics_layout { OPTICS_UNKNOWN, OPTICS_SFF8472, OPTICS_SFF8636, OPTICS_CMIS };

/* Bits a module raises itself (its latched alarm and warning flags). */
enum {
	OPTICS_HIGH_ALARM = 1u << 0,
	OPTICS_LOW_ALARM = 1u << 1,
	OPTICS_HIGH_WARN = 1u << 2,
	OPTICS_LOW_WARN = 1u << 3,
};

/* One monitored quantity in display units (°C, V, mA, dBm) with the
 * module's own limits; have_flags when the layout carries flag bits. */
struct optics_level {
	bool valid;
	double value;
	bool thr_valid;
	double high_alarm, low_alarm, high_warn, low_warn;
	bool have_flags;
	unsigned flags;
};

/* What we conclude about a lane (optics_judge). */
enum {
	OPTICS_NEAR_LOW_RX = 1u << 0,	/* receive power within near_db of its low alarm */
	OPTICS_DARK = 1u << 1,		/* no light (loss of signal or 0 mW) while the link is up */
	OPTICS_ALARM = 1u << 2,		/* an alarm flag bit set */
	OPTICS_WARN = 1u << 3,		/* a warning flag bit set */
};

struct optics_lane {
	struct optics_level rx, tx;	/* dBm; -inf at 0 mW */
	double rx_mw, tx_mw;
	struct optics_level bias;	/* mA */
	bool los_valid, rx_los;
	bool margin_valid;		/* rx power's margin to its nearest alarm */
	double margin_db;
	bool margin_low;		/* the nearest alarm is the low one */
	unsigned judged;		/* OPTICS_NEAR_LOW_RX ... */
};

struct optics_module {
	enum optics_layout layout;
	uint8_t id;			/* SFF-8024 identifier */
	char type[24];			/* "QSFP28", "SFP", "QSFP-DD" ... */
	char vendor[17], part[17], serial[17];
	bool ddm;			/* the module implements monitoring */
	bool ext_cal;			/* SFF-8472: externally calibrated */
	struct optics_level temp;	/* °C */
	struct optics_level vcc;	/* V */
	int nlanes;
	struct optics_lane lane[OPTICS_MAX_LANES];
	unsigned judged;		/* the lanes' and the module's bits, or-ed */
	char note[160];			/* what could not be decoded, or "" */
};

/* Decodes pg (lower page at 0x50 required). Returns 0, or -1 with why in
 * err (unknown identifier, a page missing). */
int optics_decode(const struct optics_pages *pg, struct optics_module *m,
		  char *err, size_t errlen);

/* No source gives a distance for "close to the low alarm": the reference
 * procedure's example is a lane at -12.5 dBm on a module whose low alarm is
 * -14 dBm. 2 dB is ours (config key optic_rx_near_db). */
#define OPTICS_NEAR_DB_DEFAULT 2.0
/* How often the console reads the modules again (config key
 * optic_read_s): no source gives a number; a module's monitors change
 * over minutes (temperature, ageing), and each read is a slow I2C
 * transfer in the module's firmware, so once a minute is ibconsole's
 * choice. */
#define OPTICS_READ_S_DEFAULT 60.0

/* Margins and flags: near_db is how close (dB) to the low receive-power
 * alarm a lane counts as near; link_up 1 / 0 / -1 unknown (dark lanes
 * are only flagged on a link that is up). */
void optics_judge(struct optics_module *m, double near_db, int link_up);

/* "1.5 dB above the low receive-power alarm"; "" when unknown. */
void optics_margin_text(const struct optics_lane *l, char *buf, size_t n);

/* dBm of a power in mW (-inf at 0). */
double optics_dbm(double mw);

#endif
