// SPDX-License-Identifier: MIT
/* The captured counter samples back into a counter model (see
 * ctrfile.h): each sample's ports as counters_json_set() wrote them,
 * read through the JSON scanner. */
#include "config.h"
#include "core/capture/ctrfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/jsonscan.h"
#include "core/base/parse.h"
#include "core/capture/archive.h"
#include "core/capture/replay.h"
#include "core/counters/monitor.h"
#include "core/port/events.h"

struct sample {
	struct counter_set cs[CTRW_MAX_PORTS];
	int n;
};

/* One counter's member: its name starts it (in order), bits and value
 * follow. */
static void take_value(struct counter_set *cs, int k, const char *key, const char *val)
{
	if (!strcmp(key, "name") && k == cs->n) {
		struct ctr_value *v = counters_put(cs, val, 0);

		/* the IB counters stop at all-ones; driver counters do not */
		if (v)
			v->saturates = ctr_lookup(val) != NULL;
	} else if (k < cs->n && !strcmp(key, "bits")) {
		int b = atoi(val);

		cs->c[k].bits = (uint8_t)(b >= 1 && b <= 64 ? b : 64);
	} else if (k < cs->n && !strcmp(key, "value")) {
		cs->c[k].value = strtoull(val, NULL, 10);
	}
}

static void take(void *arg, const char *path, const char *val, bool is_str)
{
	struct sample *s = arg;
	struct counter_set *cs;
	char key[40];
	int i, k, n = 0;

	if (sscanf(path, "ports[%d]%n", &i, &n) != 1 || i < 0 || i >= CTRW_MAX_PORTS)
		return;
	cs = &s->cs[i];
	if (i >= s->n)
		s->n = i + 1;
	path += n;
	if (!strcmp(path, ".label") && is_str)
		snprintf(cs->label, sizeof(cs->label), "%s", val);
	else if (!strcmp(path, ".device") && is_str)
		snprintf(cs->dev, sizeof(cs->dev), "%s", val);
	else if (!strcmp(path, ".port"))
		cs->port = atoi(val);
	else if (!strcmp(path, ".counters_error") && is_str)
		snprintf(cs->why, sizeof(cs->why), "%s", val);
	else if (!strcmp(path, ".counters.source") && is_str) {
		cs->valid = true;
		cs->source = !strcmp(val, "pma") ? CTR_SRC_PMA : CTR_SRC_SYSFS;
	} else if (!strcmp(path, ".counters.mode") && is_str)
		snprintf(cs->mode, sizeof(cs->mode), "%s", val);
	else if (sscanf(path, ".counters.values[%d].%39s", &k, key) == 2 && k >= 0 && k < CTR_MAX)
		take_value(cs, k, key, val);
}

static int read_sample(int i, struct sample *s, char *err, size_t errlen)
{
	char name[32], path[4200], why[200];
	size_t len;
	char *text;
	int rc;

	snprintf(name, sizeof(name), "counters-%d.json", i);
	text = parse_slurp(replay_path(name, path, sizeof(path)), CAPAR_MAX_MEMBER, &len, why,
			   sizeof(why));
	rc = text ? json_scan(text, len, take, s, why, sizeof(why)) : -1;
	if (rc)
		snprintf(err, errlen, "the capture's %s: %s", name, why);
	free(text);
	return rc;
}

/* The event log as the console kept it on the host: the captured port
 * events (events.log), then what moved between the two samples, at the
 * second sample's time. */
static void replay_events(struct ctr_model *m, double iv)
{
	struct port_event *ev = calloc(EVENTLOG_MAX, sizeof(*ev));
	struct timespec at = { 0 };
	struct tm tm = { 0 };
	char path[4200], why[200];
	int n, bad = 0;

	eventlog_init(&m->log);
	n = ev ? events_load(replay_path("events.log", path, sizeof(path)), 0, ev, EVENTLOG_MAX,
			     &bad, why, sizeof(why)) : -1;
	for (int i = 0; i < n; i++) {
		struct timespec ts = { .tv_sec = (time_t)ev[i].t };
		char text[128];

		if (!strcmp(ev[i].source, "counter"))
			continue;	/* the deltas below say it */
		snprintf(text, sizeof(text), "%.40s%s%.40s (%s)", ev[i].from,
			 ev[i].from[0] || ev[i].to[0] ? " -> " : "", ev[i].to, ev[i].source);
		eventlog_add_text(&m->log, ev[i].port,
				  !strcmp(ev[i].kind, "state") ? "link state" : ev[i].kind, text, &ts);
	}
	free(ev);
	if (strptime(replay_time(), "%Y-%m-%dT%H:%M:%SZ", &tm))
		at.tv_sec = timegm(&tm) + (time_t)iv;
	for (int i = 0; i < m->n; i++)
		eventlog_add_from(&m->log, &m->dp[i], &at);
}

int replay_counters(struct ctr_model *m, char *err, size_t errlen)
{
	struct sample *s = calloc(2, sizeof(*s));
	double iv = replay_interval(), t0;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!(iv > 0))
		snprintf(err, errlen, "the capture's manifest names no interval between its samples");
	else if (!read_sample(1, &s[0], err, errlen) && !read_sample(2, &s[1], err, errlen))
		rc = 0;
	/* the second sample taken now, the first the interval before */
	t0 = counters_now() - iv;
	for (int i = 0; !rc && i < s[1].n; i++) {
		const struct counter_set *a = &s[0].cs[i], *b = &s[1].cs[i];
		struct monitor_port *p = &m->port[i];

		snprintf(p->t.label, sizeof(p->t.label), "%s", b->label);
		snprintf(p->t.dev, sizeof(p->t.dev), "%s", b->dev);
		p->t.port = b->port;
		p->source = b->source;
		p->valid = b->valid;
		snprintf(p->mode, sizeof(p->mode), "%s", b->mode);
		snprintf(p->why, sizeof(p->why), "%s", b->why);
		delta_init(&m->dp[i], b->label, iv);
		/* a port the first sample does not hold alike has no delta */
		if (i < s[0].n && !strcmp(a->label, b->label))
			delta_update(&m->dp[i], a, t0);
		delta_update(&m->dp[i], b, t0 + iv);
		m->n = i + 1;
	}
	if (!rc) {
		m->gen = 1;
		m->now = t0 + iv;
		m->interval_s = iv;
		snprintf(m->note, sizeof(m->note), "captured: two samples %g s apart", iv);
		replay_events(m, iv);
	}
	free(s);
	return rc;
}
