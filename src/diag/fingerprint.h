/* SPDX-License-Identifier: MIT */
/* Fingerprints of the reference procedure: what a measured bandwidth,
 * set against the rate the link should carry, says with a failed step. */
#ifndef IBC_DIAG_FINGERPRINT_H
#define IBC_DIAG_FINGERPRINT_H

#include "diag/triage.h"

/* The reference rate fingerprints measure against (the site's expected
 * rate, else what the port could carry) and the measured bandwidth (the
 * best of the traffic runs); 0 when unknown. */
double fingerprint_reference_gbps(const struct tri_evidence *ev);
double fingerprint_measured_gbps(const struct tri_evidence *ev);

/* Matches ev and the evaluated steps r[] against the fingerprints; fills
 * *fp (FP_NONE when none matches). */
void fingerprint_match(const struct tri_evidence *ev, const struct tri_result *r,
		       struct tri_fingerprint *fp);
const char *fingerprint_name(enum tri_fp id);	/* "pcie", "link_rate", … */

#endif
