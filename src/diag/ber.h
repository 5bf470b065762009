/* SPDX-License-Identifier: MIT */
/* The effective bit error rate of a port: its SymbolErrorCounter delta
 * over the bits the link carried in the window, judged by levels. */
#ifndef IBC_DIAG_BER_H
#define IBC_DIAG_BER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The reference procedure: a healthy fabric sits below 1e-12, a
 * degrading optic reaches 1e-6. No source gives a level between them at
 * which to act; 1e-9 is ours (config key ber_act). */
#define BER_WATCH_DEFAULT 1e-12
#define BER_ACT_DEFAULT 1e-9

enum ber_level { BER_OK = 0, BER_WATCH = 1, BER_ACT = 2 };

struct ber {
	bool valid;		/* lanes, lane rate and window known */
	uint64_t errors;	/* SymbolErrorCounter delta */
	double bits;		/* lanes x lane signalling rate x seconds */
	double seconds;
	double rate;		/* errors / bits; with no error the upper bound */
	bool bound;		/* no error seen: rate is "<" (95 % confidence) */
	enum ber_level level;
};

/* errors over lanes x lane_gbps (signalling, Gb/s) x seconds. Invalid
 * when any of the three is not positive. */
void ber_compute(struct ber *b, uint64_t errors, int lanes, double lane_gbps, double seconds);

struct delta_port;
/* d's SymbolErrorCounter total since its first sample over lanes x
 * lane_gbps x the seconds between its first and last sample (watch, the
 * console and the exporter). False, b untouched, when the counter was
 * not read; b->valid false when the width, lane rate or window is not
 * known. */
bool ber_since_start(struct ber *b, const struct delta_port *d, int lanes, double lane_gbps);

/* OK at or below watch, WATCH above it, ACT above act; a bound is never
 * worse than OK (no error was seen). */
void ber_judge(struct ber *b, double watch, double act);

/* "3.1e-10 over 10 min", "< 2.4e-14 over 10 min", "n/a" when invalid. */
void ber_text(const struct ber *b, char *buf, size_t n);

struct json;
/* The "ber" object of a port in JSON (watch, errors): the rate, whether
 * it is a bound, the errors, window, lanes, lane rate, bits, level and
 * text of a judged b; with why (b NULL or not valid) only "rate": null
 * and "why". errors_at_least: the error count is a lower bound. */
void ber_json(struct json *j, const struct ber *b, const char *why, bool errors_at_least,
	      int lanes, double lane_gbps);

/* The window as people say it: "45 s", "10 min", "2.5 h". */
void ber_window_text(double seconds, char *buf, size_t n);

#endif
