// SPDX-License-Identifier: MIT
/* Counter views' shared pieces: cells, formatting, sparklines and the
 * console's thresholds (defaults from the reference procedure, overridden by config). */
#include "config.h"
#include "ctrview.h"

#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/counters/counters_json.h"
#include "diag/baseline.h"
#include "diag/ber.h"

static struct thresholds ctrview_th;
static bool ctrview_th_loaded;
static char ctrview_th_err[256];

const char *ctrview_load(const char *config)
{
	char buf[512];

	thresholds_defaults(&ctrview_th);
	ctrview_th_loaded = true;
	ctrview_th_err[0] = '\0';
	if (thresholds_load(&ctrview_th, thresholds_config_path(config, buf, sizeof(buf)),
			    ctrview_th_err, sizeof(ctrview_th_err)) < 0)
		thresholds_defaults(&ctrview_th);
	else if (config && *config && !ctrview_th.file[0])
		snprintf(ctrview_th_err, sizeof(ctrview_th_err),
			 "config file %s not found — check the path given to --config", config);
	return ctrview_th_err;
}

const char *ctrview_load_error(void)
{
	return ctrview_th_err;
}

const struct thresholds *ctrview_thresholds(void)
{
	if (!ctrview_th_loaded)
		ctrview_load(NULL);
	return &ctrview_th;
}

static struct verdict ctrview_port_v[CTRW_MAX_PORTS];
static struct verdict ctrview_peer_v[CTRW_MAX_PORTS];
static struct ctrview_sweep_row ctrview_sweep[CTRW_MAX_FLAGGED];
static int ctrview_nsweep;

static int ctrview_sweep_cmp(const void *a, const void *b)
{
	const struct ctrview_sweep_row *x = a, *y = b;

	if (x->v.level != y->v.level)
		return (int)y->v.level - (int)x->v.level;
	return x->idx - y->idx;
}

void ctrview_judge(const struct ctr_model *m)
{
	const struct thresholds *th = ctrview_thresholds();
	char bl_err[700];
	int i;

	for (i = 0; i < m->n && i < CTRW_MAX_PORTS; i++) {
		rules_eval_delta(&m->dp[i], th, m->now, &ctrview_port_v[i]);
		baseline_console_eval(i, &m->port[i].t, &m->dp[i], th, &ctrview_port_v[i], bl_err, sizeof(bl_err));
		memset(&ctrview_peer_v[i], 0, sizeof(ctrview_peer_v[i]));
		if (m->peer[i].sampled)
			rules_eval_delta(&m->peer_dp[i], th, m->now, &ctrview_peer_v[i]);
	}
	ctrview_nsweep = 0;
	for (i = 0; i < m->nflag && i < CTRW_MAX_FLAGGED; i++) {
		ctrview_sweep[i].idx = i;
		const struct monitor_flagged *f = &m->flag[i];
		struct verdict iv;

		rules_eval_values(&f->cs, th, &ctrview_sweep[i].v);
		/* two sweeps: what moved between them, per 10 minutes, as
		 * errors --interval; the worse of that and since-clear shows */
		if (f->prev.valid && f->cs.t_mono > f->prev.t_mono) {
			rules_eval_interval(&f->prev, &f->cs, th, f->cs.t_mono - f->prev.t_mono, &iv);
			if (iv.level >= ctrview_sweep[i].v.level)
				ctrview_sweep[i].v = iv;
		}
		ctrview_nsweep++;
	}
	qsort(ctrview_sweep, (size_t)ctrview_nsweep, sizeof(ctrview_sweep[0]),
	      ctrview_sweep_cmp);
}

const struct verdict *ctrview_verdict(int i)
{
	static const struct verdict none;

	return i >= 0 && i < CTRW_MAX_PORTS ? &ctrview_port_v[i] : &none;
}

const struct verdict *ctrview_peer_verdict(int i)
{
	static const struct verdict none;

	return i >= 0 && i < CTRW_MAX_PORTS ? &ctrview_peer_v[i] : &none;
}

int ctrview_sweep_rows(const struct ctrview_sweep_row **rows)
{
	*rows = ctrview_sweep;
	return ctrview_nsweep;
}

int ctrview_find(const struct ctr_model *m, const char *dev, int port)
{
	if (!m)
		return -1;
	for (int i = 0; i < m->n; i++)
		if (!m->port[i].t.remote && m->port[i].t.port == port &&
		    !strcmp(m->port[i].t.dev, dev))
			return i;
	return -1;
}

char *ctrview_num(uint64_t v, char *b, int len)
{
	if (v < 100000)
		snprintf(b, len, "%llu", (unsigned long long)v);
	else if (v < 1000000)
		snprintf(b, len, "%.0fk", v / 1e3);
	else if (v < 1000000000ULL)
		snprintf(b, len, "%.3gM", v / 1e6);
	else if (v < 1000000000000ULL)
		snprintf(b, len, "%.3gG", v / 1e9);
	else
		snprintf(b, len, "%.3gT", v / 1e12);
	return b;
}

enum ui_role ctrview_cell(const struct ui_ctx *c, const struct port_info *p,
			  enum ctrview_col col, char *b, int len)
{
	const struct ctr_model *m = c->ctr;
	int i = ctrview_find(m, p->dev, p->port);
	struct ctr_rates r;
	uint64_t e;

	if (col == CTRVIEW_PEER_ERR) {
		const struct delta_port *d = i >= 0 ? &m->peer_dp[i] : NULL;
		const struct verdict *v = ctrview_peer_verdict(i);
		char num[24];

		if (i < 0 || !m->peer[i].sampled || !d->have || !m->peer[i].valid) {
			snprintf(b, len, "%s", i >= 0 && !m->peer[i].sampled &&
				 strcmp(p->link_layer, "Ethernet") ? "n/a" : "-");
			return UI_DIM;
		}
		e = delta_errors_window(d, m->now, ctrview_thresholds()->window_s);
		snprintf(b, len, "%s%s", ctrview_num(e, num, sizeof(num)),
			 eventlog_unacked(&m->log, d->label, NULL) ? "!" : "");
		return v->level == VERDICT_ACT ? UI_BAD :
		       v->level == VERDICT_WATCH ? UI_WARN :
		       e ? UI_WARN : UI_NORMAL;
	}
	if (i < 0 || !m->dp[i].have || !m->port[i].valid) {
		snprintf(b, len, "n/a");
		return UI_DIM;
	}
	if (col == CTRVIEW_ERR) {
		const struct verdict v = *ctrview_verdict(i);
		char num[24];

		e = delta_errors_window(&m->dp[i], m->now, ctrview_thresholds()->window_s);

		snprintf(b, len, "%s%s", ctrview_num(e, num, sizeof(num)),
			 eventlog_unacked(&m->log, m->dp[i].label, NULL) ? "!" : "");
		return v.level == VERDICT_ACT ? UI_BAD :
		       v.level == VERDICT_WATCH ? UI_WARN :
		       e ? UI_WARN : UI_NORMAL;
	}
	counters_rates(&m->dp[i], &r);
	{
		double g = col == CTRVIEW_TX ? r.tx_gbps : r.rx_gbps;

		if (g < 0) {
			snprintf(b, len, "-");
			return UI_DIM;
		}
		if (g >= 100)
			snprintf(b, len, "%.0f", g);
		else if (g >= 1)
			snprintf(b, len, "%.2f", g);
		else
			snprintf(b, len, "%.3f", g);
	}
	return UI_NORMAL;
}

bool ctrview_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && !strcmp(cs, "UTF-8");
}

void ctrview_spark(const struct delta_ctr *c, int width, bool utf8, char *out,
		   int outlen)
{
	static const char *const blocks[8] = {
		"\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
		"\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88",
	};
	static const char ascii[] = " .:-=+*#";
	int n = c->hist_n < width ? c->hist_n : width, o = 0;
	uint64_t max = 0;

	out[0] = '\0';
	for (int k = 0; k < n; k++) {
		uint64_t v = c->hist[(c->hist_pos - n + k + 2 * DELTA_HIST) % DELTA_HIST];

		if (v > max)
			max = v;
	}
	for (int k = 0; k < n && o < outlen - 4; k++) {
		int idx = (c->hist_pos - n + k + 2 * DELTA_HIST) % DELTA_HIST;
		uint64_t v = c->hist[idx];
		int lvl = !max || !v ? 0 : 1 + (int)((double)v * 6.999 / (double)max);

		if (lvl > 7)
			lvl = 7;
		if (utf8) {
			const char *s = v ? blocks[lvl] : blocks[0];

			memcpy(out + o, s, 3);
			o += 3;
		} else {
			out[o++] = v ? ascii[lvl] : ascii[0] == ' ' ? '_' : ascii[0];
		}
	}
	out[o] = '\0';
}

bool ctrview_ber(const struct delta_port *d, int lanes, double lane_gbps, char *buf, int len,
		 enum ui_role *role)
{
	struct ber b;

	if (!ber_since_start(&b, d, lanes, lane_gbps))
		return false;
	if (!b.valid) {
		snprintf(buf, (size_t)len, "n/a (%s)", b.seconds > 0 ?
			 "the link's width or lane rate is not known" : "one sample so far");
		*role = UI_DIM;
		return true;
	}
	ber_judge(&b, ctrview_th.ber_watch, ctrview_th.ber_act);
	ber_text(&b, buf, (size_t)len);
	*role = b.level == BER_ACT ? UI_BAD : b.level == BER_WATCH ? UI_WARN : UI_NORMAL;
	return true;
}
