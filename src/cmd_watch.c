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
#include "diag/ber.h"

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

/* What "xmit_wait" says; its text is kept for the next port that says
 * the same (most: no wait, the same tick). */
struct xmit_key {
	bool have, clamped;
	int tick;
	uint64_t w;
	double ns, share;
	const char *note;
};

struct xmit_text {
	struct json_piece p;
	struct xmit_key k;
	char note[sizeof(((struct portcong *)0)->why)];
};

static void xmit_fn(struct json *j, const void *arg)
{
	const struct xmit_key *k = arg;

	json_obj_begin(j, "xmit_wait");
	json_int_or_null(j, "ticks", k->have, (long long)k->w);
	json_int_or_null(j, "tick", k->tick >= 0, k->tick);
	json_num_or_null(j, "tick_ns", k->ns > 0, k->ns);
	json_num_or_null(j, "wait_share", k->share >= 0, k->share);
	json_bool(j, "clamped", k->clamped);
	json_str(j, "note", k->note);
	json_obj_end(j);
}

static void xmit_json(struct json *j, struct xmit_text *x, const struct xmit_key *k)
{
	if (!x) {
		xmit_fn(j, k);
		return;
	}
	if (x->p.ok && k->have == x->k.have && k->clamped == x->k.clamped &&
	    k->tick == x->k.tick && k->w == x->k.w &&
	    !memcmp(&k->ns, &x->k.ns, sizeof(k->ns)) &&
	    !memcmp(&k->share, &x->k.share, sizeof(k->share)) &&
	    !k->note == !x->k.note && (!k->note || !strcmp(k->note, x->note)) &&
	    json_piece_put(j, &x->p))
		return;
	json_piece_make(j, &x->p, xmit_fn, k);
	x->k = *k;
	snprintf(x->note, sizeof(x->note), "%s", k->note ? k->note : "");
	if (k->note && strcmp(k->note, x->note))
		x->p.ok = false;	/* too long to keep: made each time */
}

/* *plain: how many of d's first counters are known not to be RoCE's
 * (a port's slots keep their names): they are not looked up again. */
static void cong_json(struct json *j, const struct delta_port *d,
		      const struct portcong *pc, double iv, int *plain, struct xmit_text *x)
{
	struct xmit_key k;
	bool any = false;

	memset(&k, 0, sizeof(k));
	k.have = congestion_port_wait(d, pc->tick, pc->lane_gbps, iv, &k.w, &k.share, &k.clamped);
	k.tick = pc->tick;
	k.ns = congestion_tick_ns(pc->tick, pc->lane_gbps);
	k.note = k.have && k.share < 0 && pc->why[0] ? pc->why : NULL;
	xmit_json(j, x, &k);
	if (*plain > d->n)
		*plain = 0;
	for (int i = *plain; i < d->n; i++) {
		const struct delta_ctr *c = &d->c[i];
		enum roce_class rc = congestion_roce_class(c->name);

		if (rc == ROCE_CLASS_NONE) {
			if (i == *plain)
				++*plain;
			continue;
		}
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

/* events come from local ports only (three each at most) and the
 * verbs async events */
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
/* The effective bit error rate since the first sample: SymbolErrorCounter
 * over lanes x lane signalling rate x seconds, or why there is none. */
/* The text of the last "ber" that had no rate, and why: most ports'. */
struct ber_text {
	struct json_piece p;
	char why[64];
};

static void ber_why_fn(struct json *j, const void *why)
{
	ber_json(j, NULL, why, false, 0, 0);
}

static void port_ber_json(struct json *j, const struct delta_port *d, int lanes,
			  double lane_gbps, const struct thresholds *th, struct ber_text *bt)
{
	const struct delta_ctr *c = delta_find(d, "SymbolErrorCounter");
	const char *why = NULL;
	struct ber b;

	if (!ber_since_start(&b, d, lanes, lane_gbps))
		why = "SymbolErrorCounter not read";
	else if (!b.valid)
		why = b.seconds > 0 ? "the link's width or lane rate is not known" : "one sample so far";
	else
		ber_judge(&b, th->ber_watch, th->ber_act);
	if (why && bt) {
		if (!strcmp(why, bt->why) && json_piece_put(j, &bt->p))
			return;
		json_piece_make(j, &bt->p, ber_why_fn, why);
		snprintf(bt->why, sizeof(bt->why), "%s", why);
		return;
	}
	ber_json(j, &b, why, c && c->total_lb, lanes, lane_gbps);
}

static void peer_json(struct json *j, const struct port_peer *q,
		      const struct delta_port *d, const struct counter_set *cs,
		      struct ctr_json_cache *tc, const struct thresholds *th, double now,
		      int lanes, double lane_gbps)
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
		counters_json_delta(j, d, now, tc);
		port_ber_json(j, d, lanes, lane_gbps, th, NULL);
	}
	json_obj_end(j);
}

/* The text of a port's first members and the sample fields it says. */
struct head_text {
	struct json_piece p;
	bool valid;
	enum ctr_source source;
	char mode[sizeof(((struct counter_set *)0)->mode)];
	char why[sizeof(((struct counter_set *)0)->why)];
};

/* One watch: its targets, their samples and state, allocated to what
 * is asked (the local ports, their neighbours, the --lid ports). */
struct watch {
	struct ctr_target *t;
	/* local port i's neighbour: its identity, and its counters at
	 * target peer_at[i] (-1: not sampled); is_peer marks those targets */
	struct port_peer *peer;
	int *peer_at;
	bool *is_peer;
	/* the link's lane signalling rate (Gb/s, 0 unknown) for its BER */
	double *lane_sig;
	int nlocal, n;
	int lid_at;		/* the --lid ports: lid_at ... n - 1 */
	bool deferred;		/* their samples not yet in their deltas */
	struct thresholds th;
	struct delta_port *dp;
	struct counter_set *cs;
	struct ctr_json_cache *tc;	/* each target's counter texts */
	int *plain;			/* cong_json's */
	/* the last verdict and error details written, as text: most
	 * ports' are the same */
	struct json_piece verdict_text;
	struct verdict verdict_key;
	struct det_json_cache det_text;
	struct xmit_text xmit;
	struct ber_text ber;
	struct head_text *head;		/* each target's first members */
	bool check, check_failed;	/* IBCONSOLE_WATCH_CHECK */
	struct ctr_reader *smp;
	struct baseline_port *bl;
	struct port_flaps *fl;
	struct portcong *pc;
	struct asyncev *verbs;
	char evpath[512];
	const char *evp;
	enum verdict_level worst;
};

/* The local ports, their neighbours and the --lid ports from one
 * snapshot: 0, or a status with err. */
static int watch_targets(const struct cli *c, const struct snap_opts *o,
			 struct watch *w, char *err, size_t errlen)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	double *lane = NULL;
	int rc, max;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	rc = snapshot_collect(s, o, err, errlen);
	if (rc)
		goto done;
	/* each local port, its neighbour, each --lid port */
	max = 2 * s->nports + (c->w.lids ? reader_remote_count(c->w.lids) : 0);
	w->t = calloc((size_t)max + 1, sizeof(*w->t));
	w->peer = calloc((size_t)s->nports + 1, sizeof(*w->peer));
	w->peer_at = calloc((size_t)s->nports + 1, sizeof(*w->peer_at));
	w->is_peer = calloc((size_t)max + 1, sizeof(*w->is_peer));
	w->lane_sig = calloc((size_t)max + 1, sizeof(*w->lane_sig));
	if (!w->t || !w->peer || !w->peer_at || !w->is_peer || !w->lane_sig) {
		snprintf(err, errlen, "out of memory");
		rc = 5;
		goto done;
	}
	w->n = w->nlocal = reader_targets_local(s, w->t, s->nports);
	for (int i = 0; i < w->nlocal; i++) {
		w->peer[i] = s->ports[i].peer;
		w->peer_at[i] = -1;
		w->lane_sig[i] = s->ports[i].lane_gbps;
		if (!reader_target_peer(&s->ports[i], &w->t[w->n])) {
			w->lane_sig[w->n] = s->ports[i].lane_gbps;	/* the same cable */
			w->peer_at[i] = w->n;
			w->is_peer[w->n++] = true;
		}
	}
	w->lid_at = w->n;
	if (c->w.lids) {
		int m = reader_targets_remote(c->w.lids, s, w->t + w->n, max - w->n, err, errlen);

		if (m < 0) {
			rc = 2;
			goto done;
		}
		w->n += m;
	}
	w->pc = calloc((size_t)w->n, sizeof(*w->pc));
	w->dp = calloc((size_t)w->n, sizeof(*w->dp));
	w->cs = calloc((size_t)w->n, sizeof(*w->cs));
	w->tc = calloc((size_t)w->n, sizeof(*w->tc));
	w->plain = calloc((size_t)w->n, sizeof(*w->plain));
	w->head = calloc((size_t)w->n, sizeof(*w->head));
	w->bl = calloc((size_t)w->n, sizeof(*w->bl));
	w->fl = calloc((size_t)w->n, sizeof(*w->fl));
	w->smp = reader_open();
	lane = calloc((size_t)w->n + 1, sizeof(*lane));
	if (!w->pc || !w->dp || !w->cs || !w->tc || !w->plain || !w->head || !w->bl || !w->fl || !w->smp || !lane) {
		snprintf(err, errlen, "out of memory");
		rc = 5;
		goto done;
	}
	for (int i = 0; i < w->n; i++)
		lane[i] = reader_target_lane_gbps(s, &w->t[i]);
	portcong_open_many(w->pc, w->t, lane, w->n, w->smp);
	/* the neighbour's end of the cable runs at the local port's speed */
	for (int i = 0; i < w->nlocal; i++)
		if (w->peer_at[i] >= 0)
			portcong_set_lane(&w->pc[w->peer_at[i]], w->pc[i].link_lane_gbps);
done:
	free(lane);
	snapshot_release(s);
	free(s);
	return rc;
}

/* Reads every target once; the port events seen go to ev. Returns
 * their count. */
static int watch_read(const struct snap_opts *o, struct watch *w,
		      struct port_event *ev, bool defer)
{
	int nev = 0;

	/* the PMA targets' queries all in flight together */
	reader_read_many(w->smp, w->t, w->cs, w->n);
	/* defer: the --lid ports' samples go into their deltas as each is
	 * reported (no events, no PFC there), one walk over their counter
	 * slots instead of two */
	w->deferred = defer;
	for (int i = 0; i < (defer ? w->lid_at : w->n); i++) {
		delta_update(&w->dp[i], &w->cs[i], w->cs[i].valid ? w->cs[i].t_mono : counters_now());
		portcong_tick(&w->pc[i], &w->t[i]);
		if (nev + 1 + 2 <= WATCH_MAX_EVENTS)
			nev += flaps_poll(&w->fl[i], &w->t[i], &w->dp[i], o->no_smp, w->evp, ev + nev);
	}
	/* verbs events (already in the file) */
	return nev + asyncev_take(w->verbs, ev + nev, WATCH_MAX_EVENTS - nev);
}

static void verdict_fn(struct json *j, const void *v)
{
	cmd_json_verdict(j, v);
}

/* The verdict, from the text of the last one when it says the same. */
static void watch_verdict_json(struct json *j, struct watch *w, const struct verdict *v)
{
	if (verdict_same(v, &w->verdict_key) && json_piece_put(j, &w->verdict_text))
		return;
	json_piece_make(j, &w->verdict_text, verdict_fn, v);
	w->verdict_key = *v;
}

struct head_arg {
	const struct ctr_target *t;
	const struct counter_set *cs;
};

static void head_fn(struct json *j, const void *arg)
{
	const struct ctr_target *t = ((const struct head_arg *)arg)->t;
	const struct counter_set *cs = ((const struct head_arg *)arg)->cs;

	json_str(j, "port", t->label);
	json_str(j, "device", t->remote ? NULL : t->dev);
	json_int(j, "local_port", t->port);
	json_int_or_null(j, "lid", t->lid, t->lid);
	json_int(j, "pma_port", t->pma_port);
	json_bool(j, "remote", t->remote);
	json_str(j, "source", cs->source == CTR_SRC_PMA ? "pma" :
		 cs->source == CTR_SRC_SYSFS ? "sysfs" : NULL);
	json_str(j, "mode", cs->valid ? cs->mode : NULL);
	json_bool(j, "valid", cs->valid);
	json_str(j, "error", cs->valid ? NULL : cs->why);
}

/* A port's first members: the target's (fixed) and its sample's
 * source, mode, validity and error, from the last interval's text
 * while those are the same. */
static void head_json(struct json *j, struct head_text *h, const struct ctr_target *t,
		      const struct counter_set *cs)
{
	struct head_arg a = { t, cs };

	if (h->valid == cs->valid && h->source == cs->source && !strcmp(h->mode, cs->mode) &&
	    !strcmp(h->why, cs->why) && json_piece_put(j, &h->p))
		return;
	json_piece_make(j, &h->p, head_fn, &a);
	h->valid = cs->valid;
	h->source = cs->source;
	memcpy(h->mode, cs->mode, sizeof(h->mode));
	memcpy(h->why, cs->why, sizeof(h->why));
}

/* Port i's record. Most of it is written from text kept from the last
 * interval or the last port (what most ports say, interval after
 * interval, is the same); plain: all of it made now, nothing kept (the
 * reference IBCONSOLE_WATCH_CHECK compares it with). */
static void watch_port_json(struct json *j, struct watch *w, int i,
			    const struct verdict *v, double now, double iv, bool plain)
{
	const struct ctr_target *t = &w->t[i];
	const struct counter_set *cs = &w->cs[i];
	int pa = w->peer_at[i < w->nlocal ? i : 0], none = 0;
	struct head_arg a = { t, cs };

	json_obj_begin(j, NULL);
	if (plain) {
		head_fn(j, &a);
		cmd_json_verdict(j, v);
	} else {
		head_json(j, &w->head[i], t, cs);
		watch_verdict_json(j, w, v);
	}
	counters_json_delta(j, &w->dp[i], now, plain ? NULL : &w->tc[i]);
	counters_json_details_cached(j, cs, plain ? NULL : &w->det_text);
	cong_json(j, &w->dp[i], &w->pc[i], iv, plain ? &none : &w->plain[i],
		  plain ? NULL : &w->xmit);
	pfc_json(j, &w->pc[i], t);
	port_ber_json(j, &w->dp[i], t->lanes, w->lane_sig[i], &w->th, plain ? NULL : &w->ber);
	if (i < w->nlocal)
		peer_json(j, &w->peer[i], pa >= 0 ? &w->dp[pa] : NULL, pa >= 0 ? &w->cs[pa] : NULL,
			  pa >= 0 && !plain ? &w->tc[pa] : NULL, &w->th, now, t->lanes,
			  w->lane_sig[i]);
	json_obj_end(j);
}

/* IBCONSOLE_WATCH_CHECK: port i's record as written (from kept text)
 * and made plain, compared; a difference is said on stderr and fails
 * the run (exit 5). What is written is the kept text's. */
static void watch_port_checked(struct json *j, struct watch *w, int i,
			       const struct verdict *v, double now, double iv)
{
	char *got = NULL, *want = NULL;
	size_t ng = 0, nw = 0;
	struct json a = *j, b = *j;
	FILE *fa = open_memstream(&got, &ng), *fb = open_memstream(&want, &nw);

	if (!fa || !fb) {
		if (fa)
			fclose(fa);
		if (fb)
			fclose(fb);
		free(got);
		free(want);
		watch_port_json(j, w, i, v, now, iv, false);
		return;
	}
	a.f = fa;
	b.f = fb;
	watch_port_json(&a, w, i, v, now, iv, false);
	watch_port_json(&b, w, i, v, now, iv, true);
	fclose(fa);
	fclose(fb);
	if (ng != nw || memcmp(got, want, ng)) {
		fprintf(stderr, "ibconsole: watch: %s's record from kept text differs from the writer's:\n%s\n%s\n",
			w->t[i].label, got, want);
		w->check_failed = true;
	}
	fwrite(got, 1, ng, j->f);
	a.f = j->f;
	*j = a;
	free(got);
	free(want);
}

/* Interval k's report: every port judged, as text or one JSON line. */
static void watch_report(const struct cli *c, struct watch *w, long k,
			 const struct port_event *ev, int nev)
{
	double now = counters_now(), iv = c->interval;
	char when[32];
	struct json j;

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
	for (int i = 0; i < w->n; i++) {
		struct verdict v;

		if (w->deferred && i >= w->lid_at)
			delta_update(&w->dp[i], &w->cs[i], w->cs[i].valid ? w->cs[i].t_mono : now);
		if (w->is_peer[i] && c->json)
			continue;	/* shown with its local port */
		rules_eval_delta(&w->dp[i], &w->th, now, &v);
		if (w->cs[i].valid && w->bl[i].path[0]) {
			baseline_eval(&w->bl[i].b, &w->cs[i], (double)time(NULL), &w->th, &v);
			baseline_keep(&w->bl[i]);
		}
		if (w->cs[i].valid && v.level > w->worst && !w->is_peer[i])
			w->worst = v.level;
		if (c->json) {
			if (w->check)
				watch_port_checked(&j, w, i, &v, now, iv);
			else
				watch_port_json(&j, w, i, &v, now, iv, false);
			continue;
		}
		print_text(&w->dp[i], &w->cs[i], &v, now);
		if (w->cs[i].valid)
			cong_text(&w->dp[i], &w->pc[i], iv);
		pfc_text(&w->pc[i]);
	}
	if (c->json) {
		json_arr_end(&j);
		json_arr_begin(&j, "events");
		for (int e = 0; e < nev; e++)
			events_json(&j, &ev[e]);
		json_arr_end(&j);
		json_str(&j, "worst", verdict_name(w->worst));
		json_obj_end(&j);
	}
	fflush(stdout);
}

/* stdout's buffer for watch --json: in use until exit */
static char watch_outbuf[1 << 20];

static int watch_run(const struct cli *c, const struct snap_opts *o, char *err,
		     size_t errlen)
{
	struct watch *w = calloc(1, sizeof(*w));
	struct sigaction old_int, old_term;
	double t0, iv = c->interval;
	int rc;

	if (!w) {
		snprintf(err, errlen, "out of memory");
		return 5;
	}
	/* Records of a thousand ports are megabytes each: written through
	 * stdio's default buffer (a pipe's 4 KiB) that is thousands of
	 * write(2)s a second. Each record is still flushed whole. */
	if (c->json)
		setvbuf(stdout, watch_outbuf, _IOFBF, sizeof(watch_outbuf));
	w->evp = events_path(w->evpath, sizeof(w->evpath));
	w->check = getenv("IBCONSOLE_WATCH_CHECK") && !strcmp(getenv("IBCONSOLE_WATCH_CHECK"), "1");
	w->worst = VERDICT_OK;
	rc = cmd_load_thresholds(c, &w->th, err, errlen);
	if (!rc)
		rc = watch_targets(c, o, w, err, errlen);
	if (rc)
		goto out;
	sigexit_catch(&old_int, &old_term);

	for (int i = 0; i < w->n; i++) {
		delta_init(&w->dp[i], w->t[i].label, iv);
		w->dp[i].no_hist = true;	/* no sparklines here */
		baseline_open(&w->bl[i], &w->t[i]);
	}
	{
		char why[200];

		/* none on ibsim: polling still sees the state changes */
		w->verbs = asyncev_start(o->device, w->evp, why, sizeof(why));
	}
	t0 = counters_now();
	for (long k = 0; !sigexit_stop && (c->w.count == 0 || k <= c->w.count); k++) {
		struct port_event ev[WATCH_MAX_EVENTS];
		int nev;

		if (k)
			clock_sleep_until(t0 + k * iv, &sigexit_stop);
		if (sigexit_stop)
			break;
		nev = watch_read(o, w, ev, k > 0);
		if (k)	/* the first read is the baseline: nothing to report */
			watch_report(c, w, k, ev, nev);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	rc = w->worst == VERDICT_ACT ? 1 : 0;
	if (w->check_failed) {
		snprintf(err, errlen, "IBCONSOLE_WATCH_CHECK: records from kept text differed from the writer's");
		rc = 5;
	}
	if (ferror(stdout)) {
		snprintf(err, errlen, "cannot write the output");
		rc = 5;
	}
out:
	asyncev_stop(w->verbs);
	reader_close(w->smp);
	free(w->dp);
	free(w->cs);
	for (int i = 0; w->tc && i < w->n; i++)
		counters_json_cache_free(&w->tc[i]);
	free(w->tc);
	free(w->plain);
	json_piece_free(&w->verdict_text);
	json_piece_free(&w->xmit.p);
	json_piece_free(&w->ber.p);
	for (int i = 0; w->head && i < w->n; i++)
		json_piece_free(&w->head[i].p);
	free(w->head);
	counters_json_details_cache_free(&w->det_text);
	free(w->bl);
	free(w->fl);
	free(w->pc);
	free(w->t);
	free(w->peer);
	free(w->peer_at);
	free(w->is_peer);
	free(w->lane_sig);
	free(w);
	sigexit_note(sigexit_stop);	/* main dies of it: 130 / 143 */
	return rc;
}

int cmd_watch(const struct cli *c, const struct snap_opts *o)
{
	char err[400] = "";

	return cmd_report(watch_run(c, o, err, sizeof(err)), err);
}

/* ---- the command line: the options of watch and its entry (see cli.h) ---- */

static const struct cli_option opt_count = {
	"count", NULL, 0, "N",
	"watch: stop after N intervals (default: until interrupted)",
	.type = OT_LONG, .off = CLI_AT(w.count), .lo = 0, .hi = 100000000, .bad = "bad count", .give = "give a number of intervals (0 = until interrupted)" };
static const struct cli_option opt_lid = {
	"lid", NULL, 0, "LID[:P],...",
	"watch: also remote ports by LID (PMA port P, default 1)",
	.type = OT_STR, .off = CLI_AT(w.lids) };

/* declared elsewhere: --json (cli.c), --interval (cli.c), --no-smp
 * (cli.c) */
static const struct cli_option *const watch_opts[] = {
	&cli_opt_json, &cli_opt_interval, &cli_opt_no_smp, &opt_count, &opt_lid, NULL
};

const struct cli_command cmd_watch_entry = {
	"watch",
	"[--interval S] [--count N] [--lid LID[:P],...] [--json]",
	"per-interval counter deltas and rates",
	watch_opts, NULL, cmd_watch
};
