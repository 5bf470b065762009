// SPDX-License-Identifier: MIT
/* Test records: one JSON document per run (schema ibconsole/test/1) with
 * the parameters, both ends' facts and the results; read back to compare. */
#include "config.h"
#include "core/testrun/record.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/json.h"
#include "core/base/jsonscan.h"

void record_facts_json(struct json *j, const char *key, const struct proto_facts *f)
{
	json_obj_begin(j, key);
	json_str(j, "host", f->host);
	json_str(j, "device", f->device[0] ? f->device : NULL);
	json_str(j, "fw_ver", f->fw_ver[0] ? f->fw_ver : NULL);
	json_str(j, "driver", f->driver[0] ? f->driver : NULL);
	json_str(j, "ca_type", f->ca_type[0] ? f->ca_type : NULL);
	json_str(j, "link_layer", f->link_layer[0] ? f->link_layer : NULL);
	json_str(j, "kernel", f->kernel[0] ? f->kernel : NULL);
	json_str(j, "pcie", f->pcie[0] ? f->pcie : NULL);
	json_int_or_null(j, "numa_node", f->numa_node >= 0, f->numa_node);
	json_int_or_null(j, "cpu_mhz", f->cpu_mhz, f->cpu_mhz);
	json_str(j, "cpu_governor", f->cpu_governor[0] ? f->cpu_governor : NULL);
	json_num_or_null(j, "data_rate_gbps", f->rate_mbps, f->rate_mbps / 1000.0);
	json_int(j, "mtu", f->mtu);
	json_int_or_null(j, "netdev_mtu", f->netdev_mtu, f->netdev_mtu);
	json_int_or_null(j, "gid_index", f->gid_index >= 0, f->gid_index);
	json_str(j, "gid_type", f->gid_type[0] ? f->gid_type : NULL);
	json_str(j, "gid", f->gid[0] ? f->gid : NULL);
	json_obj_end(j);
}

static void counters(struct json *j, const char *key, const struct testctr *t)
{
	json_obj_begin(j, key);
	for (uint32_t i = 0; i < t->n; i++)
		json_u64(j, t->c[i].name, t->c[i].delta);
	json_obj_end(j);
}

static void params(struct json *j, const struct client_opts *o, const struct client_result *r)
{
	const struct proto_params *p = &o->p;

	json_obj_begin(j, "params");
	json_str(j, "kind", eng_kind_name(p->kind));
	json_str(j, "op", eng_op_name(p->op));
	json_str(j, "connection", p->conn == CONN_UD ? "UD" : "RC");
	json_bool(j, "bidirectional", p->flags & PARAM_BIDIR);
	json_bool(j, "sweep", p->flags & PARAM_SWEEP);
	json_int(j, "size_bytes", (long long)p->size);
	json_int(j, "iters", (long long)p->iters);
	json_num(j, "duration_s", p->duration_ms / 1000.0);
	json_int(j, "qps", p->qps);
	json_int(j, "tx_depth", p->tx_depth);
	json_int(j, "inline_bytes", p->inline_size);
	json_int(j, "cq_mod", p->cq_mod);
	json_str(j, "peer", o->peer);
	json_int(j, "tcp_port", o->tcp_port);
	json_str(j, "peer_kind", o->perftest ? "perftest" : "agent");
	/* perftest's wire version ("6.06"); the agent's facts say the rest */
	json_str(j, "peer_version", o->perftest && r->peer.fw_ver[0] ? r->peer.fw_ver : NULL);
	json_obj_end(j);
}

static void record_phase(struct json *j, const struct client_phase *ph, bool bidir)
{
	const struct eng_result *r = &ph->local;

	json_obj_begin(j, NULL);
	json_int(j, "size_bytes", (long long)r->size);
	json_int(j, "iters", (long long)r->iters);
	json_int(j, "msgs", (long long)r->msgs);
	json_num(j, "time_s", r->ns / 1e9);
	json_num(j, "bw_avg_gbps", ph->total_avg_gbps);
	json_num_or_null(j, "bw_peak_gbps", r->peak_valid, ph->total_peak_gbps);
	json_num(j, "msg_rate_mpps", ph->total_mpps);
	if (bidir && ph->peer_valid) {
		json_num(j, "local_bw_avg_gbps", r->bw_avg_gbps);
		json_num(j, "peer_bw_avg_gbps", ph->peer_ns ? (double)ph->peer_bytes * 8 / (double)ph->peer_ns : 0);
	}
	if (r->lat_valid) {
		json_str(j, "lat_convention", r->lat_halved ? "half round trip (perftest, send/write)"
							     : "full round trip (perftest, read)");
		json_int(j, "lat_samples", (long long)r->lat_samples);
		json_num(j, "lat_min_us", r->lat_min);
		json_num(j, "lat_median_us", r->lat_median);
		json_num(j, "lat_avg_us", r->lat_avg);
		json_num(j, "lat_p99_us", r->lat_p99);
		json_num(j, "lat_p999_us", r->lat_p999);
		json_num(j, "lat_max_us", r->lat_max);
		json_num(j, "lat_stdev_us", r->lat_stdev);
		json_arr_begin(j, "lat_histogram");
		for (int i = 0; i < ENG_HIST; i++) {
			if (!r->hist[i])
				continue;
			json_obj_begin(j, NULL);
			json_num(j, "from_us", 0.128 * (double)(1ull << i));
			json_num(j, "to_us", 0.128 * (double)(2ull << i));
			json_int(j, "count", (long long)r->hist[i]);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	json_obj_end(j);
}

void record_write(FILE *f, const struct client_opts *o, const struct client_result *r,
		  const struct record_verdict *v, const struct record_diff *d, const char *status_error)
{
	struct json j;

	json_init(&j, f);
	json_obj_begin(&j, NULL);
	json_str(&j, "schema", "ibconsole/test/1");
	json_str(&j, "time", r->started);
	params(&j, o, r);
	json_obj_begin(&j, "local");
	json_str(&j, "gid", r->info.gid[0] ? r->info.gid : NULL);
	json_bool(&j, "gid_auto", r->info.gid_auto);
	json_bool(&j, "numa_placed", r->info.numa_placed);
	json_str(&j, "numa_note", r->info.numa_note);
	json_int(&j, "registered_bytes", (long long)r->info.mem_bytes);
	json_obj_end(&j);
	record_facts_json(&j, "local_facts", &r->local);
	record_facts_json(&j, "peer_facts", &r->peer);
	json_arr_begin(&j, "phases");
	for (int i = 0; i < r->nphases; i++)
		record_phase(&j, &r->ph[i], o->p.flags & PARAM_BIDIR);
	json_arr_end(&j);
	counters(&j, "local_counters_delta", &r->local_ctr);
	counters(&j, "peer_counters_delta", &r->peer_ctr);
	json_int(&j, "peer_counter_updates", r->peer_ctr_msgs);
	json_obj_begin(&j, "verdict");
	json_str(&j, "state", v->state);
	json_str(&j, "rule", v->rule[0] ? v->rule : NULL);
	json_str(&j, "text", v->text);
	json_num_or_null(&j, "line_rate_gbps", v->line_gbps > 0, v->line_gbps);
	json_str(&j, "source", v->source && v->source[0] ? v->source : NULL);
	json_str(&j, "unit", v->unit);
	json_num_or_null(&j, "healthy_line", v->healthy > 0, v->healthy);
	json_num_or_null(&j, "abnormal_line", v->abnormal > 0, v->abnormal);
	json_num_or_null(&j, "pass_line", v->pass > 0, v->pass);
	json_obj_end(&j);
	if (d) {
		json_obj_begin(&j, "compare");
		json_str(&j, "record", d->path);
		json_arr_begin(&j, "changes");
		for (int i = 0; i < d->n; i++) {
			json_obj_begin(&j, NULL);
			json_int(&j, "size_bytes", (long long)d->c[i].size);
			json_str(&j, "metric", d->c[i].metric);
			json_num(&j, "before", d->c[i].before);
			json_num(&j, "after", d->c[i].after);
			json_num(&j, "change_pct", d->c[i].change_pct);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_str(&j, "error", status_error);
	json_obj_end(&j);
	fputc('\n', f);
}

/* ---- reading back (through the scanner in core/base/jsonscan.c) ---- */

static void take(void *arg, const char *path, const char *val, bool is_str)
{
	struct record_saved *s = arg;
	double d = strtod(val, NULL);
	int i;
	char field[64];

	if (!strncmp(path, "params.", 7)) {
		const char *k = path + 7;

		s->have_params = true;
		if (!strcmp(k, "kind"))
			s->p.kind = !strcmp(val, "lat") ? KIND_LAT : !strcmp(val, "rate") ? KIND_RATE : KIND_BW;
		else if (!strcmp(k, "op"))
			s->p.op = !strcmp(val, "read") ? OP_READ : !strcmp(val, "send") ? OP_SEND : OP_WRITE;
		else if (!strcmp(k, "connection"))
			s->p.conn = !strcmp(val, "UD") ? CONN_UD : CONN_RC;
		else if (!strcmp(k, "bidirectional") && !strcmp(val, "true"))
			s->p.flags |= PARAM_BIDIR;
		else if (!strcmp(k, "sweep") && !strcmp(val, "true"))
			s->p.flags |= PARAM_SWEEP;
		else if (!strcmp(k, "size_bytes"))
			s->p.size = (uint64_t)d;
		else if (!strcmp(k, "iters"))
			s->p.iters = (uint64_t)d;
		else if (!strcmp(k, "duration_s"))
			s->p.duration_ms = (uint32_t)(d * 1000 + 0.5);
		else if (!strcmp(k, "qps"))
			s->p.qps = (uint32_t)d;
		else if (!strcmp(k, "tx_depth"))
			s->p.tx_depth = (uint32_t)d;
		else if (!strcmp(k, "inline_bytes"))
			s->p.inline_size = (uint32_t)d;
		else if (!strcmp(k, "cq_mod"))
			s->p.cq_mod = (uint32_t)d;
		else if (!strcmp(k, "peer") && is_str)
			snprintf(s->peer, sizeof(s->peer), "%s", val);
		else if (!strcmp(k, "tcp_port") && !is_str)
			s->tcp_port = (int)d;
		else if (!strcmp(k, "peer_kind") && is_str)
			s->perftest = !strcmp(val, "perftest");
		return;
	}
	if (sscanf(path, "phases[%d].%63s", &i, field) != 2 || i < 0 || i >= TESTRUN_MAX_PHASES || is_str)
		return;
	if (i >= s->nphases)
		s->nphases = i + 1;
	if (!strcmp(field, "size_bytes"))
		s->ph[i].size = (uint64_t)d;
	else if (!strcmp(field, "bw_avg_gbps"))
		s->ph[i].bw_avg_gbps = d;
	else if (!strcmp(field, "bw_peak_gbps"))
		s->ph[i].bw_peak_gbps = d;
	else if (!strcmp(field, "msg_rate_mpps"))
		s->ph[i].msg_rate_mpps = d;
	else if (!strcmp(field, "lat_median_us"))
		s->ph[i].lat_median_us = d;
	else if (!strcmp(field, "lat_p99_us"))
		s->ph[i].lat_p99_us = d;
}

int record_parse(const char *text, size_t len, struct record_saved *s, char *why, size_t whylen)
{
	memset(s, 0, sizeof(*s));
	s->p.counter_ms = 1000;
	if (json_scan(text, len, take, s, why, whylen))
		return -1;
	if (!s->have_params) {
		snprintf(why, whylen, "not an ibconsole test record (no params)");
		return -1;
	}
	if (proto_check_params(&s->p, why, whylen))
		return -1;
	return 0;
}

static void record_diff_add(struct record_diff *d, uint64_t size, const char *metric, double before, double after)
{
	if (d->n >= RECORD_MAX_CMP || (before == 0 && after == 0))
		return;
	d->c[d->n] = (struct record_cmp){ .size = size, .metric = metric, .before = before,
					  .after = after,
					  .change_pct = before != 0 ? (after - before) / before * 100 : 0 };
	d->n++;
}

void record_compare(const struct record_saved *s, const struct client_result *r,
		    struct record_diff *d)
{
	d->n = 0;
	for (int i = 0; i < r->nphases; i++) {
		const struct client_phase *ph = &r->ph[i];

		for (int k = 0; k < s->nphases; k++) {
			if (s->ph[k].size != ph->local.size)
				continue;
			if (s->p.kind == KIND_LAT) {
				record_diff_add(d, ph->local.size, "lat_median_us", s->ph[k].lat_median_us, ph->local.lat_median);
				record_diff_add(d, ph->local.size, "lat_p99_us", s->ph[k].lat_p99_us, ph->local.lat_p99);
			} else {
				record_diff_add(d, ph->local.size, "bw_avg_gbps", s->ph[k].bw_avg_gbps, ph->total_avg_gbps);
				record_diff_add(d, ph->local.size, "bw_peak_gbps", s->ph[k].bw_peak_gbps, ph->total_peak_gbps);
				record_diff_add(d, ph->local.size, "msg_rate_mpps", s->ph[k].msg_rate_mpps, ph->total_mpps);
			}
		}
	}
}
