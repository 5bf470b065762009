// SPDX-License-Identifier: MIT
/* Helpers the command files share (see cmdutil.h). */
#include "config.h"
#include "cmdutil.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "core/base/hmacdl.h"
#include "core/base/json.h"
#include "core/base/parse.h"
#include "core/testrun/testjob.h"
#include "diag/ctrclass.h"
#include "diag/rules.h"
#include "diag/thresholds.h"

void cmd_fail(const char *msg)
{
	fprintf(stderr, "ibconsole: %s\n", msg);
}

int cmd_report(int rc, const char *err)
{
	if (rc > 1)
		fprintf(stderr, "ibconsole: %s\n", err);
	return rc;
}

/* --secret-file: the one reader (core/testrun), its error on stderr. */
int cmd_read_secret(const char *path, char *buf, size_t len)
{
	char err[600];

	if (hmacdl_load(err, sizeof(err))) {
		cmd_fail(err);
		return 3;
	}
	if (testjob_read_secret(path, buf, len, err, sizeof(err))) {
		cmd_fail(err);
		return 2;
	}
	return 0;
}

void cmd_iso_time(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int cmd_load_thresholds(const struct cli *c, struct thresholds *th,
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

void cmd_json_verdict(struct json *j, const struct verdict *v)
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

