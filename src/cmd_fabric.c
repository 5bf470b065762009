// SPDX-License-Identifier: MIT
/* `ibconsole fabric`: discover, judge every link, print (table or JSON),
 * save the topology, compare with a saved one. Returns the exit status. */
#include "config.h"
#include "cmd_fabric.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/capture/replay.h"
#include "core/fabric/fabric.h"
#include "core/fabric/diff.h"
#include "core/base/json.h"
#include "core/base/parse.h"
#include "diag/linkhealth.h"

static void fail(const char *msg)
{
	fprintf(stderr, "ibconsole: %s\n", msg);
}

void cmd_fabric_opts(const struct cli *c, struct fab_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->ca = c->device;
	o->ca_port = c->port;
	o->max_hops = c->hops;
	o->timeout_ms = c->mad_timeout_ms;
	o->node_name_map = c->node_name_map;
}

static void json_end(struct json *j, const char *key, const struct fabric *f, int idx)
{
	const struct fab_port *p = &f->ports[idx];
	const struct fab_node *n = &f->nodes[p->node];
	struct port_info pi;
	char buf[96], g[24];

	fabric_port_to_info(p, &pi);
	json_obj_begin(j, key);
	json_str(j, "node", n->name);
	snprintf(g, sizeof(g), "0x%016llx", (unsigned long long)n->guid);
	json_str(j, "node_guid", g);
	json_str(j, "node_type", fabric_type_name(n->type));
	json_int(j, "port", p->portnum);
	snprintf(g, sizeof(g), "0x%016llx", (unsigned long long)p->guid);
	json_str(j, "port_guid", g);
	json_int(j, "lid", p->lid);
	if (!p->info_valid) {
		json_str(j, "width", p->width[0] ? p->width : NULL);
		json_str(j, "speed", p->speed[0] ? p->speed : NULL);
		json_obj_end(j);
		return;
	}
	json_str(j, "state", port_state_name(p->state));
	json_str(j, "phys_state", port_phys_state_name(p->phys_state));
	json_str(j, "width_active", p->width[0] ? p->width : NULL);
	json_str(j, "width_enabled", port_width_list(p->width_enabled, buf, sizeof(buf)));
	json_str(j, "width_supported", port_width_list(p->width_supported, buf, sizeof(buf)));
	json_str(j, "speed_active", p->speed[0] ? p->speed : NULL);
	json_str(j, "speed_enabled", port_speed_list(&pi, true, buf, sizeof(buf)));
	json_str(j, "speed_supported", port_speed_list(&pi, false, buf, sizeof(buf)));
	json_num(j, "rate_gbps", p->rate_gbps);
	json_int_or_null(j, "mtu_active", p->mtu_active, p->mtu_active);
	json_int_or_null(j, "mtu_cap", p->mtu_cap, p->mtu_cap);
	json_obj_end(j);
}

static void json_findings(struct json *j, const struct fabric *f, const struct lh_report *r)
{
	json_arr_begin(j, "problems");
	for (int i = 0; i < r->n; i++) {
		const struct lh_finding *x = &r->f[i];
		const struct lh_rule *rule = &lh_rules[x->rule];

		json_obj_begin(j, NULL);
		json_str(j, "rule", rule->name);
		json_str(j, "severity", lh_severity_name(rule->severity));
		json_str(j, "where", x->where);
		json_str(j, "title", rule->title);
		json_str(j, "evidence", x->evidence);
		json_str(j, "hint", rule->hint);
		if (x->port >= 0)
			json_end(j, "port", f, x->port);
		else
			json_null(j, "port");
		if (x->peer >= 0)
			json_end(j, "peer", f, x->peer);
		else
			json_null(j, "peer");
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_diff(struct json *j, const struct fdiff *d, const char *saved)
{
	char buf[320], g[24];

	json_obj_begin(j, "diff");
	json_str(j, "saved", saved);
	json_arr_begin(j, "changes");
	for (int i = 0; i < d->n; i++) {
		const struct fdiff_entry *e = &d->e[i];
		bool link = e->kind <= FDIFF_LINK_RATE;

		json_obj_begin(j, NULL);
		json_str(j, "kind", fdiff_kind_name(e->kind));
		json_str(j, "node_a", e->name_a);
		snprintf(g, sizeof(g), "0x%016llx", (unsigned long long)e->guid_a);
		json_str(j, "node_a_guid", g);
		if (link) {
			json_int(j, "port_a", e->port_a);
			json_str(j, "node_b", e->name_b);
			snprintf(g, sizeof(g), "0x%016llx", (unsigned long long)e->guid_b);
			json_str(j, "node_b_guid", g);
			json_int(j, "port_b", e->port_b);
			json_str(j, "old_rate", e->old_rate[0] ? e->old_rate : NULL);
			json_str(j, "new_rate", e->new_rate[0] ? e->new_rate : NULL);
		} else {
			json_str(j, "node_type", e->old_rate);
		}
		json_str(j, "text", fdiff_describe(e, buf, sizeof(buf)));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void count_types(const struct fabric *f, int *sw, int *ca)
{
	*sw = *ca = 0;
	for (int i = 0; i < f->nnodes; i++) {
		if (f->nodes[i].type == FAB_SWITCH)
			(*sw)++;
		else
			(*ca)++;
	}
}

static void write_json(FILE *out, const struct fabric *f, const struct lh_report *r,
		       const struct fdiff *d, const char *saved, bool problems_only)
{
	struct json j;
	char when[32];
	struct tm tm;
	int sw, ca;

	gmtime_r(&f->taken.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	count_types(f, &sw, &ca);
	json_init(&j, out);
	json_obj_begin(&j, NULL);
	json_str(&j, "schema", "ibconsole/fabric/1");
	json_str(&j, "time", when);
	json_str(&j, "origin", f->origin);
	json_num(&j, "discover_s", f->discover_s);
	json_obj_begin(&j, "summary");
	json_int(&j, "nodes", f->nnodes);
	json_int(&j, "switches", sw);
	json_int(&j, "cas", ca);
	json_int(&j, "links", f->nlinks);
	json_int(&j, "errors", r->by_severity[LH_ERROR]);
	json_int(&j, "warnings", r->by_severity[LH_WARN]);
	json_int(&j, "infos", r->by_severity[LH_INFO]);
	json_obj_end(&j);
	if (!problems_only) {
		char g[24];

		json_arr_begin(&j, "nodes");
		for (int i = 0; i < f->nnodes; i++) {
			const struct fab_node *n = &f->nodes[i];

			json_obj_begin(&j, NULL);
			json_str(&j, "name", n->name);
			json_str(&j, "description", n->desc);
			json_str(&j, "type", fabric_type_name(n->type));
			snprintf(g, sizeof(g), "0x%016llx", (unsigned long long)n->guid);
			json_str(&j, "guid", g);
			json_int(&j, "lid", n->lid);
			json_int(&j, "num_ports", n->numports);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_arr_begin(&j, "links");
		for (int i = 0; i < f->nlinks; i++) {
			const struct fab_port *a = &f->ports[f->links[i].a];

			json_obj_begin(&j, NULL);
			json_str(&j, "width", a->width[0] ? a->width : NULL);
			json_str(&j, "speed", a->speed[0] ? a->speed : NULL);
			json_num(&j, "rate_gbps", a->rate_gbps);
			json_end(&j, "a", f, f->links[i].a);
			json_end(&j, "b", f, f->links[i].b);
			json_arr_begin(&j, "flags");
			for (int k = 0; k < r->n; k++)
				if (r->f[k].port == f->links[i].a || r->f[k].port == f->links[i].b)
					json_str(&j, NULL, lh_rules[r->f[k].rule].name);
			json_arr_end(&j);
			json_obj_end(&j);
		}
		json_arr_end(&j);
	}
	json_findings(&j, f, r);
	if (d)
		json_diff(&j, d, saved);
	json_obj_end(&j);
	fputc('\n', out);
}

static void write_table(FILE *out, const struct fabric *f, const struct lh_report *r,
			bool problems_only)
{
	int sw, ca;

	count_types(f, &sw, &ca);
	fprintf(out, "Fabric: %d nodes (%d switches, %d CAs), %d links; %s in %.2f s\n",
		f->nnodes, sw, ca, f->nlinks, f->origin, f->discover_s);
	if (!problems_only) {
		fprintf(out, "\n%-44s %-7s %-14s %-10s %s\n", "LINK", "RATE", "STATE", "MTU", "FLAGS");
		for (int i = 0; i < f->nlinks; i++) {
			const struct fab_port *a = &f->ports[f->links[i].a];
			const struct fab_port *b = &f->ports[f->links[i].b];
			char la[80], lb[80], lk[170], tok[16], st[32], mtu[24], fl[128];
			int n = 0;

			snprintf(lk, sizeof(lk), "%s <-> %s",
				 fabric_port_label(f, f->links[i].a, la, sizeof(la)),
				 fabric_port_label(f, f->links[i].b, lb, sizeof(lb)));
			snprintf(st, sizeof(st), "%s/%s", port_state_name(a->state),
				 port_phys_state_name(a->phys_state));
			snprintf(mtu, sizeof(mtu), "%d/%d", a->mtu_active, b->mtu_active);
			fl[0] = '\0';
			for (int k = 0; k < r->n; k++)
				if (r->f[k].port == f->links[i].a)
					n += snprintf(fl + n, sizeof(fl) - (size_t)n, "%s%s",
						      n ? "," : "", lh_rules[r->f[k].rule].name);
			fprintf(out, "%-44s %-7s %-14s %-10s %s\n", lk,
				fabric_rate_token(a, tok, sizeof(tok)), st, mtu, n ? fl : "-");
		}
	}
	fprintf(out, "\nProblems: %d error, %d warn, %d info\n", r->by_severity[LH_ERROR],
		r->by_severity[LH_WARN], r->by_severity[LH_INFO]);
	for (int i = 0; i < r->n; i++) {
		const struct lh_rule *rule = &lh_rules[r->f[i].rule];

		fprintf(out, "  %-5s %-13s %s: %s\n        hint: %s\n",
			lh_severity_name(rule->severity), rule->name, r->f[i].where,
			r->f[i].evidence, rule->hint);
	}
}

static int save(const struct cli *c, const struct fabric *f, const struct lh_report *r)
{
	char path[1024], msg[1200];
	FILE *fp = fopen(c->save, "w");

	if (!fp || fabric_write_topology(fp, f) || fclose(fp)) {
		snprintf(msg, sizeof(msg), "cannot save the topology to %s — check the path and permissions",
			 c->save);
		fail(msg);
		return 5;
	}
	snprintf(path, sizeof(path), "%s.json", c->save);
	fp = fopen(path, "w");
	if (!fp) {
		snprintf(msg, sizeof(msg), "cannot save the JSON to %s — check the path and permissions", path);
		fail(msg);
		return 5;
	}
	write_json(fp, f, r, NULL, NULL, false);
	if (fclose(fp)) {
		snprintf(msg, sizeof(msg), "cannot write %s — check free space", path);
		fail(msg);
		return 5;
	}
	return 0;
}

int cmd_fabric(const struct cli *c, const struct snap_opts *unused)
{
	struct fab_opts o;
	struct fabric *f, *old = NULL;
	struct lh_report r;
	struct fdiff d = { 0 };
	char err[640];
	int rc = 0;

	cmd_fabric_opts(c, &o);
	/* A --save target that cannot be written: said before discovery */
	if (c->save) {
		char path[1024], why[160];
		int bad = parse_out_path(c->save, why, sizeof(why));

		snprintf(path, sizeof(path), "%s.json", c->save);
		if (bad || parse_out_path(path, why, sizeof(why))) {
			char msg[1300];

			snprintf(msg, sizeof(msg), "cannot save the fabric to %s: %s — give a file name in an existing directory",
				 bad ? c->save : path, why);
			fail(msg);
			return 2;
		}
	}
	/* A bad map is a usage error (2), found before discovery would
	 * report it as "no device" (3). */
	if (c->node_name_map) {
		struct fab_name *map;

		if (fabric_read_name_map(c->node_name_map, &map, err, sizeof(err)) < 0) {
			fail(err);
			return 2;
		}
		free(map);
	}
	if (c->diff) {
		old = fabric_read_topology(c->diff, err, sizeof(err));
		if (!old) {
			fail(err);
			return 2;
		}
	}
	f = replay_active() ? replay_fabric(err, sizeof(err)) : fabric_discover(&o, err, sizeof(err));
	if (!f) {
		fail(err);
		fabric_free(old);
		return 3;
	}
	/* With a saved fabric, its links that are gone now are findings too. */
	if (linkhealth_eval(f, old, &r) || (old && fabric_diff(old, f, &d))) {
		fail("judging the fabric: out of memory");
		rc = 5;
		goto out;
	}
	if (c->save && (rc = save(c, f, &r)))
		goto out;
	if (c->json) {
		write_json(stdout, f, &r, old ? &d : NULL, c->diff, c->problems);
	} else if (old) {
		char buf[320];

		printf("Compared with %s: %d change%s\n", c->diff, d.n, d.n == 1 ? "" : "s");
		for (int i = 0; i < d.n; i++)
			printf("  %s\n", fdiff_describe(&d.e[i], buf, sizeof(buf)));
	} else {
		write_table(stdout, f, &r, c->problems);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fail("cannot write the output");
		rc = 5;
		goto out;
	}
	/* 1: something to act on — a warn/error finding or any difference. */
	if (old ? d.n > 0 : r.by_severity[LH_ERROR] + r.by_severity[LH_WARN] > 0)
		rc = 1;
out:
	linkhealth_free(&r);
	fdiff_free(&d);
	fabric_free(f);
	fabric_free(old);
	return rc;
}

/* ---- the command line: the options of fabric and its entry (see cli.h) ---- */

static const struct cli_option opt_problems = {
	"problems", NULL, 0, NULL,
	"fabric: list only the flagged links and ports",
	.type = OT_FLAG, .off = CLI_AT(problems) };
/* also listed by test */
const struct cli_option cli_opt_save = {
	"save", NULL, 0, "FILE",
	"fabric: save the topology (ibnetdiscover text) to FILE and JSON to FILE.json; test: the record to FILE",
	.type = OT_STR, .off = CLI_AT(save) };
static const struct cli_option opt_diff = {
	"diff", NULL, 0, "SAVED",
	"fabric: compare with a saved topology (--save or ibnetdiscover output)",
	.type = OT_STR, .off = CLI_AT(diff) };
/* also listed by console */
const struct cli_option cli_opt_hops = {
	"hops", NULL, 0, "N",
	"fabric discovery: at most N hops (1-63, default no limit)",
	.type = OT_INT, .off = CLI_AT(hops), .lo = 1, .hi = 63, .bad = "bad hop limit", .give = "give 1..63" };
/* also listed by console, export */
const struct cli_option cli_opt_mad_timeout = {
	"mad-timeout", NULL, 0, "MS",
	"fabric discovery: per-SMP time-out in ms (default 1000; export: per SMP and PMA query, 300)",
	.type = OT_INT, .off = CLI_AT(mad_timeout_ms), .lo = 1, .hi = 60000, .bad = "bad time-out", .give = "give milliseconds, 1..60000" };
/* also listed by console, export */
const struct cli_option cli_opt_node_name_map = {
	"node-name-map", NULL, 0, "FILE",
	"node names from ibnetdiscover's node-name-map file",
	.type = OT_STR, .off = CLI_AT(node_name_map) };

/* declared elsewhere: --json (cli.c) */
static const struct cli_option *const fabric_opts[] = {
	&cli_opt_json, &opt_problems, &cli_opt_save, &opt_diff, &cli_opt_hops,
	&cli_opt_mad_timeout, &cli_opt_node_name_map, NULL
};

const struct cli_command cmd_fabric_entry = {
	"fabric",
	"[--json] [--problems] [--diff SAVED] [--save FILE]",
	"discover the fabric, judge every link",
	fabric_opts, NULL, cmd_fabric
};
