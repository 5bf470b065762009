// SPDX-License-Identifier: MIT
/* Acceptance judgements, pure: the card verdict against the acceptance
 * line with its local cause, the all-pairs schedule, the fleet-relative
 * pair rules (NVIDIA ClusterKit's 93 % of the best bandwidth and 2.1x the
 * best latency) and localisation of a bad host or a bad path. */
#include "config.h"
#include "accept.h"

#include <stdio.h>
#include <string.h>

#include "core/agent/proto.h"
#include "core/base/numfmt.h"
#include "core/port/pcie.h"
#include "diag/pcielimit.h"

#define EPS 1e-9

void acc_limits_defaults(struct acc_limits *l)
{
	l->accept = 0.90;
	l->fleet_bw = 0.93;
	l->fleet_lat = 2.1;
}

/* Appends "; text" (or text when out is empty). */
static void add(char *out, size_t len, const char *text)
{
	size_t n = strlen(out);

	if (n + 3 >= len)
		return;
	snprintf(out + n, len - n, "%s%s", n ? "; " : "", text);
}

void acc_local_cause(const struct acc_evidence *ev, char *out, size_t len)
{
	char t[400];

	out[0] = '\0';
	if (!ev)
		return;
	if (ev->below_capability) {
		snprintf(t, sizeof(t), "link trained below capability: %s",
			 ev->below_why[0] ? ev->below_why : "width or speed");
		add(out, len, t);
	}
	if (ev->pcie_limits && ev->pcie_gts > 0 && ev->pcie_need_gbps > 0)
		/* the slot limits the card: the platform team's, not the fabric's */
		snprintf(t, sizeof(t),
			 "PCIe: %g GT/s x%d (Gen%d) carries %.1f Gb/s usable of the %.4g Gb/s data rate, below the %.0f %% line (%.1f Gb/s) — move the card to a slot of the generation and width it needs, or check the riser",
			 ev->pcie_gts, ev->pcie_lanes, pcie_gen(ev->pcie_gts), ev->pcie_usable_gbps,
			 ev->pcie_need_gbps, PCIE_ACCEPT_FRACTION * 100,
			 PCIE_ACCEPT_FRACTION * ev->pcie_need_gbps);
	else if (ev->pcie_limits)
		snprintf(t, sizeof(t), "PCIe short: %s", ev->pcie_why[0] ? ev->pcie_why :
			 "the PCIe link cannot carry the data rate");
	if (ev->pcie_limits)
		add(out, len, t);
	if (!strcmp(ev->numa_relation, "remote") || !strcmp(ev->numa_relation, "mixed")) {
		if (ev->numa_node >= 0)
			snprintf(t, sizeof(t), "NUMA: this process runs %s to the card (node %d) — pin with numactl -N %d",
				 !strcmp(ev->numa_relation, "remote") ? "remote" : "partly remote",
				 ev->numa_node, ev->numa_node);
		else
			snprintf(t, sizeof(t), "NUMA: this process runs %s to the card",
				 !strcmp(ev->numa_relation, "remote") ? "remote" : "partly remote");
		add(out, len, t);
	}
	if (ev->roce && ev->gid_type[0] && strcmp(ev->gid_type, "RoCE v2")) {
		snprintf(t, sizeof(t), "GID type %s, not RoCE v2 — give -x with the RoCE v2 entry",
			 ev->gid_type);
		add(out, len, t);
	}
	if (ev->mtu_active > 0 && ev->peer_mtu > 0 && ev->mtu_active != ev->peer_mtu) {
		snprintf(t, sizeof(t), "MTU mismatch: active MTU %d here, %d at the other end%s", ev->mtu_active,
			 ev->peer_mtu, ev->roce ? " — set the same netdev MTU on both" :
			 " — check the subnet manager's MTU for both ports");
		add(out, len, t);
	}
}

void acc_card_judge(const struct acc_card_in *in, const struct acc_limits *l,
		    struct acc_card *out)
{
	struct acc_limits def;
	char local[600];

	if (!l) {
		acc_limits_defaults(&def);
		l = &def;
	}
	memset(out, 0, sizeof(*out));
	out->pct = -1;
	out->line_gbps = in->data_gbps > 0 ? in->data_gbps * l->accept : 0;
	if (!in->have_result) {
		/* what the card's own facts say still helps (a slot that
		 * cannot carry it fails whatever the test would have shown) */
		acc_local_cause(in->ev, local, sizeof(local));
		snprintf(out->cause, sizeof(out->cause), "no result: %.250s%s%.320s",
			 in->err && in->err[0] ? in->err : "the test did not run",
			 local[0] ? "; and " : "", local);
		return;
	}
	if (in->data_gbps <= 0) {
		snprintf(out->cause, sizeof(out->cause),
			 "the port's data rate is unknown — give --line-rate GBPS");
		return;
	}
	out->pct = 100.0 * in->gbps / in->data_gbps;
	out->pass = in->gbps >= out->line_gbps - EPS;
	if (out->pass)
		return;
	acc_local_cause(in->ev, local, sizeof(local));
	if (local[0])
		snprintf(out->cause, sizeof(out->cause), "%s", local);
	else
		snprintf(out->cause, sizeof(out->cause),
			 "the card looks healthy: check the switch port and cable");
}

int acc_schedule(int n, int (*pairs)[2], int maxpairs, int *per_round)
{
	int m = n + (n & 1), rounds = m - 1, k = 0;

	if (n < 2 || n > ACC_MAX_HOSTS || (long)rounds * (m / 2) > maxpairs)
		return -1;
	/* circle method: seat m-1 stays, the others rotate; a seat >= n (odd
	 * n) is the idle one */
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < m / 2; i++) {
			int s1 = i == 0 ? m - 1 : (r + i) % (m - 1);
			int s2 = (r - i + m - 1) % (m - 1);
			int a = s1 < s2 ? s1 : s2, b = s1 < s2 ? s2 : s1;

			if (b >= n)
				continue;
			pairs[k][0] = a;
			pairs[k][1] = b;
			k++;
		}
	}
	if (per_round)
		*per_round = n / 2;
	return rounds;
}

int acc_pairs_judge(struct acc_pair *p, int np, const struct acc_limits *l)
{
	struct acc_limits def;
	double best_bw = 0, best_lat = 0;
	int bad = 0;
	char a[48], b[48];

	if (!l) {
		acc_limits_defaults(&def);
		l = &def;
	}
	for (int i = 0; i < np; i++) {
		if (!p[i].ok)
			continue;
		if (p[i].bw_gbps > best_bw)
			best_bw = p[i].bw_gbps;
		if (p[i].lat_us > 0 && (best_lat == 0 || p[i].lat_us < best_lat))
			best_lat = p[i].lat_us;
	}
	for (int i = 0; i < np; i++) {
		struct acc_pair *x = &p[i];

		x->bad = false;
		x->why[0] = '\0';
		if (!x->ok) {
			x->bad = true;
			snprintf(x->why, sizeof(x->why), "no result");
		} else if (x->data_gbps > 0 && x->bw_gbps < x->data_gbps * l->accept - EPS) {
			x->bad = true;
			snprintf(x->why, sizeof(x->why), "%s is %.1f %% of the %s data rate (line %.0f %%)",
				 numfmt_unit(x->bw_gbps, "Gb/s", a, sizeof(a)), 100 * x->bw_gbps / x->data_gbps,
				 numfmt_unit(x->data_gbps, "Gb/s", b, sizeof(b)), 100 * l->accept);
		} else if (x->bw_gbps < best_bw * l->fleet_bw - EPS) {
			x->bad = true;
			snprintf(x->why, sizeof(x->why), "%s is %.1f %% of the best pair's %s (line %.0f %%)",
				 numfmt_unit(x->bw_gbps, "Gb/s", a, sizeof(a)), 100 * x->bw_gbps / best_bw,
				 numfmt_unit(best_bw, "Gb/s", b, sizeof(b)), 100 * l->fleet_bw);
		} else if (x->lat_us > 0 && best_lat > 0 && x->lat_us > best_lat * l->fleet_lat + EPS) {
			x->bad = true;
			snprintf(x->why, sizeof(x->why), "latency %s is %.2fx the best pair's %s (line %.1fx)",
				 numfmt_unit(x->lat_us, "us", a, sizeof(a)), x->lat_us / best_lat,
				 numfmt_unit(best_lat, "us", b, sizeof(b)), l->fleet_lat);
		}
		bad += x->bad;
	}
	return bad;
}

int acc_localise(int n, const struct acc_pair *p, int np, bool *host_bad,
		 int *paths, int *npaths)
{
	int nbad = 0;

	*npaths = 0;
	for (int h = 0; h < n; h++) {
		int partners = 0, badp = 0;

		for (int i = 0; i < np; i++) {
			if (p[i].a != h && p[i].b != h)
				continue;
			partners++;
			badp += p[i].bad;
		}
		/* most partners: more than half, and at least two (with two
		 * hosts one bad pair cannot say which end) */
		host_bad[h] = badp >= 2 && 2 * badp > partners;
		nbad += host_bad[h];
	}
	for (int i = 0; i < np; i++)
		if (p[i].bad && !host_bad[p[i].a] && !host_bad[p[i].b])
			paths[(*npaths)++] = i;
	return nbad;
}

/* "8 GT/s x8 of 16 GT/s x16": the trained link, then the capability. */
static bool pcie_short(const char *pcie)
{
	const char *of = strstr(pcie, " of ");

	return of && ((size_t)(of - pcie) != strlen(of + 4) ||
		      strncmp(pcie, of + 4, (size_t)(of - pcie)) != 0);
}

void acc_host_evidence(const struct proto_facts *f, uint32_t fleet_mtu, char *out, size_t len)
{
	char t[400], drv[PROTO_NAME + 4], rate[48];

	out[0] = '\0';
	if (!f->device[0]) {
		snprintf(out, len, "no facts from its agent");
		return;
	}
	if (f->pcie[0] && pcie_short(f->pcie)) {
		snprintf(t, sizeof(t), "PCIe trained below its capability: %s", f->pcie);
		add(out, len, t);
	}
	if (f->cpu_governor[0] && strcmp(f->cpu_governor, "performance")) {
		snprintf(t, sizeof(t), "CPU governor %s, not performance", f->cpu_governor);
		add(out, len, t);
	}
	if (fleet_mtu && f->mtu && f->mtu != fleet_mtu) {
		snprintf(t, sizeof(t), "active MTU %u, the other hosts %u", f->mtu, fleet_mtu);
		add(out, len, t);
	}
	snprintf(drv, sizeof(drv), "%s%s%s", f->driver[0] ? " (" : "", f->driver,
		 f->driver[0] ? ")" : "");
	snprintf(t, sizeof(t), "%s%s%s%s, fw %s, data rate %s, MTU %u, PCIe %s, NUMA node %d",
		 f->host, f->host[0] ? " " : "", f->device, drv, f->fw_ver[0] ? f->fw_ver : "?",
		 numfmt_unit(f->rate_mbps / 1000.0, "Gb/s", rate, sizeof(rate)), f->mtu, f->pcie[0] ? f->pcie : "unknown", f->numa_node);
	add(out, len, t);
}

void acc_card_verdict(const struct accept_card *c, const struct acc_limits *l,
		      struct acc_card *out)
{
	struct acc_card_in in = { .have_result = c->ran, .err = c->err, .gbps = c->gbps,
				  .data_gbps = c->data_gbps, .ev = c->found ? &c->ev : NULL };

	acc_card_judge(&in, l, out);
}

/* Sort key: failing before passing, no result before a measured share,
 * lower shares first. */
static int order_before(const struct acc_card *a, const struct acc_card *b)
{
	if (a->pass != b->pass)
		return a->pass ? 1 : -1;
	if ((a->pct < 0) != (b->pct < 0))
		return a->pct < 0 ? -1 : 1;
	if (a->pct < b->pct - EPS)
		return -1;
	if (a->pct > b->pct + EPS)
		return 1;
	return 0;
}

void acc_order(const struct acc_card *cards, int n, int *order)
{
	/* insertion sort: stable, and a console has a handful of cards */
	for (int i = 0; i < n; i++) {
		int k = i;

		while (k > 0 && order_before(&cards[i], &cards[order[k - 1]]) < 0) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
}

double acc_band_floor(enum acc_band b, double fleet_pct)
{
	switch (b) {
	case ACC_BAND_TOP: return (fleet_pct + 100.0) / 2;
	case ACC_BAND_MID: return fleet_pct;
	case ACC_BAND_LOW: return 0;
	default: return -1;
	}
}

enum acc_band acc_heat_band(bool ok, bool bad, double pct, double fleet_pct)
{
	if (!ok || pct < 0)
		return ACC_BAND_NONE;
	if (bad)
		return ACC_BAND_BAD;
	if (pct >= acc_band_floor(ACC_BAND_TOP, fleet_pct) - EPS)
		return ACC_BAND_TOP;
	if (pct >= fleet_pct - EPS)
		return ACC_BAND_MID;
	return ACC_BAND_LOW;
}
