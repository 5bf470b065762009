// SPDX-License-Identifier: MIT
/* `ibconsole accept --ref HOST`: the reference procedure's acceptance of a
 * new machine. Each local RDMA port runs send bandwidth at 64 KiB against
 * the reference host's agent (`ibconsole serve`), passes at 90 % of its
 * data rate, and a failure names its cause from what the console reads
 * locally (trained width / speed, PCIe, NUMA, GID type, MTU).
 * `accept --hosts FILE`: every agent against every other, n-1 rounds of
 * disjoint pairs ordered to the agents, the fleet rules, a re-test of the
 * bad pairs, then the bad host or the bad path named. */
#include "config.h"
#include "cmd_accept.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cmdutil.h"
#include "cmd_test.h"
#include "core/accept/accept.h"
#include "core/agent/agent.h"
#include "core/accept/allpairs.h"
#include "core/agent/client.h"
#include "core/testrun/testjob.h"
#include "core/base/json.h"
#include "core/base/numfmt.h"
#include "core/port/snapshot.h"
#include "diag/portfacts.h"
#include "diag/accept.h"
#include "diag/thresholds.h"

/* One row of the table: a local card's test and its judgement. */
struct row {
	struct accept_card c;
	struct acc_card card;
};

static const char *op_name(int op)
{
	return op == OP_WRITE ? "write" : op == OP_READ ? "read" : "send";
}

static void print_table(const struct cli *c, const struct proto_params *p, const struct acc_limits *l,
			const struct row *rows, int n, int nfail)
{
	printf("acceptance against %s: %s bandwidth at %llu B, pass at %.0f %% of each port's data rate\n",
	       c->a.ref, op_name(p->op), (unsigned long long)p->size, 100 * l->accept);
	printf("%-16s %10s %10s %10s  %-9s %s\n", "device", "Gb/s", "% of rate", "line Gb/s", "PASS/FAIL", "cause");
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char name[PORT_STR + 8], gbps[24] = "-", pct[24] = "-", line[24] = "-";

		if (r->c.port)
			snprintf(name, sizeof(name), "%s/%d", r->c.dev, r->c.port);
		else
			snprintf(name, sizeof(name), "%s", r->c.dev);
		/* four significant digits: a 200 Gb/s HDR port and a Soft-RoCE
		 * one judged at a few Mb/s both show their figures */
		if (r->c.ran)
			numfmt_sig(r->c.gbps, NUMFMT_DIGITS, gbps, sizeof(gbps));
		if (r->card.pct >= 0)
			snprintf(pct, sizeof(pct), "%.1f", r->card.pct);
		if (r->card.line_gbps > 0)
			numfmt_sig(r->card.line_gbps, NUMFMT_DIGITS, line, sizeof(line));
		printf("%-16s %10s %10s %10s  %-9s %s\n", name, gbps, pct, line,
		       r->card.pass ? "PASS" : "FAIL", r->card.pass ? "" : r->card.cause);
	}
	for (int i = 0; i < n; i++) {
		char rate[48];

		if (rows[i].c.ran)
			printf(" %s/%d: data rate %s (%s), reference %s %s\n", rows[i].c.dev, rows[i].c.port,
			       numfmt_unit(rows[i].c.data_gbps, "Gb/s", rate, sizeof(rate)), rows[i].c.data_source,
			       rows[i].c.ref_host, rows[i].c.ref_dev);
	}
	printf("%d of %d passed\n", n - nfail, n);
}

static void write_json(const struct cli *c, const struct proto_params *p, const struct acc_limits *l,
		       const struct row *rows, int n, int nfail)
{
	struct json j;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_init(&j, stdout);
	json_obj_begin(&j, NULL);
	json_str(&j, "schema", "ibconsole/accept/1");
	json_str(&j, "time", stamp);
	json_str(&j, "mode", "ref");
	json_str(&j, "ref", c->a.ref);
	json_str(&j, "op", op_name(p->op));
	json_u64(&j, "size_bytes", p->size);
	json_num(&j, "accept_pct", 100 * l->accept);
	json_bool(&j, "passed", nfail == 0);
	json_int(&j, "failed", nfail);
	json_arr_begin(&j, "cards");
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		json_obj_begin(&j, NULL);
		json_str(&j, "device", r->c.dev);
		json_int_or_null(&j, "port", r->c.port > 0, r->c.port);
		json_str(&j, "verdict", r->card.pass ? "pass" : "fail");
		json_num_or_null(&j, "gbps", r->c.ran, r->c.gbps);
		json_num_or_null(&j, "data_rate_gbps", r->c.data_gbps > 0, r->c.data_gbps);
		json_str(&j, "data_rate_source", r->c.data_source[0] ? r->c.data_source : NULL);
		json_num_or_null(&j, "pct_of_rate", r->card.pct >= 0, r->card.pct);
		json_num_or_null(&j, "line_gbps", r->card.line_gbps > 0, r->card.line_gbps);
		json_str(&j, "cause", r->card.pass ? NULL : r->card.cause);
		json_bool(&j, "pcie_limits", r->c.ev.pcie_limits);
		json_num_or_null(&j, "pcie_gts", r->c.ev.pcie_limits, r->c.ev.pcie_gts);
		json_int_or_null(&j, "pcie_lanes", r->c.ev.pcie_limits, r->c.ev.pcie_lanes);
		json_num_or_null(&j, "pcie_usable_gbps", r->c.ev.pcie_limits, r->c.ev.pcie_usable_gbps);
		json_str(&j, "error", r->c.ran ? NULL : r->c.err);
		json_str(&j, "ref_host", r->c.ran ? r->c.ref_host : NULL);
		json_str(&j, "ref_device", r->c.ran ? r->c.ref_dev : NULL);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	fputc('\n', stdout);
}

/* ---- accept --hosts: all pairs ---- */

/* One pair of the run: what the agents measured, judged. */
struct hpair {
	struct allpairs_pair m;		/* the last measurement */
	bool retested;
	bool first_ok;			/* the first run's figures, when re-tested */
	double first_bw, first_lat;
	struct acc_pair j;		/* the judgement */
};

struct hrun {
	const struct cli *c;
	const struct hostlist *hl;
	const struct acc_limits *l;
	const struct proto_params *bw, *lat;
	struct hpair *p;
	int np, rounds, per_round, nbad, nhostbad, npaths;
	bool host_bad[HOSTLIST_MAX];
	struct proto_facts facts[HOSTLIST_MAX];	/* device "" when none came */
	char host_why[HOSTLIST_MAX][700];
	int *paths;
	char dir[512], stamp[32];
};

/* The pair's figures into its judgement; facts of both ends kept. */
static void take(struct hrun *r, struct hpair *h)
{
	const struct allpairs_pair *m = &h->m;
	const struct proto_facts *fa = &m->bw.local, *fb = &m->bw.peer;

	h->j.a = m->a;
	h->j.b = m->b;
	h->j.ok = m->status == 0;
	h->j.bw_gbps = m->bw.gbps;
	h->j.lat_us = m->lat.lat_p99_us;
	if (r->c->t.line_rate > 0)
		h->j.data_gbps = r->c->t.line_rate;
	else if (fa->rate_mbps && fb->rate_mbps)
		h->j.data_gbps = (fa->rate_mbps < fb->rate_mbps ? fa->rate_mbps : fb->rate_mbps) / 1000.0;
	else
		h->j.data_gbps = 0;
	if (fa->device[0])
		r->facts[m->a] = *fa;
	if (fb->device[0])
		r->facts[m->b] = *fb;
}

static void round_line(const struct hrun *r, const char *what, struct hpair **ps, int n)
{
	fprintf(stderr, "ibconsole: accept: %s:", what);
	for (int i = 0; i < n; i++) {
		const struct allpairs_pair *m = &ps[i]->m;
		char bw[48], lat[48];

		fprintf(stderr, "%s %s - %s ", i ? ";" : "", r->hl->h[m->a].name, r->hl->h[m->b].name);
		if (m->status)
			fprintf(stderr, "no result (%s)", m->err);
		else
			fprintf(stderr, "%s, p99 %s", numfmt_unit(m->bw.gbps, "Gb/s", bw, sizeof(bw)),
				numfmt_unit(m->lat.lat_p99_us, "us", lat, sizeof(lat)));
	}
	fputc('\n', stderr);
}

/* Runs pairs at once; returns -1 when an agent refused an order for want
 * of permission (the secret, its --hosts list): every order would be, so
 * that one line is the whole answer. */
static int run_round(struct hrun *r, const struct allpairs_opts *ao, const char *what,
		     struct hpair **ps, int n)
{
	struct allpairs_pair *m = calloc((size_t)n, sizeof(*m));
	char err[ENG_ERR];

	if (!m) {
		for (int i = 0; i < n; i++) {
			ps[i]->m.status = 5;
			snprintf(ps[i]->m.err, sizeof(ps[i]->m.err), "out of memory");
			take(r, ps[i]);
		}
		return 0;
	}
	for (int i = 0; i < n; i++) {
		memset(&m[i], 0, sizeof(m[i]));
		m[i].a = ps[i]->m.a;
		m[i].b = ps[i]->m.b;
	}
	(void)allpairs_round(ao, m, n, err, sizeof(err));	/* each pair carries its error */
	for (int i = 0; i < n; i++) {
		ps[i]->m = m[i];
		take(r, ps[i]);
	}
	free(m);
	for (int i = 0; i < n; i++)
		if (ps[i]->m.refused && ps[i]->m.status == ENG_NODEV) {
			cmd_fail(ps[i]->m.err);
			return -1;
		}
	round_line(r, what, ps, n);
	return 0;
}

/* The MTU most hosts have: the one a bad host's is compared with. */
static uint32_t fleet_mtu(const struct hrun *r)
{
	uint32_t best = 0;
	int bestn = 0;

	for (int i = 0; i < r->hl->n; i++) {
		int k = 0;

		for (int j = 0; j < r->hl->n; j++)
			k += r->facts[i].mtu && r->facts[j].mtu == r->facts[i].mtu;
		if (k > bestn) {
			bestn = k;
			best = r->facts[i].mtu;
		}
	}
	return best;
}

static void hosts_json(const struct hrun *r, FILE *f)
{
	struct json j;

	json_init(&j, f);
	json_obj_begin(&j, NULL);
	json_str(&j, "schema", "ibconsole/accept/1");
	json_str(&j, "time", r->stamp);
	json_str(&j, "mode", "hosts");
	json_str(&j, "results_dir", r->dir);
	json_str(&j, "bw_op", op_name(r->bw->op));
	json_u64(&j, "bw_size_bytes", r->bw->size);
	json_str(&j, "lat_op", op_name(r->lat->op));
	json_u64(&j, "lat_size_bytes", r->lat->size);
	json_num(&j, "accept_pct", 100 * r->l->accept);
	json_num(&j, "fleet_bw_pct", 100 * r->l->fleet_bw);
	json_num(&j, "fleet_lat_ratio", r->l->fleet_lat);
	json_num_or_null(&j, "line_rate_gbps", r->c->t.line_rate > 0, r->c->t.line_rate);
	json_int(&j, "rounds", r->rounds);
	json_int(&j, "pairs_per_round", r->per_round);
	json_bool(&j, "passed", r->nbad == 0);
	json_int(&j, "bad_pairs", r->nbad);
	json_arr_begin(&j, "hosts");
	for (int i = 0; i < r->hl->n; i++) {
		const struct proto_facts *x = &r->facts[i];

		json_obj_begin(&j, NULL);
		json_str(&j, "host", r->hl->h[i].name);
		json_bool(&j, "bad", r->host_bad[i]);
		json_str(&j, "evidence", r->host_bad[i] ? r->host_why[i] : NULL);
		json_str(&j, "hostname", x->device[0] ? x->host : NULL);
		json_str(&j, "device", x->device[0] ? x->device : NULL);
		json_num_or_null(&j, "data_rate_gbps", x->rate_mbps > 0, x->rate_mbps / 1000.0);
		json_int_or_null(&j, "mtu", x->mtu > 0, x->mtu);
		json_str(&j, "pcie", x->pcie[0] ? x->pcie : NULL);
		json_int_or_null(&j, "numa_node", x->device[0] && x->numa_node >= 0, x->numa_node);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_arr_begin(&j, "pairs");
	for (int i = 0; i < r->np; i++) {
		const struct hpair *h = &r->p[i];

		json_obj_begin(&j, NULL);
		json_int(&j, "round", i / (r->per_round ? r->per_round : 1) + 1);
		json_str(&j, "a", r->hl->h[h->j.a].name);
		json_str(&j, "b", r->hl->h[h->j.b].name);
		json_str(&j, "verdict", h->j.bad ? "bad" : "good");
		json_str(&j, "why", h->j.bad ? h->j.why : NULL);
		json_num_or_null(&j, "bw_gbps", h->j.ok, h->j.bw_gbps);
		json_num_or_null(&j, "lat_median_us", h->j.ok, h->m.lat.lat_median_us);
		json_num_or_null(&j, "lat_p99_us", h->j.ok, h->j.lat_us);
		json_num_or_null(&j, "data_rate_gbps", h->j.data_gbps > 0, h->j.data_gbps);
		json_str(&j, "error", h->j.ok ? NULL : h->m.err);
		json_bool(&j, "retested", h->retested);
		json_num_or_null(&j, "first_bw_gbps", h->retested && h->first_ok, h->first_bw);
		json_num_or_null(&j, "first_lat_p99_us", h->retested && h->first_ok, h->first_lat);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_arr_begin(&j, "bad_hosts");
	for (int i = 0; i < r->hl->n; i++)
		if (r->host_bad[i])
			json_str(&j, NULL, r->hl->h[i].name);
	json_arr_end(&j);
	json_arr_begin(&j, "bad_paths");
	for (int i = 0; i < r->npaths; i++) {
		const struct acc_pair *x = &r->p[r->paths[i]].j;

		json_obj_begin(&j, NULL);
		json_str(&j, "a", r->hl->h[x->a].name);
		json_str(&j, "b", r->hl->h[x->b].name);
		json_str(&j, "why", x->why);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	fputc('\n', f);
}

/* CSV, one pair a row; empty cells where there is no figure. */
static void hosts_csv(const struct hrun *r, FILE *f)
{
	fprintf(f, "round,a,b,verdict,bw_gbps,lat_median_us,lat_p99_us,data_rate_gbps,retested,why\n");
	for (int i = 0; i < r->np; i++) {
		const struct hpair *h = &r->p[i];
		const char *why = h->j.bad ? h->j.why : "";

		fprintf(f, "%d,%s,%s,%s,", i / (r->per_round ? r->per_round : 1) + 1,
			r->hl->h[h->j.a].name, r->hl->h[h->j.b].name, h->j.bad ? "bad" : "good");
		if (h->j.ok)
			fprintf(f, "%.6f,%.3f,%.3f,", h->j.bw_gbps, h->m.lat.lat_median_us, h->j.lat_us);
		else
			fprintf(f, ",,,");
		if (h->j.data_gbps > 0)
			fprintf(f, "%.3f", h->j.data_gbps);
		fprintf(f, ",%s,\"", h->retested ? "yes" : "no");
		for (const char *s = h->j.ok ? why : h->m.err; *s; s++)
			fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
		fprintf(f, "\"\n");
	}
}

static void hosts_text(const struct hrun *r)
{
	int n = r->hl->n;

	printf("all pairs of %d hosts in %d rounds: %s bandwidth at %llu B, %s latency at %llu B\n", n,
	       r->rounds, op_name(r->bw->op), (unsigned long long)r->bw->size, op_name(r->lat->op),
	       (unsigned long long)r->lat->size);
	printf("bad below %.0f %% of the data rate, below %.0f %% of the best pair's bandwidth, or above %.1fx the best p99 latency\n",
	       100 * r->l->accept, 100 * r->l->fleet_bw, r->l->fleet_lat);
	printf("\nbandwidth Gb/s between hosts by number (! bad, - no result)\n%4s", "");
	for (int b = 0; b < n; b++)
		printf(" %9d", b + 1);
	putchar('\n');
	for (int a = 0; a < n; a++) {
		printf("%4d", a + 1);
		for (int b = 0; b < n; b++) {
			const struct hpair *h = NULL;
			char bw[48];

			for (int i = 0; i < r->np; i++)
				if ((r->p[i].j.a == a && r->p[i].j.b == b) || (r->p[i].j.a == b && r->p[i].j.b == a))
					h = &r->p[i];
			if (!h)
				printf(" %9s", "");
			else if (!h->j.ok)
				printf(" %8s%s", "-", h->j.bad ? "!" : " ");
			else
				printf(" %8s%s", numfmt_sig(h->j.bw_gbps, NUMFMT_DIGITS, bw, sizeof(bw)), h->j.bad ? "!" : " ");
		}
		printf("  %s\n", r->hl->h[a].name);
	}
	printf("\n%-24s %-24s %10s %10s  %-4s %s\n", "A", "B", "Gb/s", "p99 us", "", "why");
	for (int i = 0; i < r->np; i++) {
		const struct hpair *h = &r->p[i];
		char bw[24] = "-", lat[24] = "-";

		if (h->j.ok) {
			numfmt_sig(h->j.bw_gbps, NUMFMT_DIGITS, bw, sizeof(bw));
			numfmt_sig(h->j.lat_us, NUMFMT_DIGITS, lat, sizeof(lat));
		}
		printf("%-24s %-24s %10s %10s  %-4s %s\n", r->hl->h[h->j.a].name, r->hl->h[h->j.b].name,
		       bw, lat, h->j.bad ? "BAD" : "ok", h->j.bad ? (h->j.ok ? h->j.why : h->m.err) : "");
	}
	putchar('\n');
	for (int i = 0; i < n; i++)
		if (r->host_bad[i])
			printf("BAD HOST %s: bad with most partners; %s\n", r->hl->h[i].name, r->host_why[i]);
	for (int i = 0; i < r->npaths; i++) {
		const struct acc_pair *x = &r->p[r->paths[i]].j;

		printf("BAD PATH %s - %s: %s — check the switch ports and cables between them\n",
		       r->hl->h[x->a].name, r->hl->h[x->b].name,
		       x->ok ? x->why : r->p[r->paths[i]].m.err);
	}
	printf("%d of %d pairs good; results in %s\n", r->np - r->nbad, r->np, r->dir);
}

static int write_file(const struct hrun *r, const char *name, void (*fn)(const struct hrun *, FILE *))
{
	char path[600], msg[800];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	f = fopen(path, "w");
	if (f) {
		fn(r, f);
		if (fclose(f) == 0)
			return 0;
	}
	snprintf(msg, sizeof(msg), "cannot write %s: %s — check the disk or give --results DIR", path,
		 strerror(errno));
	cmd_fail(msg);
	return -1;
}

static int results_dir(struct hrun *r)
{
	char msg[800];

	if (r->c->a.results)
		snprintf(r->dir, sizeof(r->dir), "%s", r->c->a.results);
	else {
		time_t now = time(NULL);
		struct tm tm;

		gmtime_r(&now, &tm);
		strftime(r->dir, sizeof(r->dir), "ibconsole-accept-%Y%m%dT%H%M%SZ", &tm);
	}
	if (mkdir(r->dir, 0777) && errno != EEXIST) {
		snprintf(msg, sizeof(msg), "cannot create the results directory %s: %s — give --results DIR in a writable place",
			 r->dir, strerror(errno));
		cmd_fail(msg);
		return -1;
	}
	return 0;
}

/* What accept --hosts checks before any agent is asked: the secret, the
 * hosts file (two or more), both tests' parameters as an order carries
 * them. 0, or 2 with the message printed. */
static int hosts_check(const struct cli *c, struct hostlist *hl, const struct proto_params *bw,
		       const struct proto_params *lat, const char *secret)
{
	struct proto_msg t = { .type = MSG_ORDER };
	char err[ENG_ERR], msg[ENG_ERR + 200];

	if (!secret) {
		cmd_fail("accept --hosts orders the agents to test each other, which needs their shared secret — give --secret-file (the file every serve has)");
		return 2;
	}
	if (hostlist_load(hl, c->a.hosts, c->t.tcp_port ? c->t.tcp_port : AGENT_DEFAULT_PORT, err, sizeof(err))) {
		cmd_fail(err);
		return 2;
	}
	if (hl->n < 2) {
		snprintf(msg, sizeof(msg), "the hosts file %s lists %d host%s — give at least two (one host[:port] a line)",
			 c->a.hosts, hl->n, hl->n == 1 ? "" : "s");
		cmd_fail(msg);
		return 2;
	}
	t.u.order.port = 1;
	snprintf(t.u.order.target, sizeof(t.u.order.target), "x");
	for (int k = 0; k < 2; k++) {
		t.u.order.p = k ? *lat : *bw;
		if (proto_check_order(&t, err, sizeof(err))) {
			snprintf(msg, sizeof(msg), "bad test parameters for an order: %s — see ibconsole accept --help", err);
			cmd_fail(msg);
			return 2;
		}
	}
	return 0;
}

/* Every round of the schedule, then the bad pairs once more, one at a
 * time (a pair is bad only when the re-test confirms it), then the
 * judgement of pairs and hosts into r. 0, 3 (an agent failed) or 5. */
static int hosts_run(struct hrun *r, const struct allpairs_opts *ao)
{
	int n = r->hl->n, rc = 5;
	int (*sched)[2] = calloc((size_t)(n + 1) * (size_t)n, sizeof(*sched));
	struct acc_pair *judge = calloc((size_t)r->np, sizeof(*judge));

	if (!sched || !judge) {
		cmd_fail("cannot run the acceptance: out of memory — close other programs and retry");
		goto out;
	}
	r->rounds = acc_schedule(n, sched, (n + 1) * n, &r->per_round);
	if (r->rounds < 0 || results_dir(r))
		goto out;
	for (int i = 0; i < r->np; i++) {
		r->p[i].m.a = sched[i][0];
		r->p[i].m.b = sched[i][1];
	}
	rc = 3;
	for (int k = 0; k < r->rounds; k++) {
		struct hpair *ps[HOSTLIST_MAX / 2 + 1];
		char what[32];

		for (int i = 0; i < r->per_round; i++)
			ps[i] = &r->p[k * r->per_round + i];
		snprintf(what, sizeof(what), "round %d/%d", k + 1, r->rounds);
		if (run_round(r, ao, what, ps, r->per_round))
			goto out;
	}
	for (int i = 0; i < r->np; i++)
		judge[i] = r->p[i].j;
	acc_pairs_judge(judge, r->np, r->l);
	for (int i = 0; i < r->np; i++) {
		struct hpair *h = &r->p[i];

		if (!judge[i].bad)
			continue;
		h->retested = true;
		h->first_ok = h->j.ok;
		h->first_bw = h->j.bw_gbps;
		h->first_lat = h->j.lat_us;
		if (run_round(r, ao, "re-test", &h, 1))
			goto out;
	}
	for (int i = 0; i < r->np; i++)
		judge[i] = r->p[i].j;
	r->nbad = acc_pairs_judge(judge, r->np, r->l);
	r->nhostbad = acc_localise(n, judge, r->np, r->host_bad, r->paths, &r->npaths);
	for (int i = 0; i < r->np; i++)
		r->p[i].j = judge[i];
	rc = 0;
out:
	free(judge);
	free(sched);
	return rc;
}

static int accept_hosts(const struct cli *c, const struct proto_params *bw, const struct acc_limits *l,
			const char *secret)
{
	static struct hostlist hl;
	struct tj_choice lc = { .kind = KIND_LAT, .op = -1, .size = -1, .iters = c->t.iters,
				.duration_s = c->t.duration_s, .tx_depth = -1, .inline_size = -1, .cq_mod = -1 };
	struct proto_params lat;
	struct allpairs_opts ao = { .hosts = &hl, .secret = secret, .bw = *bw,
				    .timeout_ms = (int)((c->t.timeout_s > 0 ? c->t.timeout_s : 10) * 1000) };
	struct hrun *r = calloc(1, sizeof(*r));
	uint32_t mtu;
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	if (!r) {
		cmd_fail("cannot run the acceptance: out of memory — close other programs and retry");
		return 5;
	}
	testjob_params(&lc, &lat);
	ao.lat = lat;
	/* the agent stops an order at 60 s from its start, then answers */
	ao.run_ms = (int)PROTO_ORDER_MAX_DURATION_MS + 5000;
	rc = hosts_check(c, &hl, bw, &lat, secret);
	if (rc)
		goto out;
	r->c = c;
	r->hl = &hl;
	r->l = l;
	r->bw = bw;
	r->lat = &lat;
	gmtime_r(&now, &tm);
	strftime(r->stamp, sizeof(r->stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	r->np = hl.n * (hl.n - 1) / 2;
	r->p = calloc((size_t)r->np, sizeof(*r->p));
	r->paths = calloc((size_t)r->np, sizeof(*r->paths));
	rc = 5;
	if (!r->p || !r->paths) {
		cmd_fail("cannot run the acceptance: out of memory — close other programs and retry");
		goto out;
	}
	rc = hosts_run(r, &ao);
	if (rc)
		goto out;
	mtu = fleet_mtu(r);
	for (int i = 0; i < hl.n; i++)
		if (r->host_bad[i])
			acc_host_evidence(&r->facts[i], mtu, r->host_why[i], sizeof(r->host_why[i]));
	rc = 5;
	if (write_file(r, "accept.json", hosts_json) || write_file(r, "pairs.csv", hosts_csv))
		goto out;
	if (c->json)
		hosts_json(r, stdout);
	else
		hosts_text(r);
	rc = r->nbad ? 1 : 0;
	if (fflush(stdout) || ferror(stdout)) {
		cmd_fail("cannot write the output: stdout failed — check the disk or the pipe");
		rc = 5;
	}
out:
	free(r->p);
	free(r->paths);
	free(r);
	return rc;
}

/* The command line's combinations and the test parameters: 0, or 2 with
 * the message printed. */
static int accept_args(const struct cli *c, struct proto_params *p)
{
	char err[ENG_ERR], msg[ENG_ERR + 200];

	if (!c->a.ref == !c->a.hosts) {
		cmd_fail(c->a.ref ? "accept takes --ref HOST or --hosts FILE, not both — drop one" :
			      "accept needs the reference host — give --ref HOST (its agent: ibconsole serve), or --hosts FILE for all pairs");
		return 2;
	}
	if (c->a.results && !c->a.hosts) {
		cmd_fail("--results goes with --hosts (all pairs) — drop it or give --hosts FILE");
		return 2;
	}
	if (c->a.hosts && (c->ndevices || c->port || c->t.gid_index >= 0)) {
		cmd_fail("with --hosts each agent tests with its own device, port and GID (its serve -d, -i, -x) — drop -d, -i and -x here");
		return 2;
	}
	if (c->t.iters && c->t.duration_s > 0) {
		cmd_fail("accept runs by --iters or by --duration, not both — drop one");
		return 2;
	}
	accept_params(c->t.op, c->t.size, c->t.iters, c->t.duration_s, p);
	if (proto_check_params(p, err, sizeof(err))) {
		snprintf(msg, sizeof(msg), "bad test parameters: %s — see ibconsole accept --help", err);
		cmd_fail(msg);
		return 2;
	}
	return 0;
}

/* The acceptance lines of --config (or the default file): 0, or 2 with
 * the message printed. */
static int accept_limits(const struct cli *c, struct acc_limits *l)
{
	struct thresholds th;
	char cbuf[512], err[ENG_ERR], msg[ENG_ERR + 200];
	const char *cpath = thresholds_config_path(c->config, cbuf, sizeof(cbuf));

	thresholds_defaults(&th);
	if (thresholds_load(&th, cpath, err, sizeof(err)) < 0) {
		cmd_fail(err);
		return 2;
	}
	if (c->config && !th.file[0]) {
		snprintf(msg, sizeof(msg), "config file %s not found — check the path given to --config", c->config);
		cmd_fail(msg);
		return 2;
	}
	l->accept = th.tv.accept;
	l->fleet_bw = th.tv.accept_fleet_bw;
	l->fleet_lat = th.tv.accept_fleet_lat;
	return 0;
}

/* Each card of the plan against the reference, judged, into rows;
 * returns how many failed and counts in *npeer those that never reached
 * the reference. */
static int accept_cards(const struct cli *c, const struct accept_opts *o, const struct snapshot *s,
			const struct acc_limits *l, struct row *rows, int n, int *npeer)
{
	struct client_result *cr = calloc(1, sizeof(*cr));
	int nfail = 0;

	if (!cr)
		return -1;
	for (int i = 0; i < n; i++) {
		struct row *r = &rows[i];
		const struct port_info *pi = NULL;

		for (int k = 0; r->c.found && k < s->nports; k++)
			if (!strcmp(s->ports[k].dev, r->c.dev) && s->ports[k].port == r->c.port)
				pi = &s->ports[k];
		if (pi && pi->state == 4 && !c->json && isatty(2))
			fprintf(stderr, "ibconsole: testing %s/%d against %s …\n", r->c.dev, r->c.port, c->a.ref);
		if (r->c.state != ACCEPT_DONE)
			accept_run_card(o, pi, &r->c, cr, NULL, NULL, NULL);
		*npeer += pi && pi->state == 4 && r->c.status == ENG_PEER;
		acc_card_verdict(&r->c, l, &r->card);
		nfail += !r->card.pass;
	}
	free(cr);
	return nfail;
}

/* accept --ref HOST: every local card (or each -d) against the
 * reference's agent, the table or JSON, the exit status. */
static int accept_ref(const struct cli *c, const struct snap_opts *so, const struct proto_params *p,
		      const struct acc_limits *l, const char *secret)
{
	struct snap_opts sopt = { .device = NULL, .port = c->port, .no_smp = so ? so->no_smp : false };
	struct snapshot *s = calloc(1, sizeof(*s));
	struct row *rows = NULL;	/* one per port found, + each -d found nowhere */
	struct accept_card *cards = NULL;
	struct accept_opts o = { .ref = c->a.ref, .tcp_port = c->t.tcp_port, .gid_index = c->t.gid_index,
				 .line_rate = c->t.line_rate, .timeout_s = c->t.timeout_s, .p = *p,
				 .secret = secret };
	char err[ENG_ERR], msg[ENG_ERR + 200];
	int n = 0, nfail = 0, rc = 5, npeer = 0, max;

	if (!s) {
		cmd_fail("cannot start the acceptance: out of memory — close other programs and retry");
		return 5;
	}
	rc = snapshot_collect(s, &sopt, err, sizeof(err));
	if (rc) {
		cmd_fail(err);
		goto out;
	}
	portfacts_judge(s);	/* the PCIe limit, as snapshot and triage judge it */
	max = s->nports + CLI_MAX_DEVICES;
	rows = calloc((size_t)max, sizeof(*rows));
	cards = calloc((size_t)max, sizeof(*cards));
	rc = 5;
	if (!rows || !cards) {
		cmd_fail("cannot start the acceptance: out of memory — close other programs and retry");
		goto out;
	}
	n = accept_plan(s, c->devices, c->ndevices, c->port, cards, max);
	if (!n) {
		cmd_fail("no RDMA port to accept: none found — check that the driver is loaded (ibv_devices)");
		rc = 3;
		goto out;
	}
	for (int i = 0; i < n; i++)
		rows[i].c = cards[i];
	nfail = accept_cards(c, &o, s, l, rows, n, &npeer);
	if (nfail < 0) {
		cmd_fail("cannot start the acceptance: out of memory — close other programs and retry");
		goto out;
	}
	if (c->json)
		write_json(c, p, l, rows, n, nfail);
	else
		print_table(c, p, l, rows, n, nfail);
	/* nothing reached the reference: the peer is the trouble */
	rc = npeer == n ? 4 : nfail ? 1 : 0;
	if (rc == 4) {
		snprintf(msg, sizeof(msg), "no card reached the reference %s: %s", c->a.ref, rows[0].c.err);
		cmd_fail(msg);
	}
	if (fflush(stdout) || ferror(stdout)) {
		cmd_fail("cannot write the output: stdout failed — check the disk or the pipe");
		rc = 5;
	}
out:
	snapshot_release(s);
	free(s);
	free(rows);
	free(cards);
	return rc;
}

int cmd_accept(const struct cli *c, const struct snap_opts *so)
{
	struct acc_limits l;
	struct proto_params p;
	char secret[256];
	const char *sec = c->t.secret_file ? secret : NULL;
	int rc;

	if (accept_args(c, &p) || accept_limits(c, &l))
		return 2;
	if (c->t.secret_file && (rc = cmd_read_secret(c->t.secret_file, secret, sizeof(secret))))
		return rc;
	if (c->a.hosts)
		return accept_hosts(c, &p, &l, sec);
	return accept_ref(c, so, &p, &l, sec);
}

/* ---- the command line: the options of accept and its entry (see cli.h) ---- */

static const struct cli_option opt_ref = {
	"ref", NULL, 0, "HOST",
	"accept: test every local device against the agent on HOST (the reference)",
	.type = OT_STR, .off = CLI_AT(a.ref) };
/* also listed by serve */
const struct cli_option cli_opt_hosts = {
	"hosts", NULL, 0, "FILE",
	"accept: all pairs of the agents in FILE (host[:port] a line); serve: take test orders only towards them",
	.type = OT_STR, .off = CLI_AT(a.hosts) };
static const struct cli_option opt_results = {
	"results", NULL, 0, "DIR",
	"accept --hosts: write accept.json and pairs.csv to DIR (default ./ibconsole-accept-TIME)",
	.type = OT_STR, .off = CLI_AT(a.results) };

/* declared elsewhere: --json (cli.c), --no-smp (cli.c), --op
 * (cmd_test.c), --size (cmd_test.c), --iters (cmd_test.c), --duration
 * (cmd_test.c), --gid-index (cmd_test.c), --port (cmd_test.c),
 * --secret-file (cmd_test.c), --timeout (cmd_test.c), --line-rate
 * (cmd_test.c) */
static const struct cli_option *const accept_opts[] = {
	&cli_opt_json, &cli_opt_no_smp, &cli_opt_op, &cli_opt_size, &cli_opt_iters,
	&cli_opt_duration, &cli_opt_gid_index, &cli_opt_port, &cli_opt_secret_file,
	&cli_opt_timeout, &cli_opt_line_rate, &opt_ref, &cli_opt_hosts, &opt_results, NULL
};

const struct cli_command cmd_accept_entry = {
	"accept",
	"--ref HOST [-d DEV]... | --hosts FILE --secret-file F [--results DIR] [--op OP] [-s SIZE] [--line-rate GBPS] [--json]",
	"acceptance: every local device against a reference host, or every host against every host, with the cause of each failure",
	accept_opts, NULL, cmd_accept
};
