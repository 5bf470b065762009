// SPDX-License-Identifier: MIT
/* Environment extras from the hosts' own tools: which firewall rule drops
 * RoCE v2 (UDP 4791), and whether NetworkManager manages the RDMA netdev.
 * Source: the reference procedure's environment checklist ("interfering
 * services quiet"); RoCE v2's port from the IBTA specification, Annex A17.
 * The ruleset is nft's JSON form (libnftables-json(5)): a flat "nftables"
 * array of table / chain / rule objects, a rule's "expr" a list of
 * statements ("match" with "left" / "right", and the verdicts "drop",
 * "reject", "accept"). */
#include "config.h"
#include "core/triage/envtools.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/jsonscan.h"

#define ENV_CHAINS 128

struct nft_chain {
	char family[16], table[64], name[64], hook[24], policy[16];
	bool accepts;			/* a rule accepts UDP 4791 */
};

/* One element of the "nftables" array as its scalars arrive. */
struct nft_elem {
	int idx;			/* the array index, -1 none */
	bool is_chain, is_rule;
	struct nft_chain c;		/* chain: all; rule: family, table, name */
	bool udp_dport, port_hit, negated;
	long lo;			/* the first number of a range */
	char verdict[16];
};

struct nft_scan {
	struct nft_elem e;
	struct nft_chain chains[ENV_CHAINS];
	int nchains, nrules;
	char *ev;
	size_t evlen;
	int drops;
};

static struct nft_chain *chain_of(struct nft_scan *s, const struct nft_chain *k)
{
	for (int i = 0; i < s->nchains; i++)
		if (!strcmp(s->chains[i].family, k->family) && !strcmp(s->chains[i].table, k->table) &&
		    !strcmp(s->chains[i].name, k->name))
			return &s->chains[i];
	return NULL;
}

static void finish(struct nft_scan *s)
{
	struct nft_elem *e = &s->e;

	if (e->is_chain && s->nchains < ENV_CHAINS)
		s->chains[s->nchains++] = e->c;
	if (e->is_rule) {
		struct nft_chain *c = chain_of(s, &e->c);
		const char *hook = c ? c->hook : "";
		bool hit = e->udp_dport && e->port_hit && !e->negated;

		s->nrules++;
		if (hit && !strcmp(e->verdict, "accept") && c)
			c->accepts = true;
		/* output / postrouting see what this host sends, not what it
		 * receives */
		if (hit && (!strcmp(e->verdict, "drop") || !strcmp(e->verdict, "reject")) &&
		    strcmp(hook, "output") && strcmp(hook, "postrouting") && !s->drops) {
			s->drops = 1;
			snprintf(s->ev, s->evlen, "nft: table %s %s, chain %s%s%s%s: a rule %ss UDP dport %d",
				 e->c.family, e->c.table, e->c.name, hook[0] ? " (" : "", hook,
				 hook[0] ? " hook)" : "", e->verdict, ROCE_V2_UDP_PORT);
		}
	}
	memset(e, 0, sizeof(*e));
	e->idx = -1;
}

static void put(char *dst, size_t cap, const char *v)
{
	snprintf(dst, cap, "%s", v);
}

static void on_scalar(void *arg, const char *path, const char *val, bool is_str)
{
	struct nft_scan *s = arg;
	struct nft_elem *e = &s->e;
	int idx, n = 0;
	const char *p;

	if (sscanf(path, "nftables[%d].%n", &idx, &n) != 1 || !n)
		return;
	if (idx != e->idx) {
		finish(s);
		e->idx = idx;
	}
	p = path + n;
	if (!strncmp(p, "chain.", 6)) {
		e->is_chain = true;
		p += 6;
		if (!strcmp(p, "family")) put(e->c.family, sizeof(e->c.family), val);
		else if (!strcmp(p, "table")) put(e->c.table, sizeof(e->c.table), val);
		else if (!strcmp(p, "name")) put(e->c.name, sizeof(e->c.name), val);
		else if (!strcmp(p, "hook")) put(e->c.hook, sizeof(e->c.hook), val);
		else if (!strcmp(p, "policy")) put(e->c.policy, sizeof(e->c.policy), val);
		return;
	}
	if (strncmp(p, "rule.", 5))
		return;
	e->is_rule = true;
	p += 5;
	if (!strcmp(p, "family")) put(e->c.family, sizeof(e->c.family), val);
	else if (!strcmp(p, "table")) put(e->c.table, sizeof(e->c.table), val);
	else if (!strcmp(p, "chain")) put(e->c.name, sizeof(e->c.name), val);
	if (strncmp(p, "expr[", 5) || !(p = strchr(p, ']')) || p[1] != '.')
		return;
	p += 2;
	if (!strcmp(p, "match.op"))
		e->negated = strcmp(val, "==") && strcmp(val, "in");
	else if (!strcmp(p, "match.left.payload.protocol"))
		e->udp_dport = !strcmp(val, "udp") || e->udp_dport;
	else if (!strcmp(p, "match.left.payload.field"))
		e->udp_dport = e->udp_dport && !strcmp(val, "dport");
	else if (!strncmp(p, "match.right", 11) && !is_str) {
		/* 4791, a set member, or a range's two ends */
		const char *r = strstr(p, "range[");
		long v = strtol(val, NULL, 10);

		if (r && r[6] == '0')
			e->lo = v;
		else if (r)
			e->port_hit |= e->lo <= ROCE_V2_UDP_PORT && ROCE_V2_UDP_PORT <= v;
		else
			e->port_hit |= v == ROCE_V2_UDP_PORT;
	} else if (!strncmp(p, "drop", 4) || !strncmp(p, "reject", 6) || !strncmp(p, "accept", 6)) {
		if (!e->verdict[0])
			snprintf(e->verdict, sizeof(e->verdict), "%.*s", (int)strcspn(p, "."), p);
	}
}

int env_judge_nft(const char *json, size_t len, char *evidence, size_t evlen, char *why, size_t whylen)
{
	struct nft_scan *s = calloc(1, sizeof(*s));
	int rc;

	if (!s) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	s->e.idx = -1;
	s->ev = evidence;
	s->evlen = evlen;
	if (!strstr(json, "\"nftables\"")) {
		snprintf(why, whylen, "not nft's JSON ruleset");
		free(s);
		return -1;
	}
	if (json_scan(json, len, on_scalar, s, why, whylen)) {
		free(s);
		return -1;
	}
	finish(s);
	rc = s->drops;
	for (int i = 0; !rc && i < s->nchains; i++) {
		const struct nft_chain *c = &s->chains[i];

		if (!strcmp(c->hook, "input") && !strcmp(c->policy, "drop") && !c->accepts) {
			rc = 1;
			snprintf(evidence, evlen, "nft: table %s %s, chain %s (input hook): policy drop and no rule accepts UDP dport %d",
				 c->family, c->table, c->name, ROCE_V2_UDP_PORT);
		}
	}
	if (!rc)
		snprintf(evidence, evlen, "nft: %d chains, %d rules, none drops UDP dport %d",
			 s->nchains, s->nrules, ROCE_V2_UDP_PORT);
	free(s);
	return rc;
}

int env_judge_nmcli(const char *out, const char *netdev, char *evidence, size_t evlen)
{
	size_t nl = strlen(netdev);

	for (const char *l = out; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		size_t ll = strcspn(l, "\n");
		const char *st = l + nl + 1;

		if (ll <= nl || strncmp(l, netdev, nl) || l[nl] != ':')
			continue;
		/* terse form "DEVICE:STATE"; "unmanaged" is NetworkManager
		 * leaving the device alone */
		snprintf(evidence, evlen, "nmcli: %s is %.*s", netdev, (int)(ll - nl - 1), st);
		return strncmp(st, "unmanaged", 9) ? 1 : 0;
	}
	snprintf(evidence, evlen, "nmcli: %s not in NetworkManager's device list", netdev);
	return 0;
}
