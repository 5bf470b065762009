/* SPDX-License-Identifier: MIT */
/* Swept ports' counter texts kept from sweep to sweep. The traffic
 * families (data, packets, PortXmitWait) move on every port a sweep's
 * own MADs pass, so they are written from the raw values on each sweep;
 * the rest (error counters, read state, verdicts: most of the text, and
 * the judging) depends on the error counters only. A port whose error
 * counters read the same as in the previous sweep, and did so when its
 * text was written, has the same verdicts (nothing moved in either
 * interval) and the same text: it is written once and reused, so a
 * sweep judges and writes only the ports whose error counters moved.
 * Each section of the rest is kept as served too, all ports' samples in
 * port order, and made again only when a port's samples in it changed. */
#ifndef IBC_EXPORT_PORTTEXT_H
#define IBC_EXPORT_PORTTEXT_H

#include <stdbool.h>
#include <stdint.h>
#include "core/counters/counters.h"
#include "core/export/metrics.h"

struct sweep;

struct porttext {
	char *p;		/* the rest part, NULL none */
	uint32_t *off;
	unsigned present;	/* export_traffic_present() */
	int worst;		/* its verdicts' highest level */
	bool steady;		/* written from two samples with the same errors */
	/* the sample it was written from */
	uint8_t result;
	bool has_pce;
	uint16_t cap;
	uint32_t cap2;
	uint64_t v[CTR_IDX_COUNT];
};

struct porttexts {
	struct porttext *t;
	int n, nsect;
	unsigned long list;		/* the port list they belong to */
	struct expo_buf *sect;		/* nsect: the rest's sections as served */
	bool *dirty;			/* nsect: sect[k] is to be made again */
};

/* Fits pt to the n ports of port list `list` (a number that changes
 * whenever the list does): the texts of another list go. 0, or -1 out
 * of memory with pt empty. */
int porttexts_fit(struct porttexts *pt, int n, unsigned long list);
/* Whether port i's kept text is still true: this round (sw) read the
 * port with the error counters of the previous round (prev, NULL:
 * none), and its text was written from such a pair of these values. */
bool porttexts_fresh(const struct porttexts *pt, int i, const struct sweep *sw,
		     const struct sweep *prev);
/* Writes port i's text from t (labels, counters, verdicts; worst: the
 * verdicts' highest level) and keeps it with the sample it comes from.
 * 0, or -1 out of memory (the port has no text then). */
int porttexts_keep(struct porttexts *pt, int i, const char *prefix,
		   const struct export_target *t, int worst, const struct sweep *sw,
		   const struct sweep *prev);
/* Appends every counter family of the ports to b: the kept sections,
 * and the traffic families from this sweep's (sw) raw values, labels
 * from et[i]; what export_write_counters() writes for the same ports.
 * 0, or -1 out of memory. */
int porttexts_write(struct porttexts *pt, struct expo_buf *b, const char *prefix,
		    const struct export_target *et, const struct sweep *sw);
void porttexts_free(struct porttexts *pt);

#endif
