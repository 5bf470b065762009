// SPDX-License-Identifier: MIT
/* `ibconsole watch`: per-interval deltas, rates and verdicts of local
 * ports and of remote ones by LID (PMA), as text or one JSON object per
 * sample, for scripts, cron and monitoring; the exit status says whether
 * a rule says act. Ctrl-C stops it cleanly. */
#include "config.h"
#include "cmd_watch.h"
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
#include "diag/ctrclass.h"
#include "diag/rules.h"
#include "diag/thresholds.h"
#include "diag/baseline.h"
#include "core/port/events.h"
#include "core/port/asyncev.h"
#include "core/counters/portcong.h"
#include "diag/congestion.h"
#include "diag/pfc.h"

/* 93700 → "93.7 k", for a person reading a terminal (JSON keeps raw). */
static void fmt_rate(char *b, size_t n, double v, const char *unit)
{
	static const char *const pre[] = { "", "k", "M", "G", "T" };
	int i = 0;

	if (v < 0) {
		snprintf(b, n, "n/a");
		return;
	}
	while (v >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(b, n, "%.3g %s%s", v, pre[i], unit);
}

static void print_text(const struct delta_port *d, const struct counter_set *cs,
		       const struct verdict *v, double now)
{
	struct ctr_rates r;
	char tx[24], rx[24], tp[24], rp[24];

	if (!cs->valid) {
		printf("%-20s n/a: %s\n", d->label, cs->why);
		return;
	}
	counters_rates(d, &r);
	fmt_rate(tx, sizeof(tx), r.tx_gbps, "Gb/s");
	fmt_rate(rx, sizeof(rx), r.rx_gbps, "Gb/s");
	fmt_rate(tp, sizeof(tp), r.tx_pps, "pkt/s");
	fmt_rate(rp, sizeof(rp), r.rx_pps, "pkt/s");
	printf("%-20s TX %-12s RX %-12s TX %-14s RX %-14s errors/%gmin %llu  %s\n",
	       d->label, tx, rx, tp, rp, 10.0,
	       (unsigned long long)delta_errors_window(d, now, DELTA_WIN_10MIN),
	       verdict_name(v->level));
	for (int i = 0; i < d->n; i++) {
		const struct delta_ctr *c = &d->c[i];

		if (!c->delta && c->state != DELTA_SATURATED &&
		    c->state != DELTA_RESET && c->state != DELTA_WRAPPED &&
		    c->state != DELTA_CLOCK)
			continue;
		if (c->state == DELTA_SATURATED && !c->delta && c->cls != CTR_ERROR)
			continue;
		char bytes[32] = "", dl[80];

		/* data counters count 4-octet words: say so, and in bytes */
		if (c->unit == CTR_WORDS4 || c->unit == CTR_BYTES)
			fmt_rate(bytes, sizeof(bytes), (double)delta_bytes(c, c->delta), "B");
		snprintf(dl, sizeof(dl), "%s%llu%s%s%s%s", c->lower_bound ? ">=" : "+",
			 (unsigned long long)c->delta,
			 c->unit == CTR_WORDS4 ? " words" : "", *bytes ? " (" : "", bytes,
			 *bytes ? ")" : "");
		printf("  %-30s %-10s value %-20llu delta %s%s%s\n",
		       c->name, ctr_class_name(c->cls),
		       (unsigned long long)c->value, dl, c->state == DELTA_OK ? "" : "  ",
		       c->state == DELTA_OK ? "" : delta_state_name(c->state));
	}
	for (int g = 0; g < DET_GROUPS; g++) {
		char line[400];

		if (!cs->det.g[g].asked)
			continue;	/* nothing to detail */
		details_text(&cs->det.g[g], g, line, sizeof(line));
		printf("  %-30s %s\n", details_attr_name(g), line);
	}
	if (v->level != VERDICT_OK)
		printf("  %s: %s\n", verdict_name(v->level), v->text);
}

/* A local port's slow-growth baseline (diag/baseline.h); remote ports
 * have none. */
static void baseline_open(struct baseline_port *pb, const struct ctr_target *t)
{
	char err[700];

	if (t->remote)
		memset(pb, 0, sizeof(*pb));
	else if (!baseline_port_open(pb, t->dev, t->port, err, sizeof(err)))
		fprintf(stderr, "ibconsole: %s\n", err);
}

static void baseline_keep(struct baseline_port *pb)
{
	char err[700];

	if (!baseline_port_keep(pb, err, sizeof(err)))
		fprintf(stderr, "ibconsole: %s\n", err);
}

static void cong_json(struct json *j, const struct delta_port *d,
		      const struct portcong *pc, double iv)
{
	uint64_t w;
	double share;
	bool clamped, have = congestion_port_wait(d, pc->tick, pc->lane_gbps, iv, &w, &share, &clamped);
	double ns = congestion_tick_ns(pc->tick, pc->lane_gbps);
	bool any = false;

	json_obj_begin(j, "xmit_wait");
	json_int_or_null(j, "ticks", have, (long long)w);
	json_int_or_null(j, "tick", pc->tick >= 0, pc->tick);
	json_num_or_null(j, "tick_ns", ns > 0, ns);
	json_num_or_null(j, "wait_share", share >= 0, share);
	json_bool(j, "clamped", clamped);
	json_str(j, "note", have && share < 0 && pc->why[0] ? pc->why : NULL);
	json_obj_end(j);
	for (int i = 0; i < d->n; i++) {
		const struct delta_ctr *c = &d->c[i];
		enum roce_class rc = congestion_roce_class(c->name);

		if (rc == ROCE_CLASS_NONE)
			continue;
		if (!any)
			json_arr_begin(j, "roce_congestion_loss");
		any = true;
		json_obj_begin(j, NULL);
		json_str(j, "name", c->name);
		json_str(j, "class", congestion_roce_class_name(rc));
		json_int_or_null(j, "delta", c->have && c->state == DELTA_OK, (long long)c->delta);
		json_str(j, "meaning", congestion_roce_meaning(c->name));
		json_obj_end(j);
	}
	if (any)
		json_arr_end(j);
}

static void cong_text(const struct delta_port *d, const struct portcong *pc, double iv)
{
	uint64_t w;
	bool clamped;
	double share;

	if (congestion_port_wait(d, pc->tick, pc->lane_gbps, iv, &w, &share, &clamped)) {
		if (share >= 0)
			printf("  %-30s %.1f %% of the time%s (%llu ticks of %.3g ns)\n", "xmit wait",
			       share * 100, clamped ? " (clamped: the port's tick is implausible)" : "",
			       (unsigned long long)w, congestion_tick_ns(pc->tick, pc->lane_gbps));
		else if (w || pc->why[0])
			printf("  %-30s %s, %llu ticks\n", "xmit wait", pc->why[0] ? pc->why : "n/a",
			       (unsigned long long)w);
	}
	for (int i = 0; i < d->n; i++) {
		const struct delta_ctr *c = &d->c[i];
		enum roce_class rc = congestion_roce_class(c->name);

		if (rc != ROCE_CLASS_NONE && c->have && c->delta)
			printf("  %-30s +%llu  %s: %s\n", c->name, (unsigned long long)c->delta,
			       congestion_roce_class_name(rc), congestion_roce_meaning(c->name));
	}
}

static void pfc_json(struct json *j, const struct portcong *pp, const struct ctr_target *t)
{
	struct pfc_delta d;
	char flag[PFC_MAX_FLAGS][160];
	const char *none = portcong_pfc_none(pp);
	int nf;

	if (!pp->pfc_on)
		return;
	pfc_diff(&pp->prev, &pp->cur, &d);
	json_obj_begin(j, "pfc");
	json_str(j, "netdev", t->netdev);
	json_int_or_null(j, "roce_priority", pp->roce_prio >= 0, pp->roce_prio);
	json_str(j, "roce_priority_from", pp->roce_prio >= 0 ? pp->prio_how : NULL);
	json_str(j, "note", none);
	json_arr_begin(j, "priorities");
	for (int p = 0; !none && p < PFC_PRIOS; p++) {
		if (!pp->cur.has[p])
			continue;
		json_obj_begin(j, NULL);
		json_int(j, "priority", p);
		json_u64(j, "rx_pause", pp->cur.rx[p]);
		json_u64(j, "tx_pause", pp->cur.tx[p]);
		json_int_or_null(j, "rx_pause_delta", d.valid && d.has[p], (long long)d.rx[p]);
		json_int_or_null(j, "tx_pause_delta", d.valid && d.has[p], (long long)d.tx[p]);
		if (pp->cur.have_dur) {
			json_u64(j, "rx_pause_duration", pp->cur.rx_dur[p]);
			json_u64(j, "tx_pause_duration", pp->cur.tx_dur[p]);
		} else {
			json_null(j, "rx_pause_duration");
			json_null(j, "tx_pause_duration");
		}
		json_obj_end(j);
	}
	json_arr_end(j);
	nf = pfc_judge(&d, pp->roce_prio, flag, PFC_MAX_FLAGS);
	json_arr_begin(j, "flags");
	for (int k = 0; k < nf; k++)
		json_str(j, NULL, flag[k]);
	json_arr_end(j);
	json_obj_end(j);
}

static void pfc_text(const struct portcong *pp)
{
	struct pfc_delta d;
	char flag[PFC_MAX_FLAGS][160];
	const char *none = portcong_pfc_none(pp);
	int nf;

	if (!pp->pfc_on)
		return;
	if (none) {
		printf("  %-30s %s\n", "PFC per priority", none);
		return;
	}
	pfc_diff(&pp->prev, &pp->cur, &d);
	for (int p = 0; d.valid && p < PFC_PRIOS; p++)
		if (d.has[p] && (d.rx[p] || d.tx[p]))
			printf("  PFC priority %d%-15s pause +%llu received, +%llu sent\n", p,
			       p == pp->roce_prio ? " (RoCE)" : "",
			       (unsigned long long)d.rx[p], (unsigned long long)d.tx[p]);
	nf = pfc_judge(&d, pp->roce_prio, flag, PFC_MAX_FLAGS);
	for (int k = 0; k < nf; k++)
		printf("  PFC: %s\n", flag[k]);
}

/* A local port's flap watch: its polled state and its LinkDowned /
 * LinkErrorRecovery increments, appended to the events file. */
struct port_flaps {
	struct port_track tr;
	bool warned;
};

#define WATCH_MAX_EVENTS (3 * CTRS_MAX_TARGETS + 32)

/* Records this interval's events of local port t into the events file
 * (path NULL: none kept) and ev; returns how many. */
static int flaps_poll(struct port_flaps *pf, const struct ctr_target *t,
		      const struct delta_port *dp, bool no_smp, const char *path,
		      struct port_event *ev)
{
	static const char *const ctrs[] = { "LinkDownedCounter", "LinkErrorRecoveryCounter" };
	struct timespec ts;
	double now;
	int state, phys, n = 0;

	if (t->remote || !t->dev[0])
		return 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	now = (double)ts.tv_sec + ts.tv_nsec / 1e9;
	if (!events_poll_state(t->dev, t->port, no_smp, &state, &phys) &&
	    events_track(&pf->tr, t->label, state, phys, now, &ev[n]))
		n++;
	for (int k = 0; k < 2; k++) {
		const struct delta_ctr *dc = delta_find(dp, ctrs[k]);

		if (dc && dc->have && dc->state == DELTA_OK &&
		    events_from_counter(t->label, ctrs[k], dc->delta, now, &ev[n]))
			n++;
	}
	for (int k = 0; path && k < n; k++) {
		char err[700];

		if (events_append(path, &ev[k], err, sizeof(err)) && !pf->warned) {
			fprintf(stderr, "ibconsole: %s — port events are not kept across runs (set XDG_STATE_HOME to a writable directory)\n", err);
			pf->warned = true;
		}
	}
	return n;
}

/* The neighbour of a local port in watch --json: who it is and, when its
 * PMA was sampled, its counters by the same delta rules and its verdict. */
static void peer_json(struct json *j, const struct port_peer *q,
		      const struct delta_port *d, const struct counter_set *cs,
		      const struct thresholds *th, double now)
{
	struct verdict v;

	if (!q->v.valid) {
		json_null(j, "peer");
		json_str(j, "peer_error", q->v.why);
		return;
	}
	json_obj_begin(j, "peer");
	snapshot_json_peer_members(j, q);
	json_bool(j, "sampled", d != NULL);
	if (d) {
		json_bool(j, "valid", cs->valid);
		json_str(j, "error", cs->valid ? NULL : cs->why);
		json_str(j, "mode", cs->valid ? cs->mode : NULL);
		rules_eval_delta(d, th, now, &v);
		cmd_json_verdict(j, &v);
		counters_json_delta(j, d, cs, now);
	}
	json_obj_end(j);
}

static int watch_run(const struct cli *c, const struct snap_opts *o, char *err,
		     size_t errlen)
{
	struct ctr_target t[CTRS_MAX_TARGETS];
	/* local port i's neighbour: its identity, and its counters at
	 * target peer_at[i] (-1: not sampled); is_peer marks those targets */
	struct port_peer peer[CTRS_MAX_TARGETS];
	int peer_at[CTRS_MAX_TARGETS];
	bool is_peer[CTRS_MAX_TARGETS] = { false };
	int nlocal;
	struct thresholds th;
	struct snapshot *s = NULL;
	struct delta_port *dp = NULL;
	struct counter_set *cs = NULL;
	struct ctr_reader *smp = NULL;
	struct baseline_port *bl = NULL;
	struct port_flaps *fl = NULL;
	struct portcong *pc = NULL;
	struct asyncev *verbs = NULL;
	char evpath[512];
	const char *evp = events_path(evpath, sizeof(evpath));
	struct sigaction old_int, old_term;
	enum verdict_level worst = VERDICT_OK;
	double t0, iv = c->interval;
	int n = 0, rc;

	rc = cmd_load_thresholds(c, &th, err, errlen);
	if (rc)
		return rc;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	rc = snapshot_collect(s, o, err, errlen);
	if (rc) {
		snapshot_release(s);
		free(s);
		return rc;
	}
	n = nlocal = reader_targets_local(s, t, CTRS_MAX_TARGETS);
	for (int i = 0; i < nlocal; i++) {
		peer[i] = s->ports[i].peer;
		peer_at[i] = -1;
		if (n < CTRS_MAX_TARGETS && !reader_target_peer(&s->ports[i], &t[n])) {
			peer_at[i] = n;
			is_peer[n++] = true;
		}
	}
	if (c->lids) {
		int m = reader_targets_remote(c->lids, s, t + n, CTRS_MAX_TARGETS - n, err, errlen);

		if (m < 0) {
			snapshot_release(s);
			free(s);
			return 2;
		}
		n += m;
	}
	pc = calloc((size_t)n, sizeof(*pc));
	if (!pc) {
		snapshot_release(s);
		free(s);
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	dp = calloc((size_t)n, sizeof(*dp));
	cs = calloc((size_t)n, sizeof(*cs));
	bl = calloc((size_t)n, sizeof(*bl));
	fl = calloc((size_t)n, sizeof(*fl));
	smp = reader_open();
	if (!dp || !cs || !bl || !fl || !smp) {
		snapshot_release(s);
		free(s);
		snprintf(err, errlen, "out of memory");
		rc = 5;
		goto out;
	}
	for (int i = 0; i < n; i++)
		portcong_open(&pc[i], &t[i], reader_target_lane_gbps(s, &t[i]), smp);
	/* the neighbour's end of the cable runs at the local port's speed */
	for (int i = 0; i < nlocal; i++)
		if (peer_at[i] >= 0)
			portcong_set_lane(&pc[peer_at[i]], pc[i].lane_gbps);
	snapshot_release(s);
	free(s);
	sigexit_catch(&old_int, &old_term);

	for (int i = 0; i < n; i++) {
		delta_init(&dp[i], t[i].label, iv);
		baseline_open(&bl[i], &t[i]);
	}
	{
		char why[200];

		/* none on ibsim: polling still sees the state changes */
		verbs = asyncev_start(o->device, evp, why, sizeof(why));
	}
	t0 = counters_now();
	for (long k = 0; !sigexit_stop && (c->count == 0 || k <= c->count); k++) {
		char when[32];
		double now;
		struct json j;
		struct port_event ev[WATCH_MAX_EVENTS];
		int nev;

		if (k)
			clock_sleep_until(t0 + k * iv, &sigexit_stop);
		if (sigexit_stop)
			break;
		nev = 0;
		for (int i = 0; i < n; i++) {
			reader_read(smp, &t[i], &cs[i]);
			delta_update(&dp[i], &cs[i], cs[i].valid ? cs[i].t_mono : counters_now());
			portcong_tick(&pc[i], &t[i]);
			if (nev + 1 + 2 <= WATCH_MAX_EVENTS)
				nev += flaps_poll(&fl[i], &t[i], &dp[i], o->no_smp, evp, ev + nev);
		}
		/* verbs events (already in the file) */
		nev += asyncev_take(verbs, ev + nev, WATCH_MAX_EVENTS - nev);
		if (!k)
			continue;	/* the baseline: nothing to report yet */
		now = counters_now();
		cmd_iso_time(when, sizeof(when));
		if (c->json) {
			json_init(&j, stdout);
			j.compact = true;	/* JSON Lines: one record per interval */
			json_obj_begin(&j, NULL);
			json_str(&j, "schema", "ibconsole/watch/1");
			json_str(&j, "time", when);
			json_int(&j, "seq", k);
			json_num(&j, "interval_s", iv);
			json_arr_begin(&j, "ports");
		} else {
			printf("=== %s  interval %ld  (%g s) ===\n", when, k, iv);
			for (int e = 0; e < nev; e++) {
				char line[200];

				events_text(&ev[e], line, sizeof(line));
				printf("event: %s\n", line);
			}
		}
		for (int i = 0; i < n; i++) {
			struct verdict v;

			if (is_peer[i] && c->json)
				continue;	/* shown with its local port */
			rules_eval_delta(&dp[i], &th, now, &v);
			if (cs[i].valid && bl[i].path[0]) {
				baseline_eval(&bl[i].b, &cs[i], (double)time(NULL), &th, &v);
				baseline_keep(&bl[i]);
			}
			if (cs[i].valid && v.level > worst && !is_peer[i])
				worst = v.level;
			if (!c->json) {
				print_text(&dp[i], &cs[i], &v, now);
				if (cs[i].valid)
					cong_text(&dp[i], &pc[i], iv);
				pfc_text(&pc[i]);
				continue;
			}
			json_obj_begin(&j, NULL);
			json_str(&j, "port", t[i].label);
			json_str(&j, "device", t[i].remote ? NULL : t[i].dev);
			json_int(&j, "local_port", t[i].port);
			json_int_or_null(&j, "lid", t[i].lid, t[i].lid);
			json_int(&j, "pma_port", t[i].pma_port);
			json_bool(&j, "remote", t[i].remote);
			json_str(&j, "source", cs[i].source == CTR_SRC_PMA ? "pma" :
				 cs[i].source == CTR_SRC_SYSFS ? "sysfs" : NULL);
			json_str(&j, "mode", cs[i].valid ? cs[i].mode : NULL);
			json_bool(&j, "valid", cs[i].valid);
			json_str(&j, "error", cs[i].valid ? NULL : cs[i].why);
			cmd_json_verdict(&j, &v);
			counters_json_delta(&j, &dp[i], &cs[i], now);
			counters_json_details(&j, &cs[i]);
			cong_json(&j, &dp[i], &pc[i], iv);
			pfc_json(&j, &pc[i], &t[i]);
			if (i < nlocal)
				peer_json(&j, &peer[i], peer_at[i] >= 0 ? &dp[peer_at[i]] : NULL,
					  peer_at[i] >= 0 ? &cs[peer_at[i]] : NULL, &th, now);
			json_obj_end(&j);
		}
		if (c->json) {
			json_arr_end(&j);
			json_arr_begin(&j, "events");
			for (int e = 0; e < nev; e++)
				events_json(&j, &ev[e]);
			json_arr_end(&j);
			json_str(&j, "worst", verdict_name(worst));
			json_obj_end(&j);
		}
		fflush(stdout);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	rc = worst == VERDICT_ACT ? 1 : 0;
	if (ferror(stdout)) {
		snprintf(err, errlen, "cannot write the output");
		rc = 5;
	}
out:
	asyncev_stop(verbs);
	reader_close(smp);
	free(dp);
	free(cs);
	free(bl);
	free(fl);
	free(pc);
	sigexit_note(sigexit_stop);	/* main dies of it: 130 / 143 */
	return rc;
}

int cmd_watch(const struct cli *c, const struct snap_opts *o)
{
	char err[400] = "";

	return cmd_report(watch_run(c, o, err, sizeof(err)), err);
}
