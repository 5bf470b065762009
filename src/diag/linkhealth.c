// SPDX-License-Identifier: MIT
/* Link health: what each link trained to against what both ends could do,
 * whether the ends agree, MTU and state; nothing fires on a healthy link. */
#include "config.h"
#include "linkhealth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fabric/diff.h"

const struct lh_rule lh_rules[LH_NRULES] = {
	{ LH_BELOW_WIDTH, "below_width", LH_ERROR,
	  "link trained narrower than both ends support",
	  "reseat or replace the cable / optic; check LinkWidthEnabled on both ends (ibportstate)" },
	{ LH_BELOW_SPEED, "below_speed", LH_ERROR,
	  "link trained slower than both ends support",
	  "check LinkSpeedEnabled / LinkSpeedExtEnabled on both ends and the cable's rating; replace a marginal cable" },
	{ LH_ENDS_DISAGREE, "ends_disagree", LH_ERROR,
	  "the two ends report different active width, speed or state",
	  "query both ends again (smpquery portinfo); a persistent disagreement means a faulty port" },
	{ LH_MTU_MISMATCH, "mtu_mismatch", LH_ERROR,
	  "the ends of the link use different MTUs",
	  "set the same MTU on both ends (the SM's partition / port MTU)" },
	{ LH_NOT_ACTIVE, "not_active", LH_ERROR,
	  "a cabled port is not Active / LinkUp",
	  "run or check the subnet manager (Init/Armed) or the cable (Polling/Training)" },
	{ LH_UP_NO_PEER, "up_no_peer", LH_WARN,
	  "port is up but nothing was discovered behind it",
	  "the peer did not answer SMPs, or it is beyond the hop limit; rerun discovery with more hops or a longer time-out" },
	{ LH_LINK_LOST, "link_lost", LH_ERROR,
	  "a link of the baseline discovery is gone",
	  "check the cable and both ports (iblinkinfo); LinkDownedCounter tells whether it flapped" },
	{ LH_UNLINKED, "unlinked", LH_INFO,
	  "port is down with nothing behind it",
	  "nothing to do if the port is meant to be unused; otherwise cable it" },
};

const char *lh_severity_name(enum lh_severity s)
{
	return s == LH_ERROR ? "error" : s == LH_WARN ? "warn" : "info";
}

static int finding_add(struct lh_finding *out, int n, enum lh_rule_id id, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#include <stdarg.h>
static int finding_add(struct lh_finding *out, int n, enum lh_rule_id id, const char *fmt, ...)
{
	va_list ap;

	memset(&out[n], 0, sizeof(out[n]));
	out[n].rule = id;
	out[n].port = out[n].peer = -1;
	va_start(ap, fmt);
	vsnprintf(out[n].evidence, sizeof(out[n].evidence), fmt, ap);
	va_end(ap);
	return n + 1;
}

static const char *state_pair(const struct fab_port *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", port_state_name(p->state),
		 port_phys_state_name(p->phys_state));
	return buf;
}

int linkhealth_link(const struct fab_port *a, const struct fab_port *b,
		    struct lh_finding *out)
{
	char s1[48], s2[48], l1[64], l2[64], l3[64], l4[64];
	struct port_info pa, pb;
	int n = 0;

	if (!a->info_valid || !b->info_valid)
		return 0;
	fabric_port_to_info(a, &pa);
	fabric_port_to_info(b, &pb);

	if (a->state != 4 || a->phys_state != 5 || b->state != 4 || b->phys_state != 5)
		n = finding_add(out, n, LH_NOT_ACTIVE, "ends are %s and %s (want Active/LinkUp)",
			state_pair(a, s1, sizeof(s1)), state_pair(b, s2, sizeof(s2)));
	if (a->state != b->state || a->phys_state != b->phys_state ||
	    a->width_active != b->width_active || strcmp(a->speed, b->speed))
		n = finding_add(out, n, LH_ENDS_DISAGREE, "one end says %s %s %s, the other %s %s %s",
			a->width[0] ? a->width : "?", a->speed[0] ? a->speed : "?",
			state_pair(a, s1, sizeof(s1)),
			b->width[0] ? b->width : "?", b->speed[0] ? b->speed : "?",
			state_pair(b, s2, sizeof(s2)));
	if (a->mtu_active && b->mtu_active && a->mtu_active != b->mtu_active)
		n = finding_add(out, n, LH_MTU_MISMATCH, "NeighborMTU %d vs %d (MtuCap %d vs %d)",
			a->mtu_active, b->mtu_active, a->mtu_cap, b->mtu_cap);
	if (a->state < 2 || b->state < 2)
		return n;	/* a down link has no trained rate to judge */

	/* Width: the widest width both ends could train to. */
	unsigned common = port_capable_widths(a->width_supported, a->width_enabled) &
			port_capable_widths(b->width_supported, b->width_enabled);
	int could = port_width_lanes(common);
	int act = port_width_lanes(a->width_active);

	if (port_width_lanes(b->width_active) < act)
		act = port_width_lanes(b->width_active);
	if (act && could > act) {
		unsigned en = a->width_enabled & b->width_enabled;

		n = finding_add(out, n, LH_BELOW_WIDTH,
			"trained %dX, both ends support %dX (supported %s / %s; enabled %s / %s)%s",
			act, could,
			port_width_list(a->width_supported, l1, sizeof(l1)),
			port_width_list(b->width_supported, l2, sizeof(l2)),
			port_width_list(a->width_enabled, l3, sizeof(l3)),
			port_width_list(b->width_enabled, l4, sizeof(l4)),
			port_width_lanes(en) <= act ? "; the enabled widths allow no more" : "");
	}

	/* Speed: the fastest speed both ends support, as iblinkinfo's "Could
	 * be" (supported, not enabled: enabled only explains why). */
	bool ext = a->ext_valid && b->ext_valid;
	bool ext2 = a->ext2_valid && b->ext2_valid;
	char cname[8], aname[8], ename[8];
	unsigned cap2 = ext2 ? a->ext2_supported & b->ext2_supported : 0;
	double cap_lane = port_lane_rate(a->speed_supported & b->speed_supported,
					 ext ? a->ext_supported & b->ext_supported : 0, ext,
					 cap2, cap2 != 0, cname, sizeof(cname));
	double act_lane = a->rate_gbps && act ? a->rate_gbps / port_width_lanes(a->width_active) : 0;
	unsigned en2 = ext2 ? a->ext2_enabled & b->ext2_enabled : 0;
	double en_lane = port_lane_rate(a->speed_enabled & b->speed_enabled,
					ext ? a->ext_enabled & b->ext_enabled : 0, ext,
					en2, en2 != 0, ename, sizeof(ename));

	snprintf(aname, sizeof(aname), "%s", a->speed);
	if (act_lane > 0 && cap_lane > act_lane + 1e-9)
		n = finding_add(out, n, LH_BELOW_SPEED,
			"running %s, both ends support %s (supported %s / %s; enabled %s / %s)%s",
			aname, cname,
			port_speed_list(&pa, false, l1, sizeof(l1)),
			port_speed_list(&pb, false, l2, sizeof(l2)),
			port_speed_list(&pa, true, l3, sizeof(l3)),
			port_speed_list(&pb, true, l4, sizeof(l4)),
			en_lane > 0 && en_lane <= act_lane + 1e-9 ?
				"; the enabled speeds allow no more" : "");
	return n;
}

int linkhealth_lone_port(const struct fab_port *p, struct lh_finding *out)
{
	char s[48];

	if (p->portnum == 0 || !p->info_valid || p->remote >= 0)
		return 0;
	if (p->phys_state == 5 || p->state >= 2)
		return finding_add(out, 0, LH_UP_NO_PEER, "port is %s, no peer discovered",
			   state_pair(p, s, sizeof(s)));
	return finding_add(out, 0, LH_UNLINKED, "port is %s, nothing behind it",
		   state_pair(p, s, sizeof(s)));
}

static struct lh_finding *push(struct lh_report *r)
{
	if (r->n == r->cap) {
		int ncap = r->cap ? r->cap * 2 : 32;
		void *p = realloc(r->f, (size_t)ncap * sizeof(*r->f));

		if (!p)
			return NULL;
		r->f = p;
		r->cap = ncap;
	}
	return &r->f[r->n++];
}

static int finding_order(const void *x, const void *y)
{
	const struct lh_finding *a = x, *b = y;
	int sa = lh_rules[a->rule].severity, sb = lh_rules[b->rule].severity;

	if (sa != sb)
		return sb - sa;
	if (a->rule != b->rule)
		return (int)a->rule - (int)b->rule;
	return strcmp(a->where, b->where);
}

int linkhealth_eval(const struct fabric *f, const struct fabric *baseline,
		    struct lh_report *r)
{
	struct lh_finding tmp[LH_MAX_PER_LINK], *d;
	char la[80], lb[80];

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < f->nlinks; i++) {
		int a = f->links[i].a, b = f->links[i].b;
		int k = linkhealth_link(&f->ports[a], &f->ports[b], tmp);

		for (int j = 0; j < k; j++) {
			if (!(d = push(r)))
				return -1;
			*d = tmp[j];
			d->port = a;
			d->peer = b;
			snprintf(d->where, sizeof(d->where), "%s <-> %s",
				 fabric_port_label(f, a, la, sizeof(la)),
				 fabric_port_label(f, b, lb, sizeof(lb)));
		}
	}
	for (int i = 0; i < f->nports; i++) {
		if (!linkhealth_lone_port(&f->ports[i], tmp))
			continue;
		if (!(d = push(r)))
			return -1;
		*d = tmp[0];
		d->port = i;
		fabric_port_label(f, i, d->where, sizeof(d->where));
	}
	if (baseline) {
		struct fdiff df;

		if (fabric_diff(baseline, f, &df))
			return -1;
		for (int i = 0; i < df.n; i++) {
			const struct fdiff_entry *e = &df.e[i];

			if (e->kind != FDIFF_LINK_GONE)
				continue;
			if (!(d = push(r))) {
				fdiff_free(&df);
				return -1;
			}
			memset(d, 0, sizeof(*d));
			d->rule = LH_LINK_LOST;
			d->port = fabric_find_port(f, e->guid_a, e->port_a);
			d->peer = fabric_find_port(f, e->guid_b, e->port_b);
			snprintf(d->where, sizeof(d->where), "\"%s\"[%d] <-> \"%s\"[%d]",
				 e->name_a, e->port_a, e->name_b, e->port_b);
			snprintf(d->evidence, sizeof(d->evidence),
				 "was %s in the baseline; now %s is %s and %s is %s",
				 e->old_rate[0] ? e->old_rate : "up",
				 e->name_a, d->port >= 0 ? port_phys_state_name(f->ports[d->port].phys_state) : "not discovered",
				 e->name_b, d->peer >= 0 ? port_phys_state_name(f->ports[d->peer].phys_state) : "not discovered");
		}
		fdiff_free(&df);
		/* A lost link's port is down by definition: one finding, not two. */
		int k = 0;

		for (int i = 0; i < r->n; i++) {
			bool dup = false;

			for (int j = 0; r->f[i].rule == LH_UNLINKED && j < r->n; j++)
				if (r->f[j].rule == LH_LINK_LOST &&
				    (r->f[j].port == r->f[i].port || r->f[j].peer == r->f[i].port))
					dup = true;
			if (!dup)
				r->f[k++] = r->f[i];
		}
		r->n = k;
	}
	if (r->n)	/* r->f is NULL on a healthy fabric */
		qsort(r->f, (size_t)r->n, sizeof(*r->f), finding_order);
	for (int i = 0; i < r->n; i++)
		r->by_severity[lh_rules[r->f[i].rule].severity]++;
	return 0;
}

void linkhealth_free(struct lh_report *r)
{
	free(r->f);
	memset(r, 0, sizeof(*r));
}

int linkhealth_count_port(const struct lh_report *r, int port)
{
	int n = 0;

	for (int i = 0; i < r->n; i++)
		if (r->f[i].port == port || r->f[i].peer == port)
			n++;
	return n;
}
