// SPDX-License-Identifier: MIT
/* Error-counter thresholds: a table with the reference procedure's defaults and a
 * `key = value` config file that overrides them per site or counter. */
#include "config.h"
#include "thresholds.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void thresholds_defaults(struct thresholds *th)
{
	memset(th, 0, sizeof(*th));
	th->window_s = THRESH_DEFAULT_WINDOW_S;
	th->watch = THRESH_DEFAULT_WATCH;
	th->act = THRESH_DEFAULT_ACT;
	snprintf(th->origin, sizeof(th->origin), "default (reference procedure)");
	tv_limits_defaults(&th->tv);
	th->life_watch = THRESH_LIFETIME_WATCH;
	th->life_act = THRESH_LIFETIME_ACT;
	th->slow_per_hour = THRESH_SLOW_PER_HOUR;
	th->slow_min_s = THRESH_SLOW_MIN_S;
}

const char *thresholds_config_path(const char *explicit_path, char *buf,
				   size_t len)
{
	const char *e = getenv("IBCONSOLE_CONFIG"), *x, *h;

	if (explicit_path && *explicit_path)
		return explicit_path;
	if (e && *e)
		return e;
	x = getenv("XDG_CONFIG_HOME");
	if (x && *x) {
		snprintf(buf, len, "%s/ibconsole/config", x);
		return buf;
	}
	h = getenv("HOME");
	if (!h || !*h)
		return NULL;
	snprintf(buf, len, "%s/.config/ibconsole/config", h);
	return buf;
}

static struct threshold *row_for(struct thresholds *th, const char *name)
{
	struct threshold *t;

	for (int i = 0; i < th->n; i++)
		if (!strcmp(th->t[i].counter, name))
			return &th->t[i];
	if (th->n >= THRESH_MAX)
		return NULL;
	t = &th->t[th->n++];
	snprintf(t->counter, sizeof(t->counter), "%.39s", name);
	t->watch = th->watch;
	t->act = th->act;
	return t;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *trim(end))
		return -1;
	*out = v;
	return 0;
}

int thresholds_load(struct thresholds *th, const char *path, char *err,
		    size_t errlen)
{
	char line[512];
	FILE *f;
	int ln = 0;

	if (!path)
		return 1;
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "cannot read the config file %s: %s — fix its permissions or pass another with --config",
			 path, strerror(errno));
		return -1;
	}
	snprintf(th->file, sizeof(th->file), "%s", path);
	while (fgets(line, sizeof(line), f)) {
		char *k, *v, *eq, *hash, *dot, name[CTR_NAME + 8];
		struct threshold *t;
		uint64_t n;
		bool watch = false;
		double w;

		ln++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		k = trim(line);
		if (!*k)
			continue;
		eq = strchr(k, '=');
		if (!eq)
			continue;	/* not ours to judge */
		*eq = '\0';
		v = trim(eq + 1);
		k = trim(k);
		if (!strcmp(k, "error_window_s")) {
			char *end;

			w = strtod(v, &end);
			if (end == v || *trim(end) || !(w >= 5 && w <= 600)) {
				snprintf(err, errlen, "%s:%d: error_window_s '%s' is not 5 … 600 seconds — fix the line",
					 path, ln, v);
				fclose(f);
				return -1;
			}
			th->window_s = w;
			continue;
		}
		if (!strcmp(k, "error_lifetime_watch") || !strcmp(k, "error_lifetime_act") ||
		    !strcmp(k, "error_slow_per_hour")) {
			char *end;

			w = strtod(v, &end);
			if (end == v || *trim(end) || !(w >= 0 && w <= 1e15)) {
				snprintf(err, errlen, "%s:%d: %s '%s' is not a count — fix the line",
					 path, ln, k, v);
				fclose(f);
				return -1;
			}
			if (k[6] == 's')
				th->slow_per_hour = w;
			else if (k[15] == 'w')
				th->life_watch = (uint64_t)w;
			else
				th->life_act = w >= 1e15 ? UINT64_MAX : (uint64_t)w;
			continue;
		}
		if (!strcmp(k, "error_watch") || !strcmp(k, "error_act")) {
			if (parse_u64(v, &n)) {
				snprintf(err, errlen, "%s:%d: %s '%s' is not a count — fix the line",
					 path, ln, k, v);
				fclose(f);
				return -1;
			}
			if (k[6] == 'w')
				th->watch = n;
			else
				th->act = n;
			snprintf(th->origin, sizeof(th->origin), "config %.30s:%d", path, ln);
			continue;
		}
		if (!strncmp(k, "test_", 5)) {	/* the test verdicts' table */
			int trc = tv_limits_set(&th->tv, k, v);

			if (trc < 0) {
				snprintf(err, errlen, "%s:%d: %s '%s' is not a number in range — fix the line",
					 path, ln, k, v);
				fclose(f);
				return -1;
			}
			if (!trc)
				continue;
		}
		snprintf(name, sizeof(name), "%s", k);
		dot = strrchr(name, '.');
		if (dot && (!strcmp(dot, ".watch") || !strcmp(dot, ".act"))) {
			watch = !strcmp(dot, ".watch");
			*dot = '\0';
		} else if (dot) {
			continue;	/* some other module's dotted key */
		}
		/* Known counters strictly; other error-like names (driver
		 * hw_counters) only with a number, else the key is not ours. */
		if (!ctr_lookup(name) &&
		    (ctr_classify(name) != CTR_ERROR || parse_u64(v, &n)))
			continue;
		if (parse_u64(v, &n)) {
			snprintf(err, errlen, "%s:%d: threshold for %s '%s' is not a count — fix the line",
				 path, ln, name, v);
			fclose(f);
			return -1;
		}
		t = row_for(th, name);
		if (!t)
			continue;
		if (watch)
			t->watch = n;
		else
			t->act = n;
		snprintf(t->origin, sizeof(t->origin), "config %.30s:%d", path, ln);
	}
	fclose(f);
	return 0;
}

const char *thresholds_get(const struct thresholds *th, const char *counter,
			   uint64_t *watch, uint64_t *act)
{
	for (int i = 0; i < th->n; i++)
		if (!strcmp(th->t[i].counter, counter)) {
			*watch = th->t[i].watch;
			*act = th->t[i].act;
			return th->t[i].origin;
		}
	*watch = th->watch;
	*act = th->act;
	return th->origin;
}
