// SPDX-License-Identifier: MIT
/* `ibconsole accept --ref HOST`: the reference procedure's acceptance of a
 * new machine. Each local RDMA port runs send bandwidth at 64 KiB against
 * the reference host's agent (`ibconsole serve`), passes at 90 % of its
 * data rate, and a failure names its cause from what the console reads
 * locally (trained width / speed, PCIe, NUMA, GID type, MTU). */
#include "config.h"
#include "cmd_accept.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/agent/client.h"
#include "core/base/json.h"
#include "core/base/parse.h"
#include "core/port/snapshot.h"
#include "diag/accept.h"
#include "diag/thresholds.h"

static void fail(const char *msg)
{
	fprintf(stderr, "ibconsole: %s\n", msg);
}

/* One row of the table: a local port and what became of its test. */
struct row {
	char dev[PORT_STR];
	int port;			/* 0: a -d device that does not exist */
	const struct port_info *pi;	/* NULL when not found */
	bool ran;			/* the test finished */
	int status;			/* client_run's, 0 ok */
	char err[ENG_ERR];
	double gbps, data_gbps;
	char data_source[96];
	char ref_host[PROTO_STR], ref_dev[PROTO_NAME];
	struct acc_evidence ev;
	struct acc_card card;
};

static int read_secret(const char *path, char *buf, size_t len)
{
	char msg[512], why[96];
	FILE *f = parse_fopen(path, why, sizeof(why));
	int r = f ? parse_line(f, buf, len) : 0;

	if (f)
		fclose(f);
	if (r > 0)
		buf[strcspn(buf, "\r\n")] = '\0';
	if (r <= 0 || !buf[0]) {
		snprintf(msg, sizeof(msg), "cannot read the secret file %s: %s — give a readable file whose first line is the secret",
			 path, !f ? why : r < 0 ? "its first line is too long" : "empty");
		fail(msg);
		return -1;
	}
	return 0;
}

/* The procedure's test: ib_send_bw at 64 KiB, perftest's defaults. */
static void params(const struct cli *c, struct proto_params *p)
{
	const struct cli_test *t = &c->t;

	memset(p, 0, sizeof(*p));
	p->kind = KIND_BW;
	p->op = (uint8_t)(t->op >= 0 ? t->op : OP_SEND);
	p->conn = CONN_RC;
	p->qps = 1;
	p->size = t->size > 0 ? (uint64_t)t->size : 65536;
	p->iters = t->iters ? (uint64_t)t->iters : p->op == OP_WRITE ? 5000 : 1000;
	p->duration_ms = (uint32_t)(t->duration_s * 1000 + 0.5);
	p->tx_depth = 128;
	p->inline_size = p->op == OP_READ ? 0 : 220;
	p->cq_mod = p->size > 8192 ? 1 : 100;
	p->counter_ms = 1000;
}

static void evidence(const struct port_info *pi, const struct client_result *cr, bool ran,
		     struct acc_evidence *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->numa_node = -1;
	if (!pi)
		return;
	ev->below_capability = pi->below_capability;
	snprintf(ev->below_why, sizeof(ev->below_why), "%s", pi->below_why);
	ev->pcie_limits = pi->pcie_limits;
	snprintf(ev->pcie_why, sizeof(ev->pcie_why), "%s", pi->pcie_why);
	if (pi->numa.v.valid) {
		snprintf(ev->numa_relation, sizeof(ev->numa_relation), "%s", pi->numa.relation);
		ev->numa_node = pi->numa.node;
	}
	ev->roce = !strcmp(pi->link_layer, "Ethernet");
	for (int i = 0; i < pi->ngids; i++)
		if (pi->gids[i].index == cr->info.gid_index)
			snprintf(ev->gid_type, sizeof(ev->gid_type), "%s", pi->gids[i].type);
	/* the MTU both ends agreed on is the test's; compare the ports' own */
	if (pi->mtu_v.valid)
		ev->mtu_active = pi->mtu_active;
	if (ran)
		ev->peer_mtu = (int)cr->peer.mtu;
}

static bool wanted(const struct cli *c, const char *dev)
{
	if (!c->ndevices)
		return true;
	for (int i = 0; i < c->ndevices; i++)
		if (!strcmp(c->devices[i], dev))
			return true;
	return false;
}

static const char *op_name(int op)
{
	return op == OP_WRITE ? "write" : op == OP_READ ? "read" : "send";
}

static void print_table(const struct cli *c, const struct proto_params *p, const struct acc_limits *l,
			const struct row *rows, int n, int nfail)
{
	printf("acceptance against %s: %s bandwidth at %llu B, pass at %.0f %% of each port's data rate\n",
	       c->ref, op_name(p->op), (unsigned long long)p->size, 100 * l->accept);
	printf("%-16s %10s %10s %10s  %-9s %s\n", "device", "Gb/s", "% of rate", "line Gb/s", "PASS/FAIL", "cause");
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char name[PORT_STR + 8], gbps[24] = "-", pct[24] = "-", line[24] = "-";

		if (r->port)
			snprintf(name, sizeof(name), "%s/%d", r->dev, r->port);
		else
			snprintf(name, sizeof(name), "%s", r->dev);
		if (r->ran)
			snprintf(gbps, sizeof(gbps), "%.2f", r->gbps);
		if (r->card.pct >= 0)
			snprintf(pct, sizeof(pct), "%.1f", r->card.pct);
		if (r->card.line_gbps > 0)
			snprintf(line, sizeof(line), "%.2f", r->card.line_gbps);
		printf("%-16s %10s %10s %10s  %-9s %s\n", name, gbps, pct, line,
		       r->card.pass ? "PASS" : "FAIL", r->card.pass ? "" : r->card.cause);
	}
	for (int i = 0; i < n; i++)
		if (rows[i].ran)
			printf(" %s/%d: data rate %.2f Gb/s (%s), reference %s %s\n", rows[i].dev, rows[i].port,
			       rows[i].data_gbps, rows[i].data_source, rows[i].ref_host, rows[i].ref_dev);
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
	json_str(&j, "ref", c->ref);
	json_str(&j, "op", op_name(p->op));
	json_u64(&j, "size_bytes", p->size);
	json_num(&j, "accept_pct", 100 * l->accept);
	json_bool(&j, "passed", nfail == 0);
	json_int(&j, "failed", nfail);
	json_arr_begin(&j, "cards");
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		json_obj_begin(&j, NULL);
		json_str(&j, "device", r->dev);
		json_int_or_null(&j, "port", r->port > 0, r->port);
		json_str(&j, "verdict", r->card.pass ? "pass" : "fail");
		json_num_or_null(&j, "gbps", r->ran, r->gbps);
		json_num_or_null(&j, "data_rate_gbps", r->data_gbps > 0, r->data_gbps);
		json_str(&j, "data_rate_source", r->data_source[0] ? r->data_source : NULL);
		json_num_or_null(&j, "pct_of_rate", r->card.pct >= 0, r->card.pct);
		json_num_or_null(&j, "line_gbps", r->card.line_gbps > 0, r->card.line_gbps);
		json_str(&j, "cause", r->card.pass ? NULL : r->card.cause);
		json_str(&j, "error", r->ran ? NULL : r->err);
		json_str(&j, "ref_host", r->ran ? r->ref_host : NULL);
		json_str(&j, "ref_device", r->ran ? r->ref_dev : NULL);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	fputc('\n', stdout);
}

int cmd_accept(const struct cli *c, const struct snap_opts *so)
{
	struct snap_opts sopt = { .device = NULL, .port = c->port, .no_smp = so ? so->no_smp : false };
	struct snapshot *s = calloc(1, sizeof(*s));
	struct client_result *cr = calloc(1, sizeof(*cr));
	struct row *rows = NULL;	/* one per port found, + each -d found nowhere */
	struct thresholds th;
	struct acc_limits l;
	struct proto_params p;
	char secret[256], err[ENG_ERR], msg[ENG_ERR + 200];
	int n = 0, nfail = 0, rc = 5, npeer = 0;

	if (!s || !cr) {
		fail("cannot start the acceptance: out of memory — close other programs and retry");
		goto out;
	}
	rc = 2;
	if (!c->ref) {
		fail("accept needs the reference host — give --ref HOST (its agent: ibconsole serve)");
		goto out;
	}
	if (c->t.iters && c->t.duration_s > 0) {
		fail("accept runs by --iters or by --duration, not both — drop one");
		goto out;
	}
	params(c, &p);
	if (proto_check_params(&p, err, sizeof(err))) {
		snprintf(msg, sizeof(msg), "bad test parameters: %s — see ibconsole accept --help", err);
		fail(msg);
		goto out;
	}
	{
		char cbuf[512];
		const char *cpath = thresholds_config_path(c->config, cbuf, sizeof(cbuf));

		thresholds_defaults(&th);
		if (thresholds_load(&th, cpath, err, sizeof(err)) < 0) {
			fail(err);
			goto out;
		}
		if (c->config && !th.file[0]) {
			snprintf(msg, sizeof(msg), "config file %s not found — check the path given to --config", c->config);
			fail(msg);
			goto out;
		}
		l.accept = th.tv.accept;
		l.fleet_bw = th.tv.accept_fleet_bw;
		l.fleet_lat = th.tv.accept_fleet_lat;
	}
	if (c->t.secret_file && read_secret(c->t.secret_file, secret, sizeof(secret)))
		goto out;
	rc = snapshot_collect(s, &sopt, err, sizeof(err));
	if (rc) {
		fail(err);
		goto out;
	}
	rows = calloc((size_t)s->nports + CLI_MAX_DEVICES, sizeof(*rows));
	if (!rows) {
		fail("cannot start the acceptance: out of memory — close other programs and retry");
		rc = 5;
		goto out;
	}
	for (int i = 0; i < s->nports; i++)
		if (wanted(c, s->ports[i].dev)) {
			rows[n].pi = &s->ports[i];
			snprintf(rows[n].dev, sizeof(rows[n].dev), "%s", s->ports[i].dev);
			rows[n].port = s->ports[i].port;
			n++;
		}
	/* a -d that names no local device is a failed card, not silence */
	for (int d = 0; d < c->ndevices; d++) {
		bool found = false;

		for (int i = 0; i < n; i++)
			found |= !strcmp(rows[i].dev, c->devices[d]);
		for (int i = 0; i < d; i++)
			found |= !strcmp(c->devices[i], c->devices[d]);
		if (!found) {
			snprintf(rows[n].dev, sizeof(rows[n].dev), "%s", c->devices[d]);
			snprintf(rows[n].err, sizeof(rows[n].err), "no such RDMA device%s here — check the name with ibv_devices",
				 c->port ? " and port" : "");
			rows[n].status = ENG_NODEV;
			n++;
		}
	}
	if (!n) {
		fail("no RDMA port to accept: none found — check that the driver is loaded (ibv_devices)");
		rc = 3;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		struct row *r = &rows[i];
		struct client_opts o = { .peer = c->ref, .tcp_port = c->t.tcp_port, .device = r->dev,
					 .ib_port = r->port, .gid_index = c->t.gid_index,
					 .p = p, .stall_ms = 5000,
					 .timeout_ms = (int)((c->t.timeout_s > 0 ? c->t.timeout_s : 10) * 1000),
					 .secret = c->t.secret_file ? secret : NULL };
		struct acc_card_in in = { 0 };

		if (r->pi && r->pi->state != 4) {
			snprintf(r->err, sizeof(r->err), "port %s, not Active — check the cable and the subnet manager (or the netdev link)",
				 port_state_name(r->pi->state));
		} else if (r->pi) {
			if (!c->json && isatty(2))
				fprintf(stderr, "ibconsole: testing %s/%d against %s …\n", r->dev, r->port, c->ref);
			r->status = client_run(&o, cr, r->err, sizeof(r->err));
			if (!r->status && cr->nphases > 0) {
				r->ran = true;
				r->gbps = cr->ph[cr->nphases - 1].total_avg_gbps;
				snprintf(r->ref_host, sizeof(r->ref_host), "%s", cr->peer.host);
				snprintf(r->ref_dev, sizeof(r->ref_dev), "%s", cr->peer.device);
			} else if (!r->status) {
				snprintf(r->err, sizeof(r->err), "the test ran no phase");
			}
			npeer += r->status == ENG_PEER;
			evidence(r->pi, cr, r->ran, &r->ev);
		}
		if (c->t.line_rate > 0) {
			r->data_gbps = c->t.line_rate;
			snprintf(r->data_source, sizeof(r->data_source), "--line-rate");
		} else if (r->pi && r->pi->data_rate_gbps > 0) {
			r->data_gbps = r->pi->data_rate_gbps;
			snprintf(r->data_source, sizeof(r->data_source), "%s",
				 r->pi->data_rate_source[0] ? r->pi->data_rate_source : "the port's data rate");
		}
		in.have_result = r->ran;
		in.err = r->err;
		in.gbps = r->gbps;
		in.data_gbps = r->data_gbps;
		in.ev = r->pi ? &r->ev : NULL;
		acc_card_judge(&in, &l, &r->card);
		nfail += !r->card.pass;
	}
	if (c->json)
		write_json(c, &p, &l, rows, n, nfail);
	else
		print_table(c, &p, &l, rows, n, nfail);
	/* nothing reached the reference: the peer is the trouble */
	rc = npeer == n ? 4 : nfail ? 1 : 0;
	if (rc == 4) {
		snprintf(msg, sizeof(msg), "no card reached the reference %s: %s", c->ref, rows[0].err);
		fail(msg);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fail("cannot write the output: stdout failed — check the disk or the pipe");
		rc = 5;
	}
out:
	if (s)
		snapshot_release(s);
	free(s);
	free(cr);
	free(rows);
	return rc;
}
