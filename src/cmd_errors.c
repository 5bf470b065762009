// SPDX-License-Identifier: MIT
/* `ibconsole errors`: one fabric-wide error sweep (two with --interval:
 * what moved between them), judged by the thresholds, as text or one
 * JSON object; the exit status says whether a rule says act. */
#include "config.h"
#include "cmd_errors.h"
#include "cmdutil.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/counters/counters_json.h"
#include "core/counters/reader.h"
#include "core/counters/delta.h"
#include "core/base/json.h"
#include "core/base/sysfs.h"
#include "core/base/sigexit.h"
#include "core/base/clock.h"
#include "core/capture/replay.h"
#include "core/fabric/sweeper.h"
#include "core/fabric/fabric.h"
#include "diag/ber.h"
#include "diag/ctrclass.h"
#include "diag/rules.h"
#include "diag/sweeplisting.h"
#include "diag/thresholds.h"
#include "diag/baseline.h"
#include "core/port/events.h"
#include "core/port/asyncev.h"
#include "core/counters/portcong.h"
#include "diag/congestion.h"
#include "diag/pfc.h"

struct listed {
	int idx;
	struct verdict v;
	bool moved;
};

/* Listed when a rule says watch / act, or by the sweep's own rule. */
static bool port_listed(const struct counter_set *cs, const struct counter_set *prev,
			const struct verdict *v, bool *moved)
{
	bool any = sweeplisting_listed(cs, prev, moved);

	return any || v->level != VERDICT_OK;
}

static void sweep_counter_json(struct json *j, const struct ctr_value *x,
			       const struct counter_set *prev)
{
	const struct ctr_value *p = prev ? counters_find(prev, x->name) : NULL;

	json_obj_begin(j, NULL);
	json_str(j, "name", x->name);
	json_str(j, "class", ctr_class_name(x->cls));
	json_int(j, "bits", x->bits);
	json_u64(j, "value", x->value);
	json_bool(j, "saturated", x->saturates && x->bits < 64 &&
		  x->value == (UINT64_C(1) << x->bits) - 1);
	if (p) {
		uint64_t d;
		bool lb;
		enum delta_state st = delta_pair(p->value, x->value, x->bits,
						 x->saturates, &d, &lb);

		json_u64(j, "delta", d);
		json_bool(j, "delta_lower_bound", lb);
		json_str(j, "state", delta_state_name(st));
	}
	json_obj_end(j);
}

/* One run's sweeps and what they listed. */
struct errors {
	struct sweeper *s;		/* the sweep, and the first of two */
	const struct sweep *sw;		/* its ports */
	struct sweep rep[2];		/* --from: the captured rounds */
	struct fabric *rf;		/* --from: the captured fabric, or NULL */
	char rf_err[320];		/* --from: why rf is NULL */
	bool replay;
	bool interval_set;		/* two rounds, interval seconds apart */
	double interval;
	char when[32];			/* --from: the second round's time */
	struct listed *ls;
	int nl, nfail, levels[3];
	double q1;			/* the first sweep's query time */
	const struct thresholds *th;
	struct counter_set cs, pcs;
	struct counter_set ecs, epcs;	/* a port's for its bit error rate */
};

/* Port i's counters into cs, and its previous round's into pcs: that,
 * or NULL with none. */
static const struct counter_set *errors_pair_into(struct errors *e, int i, struct counter_set *cs,
						  struct counter_set *pcs)
{
	if (e->replay)
		return sweep_port_pair(&e->rep[1], &e->rep[0], i, cs, pcs);
	return sweeper_pair(e->s, i, cs, pcs);
}

static const struct counter_set *errors_pair(struct errors *e, int i)
{
	return errors_pair_into(e, i, &e->cs, &e->pcs);
}

/* The model the swept ports' fi index: the live discovery's, or the
 * capture's fabric on --from. */
static const struct fabric *errors_fabric(const struct errors *e)
{
	return e->replay ? e->rf : sweeper_fabric(e->s);
}

/* --from: the captured rounds' ports found in the captured fabric (its
 * ports are in the file's order, not the live discovery's). */
static void errors_replayed_fabric(struct errors *e)
{
	e->rf = replay_fabric(e->rf_err, sizeof(e->rf_err));
	for (int r = 0; r < 2; r++)
		for (int k = 0; k < e->rep[r].n; k++) {
			struct sweep_port *p = &e->rep[r].p[k];

			p->fi = e->rf ? fabric_find_port(e->rf, p->guid, p->port) : -1;
		}
}

/* --from FILE: the capture's two rounds, its interval apart, as the live
 * command's --interval would have swept them. */
static int errors_replayed(const struct cli *c, struct errors *e, char *err, size_t errlen)
{
	int rc;

	if (c->interval_set) {
		snprintf(err, errlen, "--from: errors --interval: the capture's rounds were taken %g s apart — drop --interval",
			 replay_interval());
		return 2;
	}
	if (!(replay_interval() > 0)) {
		snprintf(err, errlen, "--from: the capture's manifest names no interval between its rounds — capture again");
		return 2;
	}
	rc = replay_sweeps(e->rep, e->when, sizeof(e->when), err, errlen);
	if (rc)
		return rc;
	e->replay = true;
	errors_replayed_fabric(e);
	e->interval_set = true;
	e->interval = replay_interval();
	e->sw = &e->rep[1];
	e->q1 = e->rep[0].query_s;
	return 0;
}

/* Discovers the fabric and sweeps it once, or with --interval twice:
 * 0, or a status with err. */
static int errors_sweep(const struct cli *c, const struct snap_opts *o,
			struct errors *e, char *err, size_t errlen)
{
	struct sweeper_opts so = { 0 };
	int rc;

	if (replay_active())
		return errors_replayed(c, e, err, errlen);
	e->interval_set = c->interval_set;
	e->interval = c->interval;
	so.so.dev = o->device;
	so.so.port = o->port;
	so.so.window = c->inflight;
	so.so.max_smps = c->inflight;
	so.keep_model = true;		/* the lanes and lane rates of the links */
	e->s = sweeper_open(&so);
	if (!e->s) {
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	e->sw = sweeper_sweep(e->s);
	rc = sweeper_query(e->s, err, errlen);
	if (rc || !e->interval_set)
		return rc;
	{
		double t = counters_now() + c->interval;

		e->q1 = e->sw->query_s;
		if (sweeper_keep(e->s)) {
			snprintf(err, errlen, "out of memory");
			return 5;
		}
		clock_sleep_until(t, &sigexit_stop);
	}
	return sweeper_query(e->s, err, errlen);
}

/* Judges every swept port and lists those a rule or the sweep's own
 * rule names: 0, or 5 out of memory. */
static int errors_judge(const struct cli *c, const struct thresholds *th,
			struct errors *e, char *err, size_t errlen)
{
	e->ls = calloc((size_t)e->sw->n + 1, sizeof(*e->ls));
	if (!e->ls) {
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	for (int i = 0; i < e->sw->n; i++) {
		const struct counter_set *pv = errors_pair(e, i);
		struct verdict v;
		bool moved;

		if (!e->cs.valid) {
			e->nfail++;
			continue;
		}
		/* two sweeps: judge what moved between them; one sweep: the
		 * values since the last clear, with their own levels */
		if (pv)
			rules_eval_interval(pv, &e->cs, th, e->interval, &v);
		else
			rules_eval_values(&e->cs, th, &v);
		if (!port_listed(&e->cs, pv, &v, &moved))
			continue;
		e->ls[e->nl].idx = i;
		e->ls[e->nl].v = v;
		e->ls[e->nl].moved = moved;
		e->levels[v.level]++;
		e->nl++;
	}
	return 0;
}

/* Whether a listed port shows counter x: error counters that are not
 * zero or moved. */
static bool counter_shown(const struct ctr_value *x, const struct ctr_value *y)
{
	return !(x->cls == CTR_TRAFFIC || (!x->value && !(y && y->value != x->value)));
}

/* Swept port i's effective bit error rate between the two sweeps: its
 * SymbolErrorCounter delta over its lanes x lane signalling rate (the
 * discovery's PortInfo) x the time between its two reads, judged by the
 * ber_watch / ber_act levels. NULL, or why there is none. */
static const char *errors_ber(struct errors *e, int i, struct ber *b, bool *lb,
			      const struct fab_port **fp)
{
	const struct fabric *f = errors_fabric(e);
	const struct sweep_port *p = &e->sw->p[i];
	const struct counter_set *pv = errors_pair_into(e, i, &e->ecs, &e->epcs);
	const struct ctr_value *x, *y;
	uint64_t d;

	*fp = f && p->fi >= 0 && p->fi < f->nports ? &f->ports[p->fi] : NULL;
	*lb = false;
	if (e->replay && !f)
		return "the capture's fabric could not be read (fabric_error)";
	if (!e->ecs.valid)
		return "its counters were not read";
	if (!pv)
		return "one sweep: --interval S gives the window a rate needs";
	x = counters_find(&e->ecs, "SymbolErrorCounter");
	y = counters_find(pv, "SymbolErrorCounter");
	if (!x || !y || !x->valid || !y->valid)
		return "SymbolErrorCounter not read";
	if (*fp && (*fp)->state == 1)	/* PortInfo PortState Down */
		return "the port is down";
	if (!*fp || !(*fp)->lanes || !((*fp)->lane_gbps > 0))
		return "the link's width or lane rate is not known";
	delta_pair(y->value, x->value, x->bits, x->saturates, &d, lb);
	ber_compute(b, d, (*fp)->lanes, (*fp)->lane_gbps, e->ecs.t_mono - pv->t_mono);
	if (!b->valid)
		return "the two sweeps have no time between them";
	ber_judge(b, e->th->ber_watch, e->th->ber_act);
	return NULL;
}

static void errors_ber_json(struct json *j, struct errors *e, int i)
{
	const struct fab_port *fp;
	struct ber b;
	bool lb;
	const char *why = errors_ber(e, i, &b, &lb, &fp);

	ber_json(j, &b, why, lb, fp ? fp->lanes : 0, fp ? fp->lane_gbps : 0);
}

/* The swept port at the other end of port i's link, -1 none. */
static int errors_peer(struct errors *e, int i)
{
	const struct fabric *f = errors_fabric(e);
	int fi = e->sw->p[i].fi, r;

	if (!f || fi < 0 || fi >= f->nports || (r = f->ports[fi].remote) < 0)
		return -1;
	for (int k = 0; k < e->sw->n; k++)
		if (e->sw->p[k].fi == r)
			return k;
	return -1;
}

/* The link's other end: who it is and its own bit error rate. */
static void errors_peer_json(struct json *j, struct errors *e, int i)
{
	int k = errors_peer(e, i);
	const struct sweep_port *q;

	if (k < 0) {
		json_null(j, "peer");
		return;
	}
	q = &e->sw->p[k];
	json_obj_begin(j, "peer");
	json_str(j, "node_desc", q->node_desc);
	json_int(j, "lid", q->lid);
	json_int(j, "port", q->port);
	errors_ber_json(j, e, k);
	json_obj_end(j);
}

static void errors_json_port(struct json *j, struct errors *e, int k)
{
	const struct sweep_port *p = &e->sw->p[e->ls[k].idx];
	const struct counter_set *pv = errors_pair(e, e->ls[k].idx);
	char g[24];

	json_obj_begin(j, NULL);
	json_str(j, "node_desc", p->node_desc);
	snprintf(g, sizeof(g), "0x%016llx", (unsigned long long)p->guid);
	json_str(j, "node_guid", g);
	json_bool(j, "switch", p->is_switch);
	json_int(j, "lid", p->lid);
	json_int(j, "port", p->port);
	json_str(j, "mode", e->cs.mode);
	json_bool(j, "moved", e->ls[k].moved);
	cmd_json_verdict(j, &e->ls[k].v);
	errors_ber_json(j, e, e->ls[k].idx);
	errors_peer_json(j, e, e->ls[k].idx);
	json_arr_begin(j, "counters");
	for (int i = 0; i < e->cs.n; i++) {
		const struct ctr_value *x = &e->cs.c[i];

		if (counter_shown(x, pv ? counters_find(pv, x->name) : NULL))
			sweep_counter_json(j, x, pv);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void errors_json(const struct cli *c, struct errors *e, const char *when)
{
	struct json j;

	json_init(&j, stdout);
	json_obj_begin(&j, NULL);
	json_str(&j, "schema", "ibconsole/errors/1");
	json_str(&j, "time", when);
	json_int(&j, "nodes", e->sw->nodes);
	json_int(&j, "ports_swept", e->sw->n);
	json_int(&j, "ports_failed", e->nfail);
	json_num(&j, "discover_s", e->sw->discover_s);
	json_num(&j, "query_s", e->q1 ? e->q1 : e->sw->query_s);
	json_int(&j, "mads_sent", (long long)e->sw->mads_sent);
	if (e->replay) {	/* no sweep ran: the capture's fabric, or why not */
		json_null(&j, "inflight");
		if (!e->rf)
			json_str(&j, "fabric_error", e->rf_err);
	} else {
		json_int(&j, "inflight", c->inflight ? c->inflight : 64);
	}
	json_num_or_null(&j, "interval_s", e->interval_set, e->interval);
	json_arr_begin(&j, "listed");
	for (int k = 0; k < e->nl; k++)
		errors_json_port(&j, e, k);
	json_arr_end(&j);
	json_arr_begin(&j, "failed");
	for (int i = 0; i < e->sw->n; i++) {
		if (sweep_port_valid(&e->sw->p[i]))
			continue;
		sweep_port_counters(e->sw, i, &e->cs);
		json_obj_begin(&j, NULL);
		json_str(&j, "node_desc", e->sw->p[i].node_desc);
		json_int(&j, "lid", e->sw->p[i].lid);
		json_int(&j, "port", e->sw->p[i].port);
		json_str(&j, "error", e->cs.why);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_begin(&j, "summary");
	json_int(&j, "listed", e->nl);
	json_int(&j, "ok", e->levels[VERDICT_OK]);
	json_int(&j, "watch", e->levels[VERDICT_WATCH]);
	json_int(&j, "act", e->levels[VERDICT_ACT]);
	json_obj_end(&j);
	json_obj_end(&j);
}

/* "bit error rate 3.1e-10 over 10 s; "sw1" port 3: < 2e-13 over 10 s" */
static void errors_ber_text(struct errors *e, int i)
{
	const struct fab_port *fp;
	struct ber b;
	bool lb;
	char t[64];
	int k = errors_peer(e, i);

	if (errors_ber(e, i, &b, &lb, &fp))
		return;
	ber_text(&b, t, sizeof(t));
	printf("      bit error rate %s%s", lb ? "at least " : "", t);
	if (k >= 0 && !errors_ber(e, k, &b, &lb, &fp)) {
		ber_text(&b, t, sizeof(t));
		printf("; \"%s\" port %d: %s%s", e->sw->p[k].node_desc, e->sw->p[k].port,
		       lb ? "at least " : "", t);
	}
	printf("\n");
}

static void errors_text(struct errors *e)
{
	for (int k = 0; k < e->nl; k++) {
		const struct sweep_port *p = &e->sw->p[e->ls[k].idx];
		const struct counter_set *pv = errors_pair(e, e->ls[k].idx);

		printf("%-5s \"%s\" lid %u port %d:", verdict_name(e->ls[k].v.level),
		       p->node_desc, p->lid, p->port);
		for (int i = 0; i < e->cs.n; i++) {
			const struct ctr_value *x = &e->cs.c[i];
			const struct ctr_value *y = pv ? counters_find(pv, x->name) : NULL;

			if (!counter_shown(x, y))
				continue;
			printf(" [%s == %llu", x->name, (unsigned long long)x->value);
			if (y)
				printf(" (%+lld)", (long long)(x->value - y->value));
			printf("]");
		}
		printf("\n");
		if (e->ls[k].v.level != VERDICT_OK)
			printf("      %s\n", e->ls[k].v.text);
		errors_ber_text(e, e->ls[k].idx);
	}
	for (int i = 0; i < e->sw->n; i++) {
		if (sweep_port_valid(&e->sw->p[i]))
			continue;
		sweep_port_counters(e->sw, i, &e->cs);
		printf("fail  \"%s\" lid %u port %d: %s\n", e->sw->p[i].node_desc,
		       e->sw->p[i].lid, e->sw->p[i].port, e->cs.why);
	}
	printf("## %d nodes, %d ports swept in %.2f s (discovery %.2f s, %lu MADs); %d listed: %d act, %d watch; %d failed\n",
	       e->sw->nodes, e->sw->n, e->q1 ? e->q1 : e->sw->query_s, e->sw->discover_s,
	       e->sw->mads_sent, e->nl, e->levels[VERDICT_ACT], e->levels[VERDICT_WATCH], e->nfail);
}

static int errors_run(const struct cli *c, const struct snap_opts *o, char *err,
		      size_t errlen)
{
	struct thresholds th;
	struct errors *e;
	char when[32];
	int rc;

	rc = cmd_load_thresholds(c, &th, err, errlen);
	if (rc)
		return rc;
	e = calloc(1, sizeof(*e));
	if (!e) {
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	e->th = &th;
	rc = errors_sweep(c, o, e, err, errlen);
	if (!rc)
		rc = errors_judge(c, &th, e, err, errlen);
	if (!rc) {
		if (e->replay)
			snprintf(when, sizeof(when), "%s", e->when);
		else
			cmd_iso_time(when, sizeof(when));
		if (c->json)
			errors_json(c, e, when);
		else
			errors_text(e);
		fflush(stdout);
		rc = e->levels[VERDICT_ACT] ? 1 : 0;
	}
	free(e->ls);
	sweeper_free(e->s);
	sweep_free(&e->rep[0]);
	sweep_free(&e->rep[1]);
	if (e->rf)
		fabric_free(e->rf);
	free(e);
	return rc;
}

int cmd_errors(const struct cli *c, const struct snap_opts *o)
{
	char err[400] = "";

	return cmd_report(errors_run(c, o, err, sizeof(err)), err);
}

/* ---- the command line: the options of errors and its entry (see cli.h) ---- */

/* also listed by export */
const struct cli_option cli_opt_inflight = {
	"inflight", NULL, 0, "N",
	"errors, export: PMA queries in flight at once (1-256, default 64)",
	.type = OT_INT, .off = CLI_AT(inflight), .lo = 1, .hi = 256, .bad = "bad --inflight", .give = "give 1..256" };

/* declared elsewhere: --json (cli.c), --interval (cli.c) */
static const struct cli_option *const errors_opts[] = {
	&cli_opt_json, &cli_opt_interval, &cli_opt_inflight, NULL
};

const struct cli_command cmd_errors_entry = {
	"errors",
	"[--interval S] [--json]",
	"fabric-wide error sweep; with --interval S, deltas over S",
	errors_opts, NULL, cmd_errors
};
