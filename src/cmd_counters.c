// SPDX-License-Identifier: MIT
/* `ibconsole watch` and `ibconsole errors`: counters for scripts, cron
 * and monitoring; the exit status says whether a rule says act. They
 * share the thresholds, the verdict's JSON and the Ctrl-C stop. */
#include "config.h"
#include "cmd_counters.h"

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

static volatile sig_atomic_t cmd_stop;

static void on_signal(int sig)
{
	cmd_stop = sig;
}

static void iso_time(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int load_thresholds(const struct cli *c, struct thresholds *th,
			   char *err, size_t errlen)
{
	char buf[512];
	const char *path = thresholds_config_path(c->config, buf, sizeof(buf));
	int rc;

	thresholds_defaults(th);
	rc = thresholds_load(th, path, err, errlen);
	/* A default file nobody named that cannot be read is a warning:
	 * the defaults still judge. A named one, or a bad line, is not. */
	if (rc == -2 && thresholds_config_is_default(c->config)) {
		fprintf(stderr, "ibconsole: warning: %s; using the default thresholds\n", err);
		thresholds_defaults(th);
		err[0] = '\0';
		return 0;
	}
	if (rc < 0)
		return 2;
	if (c->config && !th->file[0]) {
		snprintf(err, errlen, "config file %s not found — check the path given to --config", c->config);
		return 2;
	}
	return 0;
}

static void json_verdict(struct json *j, const struct verdict *v)
{
	json_obj_begin(j, "verdict");
	json_str(j, "level", verdict_name(v->level));
	json_str(j, "counter", v->counter[0] ? v->counter : NULL);
	json_u64(j, "count", v->count);
	json_bool(j, "count_lower_bound", v->lower_bound);
	if (v->level != VERDICT_OK)
		json_u64(j, "threshold", v->threshold);
	else
		json_null(j, "threshold");
	json_str(j, "rule", v->rule);
	json_str(j, "window", v->window);
	json_str(j, "text", v->text);
	/* the count per the levels' window, where the rule scaled it */
	json_num_or_null(j, "span_s", v->span_s > 0, v->span_s);
	if (v->span_s > 0)
		json_u64(j, "per_window", v->per_window);
	else
		json_null(j, "per_window");
	json_str(j, "class", v->cls_counter[0] ? ctr_fault_name(v->cls_counter) : NULL);
	json_obj_end(j);
}

/* Sleeps until the monotonic time t, waking early on a signal. */
static void sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	while (!cmd_stop &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

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
		json_verdict(j, &v);
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
	struct sigaction sa, old_int, old_term;
	enum verdict_level worst = VERDICT_OK;
	double t0, iv = c->interval;
	int n = 0, rc;

	rc = load_thresholds(c, &th, err, errlen);
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
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	cmd_stop = 0;

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
	for (long k = 0; !cmd_stop && (c->count == 0 || k <= c->count); k++) {
		char when[32];
		double now;
		struct json j;
		struct port_event ev[WATCH_MAX_EVENTS];
		int nev;

		if (k)
			sleep_until(t0 + k * iv);
		if (cmd_stop)
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
		iso_time(when, sizeof(when));
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
			json_verdict(&j, &v);
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
	sigexit_note(cmd_stop);	/* main dies of it: 130 / 143 */
	return rc;
}

/* --- errors: one fabric-wide sweep --- */

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

	rc = load_thresholds(c, &th, err, errlen);
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
		sleep_until(t);
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
	iso_time(when, sizeof(when));
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
			json_verdict(&j, &ls[k].v);
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

/* A result past "act" (1) comes with a one-line message. */
static int report(int rc, const char *err)
{
	if (rc > 1)
		fprintf(stderr, "ibconsole: %s\n", err);
	return rc;
}

int cmd_watch(const struct cli *c, const struct snap_opts *o)
{
	char err[400] = "";

	return report(watch_run(c, o, err, sizeof(err)), err);
}

int cmd_errors(const struct cli *c, const struct snap_opts *o)
{
	char err[400] = "";

	return report(errors_run(c, o, err, sizeof(err)), err);
}
