// SPDX-License-Identifier: MIT
/* Fingerprints: measured bandwidth against the rate the link should carry,
 * read together with the step that failed — about 60 % with a PCIe
 * shortfall is PCIe, about half with a degraded link is the link rate,
 * fine idle but collapsing under load is lossless configuration. */
#include "config.h"
#include "diag/fingerprint.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/port/pcie.h"
#include "diag/portfacts.h"
#include "diag/triage_lines.h"

/* Bands around the procedure's figures. */
#define FP_PCIE_LO 0.50
#define FP_PCIE_HI 0.75
#define FP_PCIE_MID 0.60
#define FP_LINK_LO 0.35
#define FP_LINK_HI 0.62
#define FP_LINK_MID 0.50

const char *fingerprint_name(enum tri_fp id)
{
	switch (id) {
	case FP_PCIE: return "pcie";
	case FP_LINK_RATE: return "link_rate";
	case FP_LOSSLESS: return "lossless";
	default: return "none";
	}
}

double fingerprint_reference_gbps(const struct tri_evidence *ev)
{
	const struct port_info *p = &ev->local;
	double data = triage_data_rate_gbps(p);

	if (ev->expected_rate_gbps > 0)
		return ev->expected_rate_gbps;
	if (data <= 0)
		return 0;
	/* what the port could carry at its capability, after encoding */
	if (p->max_rate_gbps > p->rate_gbps)
		return p->max_rate_gbps * data / p->rate_gbps;
	return data;
}

double fingerprint_measured_gbps(const struct tri_evidence *ev)
{
	double m = 0;

	if (ev->bw1.ok && ev->bw1.gbps > m)
		m = ev->bw1.gbps;
	if (ev->bw8.ok && ev->bw8.gbps > m)
		m = ev->bw8.gbps;
	return m;
}

void fingerprint_match(const struct tri_evidence *ev, const struct tri_result *r,
		       struct tri_fingerprint *fp)
{
	double ref = fingerprint_reference_gbps(ev), meas = fingerprint_measured_gbps(ev);
	double ratio = ref > 0 && meas > 0 ? meas / ref : 0;
	bool pcie = r[TRI_PCIE].state == TRI_FAIL && ratio >= FP_PCIE_LO && ratio <= FP_PCIE_HI;
	bool link = r[TRI_RATE].state == TRI_FAIL && ratio >= FP_LINK_LO && ratio <= FP_LINK_HI;
	const struct pcie_info *pc = &ev->local.pcie;

	memset(fp, 0, sizeof(*fp));
	fp->ratio = ratio;
	fp->step = TRI_NSTEPS;
	if (pcie && link) {
		/* both bands hold: the nearer figure decides */
		if (fabs(ratio - FP_PCIE_MID) <= fabs(ratio - FP_LINK_MID))
			link = false;
		else
			pcie = false;
	}
	if (pcie) {
		fp->id = FP_PCIE;
		fp->step = TRI_PCIE;
		snprintf(fp->text, sizeof(fp->text),
			 "measured %.3g Gb/s = %.0f %% of %.3g Gb/s and PCIe Gen%d x%d carries %.0f Gb/s: the PCIe fingerprint (about 60 %%)",
			 meas, ratio * 100, ref, pcie_gen(pc->cur_gts), pc->cur_width,
			 portfacts_pcie_usable(pc));	/* step 2's figure */
	} else if (link) {
		fp->id = FP_LINK_RATE;
		fp->step = TRI_RATE;
		snprintf(fp->text, sizeof(fp->text),
			 "measured %.3g Gb/s = %.0f %% of %.3g Gb/s with the link trained %s %s: the degraded-link fingerprint (about half)",
			 meas, ratio * 100, ref, port_width_name(ev->local.width_active), ev->local.speed_name);
	} else if (r[TRI_LOSSLESS].state == TRI_FAIL) {
		fp->id = FP_LOSSLESS;
		fp->step = TRI_LOSSLESS;
		snprintf(fp->text, sizeof(fp->text),
			 "good with 1 QP, collapses under load while retransmissions or pauses rise: lossless configuration (PFC / ECN) is not in effect");
	}
}
