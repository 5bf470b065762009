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

/* The fingerprint table: the step each one reads and, for the two that
 * set measured against reference bandwidth, the procedure's figure (mid)
 * and the band around it in which the ratio must fall. Lossless has no
 * band: its sign is the collapse under load, which step 5 judges. */
static const struct fp_def {
	const char *name;	/* JSON */
	enum tri_step step;
	double lo, mid, hi;
} fp_defs[] = {
	[FP_NONE] = { "none", TRI_NSTEPS, 0, 0, 0 },
	[FP_PCIE] = { "pcie", TRI_PCIE, 0.50, 0.60, 0.75 },		/* about 60 % */
	[FP_LINK_RATE] = { "link_rate", TRI_RATE, 0.35, 0.50, 0.62 },	/* about half */
	[FP_LOSSLESS] = { "lossless", TRI_LOSSLESS, 0, 0, 0 },
};

const char *fingerprint_name(enum tri_fp id)
{
	return id > FP_NONE && id <= FP_LOSSLESS ? fp_defs[id].name : "none";
}

/* The step failed and the ratio falls in the fingerprint's band. */
static bool in_band(enum tri_fp id, const struct tri_result *r, double ratio)
{
	const struct fp_def *d = &fp_defs[id];

	return r[d->step].state == TRI_FAIL && ratio >= d->lo && ratio <= d->hi;
}

/* Sets the fingerprint found. */
static void found(struct tri_fingerprint *fp, enum tri_fp id)
{
	fp->id = id;
	fp->step = fp_defs[id].step;
}

double fingerprint_reference_gbps(const struct tri_evidence *ev)
{
	const struct port_info *p = &ev->local;
	double data = triage_data_rate_gbps(p);

	if (ev->line_gbps > 0)
		return ev->line_gbps;	/* what the path is known to carry */
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
	bool pcie = in_band(FP_PCIE, r, ratio), link = in_band(FP_LINK_RATE, r, ratio);
	const struct pcie_info *pc = &ev->local.pcie;

	memset(fp, 0, sizeof(*fp));
	fp->ratio = ratio;
	fp->step = TRI_NSTEPS;
	if (pcie && link) {
		/* both bands hold: the nearer figure decides */
		if (fabs(ratio - fp_defs[FP_PCIE].mid) <= fabs(ratio - fp_defs[FP_LINK_RATE].mid))
			link = false;
		else
			pcie = false;
	}
	if (pcie) {
		found(fp, FP_PCIE);
		snprintf(fp->text, sizeof(fp->text),
			 "measured %.3g Gb/s = %.0f %% of %.3g Gb/s and PCIe Gen%d x%d carries %.0f Gb/s: the PCIe fingerprint (about 60 %%)",
			 meas, ratio * 100, ref, pcie_gen(pc->cur_gts), pc->cur_width,
			 portfacts_pcie_usable(pc));	/* step 2's figure */
	} else if (link) {
		found(fp, FP_LINK_RATE);
		snprintf(fp->text, sizeof(fp->text),
			 "measured %.3g Gb/s = %.0f %% of %.3g Gb/s with the link trained %s %s: the degraded-link fingerprint (about half)",
			 meas, ratio * 100, ref, port_width_name(ev->local.width_active), ev->local.speed_name);
	} else if (r[fp_defs[FP_LOSSLESS].step].state == TRI_FAIL) {
		found(fp, FP_LOSSLESS);
		snprintf(fp->text, sizeof(fp->text),
			 "good with 1 QP, collapses under load while retransmissions or pauses rise: lossless configuration (PFC / ECN) is not in effect");
	}
}
