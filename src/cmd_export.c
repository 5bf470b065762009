// SPDX-License-Identifier: MIT
/* `ibconsole export`: collects the local ports on --interval and, with
 * --fabric, sweeps the fabric on its own thread every --sweep-interval;
 * each collection is rendered once and published, and a scrape streams
 * the newest complete ones, so a slow fabric never delays a scrape.
 * Never resets a counter. */
#include "config.h"
#include "cmd_export.h"

#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd_errors.h"
#include "cmd_fabric.h"
#include "cmd_serve.h"
#include "core/base/sigexit.h"
#include "core/base/umadlock.h"
#include "core/counters/delta.h"
#include "core/counters/reader.h"
#include "core/export/metrics.h"
#include "core/export/porttext.h"
#include "core/export/server.h"
#include "core/fabric/fabric.h"
#include "core/fabric/sweeper.h"
#include "core/port/snapshot.h"
#include "diag/portfacts.h"
#include "diag/baseline.h"
#include "diag/ctrclass.h"
#include "diag/ber.h"
#include "diag/rules.h"
#include "diag/thresholds.h"

#define SLOT_LOCAL 0
#define SLOT_FABRIC 1
#define DEFAULT_INTERVAL_S 10.0
#define DEFAULT_SWEEP_S 60.0

/* A verdict into the export target: its level, and above ok the counter
 * that decided it with its class. */
static void verdict_to(struct export_target *t, int rule, const struct verdict *v)
{
	t->verdict[rule] = (int)v->level;
	t->vclass[rule] = NULL;
	if (v->level > VERDICT_OK && v->cls_counter[0]) {
		snprintf(t->vcounter[rule], sizeof(t->vcounter[rule]), "%s", v->counter);
		t->vclass[rule] = ctr_fault_name(v->cls_counter);
	}
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What the head of every scrape says about the collections. */
struct exp_state {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	const struct cli *cli;
	const struct snap_opts *so;
	struct snap_opts so_modules;	/* so, reading the modules too */
	struct thresholds th;
	struct export_store *store;
	/* local */
	double local_done;		/* wall clock, 0: none yet */
	double local_s;
	bool local_ok;
	char local_err[400];
	int worst;			/* verdict_level over the last collections */
	/* fabric */
	bool fabric;
	double fabric_done;		/* last complete sweep, wall clock */
	double discover_s, query_s;
	int fabric_nodes, fabric_ports;
	unsigned long sweeps, sweep_failures, mads, mad_retries, discoveries;
	struct sweeper *swp;		/* the fabric thread's (or --once's) */
	/* a sweep's per-port arrays, kept for the next sweep: fresh ones
	 * each time cost a page fault per 4 KiB of them; labels and the
	 * model's families are written once per port list (list) */
	struct export_target *et;
	int *fport;
	bool *ok;			/* the port's counters were read */
	int ports_cap;
	unsigned long list;		/* 0: none written yet */
	struct expo_buf model_text;
	struct porttexts texts;		/* each port's counter text */
	/* the fabric piece published last (served) and the one before it
	 * (spare, our reference kept): the next sweep is written into the
	 * spare's memory once no scrape streams it */
	struct export_blob *served, *spare;
	size_t fabric_len;		/* the served piece's length */
	struct counter_set cs, pcs;	/* a port's now and before */
	bool fabric_ok;			/* the last attempt completed */
	int fabric_status;		/* its exit-status-style code */
	char fabric_err[400];
};

static void head(struct expo_buf *b, void *arg)
{
	struct exp_state *x = arg;
	double now = wall_now();

	pthread_mutex_lock(&x->lock);
	expo_family(b, "ibconsole_exporter_build_info", "gauge",
		    "The exporter's version (value always 1).");
	expo_sample(b, "ibconsole_exporter_build_info", "", "version", PACKAGE_VERSION, 1);
	expo_family(b, "ibconsole_local_up", "gauge",
		    "1 when the last collection of the local ports succeeded, 0 when it did not (see ibconsole_local_error_info).");
	expo_sample(b, "ibconsole_local_up", "", NULL, NULL, x->local_ok);
	expo_family(b, "ibconsole_local_error_info", "gauge",
		    "Why the last collection of the local ports failed (value always 1).");
	if (!x->local_ok && x->local_err[0])
		expo_sample(b, "ibconsole_local_error_info", "", "error", x->local_err, 1);
	if (x->local_done > 0) {
		expo_family(b, "ibconsole_local_collection_timestamp_seconds", "gauge",
			    "When the last collection of the local ports ended (Unix time).");
		expo_sample(b, "ibconsole_local_collection_timestamp_seconds", "", NULL, NULL, x->local_done);
		expo_family(b, "ibconsole_local_collection_duration_seconds", "gauge",
			    "How long the last collection of the local ports took.");
		expo_sample(b, "ibconsole_local_collection_duration_seconds", "", NULL, NULL, x->local_s);
	}
	if (x->fabric) {
		expo_family(b, "ibconsole_fabric_sweep_up", "gauge",
			    "1 when the last fabric sweep completed, 0 when it failed (the previous complete sweep is still served; see ibconsole_fabric_sweep_error_info).");
		expo_sample(b, "ibconsole_fabric_sweep_up", "", NULL, NULL, x->fabric_ok);
		expo_family(b, "ibconsole_fabric_sweep_error_info", "gauge",
			    "Why the last fabric sweep failed (value always 1).");
		if (!x->fabric_ok && x->fabric_err[0])
			expo_sample(b, "ibconsole_fabric_sweep_error_info", "", "error", x->fabric_err, 1);
		expo_family(b, "ibconsole_fabric_sweeps_total", "counter",
			    "Fabric sweeps attempted since the exporter started.");
		expo_sample(b, "ibconsole_fabric_sweeps_total", "", NULL, NULL, (double)x->sweeps);
		expo_family(b, "ibconsole_fabric_sweep_failures_total", "counter",
			    "Fabric sweeps that failed since the exporter started.");
		expo_sample(b, "ibconsole_fabric_sweep_failures_total", "", NULL, NULL, (double)x->sweep_failures);
		if (x->fabric_done > 0) {
			expo_family(b, "ibconsole_fabric_sweep_timestamp_seconds", "gauge",
				    "When the served fabric sweep ended (Unix time).");
			expo_sample(b, "ibconsole_fabric_sweep_timestamp_seconds", "", NULL, NULL, x->fabric_done);
			expo_family(b, "ibconsole_fabric_sweep_age_seconds", "gauge",
				    "Age of the served fabric sweep at this scrape.");
			expo_sample(b, "ibconsole_fabric_sweep_age_seconds", "", NULL, NULL, now - x->fabric_done);
			expo_family(b, "ibconsole_fabric_sweep_duration_seconds", "gauge",
				    "How long the served sweep's phases took: discovery (libibnetdisc; 0 when the sweep reused the kept model) and counters (pipelined PMA queries).");
			expo_sample(b, "ibconsole_fabric_sweep_duration_seconds", "", "phase", "discovery", x->discover_s);
			expo_sample(b, "ibconsole_fabric_sweep_duration_seconds", "", "phase", "counters", x->query_s);
			expo_family(b, "ibconsole_fabric_sweep_nodes", "gauge", "Nodes in the served sweep.");
			expo_sample(b, "ibconsole_fabric_sweep_nodes", "", NULL, NULL, x->fabric_nodes);
			expo_family(b, "ibconsole_fabric_sweep_ports", "gauge", "Ports in the served sweep.");
			expo_sample(b, "ibconsole_fabric_sweep_ports", "", NULL, NULL, x->fabric_ports);
			expo_family(b, "ibconsole_fabric_sweep_mads_total", "counter",
				    "PMA queries sent by all sweeps since the exporter started.");
			expo_sample(b, "ibconsole_fabric_sweep_mads_total", "", NULL, NULL, (double)x->mads);
			expo_family(b, "ibconsole_fabric_sweep_mad_retries_total", "counter",
				    "Of those, queries asked again after their time-out passed with no answer: a PMA or a management path that does not keep up.");
			expo_sample(b, "ibconsole_fabric_sweep_mad_retries_total", "", NULL, NULL, (double)x->mad_retries);
			expo_family(b, "ibconsole_fabric_discoveries_total", "counter",
				    "Fabric discoveries since the exporter started: the first, every fabric_rediscover_s, and one for each sweep that met a port whose link or peer changed (other sweeps reuse the model and send PMA queries only).");
			expo_sample(b, "ibconsole_fabric_discoveries_total", "", NULL, NULL, (double)x->discoveries);
		}
	}
	pthread_mutex_unlock(&x->lock);
}

/* --- local ports --- */

struct local {
	struct snapshot *s;
	struct ctr_reader *rd;
	struct ctr_target t[CTRS_MAX_TARGETS];
	struct counter_set cs[CTRS_MAX_TARGETS];
	struct delta_port *dp;		/* CTRS_MAX_TARGETS, by label */
	struct export_target et[CTRS_MAX_TARGETS];
	/* slow growth: each port's baseline, as watch keeps it */
	struct baseline_port bl[CTRS_MAX_TARGETS];
	char bl_label[CTRS_MAX_TARGETS][64];	/* whose baseline bl[i] holds */
};

/* Reads one local port; an IB port whose PMA cannot be reached (no umad
 * permission, say) falls back to the kernel's counters/ in sysfs, which
 * any user may read, and keeps the PMA's reason when that fails too. */
static void read_local(struct local *l, int i)
{
	char why[sizeof(l->cs[i].why)];

	if (!reader_read(l->rd, &l->t[i], &l->cs[i]) || !l->t[i].lid)
		return;
	snprintf(why, sizeof(why), "%s", l->cs[i].why);
	memset(&l->cs[i], 0, sizeof(l->cs[i]));
	snprintf(l->cs[i].label, sizeof(l->cs[i].label), "%s", l->t[i].label);
	if (counters_sysfs_sample(l->t[i].dev, l->t[i].port, l->t[i].netdev, &l->cs[i])) {
		snprintf(l->cs[i].why, sizeof(l->cs[i].why), "%s", why);
		l->cs[i].valid = false;
	}
}

/* The slow-growth rule on local port i against its baseline in the
 * state directory (shared with watch); said once when it cannot be kept. */
static void slow_growth(struct exp_state *x, struct local *l, int i)
{
	struct verdict v;
	char err[700];

	if (l->t[i].remote)
		return;
	if (strcmp(l->bl_label[i], l->t[i].label)) {
		snprintf(l->bl_label[i], sizeof(l->bl_label[i]), "%s", l->t[i].label);
		if (!baseline_port_open(&l->bl[i], l->t[i].dev, l->t[i].port, err, sizeof(err)))
			fprintf(stderr, "ibconsole: %s\n", err);
	}
	if (!l->bl[i].path[0])
		return;
	memset(&v, 0, sizeof(v));
	baseline_eval(&l->bl[i].b, &l->cs[i], (double)time(NULL), &x->th, &v);
	verdict_to(&l->et[i], EXPORT_RULE_SLOW, &v);
	if (!baseline_port_keep(&l->bl[i], err, sizeof(err)))
		fprintf(stderr, "ibconsole: %s\n", err);
}

/* The port's effective bit error rate since the first collection. */
static void local_ber(struct export_target *et, const struct delta_port *d, int lanes,
		      double lane_gbps)
{
	struct ber b;

	et->ber_valid = ber_since_start(&b, d, lanes, lane_gbps) && b.valid;
	if (!et->ber_valid)
		return;
	et->ber = b.rate;
	et->ber_bound = b.bound;
	et->ber_window_s = b.seconds;
}

/* One collection of every local port, rendered and published. Returns
 * 0, or the snapshot's status (3: no device) with x->local_err. */
static int collect_local(struct exp_state *x, struct local *l, bool windowed)
{
	double t0 = wall_now();
	struct expo_buf b;
	char err[400] = "";
	int n, rc, worst = VERDICT_OK;

	rc = snapshot_collect(l->s, x->so, err, sizeof(err));
	if (!rc)
		portfacts_judge(l->s);
	if (rc) {
		pthread_mutex_lock(&x->lock);
		x->local_ok = false;
		snprintf(x->local_err, sizeof(x->local_err), "%s", err);
		pthread_mutex_unlock(&x->lock);
		export_store_publish(x->store, SLOT_LOCAL, NULL);
		return rc;
	}
	n = reader_targets_local(l->s, l->t, CTRS_MAX_TARGETS);
	umadlock_span_begin();
	for (int i = 0; i < n; i++) {
		struct delta_port *d = &l->dp[i];
		struct verdict v;

		read_local(l, i);
		if (strcmp(d->label, l->t[i].label))
			delta_init(d, l->t[i].label, x->cli->interval_set ? x->cli->interval : DEFAULT_INTERVAL_S);
		delta_update(d, &l->cs[i], l->cs[i].valid ? l->cs[i].t_mono : counters_now());
		export_labels_local(&l->et[i], l->t[i].dev, l->t[i].port);
		l->et[i].cs = &l->cs[i];
		local_ber(&l->et[i], d, l->t[i].lanes, i < l->s->nports ? l->s->ports[i].lane_gbps : 0);
		for (int r = 0; r < EXPORT_NRULES; r++)
			l->et[i].verdict[r] = -1;
		if (!l->cs[i].valid)
			continue;
		if (windowed) {
			rules_eval_delta(d, &x->th, counters_now(), &v);
			verdict_to(&l->et[i], EXPORT_RULE_WINDOW, &v);
		}
		rules_eval_values(&l->cs[i], &x->th, &v);
		verdict_to(&l->et[i], EXPORT_RULE_SINCE_CLEAR, &v);
		slow_growth(x, l, i);
		for (int r = 0; r < EXPORT_NRULES; r++)
			if (l->et[i].verdict[r] > worst)
				worst = l->et[i].verdict[r];
	}
	/* under umad2sim a kept-open PMA client breaks the sweep's */
	reader_release(l->rd);
	umadlock_span_end();

	expo_init(&b);
	export_write_local(&b, l->s, l->et);
	export_write_counters(&b, "ibconsole_port", l->et, n);
	export_store_publish(x->store, SLOT_LOCAL, export_blob_take(&b));
	pthread_mutex_lock(&x->lock);
	x->local_ok = true;
	x->local_err[0] = '\0';
	x->local_done = wall_now();
	x->local_s = x->local_done - t0;
	if (worst > x->worst)
		x->worst = worst;
	pthread_mutex_unlock(&x->lock);
	return 0;
}

/* --- fabric --- */

/* A swept port's verdicts: its values since the last clear, and what
 * moved since the previous sweep where it has one (pv); *worst follows. */
static void judge_port(struct exp_state *x, const struct counter_set *pv,
		       const struct counter_set *cs, struct export_target *et,
		       int *worst)
{
	struct verdict v;

	rules_eval_values(cs, &x->th, &v);
	verdict_to(et, EXPORT_RULE_SINCE_CLEAR, &v);
	if ((int)v.level > *worst)
		*worst = (int)v.level;
	if (pv) {
		rules_eval_interval(pv, cs, &x->th, cs->t_mono - pv->t_mono, &v);
		verdict_to(et, EXPORT_RULE_INTERVAL, &v);
		if ((int)v.level > *worst)
			*worst = (int)v.level;
	}
}

/* The port list's labels and the families only its model gives, when
 * the list is not the one they were written for. 0, or 5 out of memory. */
static int render_list(struct exp_state *x, unsigned long list, char *err,
		       size_t errlen)
{
	const struct sweep *sw = sweeper_sweep(x->swp);
	const struct fabric *f = sweeper_fabric(x->swp);

	if (x->list == list)
		return 0;
	for (int i = 0; i < sw->n; i++) {
		x->fport[i] = sw->p[i].fi;
		export_labels_fabric(&x->et[i], f, x->fport[i]);
	}
	expo_reset(&x->model_text);
	export_write_fabric_model(&x->model_text, f, x->et, x->fport, sw->n);
	if (x->model_text.oom) {
		expo_free(&x->model_text);
		snprintf(err, errlen, "out of memory rendering %d fabric ports", sw->n);
		return 5;
	}
	x->list = list;
	return 0;
}

/*
 * Every swept port's counters and verdicts, rendered and published. A
 * port whose error counters did not move keeps the text (and verdicts)
 * of an earlier sweep but for its traffic counters; only the others are
 * judged and written again. 0, or 5 out of memory with err.
 */
static int render_sweep(struct exp_state *x, unsigned long list, int *worst,
			char *err, size_t errlen)
{
	const struct sweep *sw = sweeper_sweep(x->swp), *prev = sweeper_prev(x->swp);
	struct export_blob *blob;
	struct expo_buf b;
	int rc = render_list(x, list, err, errlen);

	if (!rc && porttexts_fit(&x->texts, sw->n, list))
		rc = 5;
	for (int i = 0; !rc && i < sw->n; i++) {
		struct export_target *et = &x->et[i];
		const struct counter_set *pv;
		int w = VERDICT_OK;

		x->ok[i] = sweep_port_valid(&sw->p[i]);
		if (porttexts_fresh(&x->texts, i, sw, prev)) {
			if (x->texts.t[i].worst > *worst)
				*worst = x->texts.t[i].worst;
			continue;
		}
		pv = sweeper_pair(x->swp, i, &x->cs, &x->pcs);
		et->cs = &x->cs;
		for (int r = 0; r < EXPORT_NRULES; r++)
			et->verdict[r] = -1;
		if (x->cs.valid)
			judge_port(x, pv, &x->cs, et, &w);
		if (porttexts_keep(&x->texts, i, "ibconsole_fabric_port", et, w, sw, prev))
			rc = 5;
		et->cs = NULL;
		if (w > *worst)
			*worst = w;
	}
	if (rc) {
		snprintf(err, errlen, "out of memory for %d fabric ports", sw->n);
		return rc;
	}
	/* A fresh buffer for the whole text (30 MB on 8,064 ports) grown by
	 * doubling cost a third of the exporter's CPU at a 10 s interval:
	 * page faults and realloc's copies. The previous sweep's memory,
	 * once no scrape streams it, is already mapped and big enough. */
	expo_init(&b);
	export_blob_reuse(x->spare, &b);
	x->spare = NULL;
	expo_reserve(&b, x->fabric_len + x->fabric_len / 8);
	export_write_node_up(&b, sweeper_fabric(x->swp), x->ok, x->fport, sw->n);
	expo_append(&b, x->model_text.p, x->model_text.len);
	if (porttexts_write(&x->texts, &b, "ibconsole_fabric_port", x->et, sw) || b.oom) {
		expo_free(&b);
		snprintf(err, errlen, "out of memory rendering %d fabric ports", sw->n);
		return 5;
	}
	x->fabric_len = b.len;
	blob = export_blob_take(&b);
	x->spare = x->served;
	x->served = export_blob_ref(blob);
	export_store_publish(x->store, SLOT_FABRIC, blob);
	return 0;
}

/* One sweep (the sweeper's: the kept model, or a new one when due), every
 * port's counters judged, rendered and published. 0, or a status with err. */
static int sweep_once(struct exp_state *x, char *err, size_t errlen)
{
	const struct sweep *sw = sweeper_sweep(x->swp);
	struct sweeper_stats st;
	int rc, worst = VERDICT_OK;

	rc = sweeper_query(x->swp, err, errlen);
	if (rc)
		return rc;
	sweeper_stats(x->swp, &st);
	if (sw->n + 1 > x->ports_cap) {
		free(x->et);
		free(x->fport);
		free(x->ok);
		x->list = 0;
		x->ports_cap = sw->n + 1;
		x->et = calloc((size_t)x->ports_cap, sizeof(*x->et));
		x->fport = calloc((size_t)x->ports_cap, sizeof(*x->fport));
		x->ok = calloc((size_t)x->ports_cap, sizeof(*x->ok));
	}
	if (!x->et || !x->fport || !x->ok) {
		snprintf(err, errlen, "out of memory for %d fabric ports", sw->n);
		x->ports_cap = 0;
		rc = 5;
	} else {
		/* each model the sweeper took or discovered: a new list */
		rc = render_sweep(x, 1 + st.discoveries + st.taken, &worst, err, errlen);
	}
	/* a sweep that was not served judges nothing: no previous round */
	if (!rc)
		sweeper_keep(x->swp);
	pthread_mutex_lock(&x->lock);
	x->mads = st.mads_sent;
	x->mad_retries = st.mads_retried;
	x->discoveries = st.discoveries;
	if (!rc) {
		x->fabric_done = wall_now();
		x->discover_s = st.discover_s;
		x->query_s = sw->query_s;
		x->fabric_nodes = sw->nodes;
		x->fabric_ports = sw->n;
		if (worst > x->worst)
			x->worst = worst;
	}
	pthread_mutex_unlock(&x->lock);
	return rc;
}

static int sweep_and_note(struct exp_state *x)
{
	char err[400] = "";
	int rc = sweep_once(x, err, sizeof(err));

	pthread_mutex_lock(&x->lock);
	x->sweeps++;
	x->fabric_ok = !rc;
	x->fabric_status = rc;
	if (rc) {
		x->sweep_failures++;
		snprintf(x->fabric_err, sizeof(x->fabric_err), "%s", err);
	} else {
		x->fabric_err[0] = '\0';
	}
	pthread_mutex_unlock(&x->lock);
	return rc;
}

static void *fabric_loop(void *arg)
{
	struct exp_state *x = arg;
	double every = x->cli->sweep_interval > 0 ? x->cli->sweep_interval : DEFAULT_SWEEP_S;

	while (!sigexit_stop) {
		struct timespec until;
		double t = wall_now() + every;

		sweep_and_note(x);
		until.tv_sec = (time_t)t;
		until.tv_nsec = (long)((t - (double)until.tv_sec) * 1e9);
		pthread_mutex_lock(&x->lock);
		while (!sigexit_stop &&
		       pthread_cond_timedwait(&x->wake, &x->lock, &until) != ETIMEDOUT)
			;
		pthread_mutex_unlock(&x->lock);
	}
	return NULL;
}

/* The fabric's sweeper: the exporter's MAD budget, every counter, the
 * model kept and discovered again on the config's timer or a changed
 * port. 0, or 5 out of memory. */
static int open_sweeper(const struct cli *c, struct exp_state *x, char *err,
			size_t errlen)
{
	struct sweeper_opts so = { 0 };

	so.so.dev = x->so->device;
	so.so.port = x->so->port;
	so.so.window = c->inflight;
	so.so.max_smps = c->inflight;
	so.so.timeout_ms = c->mad_timeout_ms;
	so.so.all_counters = true;
	so.so.node_name_map = c->node_name_map;
	so.rediscover_s = x->th.tv.fabric_rediscover_s;
	so.rediscover_on_change = true;
	so.keep_model = true;
	x->swp = sweeper_open(&so);
	if (!x->swp) {
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	return 0;
}

/* --- the command --- */

static int load_thresholds(const struct cli *c, struct thresholds *th,
			   char *err, size_t errlen)
{
	char buf[512];
	const char *path = thresholds_config_path(c->config, buf, sizeof(buf));

	thresholds_defaults(th);
	if (thresholds_load(th, path, err, errlen) < 0)
		return 2;
	if (c->config && !th->file[0]) {
		snprintf(err, errlen, "config file %s not found — check the path given to --config", c->config);
		return 2;
	}
	return 0;
}

/* Sleeps until wall time t, waking early when asked to stop. */
static void sleep_until(double t)
{
	while (!sigexit_stop) {
		double left = t - wall_now();
		struct timespec ts;

		if (left <= 0)
			return;
		if (left > 0.2)
			left = 0.2;	/* notice the stop flag soon */
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
}

/* --once: one collection (and sweep), printed or written. 0, 1 (act)
 * or a status with err. */
static int export_once(const struct cli *c, struct exp_state *x, char *err,
		       size_t errlen)
{
	int rc = 0;

	if (c->fabric)
		rc = sweep_and_note(x);
	if (rc) {
		snprintf(err, errlen, "%s", x->fabric_err);
		return rc;
	}
	if (c->textfile) {
		if (export_textfile_write(x->store, c->textfile, err, errlen))
			return 5;
	} else if (export_store_print(x->store, stdout)) {
		snprintf(err, errlen, "cannot write the output");
		return 5;
	}
	return x->worst == VERDICT_ACT ? 1 : 0;
}

/* Collects every interval (and sweeps on its own thread) until a stop
 * signal: 0, or a status with err. */
static int export_loop(const struct cli *c, struct exp_state *x, struct local *l,
		       char *err, size_t errlen)
{
	struct sigaction old_int, old_term;
	double iv = c->interval_set ? c->interval : DEFAULT_INTERVAL_S;
	pthread_t th;
	bool thread = false;
	int rc = 0;

	sigexit_catch(&old_int, &old_term);
	if (c->fabric) {
		if (pthread_create(&th, NULL, fabric_loop, x)) {
			snprintf(err, errlen, "cannot start the sweep thread — check the system's thread limits");
			rc = 5;
			goto stop;
		}
		thread = true;
	}
	for (double t = wall_now();; ) {
		if (c->textfile && export_textfile_write(x->store, c->textfile, err, errlen)) {
			rc = 5;
			break;
		}
		t += iv;
		sleep_until(t);
		if (sigexit_stop) {
			rc = 0;
			break;
		}
		/* a device that went away is an error series, not an exit */
		collect_local(x, l, true);
	}
stop:
	sigexit_stop = 1;
	if (thread) {
		pthread_mutex_lock(&x->lock);
		pthread_cond_broadcast(&x->wake);
		pthread_mutex_unlock(&x->lock);
		pthread_join(th, NULL);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return rc;
}

static int export_run(const struct cli *c, const struct snap_opts *o, char *err,
		      size_t errlen)
{
	struct exp_state *x;
	struct local *l;
	struct export_server *srv = NULL;
	char listen_buf[32];
	int rc, status = 0;

	x = calloc(1, sizeof(*x));
	l = calloc(1, sizeof(*l));
	if (!x || !l) {
		free(x);
		free(l);
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	pthread_mutex_init(&x->lock, NULL);
	pthread_cond_init(&x->wake, NULL);
	x->cli = c;
	x->so_modules = *o;
	x->so_modules.modules = true;
	x->so = &x->so_modules;
	x->fabric = c->fabric;
	rc = load_thresholds(c, &x->th, err, errlen);
	if (!rc && c->fabric)
		rc = open_sweeper(c, x, err, errlen);
	if (rc)
		goto out;
	x->so_modules.module_near_db = x->th.optic_near_db;
	l->s = calloc(1, sizeof(*l->s));
	l->rd = reader_open();
	l->dp = calloc(CTRS_MAX_TARGETS, sizeof(*l->dp));
	x->store = export_store_new(head, x);
	if (!l->s || !l->rd || !l->dp || !x->store) {
		snprintf(err, errlen, "out of memory");
		rc = 5;
		goto out;
	}
	/* The first collection before anything is served: a host without
	 * any RDMA device is told so at once, unless the fabric is wanted
	 * (a host with no device cannot sweep either, so that fails too). */
	rc = collect_local(x, l, false);
	if (rc) {
		snprintf(err, errlen, "%s", x->local_err);
		goto out;
	}
	if (c->once) {
		rc = export_once(c, x, err, errlen);
		goto out;
	}
	if (c->listen || !c->textfile) {
		const char *spec = c->listen;

		if (!spec) {
			snprintf(listen_buf, sizeof(listen_buf), ":%d", EXPORT_DEFAULT_PORT);
			spec = listen_buf;
		}
		srv = export_server_start(x->store, spec, &status, err, errlen);
		if (!srv) {
			rc = status;
			goto out;
		}
	}
	rc = export_loop(c, x, l, err, errlen);
out:
	export_server_stop(srv);
	export_store_free(x->store);
	export_blob_put(x->served);
	export_blob_put(x->spare);
	sweeper_free(x->swp);
	free(x->et);
	free(x->fport);
	free(x->ok);
	expo_free(&x->model_text);
	porttexts_free(&x->texts);
	reader_close(l->rd);
	free(l->dp);
	if (l->s)
		snapshot_release(l->s);
	free(l->s);
	free(l);
	pthread_cond_destroy(&x->wake);
	pthread_mutex_destroy(&x->lock);
	free(x);
	return rc;
}

int cmd_export(const struct cli *c, const struct snap_opts *o)
{
	char err[480] = "";
	int rc = export_run(c, o, err, sizeof(err));

	if (rc > 1)
		fprintf(stderr, "ibconsole: %s\n", err);
	return rc;
}

/* ---- the command line: the options of export and its entry (see cli.h) ---- */

static const struct cli_option opt_listen = {
	"listen", NULL, 0, "ADDR:PORT",
	"export: serve /metrics on ADDR:PORT (default :9879; [IPV6]:PORT, :PORT)",
	.type = OT_STR, .off = CLI_AT(listen) };
static const struct cli_option opt_textfile = {
	"textfile", NULL, 0, "DIR",
	"export: write DIR/ibconsole.prom for node_exporter's textfile collector",
	.type = OT_STR, .off = CLI_AT(textfile) };
static const struct cli_option opt_fabric = {
	"fabric", NULL, 0, NULL,
	"export: also every switch and HCA port the fabric discovery finds",
	.type = OT_FLAG, .off = CLI_AT(fabric) };
static const struct cli_option opt_sweep_interval = {
	"sweep-interval", NULL, 0, "S",
	"export: seconds between fabric sweeps (5-86400, default 60)",
	.type = OT_NUM, .off = CLI_AT(sweep_interval), .lo = 5, .hi = 86400, .bad = "bad --sweep-interval", .give = "give seconds between 5 and 86400" };

/* declared elsewhere: --interval (cli.c), --no-smp (cli.c),
 * --mad-timeout (cmd_fabric.c), --node-name-map (cmd_fabric.c),
 * --inflight (cmd_errors.c), --once (cmd_serve.c) */
static const struct cli_option *const export_opts[] = {
	&cli_opt_interval, &cli_opt_no_smp, &cli_opt_mad_timeout, &cli_opt_node_name_map,
	&cli_opt_inflight, &cli_opt_once, &opt_listen, &opt_textfile, &opt_fabric,
	&opt_sweep_interval, NULL
};

const struct cli_command cmd_export_entry = {
	"export",
	"[--listen ADDR:PORT] [--textfile DIR] [--fabric] [--interval S] [--sweep-interval S] [--once]",
	"Prometheus exporter: local ports, and with --fabric every fabric port, with verdicts",
	export_opts, NULL, cmd_export
};
