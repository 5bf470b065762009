// SPDX-License-Identifier: MIT
/* The seven-step triage's walk: every step's rule in the table's order,
 * the fingerprint, and the conclusion over all steps. The rules live by
 * family (see triage.h); what they build with lives in triage_lines.c.
 * Pure: no I/O. */
#include "config.h"
#include "diag/triage.h"
#include "diag/triage_lines.h"
#include "diag/triage_steps.h"

#include <stdio.h>
#include <string.h>

#include "diag/fingerprint.h"

/* ---- all of it ---- */

void triage_step(const struct tri_evidence *ev, enum tri_step s, struct tri_result *out)
{
	memset(out, 0, sizeof(*out));
	switch (s) {
	case TRI_ENV: tri_step_env(ev, out); break;
	case TRI_RATE: tri_step_rate(ev, out); break;
	case TRI_PCIE: tri_step_pcie(ev, out); break;
	case TRI_GID: tri_step_gid(ev, out); break;
	case TRI_MTU: tri_step_mtu(ev, out); break;
	case TRI_LOSSLESS: tri_step_lossless(ev, out); break;
	case TRI_NUMA: tri_step_numa(ev, out); break;
	case TRI_QPS: tri_step_qps(ev, out); break;
	default: break;
	}
}

static void conclude(struct triage *t, enum tri_step s, const char *extra)
{
	struct tri_conclusion *c = &t->c;
	const struct tri_result *r = &t->r[s];

	c->step = s;
	c->state = r->state;
	if (s == TRI_ENV)
		tri_fmt(c->text, sizeof(c->text), "environment: %s", r->reason);
	else
		tri_fmt(c->text, sizeof(c->text), "%s (step %d): %s",
			r->state == TRI_FAIL ? tri_steps[s].cause : tri_steps[s].title, (int)s, r->reason);
	snprintf(c->action, sizeof(c->action), "%s", r->hint[0] ? r->hint : tri_steps[s].hint);
	snprintf(c->lines[c->nlines++], TRI_LINE, "%s", r->reason);
	if (extra && *extra)
		snprintf(c->lines[c->nlines++], TRI_LINE, "%s", extra);
	for (int i = 0; i < r->nlines && c->nlines < 4; i++)
		if (strstr(r->lines[i], "under triage") == NULL)
			snprintf(c->lines[c->nlines++], TRI_LINE, "%s", r->lines[i]);
}

void triage_eval(const struct tri_evidence *ev, struct triage *t)
{
	memset(t, 0, sizeof(*t));
	for (int s = 0; s < TRI_NSTEPS; s++) {
		triage_step(ev, (enum tri_step)s, &t->r[s]);
		if (t->r[s].state == TRI_FAIL)
			t->any_fail = true;
	}
	fingerprint_match(ev, t->r, &t->fp);

	if (t->r[TRI_ENV].state == TRI_FAIL) {
		conclude(t, TRI_ENV, NULL);
		return;
	}
	if (t->fp.id != FP_NONE) {
		/* in the procedure's order: a failed earlier step explains the
		 * collapse under load (an MTU mismatch also breaks the load
		 * run); the PCIe and link-rate fingerprints are those steps' */
		enum tri_step s = t->fp.step;

		for (int e = TRI_RATE; t->fp.id == FP_LOSSLESS && e < (int)t->fp.step; e++)
			if (t->r[e].state == TRI_FAIL) {
				s = (enum tri_step)e;
				break;
			}
		conclude(t, s, s == t->fp.step ? t->fp.text : NULL);
		return;
	}
	for (int want = TRI_FAIL; want >= TRI_WARN; want--)
		for (int s = TRI_RATE; s < TRI_NSTEPS; s++)
			if ((int)t->r[s].state == want) {
				conclude(t, (enum tri_step)s, NULL);
				return;
			}
	if (t->r[TRI_QPS].state == TRI_INFO) {
		conclude(t, TRI_QPS, NULL);
		return;
	}
	if (t->r[TRI_ENV].state == TRI_WARN) {
		conclude(t, TRI_ENV, NULL);
		return;
	}
	t->c.step = TRI_NSTEPS;
	t->c.state = TRI_PASS;
	snprintf(t->c.text, sizeof(t->c.text), "no cause found: every step that could run passed");
	snprintf(t->c.action, sizeof(t->c.action), "%s",
		 ev->peer[0] ? "compare with a saved test record (ibconsole test --compare) and sweep the fabric's error counters (ibconsole errors)" :
		 "re-run with --peer HOST (an agent: ibconsole serve) for the traffic steps");
}
