// SPDX-License-Identifier: MIT
/* Triage steps 3 and 4, what both ends must agree on: the GID (RoCE v2,
 * the netdev's IPv4 entry, the same kind at the peer) and the MTU (active
 * MTU here and at the other end, with the netdev MTUs behind them). */
#include "config.h"
#include "diag/triage_steps.h"
#include "diag/triage_lines.h"

#include <stdio.h>
#include <string.h>

/* ---- step 3: GID ---- */

static const struct port_gid *gid_at(const struct port_info *p, int index)
{
	for (int i = 0; i < p->ngids; i++)
		if (p->gids[i].index == index)
			return &p->gids[i];
	return NULL;
}

/* What the procedure tells apart: v1 / v2, and of v2 the IPv4-mapped
 * entry from IPv6 and link-local ones. */
static const char *gid_kind(const char *type, const char *gid, bool ipv4)
{
	if (strstr(type, "v1"))
		return "RoCE v1";
	if (!strncmp(gid, "fe80", 4))
		return "RoCE v2, IPv6 link-local";
	if (ipv4)
		return "RoCE v2, IPv4";
	return type[0] ? "RoCE v2, IPv6" : "type unknown";
}

static const char *entry_kind(const struct port_gid *g)
{
	return gid_kind(g->type, g->gid, g->ipv4[0] != '\0');
}

/* The peer's entry from its agent's facts: ::ffff:a.b.c.d is IPv4. */
static const char *peer_kind(const struct proto_facts *f)
{
	return gid_kind(f->gid_type, f->gid, !strncmp(f->gid, "0000:0000:0000:0000:0000:ffff:", 30));
}

/* "The same kind on both ends": the entry the peer's agent used, as its
 * facts report it, against the one used here. */
static void peer_gid(const struct tri_evidence *ev, const struct port_gid *here, struct tri_result *r)
{
	const struct proto_facts *f = &ev->peer_facts;
	const char *pk = peer_kind(f), *hk = here ? entry_kind(here) : "no entry";

	tri_line(r, "peer %s %s: %s, GID index %d, %s %s", f->host, f->device, f->link_layer,
	     f->gid_index, f->gid_type[0] ? f->gid_type : "type not reported", f->gid);
	if (strcmp(f->link_layer, "Ethernet"))
		tri_judge(r, TRI_FAIL, "test between two RoCE ports", "the peer's port is %s, this one RoCE",
		      f->link_layer);
	else if (f->gid_index < 0)
		tri_judge(r, TRI_WARN, "start the agent with -x N of its RoCE v2 IPv4 entry",
		      "the peer reports no GID index");
	else if (!f->gid_type[0])
		tri_judge(r, TRI_WARN, "update the agent on the peer: it does not report its GID type",
		      "the peer's GID type is unknown (index %d)", f->gid_index);
	else if (strcmp(pk, hk))
		tri_judge(r, TRI_FAIL, "use the RoCE v2 entry of the netdev's IPv4 address on both ends: start the agent without -x (or with -x of that entry)",
		      "the ends use different kinds: %s here, %s at the peer's index %d", hk, pk,
		      f->gid_index);
	else
		tri_line(r, "the same kind on both ends: %s", hk);
}

void tri_step_gid(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct port_info *p = &ev->local;
	int right = p->roce_v2_ipv4_index, used;
	const struct port_gid *g;

	if (tri_no_port(ev, r))
		return;
	if (!tri_is_roce(ev)) {
		tri_judge(r, TRI_NA, NULL, "InfiniBand: LID-routed, there is no GID to choose");
		return;
	}
	for (int i = 0; i < p->ngids && r->nlines < TRI_LINES - 3; i++)
		tri_line(r, "index %d %s %s%s%s %s", p->gids[i].index, p->gids[i].gid,
		     p->gids[i].type[0] ? p->gids[i].type : "?",
		     p->gids[i].ipv4[0] ? " " : "", p->gids[i].ipv4, p->gids[i].netdev);
	used = ev->gid_given >= 0 ? ev->gid_given : right;
	tri_line(r, "the test uses index %d (%s)", used, ev->gid_given >= 0 ? "given with -x" : "automatic");
	if (right < 0) {
		tri_judge(r, TRI_FAIL, "add an IPv4 address to the netdev (ip addr add) and re-run",
		      "no RoCE v2 entry with an IPv4 address of %s", p->netdev[0] ? p->netdev : "the netdev");
	} else if (used != right) {
		g = gid_at(p, used);
		const struct port_gid *rg = gid_at(p, right);
		char fix[TRI_LINE];

		snprintf(fix, sizeof(fix), "give -x %d (or leave -x out: the RoCE v2 IPv4 entry is chosen) on both ends", right);
		if (!g)
			tri_judge(r, TRI_FAIL, fix, "-x %d: no such GID index on %s; the right index is %d (RoCE v2, %s)",
			      used, p->dev, right, rg ? rg->ipv4 : "?");
		else
			tri_judge(r, TRI_FAIL, fix, "-x %d is %s; the right index is %d (RoCE v2, %s)", used,
			      entry_kind(g), right, rg ? rg->ipv4 : "?");
	} else {
		g = gid_at(p, right);
		tri_judge(r, TRI_PASS, NULL, "index %d, RoCE v2, %s%s", right, g ? g->ipv4 : "?",
		      ev->peer_facts_valid ? "" : " (the peer's index needs --peer)");
	}
	if (ev->peer_facts_valid)
		peer_gid(ev, gid_at(p, used), r);
}

/* ---- step 4: MTU ---- */

void tri_step_mtu(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct port_info *p = &ev->local;
	const char *hint = tri_steps[TRI_MTU].hint;
	char nd[64] = "";
	bool compared = false;

	if (tri_no_port(ev, r))
		return;
	if (!p->mtu_v.valid) {
		tri_judge(r, TRI_NA, NULL, "active MTU unknown: %s", p->mtu_v.why);
		return;
	}
	if (p->netdev[0] && p->netdev_mtu)
		snprintf(nd, sizeof(nd), " (netdev %s MTU %d)", p->netdev, p->netdev_mtu);
	tri_line(r, "%s/%d active MTU %d, max %d (%s)%s", p->dev, p->port, p->mtu_active, p->mtu_max,
	     p->mtu_source, nd);
	if (!tri_is_roce(ev) && ev->link.valid) {
		const struct fab_port *a = &ev->link.local, *b = &ev->link.peer;

		tri_line(r, "%s NeighborMTU %d (MtuCap %d), %s NeighborMTU %d (MtuCap %d)",
		     ev->link.local_name, a->mtu_active, a->mtu_cap, ev->link.peer_name,
		     b->mtu_active, b->mtu_cap);
		if (a->mtu_active && b->mtu_active && a->mtu_active != b->mtu_active)
			tri_judge(r, TRI_FAIL, hint, "NeighborMTU %d at %s vs %d at %s", a->mtu_active,
			      ev->link.local_name, b->mtu_active, ev->link.peer_name);
		compared = true;
	}
	if (ev->peer_facts_valid && ev->peer_facts.mtu) {
		const struct proto_facts *f = &ev->peer_facts;
		char both[96] = "";

		if (f->netdev_mtu && p->netdev_mtu)
			snprintf(both, sizeof(both), " (netdev MTU %d here, %u on the peer)", p->netdev_mtu,
				 f->netdev_mtu);
		tri_line(r, "peer %s %s active MTU %u%s", f->host, f->device, f->mtu, both);
		if (!both[0])
			snprintf(both, sizeof(both), "%s", nd);
		if ((uint32_t)p->mtu_active != ev->peer_facts.mtu)
			tri_judge(r, TRI_FAIL, hint, "active MTU %d here vs %u on the peer %s%s", p->mtu_active,
			      ev->peer_facts.mtu, ev->peer_facts.host, both);
		compared = true;
	}
	if (!compared)
		tri_judge(r, TRI_NA, NULL, "%d here%s; the other end needs %s", p->mtu_active, nd,
		      tri_is_roce(ev) ? "--peer (its agent reports its MTU)" : "a one-hop discovery or --peer");
	else
		tri_judge(r, TRI_PASS, NULL, "%d / %d%s", p->mtu_active,
		      ev->peer_facts_valid && ev->peer_facts.mtu ? (int)ev->peer_facts.mtu :
		      ev->link.peer.mtu_active, nd);
}
