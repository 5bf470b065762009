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
#include "core/fabric/sweep.h"
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

/* Port i's counters into cs and, after two sweeps, its first sample
 * into pcs: returns pcs, or NULL when there is no valid first sample. */
static const struct counter_set *port_sets(const struct sweep *sw,
					   const struct sweep *prev, int i,
					   struct counter_set *cs,
					   struct counter_set *pcs)
{
	sweep_port_counters(sw, i, cs);
	if (!prev || i >= prev->n || !sweep_port_valid(&prev->p[i]))
		return NULL;
	sweep_port_counters(prev, i, pcs);
	return pcs;
}

static int errors_run(const struct cli *c, const struct snap_opts *o, char *err,
		      size_t errlen)
{
	struct sweep_opts so = { 0 };
	struct sweep sw;
	struct thresholds th;
	struct sweep first = { 0 }, *prev = NULL;	/* the first of two sweeps */
	struct counter_set cs, pcs;
	struct listed *ls = NULL;
	int rc, nl = 0, nfail = 0, levels[3] = { 0 };
	double q1 = 0;
	char when[32];

	rc = cmd_load_thresholds(c, &th, err, errlen);
	if (rc)
		return rc;
	so.dev = o->device;
	so.port = o->port;
	so.window = c->inflight;
	so.max_smps = c->inflight;
	rc = sweep_discover(&sw, &so, err, errlen);
	if (rc)
		return rc;
	rc = sweep_query(&sw, &so, err, errlen);
	if (rc)
		goto out;
	if (c->interval_set) {
		double t = counters_now() + c->interval;

		q1 = sw.query_s;
		if (sweep_copy(&first, &sw)) {
			snprintf(err, errlen, "out of memory");
			rc = 5;
			goto out;
		}
		prev = &first;
		clock_sleep_until(t, &sigexit_stop);
		rc = sweep_query(&sw, &so, err, errlen);
		if (rc)
			goto out;
	}
	ls = calloc((size_t)sw.n + 1, sizeof(*ls));
	if (!ls) {
		snprintf(err, errlen, "out of memory");
		rc = 5;
		goto out;
	}
	for (int i = 0; i < sw.n; i++) {
		const struct counter_set *pv = port_sets(&sw, prev, i, &cs, &pcs);
		struct verdict v;
		bool moved;

		if (!cs.valid) {
			nfail++;
			continue;
		}
		/* two sweeps: judge what moved between them; one sweep: the
		 * values since the last clear, with their own levels */
		if (pv)
			rules_eval_interval(pv, &cs, &th, c->interval, &v);
		else
			rules_eval_values(&cs, &th, &v);
		if (!port_listed(&cs, pv, &v, &moved))
			continue;
		ls[nl].idx = i;
		ls[nl].v = v;
		ls[nl].moved = moved;
		levels[v.level]++;
		nl++;
	}
	cmd_iso_time(when, sizeof(when));
	if (c->json) {
		struct json j;

		json_init(&j, stdout);
		json_obj_begin(&j, NULL);
		json_str(&j, "schema", "ibconsole/errors/1");
		json_str(&j, "time", when);
		json_int(&j, "nodes", sw.nodes);
		json_int(&j, "ports_swept", sw.n);
		json_int(&j, "ports_failed", nfail);
		json_num(&j, "discover_s", sw.discover_s);
		json_num(&j, "query_s", q1 ? q1 : sw.query_s);
		json_int(&j, "mads_sent", (long long)sw.mads_sent);
		json_int(&j, "inflight", c->inflight ? c->inflight : 64);
		json_num_or_null(&j, "interval_s", c->interval_set, c->interval);
		json_arr_begin(&j, "listed");
		for (int k = 0; k < nl; k++) {
			const struct sweep_port *p = &sw.p[ls[k].idx];
			const struct counter_set *pv = port_sets(&sw, prev, ls[k].idx, &cs, &pcs);
			char g[24];

			json_obj_begin(&j, NULL);
			json_str(&j, "node_desc", p->node_desc);
			snprintf(g, sizeof(g), "0x%016llx", (unsigned long long)p->guid);
			json_str(&j, "node_guid", g);
			json_bool(&j, "switch", p->is_switch);
			json_int(&j, "lid", p->lid);
			json_int(&j, "port", p->port);
			json_str(&j, "mode", cs.mode);
			json_bool(&j, "moved", ls[k].moved);
			cmd_json_verdict(&j, &ls[k].v);
			json_arr_begin(&j, "counters");
			for (int i = 0; i < cs.n; i++) {
				const struct ctr_value *x = &cs.c[i];
				const struct ctr_value *y = pv ? counters_find(pv, x->name) : NULL;

				if (x->cls == CTR_TRAFFIC || (!x->value && !(y && y->value != x->value)))
					continue;
				sweep_counter_json(&j, x, pv);
			}
			json_arr_end(&j);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_arr_begin(&j, "failed");
		for (int i = 0; i < sw.n; i++) {
			if (sweep_port_valid(&sw.p[i]))
				continue;
			sweep_port_counters(&sw, i, &cs);
			json_obj_begin(&j, NULL);
			json_str(&j, "node_desc", sw.p[i].node_desc);
			json_int(&j, "lid", sw.p[i].lid);
			json_int(&j, "port", sw.p[i].port);
			json_str(&j, "error", cs.why);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_obj_begin(&j, "summary");
		json_int(&j, "listed", nl);
		json_int(&j, "ok", levels[VERDICT_OK]);
		json_int(&j, "watch", levels[VERDICT_WATCH]);
		json_int(&j, "act", levels[VERDICT_ACT]);
		json_obj_end(&j);
		json_obj_end(&j);
	} else {
		for (int k = 0; k < nl; k++) {
			const struct sweep_port *p = &sw.p[ls[k].idx];
			const struct counter_set *pv = port_sets(&sw, prev, ls[k].idx, &cs, &pcs);

			printf("%-5s \"%s\" lid %u port %d:", verdict_name(ls[k].v.level),
			       p->node_desc, p->lid, p->port);
			for (int i = 0; i < cs.n; i++) {
				const struct ctr_value *x = &cs.c[i];
				const struct ctr_value *y = pv ? counters_find(pv, x->name) : NULL;

				if (x->cls == CTR_TRAFFIC || (!x->value && !(y && y->value != x->value)))
					continue;
				printf(" [%s == %llu", x->name, (unsigned long long)x->value);
				if (y)
					printf(" (%+lld)", (long long)(x->value - y->value));
				printf("]");
			}
			printf("\n");
			if (ls[k].v.level != VERDICT_OK)
				printf("      %s\n", ls[k].v.text);
		}
		for (int i = 0; i < sw.n; i++) {
			if (sweep_port_valid(&sw.p[i]))
				continue;
			sweep_port_counters(&sw, i, &cs);
			printf("fail  \"%s\" lid %u port %d: %s\n", sw.p[i].node_desc,
			       sw.p[i].lid, sw.p[i].port, cs.why);
		}
		printf("## %d nodes, %d ports swept in %.2f s (discovery %.2f s, %lu MADs); %d listed: %d act, %d watch; %d failed\n",
		       sw.nodes, sw.n, q1 ? q1 : sw.query_s, sw.discover_s, sw.mads_sent, nl,
		       levels[VERDICT_ACT], levels[VERDICT_WATCH], nfail);
	}
	fflush(stdout);
	rc = levels[VERDICT_ACT] ? 1 : 0;
out:
	free(ls);
	sweep_free(&first);
	sweep_free(&sw);
	return rc;
}

int cmd_errors(const struct cli *c, const struct snap_opts *o)
{
	char err[400] = "";

	return cmd_report(errors_run(c, o, err, sizeof(err)), err);
}
