// SPDX-License-Identifier: MIT
/* The triage's written forms: JSON for scripts, Markdown for a ticket and
 * the plain text the command prints; all three show the same walk. */
#include "config.h"
#include "diag/triage_report.h"

#include <string.h>

#include "core/testrun/record.h"
#include "core/base/json.h"
#include "diag/fingerprint.h"

static void traffic_json(struct json *j, const char *key, const struct tri_traffic *t)
{
	char moved[TRI_LINE];

	json_obj_begin(j, key);
	json_int(j, "qps", t->qps);
	json_bool(j, "bidirectional", t->bidir);
	json_int(j, "size_bytes", (long long)t->size);
	json_bool(j, "ran", t->ran);
	if (t->ok) {
		json_num(j, "bw_gbps", t->gbps);
	} else {
		json_null(j, "bw_gbps");
		json_str(j, "bw_gbps_error", t->err[0] ? t->err : "not run");
	}
	json_bool(j, "broke_off", t->broke);
	if (t->ok || t->broke) {
		/* a run that broke off: counted up to the break */
		json_int(j, "retransmissions_delta", (long long)triage_traffic_sum(t, false, moved, sizeof(moved)));
		json_str(j, "retransmissions_moved", moved);
		json_int(j, "sequence_gaps_delta", (long long)triage_traffic_gaps(t));
		json_int(j, "pause_cnp_delta", (long long)triage_traffic_sum(t, true, moved, sizeof(moved)));
	}
	json_obj_end(j);
}

void triage_write_json(FILE *f, const struct tri_evidence *ev, const struct triage *t)
{
	struct json j;

	json_init(&j, f);
	json_obj_begin(&j, NULL);
	json_str(&j, "schema", "ibconsole/triage/1");
	json_str(&j, "host", ev->host);
	json_str(&j, "time", ev->time);
	json_str(&j, "device", ev->local_valid ? ev->local.dev : NULL);
	json_int_or_null(&j, "port", ev->local_valid, ev->local.port);
	json_str(&j, "link_layer", ev->local_valid ? ev->local.link_layer : NULL);
	json_str(&j, "peer", ev->peer[0] ? ev->peer : NULL);
	json_bool(&j, "passed", !t->any_fail);
	json_arr_begin(&j, "steps");
	for (int s = 0; s < TRI_NSTEPS; s++) {
		const struct tri_result *r = &t->r[s];

		json_obj_begin(&j, NULL);
		json_int(&j, "step", s);
		json_str(&j, "id", tri_steps[s].id);
		json_str(&j, "title", tri_steps[s].title);
		json_str(&j, "question", tri_steps[s].question);
		json_str(&j, "state", triage_state_name(r->state));
		json_str(&j, "reason", r->reason);
		json_str(&j, "hint", r->hint[0] ? r->hint : NULL);
		json_arr_begin(&j, "evidence");
		for (int i = 0; i < r->nlines; i++)
			json_str(&j, NULL, r->lines[i]);
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	if (t->fp.id != FP_NONE) {
		json_obj_begin(&j, "fingerprint");
		json_str(&j, "id", fingerprint_name(t->fp.id));
		json_int(&j, "step", t->fp.step);
		json_num_or_null(&j, "ratio", t->fp.ratio > 0, t->fp.ratio);
		json_str(&j, "text", t->fp.text);
		json_obj_end(&j);
	} else {
		json_null(&j, "fingerprint");
	}
	json_obj_begin(&j, "conclusion");
	if (t->c.step < TRI_NSTEPS) {
		json_int(&j, "step", t->c.step);
		json_str(&j, "id", tri_steps[t->c.step].id);
	} else {
		json_null(&j, "step");
		json_null(&j, "id");
	}
	json_str(&j, "state", triage_state_name(t->c.state));
	json_str(&j, "text", t->c.text);
	json_str(&j, "action", t->c.action);
	json_arr_begin(&j, "evidence");
	for (int i = 0; i < t->c.nlines; i++)
		json_str(&j, NULL, t->c.lines[i]);
	json_arr_end(&j);
	json_obj_end(&j);
	json_obj_begin(&j, "traffic");
	traffic_json(&j, "one_qp", &ev->bw1);
	traffic_json(&j, "eight_qps", &ev->bw8);
	traffic_json(&j, "load", &ev->load);
	json_obj_end(&j);
	json_obj_begin(&j, "facts");
	if (ev->peer_facts_valid) {
		record_facts_json(&j, "local", &ev->local_facts);
		record_facts_json(&j, "peer", &ev->peer_facts);
	} else {
		json_null(&j, "local");
		json_str(&j, "local_error", "facts come from a test run: needs --peer");
		json_null(&j, "peer");
		json_str(&j, "peer_error", ev->peer[0] ? ev->peer_why : "no --peer given");
	}
	json_obj_end(&j);
	json_obj_end(&j);
	fputc('\n', f);
}

static const char *mark(enum tri_state s)
{
	return s == TRI_FAIL ? "FAIL" : s == TRI_WARN ? "warn" : s == TRI_INFO ? "info" :
	       s == TRI_PASS ? "pass" : "n/a";
}

void triage_write_markdown(FILE *f, const struct tri_evidence *ev, const struct triage *t)
{
	fprintf(f, "# Triage of %s %s/%d%s%s\n\n", ev->host, ev->local_valid ? ev->local.dev : "?",
		ev->local_valid ? ev->local.port : 0, ev->peer[0] ? " against " : "", ev->peer);
	fprintf(f, "Taken %s by ibconsole (%s).\n\n", ev->time, PACKAGE_STRING);
	fprintf(f, "## Conclusion\n\n**%s**\n\nNext: %s\n\n", t->c.text, t->c.action);
	for (int i = 0; i < t->c.nlines; i++)
		fprintf(f, "- %s\n", t->c.lines[i]);
	fprintf(f, "\n## Steps\n\n| # | step | state | finding |\n|---|---|---|---|\n");
	for (int s = 0; s < TRI_NSTEPS; s++)
		fprintf(f, "| %s | %s | %s | %s |\n", s ? (char[]){ (char)('0' + s), 0 } : "env",
			tri_steps[s].title, mark(t->r[s].state), t->r[s].reason);
	for (int s = 0; s < TRI_NSTEPS; s++) {
		const struct tri_result *r = &t->r[s];

		fprintf(f, "\n### %s %s — %s\n\n%s\n\n", s ? "Step" : "Environment",
			s ? (char[]){ (char)('0' + s), 0 } : "", tri_steps[s].question,
			r->reason);
		for (int i = 0; i < r->nlines; i++)
			fprintf(f, "    %s\n", r->lines[i]);
		if (r->hint[0] && r->state >= TRI_WARN)
			fprintf(f, "\nWhat to do: %s\n", r->hint);
	}
	fprintf(f, "\n## Facts of both ends\n\n");
	if (ev->peer_facts_valid) {
		const struct proto_facts *e[2] = { &ev->local_facts, &ev->peer_facts };

		fprintf(f, "| | here | peer |\n|---|---|---|\n");
		fprintf(f, "| host | %s | %s |\n", e[0]->host, e[1]->host);
		fprintf(f, "| device | %s | %s |\n", e[0]->device, e[1]->device);
		fprintf(f, "| driver | %s | %s |\n", e[0]->driver, e[1]->driver);
		fprintf(f, "| driver version | %s | %s |\n",
			e[0]->driver_version[0] ? e[0]->driver_version : "?",
			e[1]->driver_version[0] ? e[1]->driver_version : "peer did not say");
		fprintf(f, "| firmware | %s | %s |\n", e[0]->fw_ver, e[1]->fw_ver);
		fprintf(f, "| kernel | %s | %s |\n", e[0]->kernel, e[1]->kernel);
		fprintf(f, "| PCIe | %s | %s |\n", e[0]->pcie, e[1]->pcie);
		fprintf(f, "| NUMA node | %d | %d |\n", e[0]->numa_node, e[1]->numa_node);
		fprintf(f, "| CPU governor | %s | %s |\n", e[0]->cpu_governor, e[1]->cpu_governor);
		fprintf(f, "| rate Gb/s | %g | %g |\n", e[0]->rate_mbps / 1000.0, e[1]->rate_mbps / 1000.0);
		fprintf(f, "| active MTU | %u | %u |\n", e[0]->mtu, e[1]->mtu);
		fprintf(f, "| netdev MTU | %u | %u |\n", e[0]->netdev_mtu, e[1]->netdev_mtu);
		fprintf(f, "| GID index | %d | %d |\n", e[0]->gid_index, e[1]->gid_index);
		fprintf(f, "| GID type | %s | %s |\n", e[0]->gid_type, e[1]->gid_type);
		fprintf(f, "| GID | %s | %s |\n", e[0]->gid, e[1]->gid);
	} else {
		const struct port_info *p = &ev->local;

		fprintf(f, "Peer: %s.\n\nHere: %s, %s %s, firmware %s, driver %s %s.\n",
			ev->peer[0] ? ev->peer_why : "no --peer given", ev->host, p->dev, p->ca_type,
			p->fw_ver, ev->env.driver[0] ? ev->env.driver : "?",
			ev->env.driver_version[0] ? ev->env.driver_version : "(version unknown)");
	}
}

void triage_write_text(FILE *f, const struct tri_evidence *ev, const struct triage *t)
{
	fprintf(f, "TRIAGE %s %s/%d%s%s\n", ev->host, ev->local_valid ? ev->local.dev : "?",
		ev->local_valid ? ev->local.port : 0, ev->peer[0] ? " -> " : "  (no peer)", ev->peer);
	for (int s = 0; s < TRI_NSTEPS; s++) {
		const struct tri_result *r = &t->r[s];

		fprintf(f, " %-4s %-12s %-4s  %s\n", s ? (char[]){ (char)('0' + s), 0 } : "ENV",
			tri_steps[s].title, mark(r->state), r->reason);
		for (int i = 0; i < r->nlines; i++)
			fprintf(f, "        %s\n", r->lines[i]);
	}
	fprintf(f, "CONCLUSION  %s\n", t->c.text);
	if (t->fp.id != FP_NONE && !strstr(t->c.text, t->fp.text))
		fprintf(f, "            %s\n", t->fp.text);
	fprintf(f, "NEXT        %s\n", t->c.action);
}
