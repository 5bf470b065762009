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

#include "core/base/parse.h"

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

bool thresholds_config_is_default(const char *explicit_path)
{
	const char *e = getenv("IBCONSOLE_CONFIG");

	return !(explicit_path && *explicit_path) && !(e && *e);
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

/* A watch level above the act level can never show: when the file set
 * the watch level, that is an error naming the lines; when it set only
 * the act level (infiniband-diags' one-number style), watch follows it. */
static int check_pair(const char *path, const char *what, uint64_t *watch,
		      uint64_t act, int wline, int aline, char *err, size_t errlen)
{
	char wl[24], al[24];

	if (*watch <= act)
		return 0;
	if (!wline) {
		*watch = act;
		return 0;
	}
	snprintf(wl, sizeof(wl), wline ? "line %d" : "the default", wline);
	snprintf(al, sizeof(al), aline ? "line %d" : "the default", aline);
	snprintf(err, errlen, "%s: the watch level %llu (%s) is above the act level %llu (%s) for %s — make watch at most act",
		 path, (unsigned long long)*watch, wl, (unsigned long long)act, al, what);
	return -1;
}

int thresholds_load(struct thresholds *th, const char *path, char *err,
		    size_t errlen)
{
	/* 511 bytes and the terminator; a longer line is an error, never
	 * split into two (a key hidden past byte 511 must not take effect) */
	char line[THRESH_LINE_MAX + 2], why[96];
	int lines[THRESH_MAX][2] = { { 0 } }, gw = 0, ga = 0, lw = 0, la = 0;
	FILE *f;
	int ln = 0, r;

	if (!path)
		return 1;
	f = parse_fopen(path, why, sizeof(why));
	if (!f) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "cannot read the config file %s: %s — %s",
			 path, why, errno == EACCES ? "fix its permissions or pass another with --config" :
			 "give a regular file with --config");
		return -2;
	}
	snprintf(th->file, sizeof(th->file), "%s", path);
	while ((r = parse_line(f, line, sizeof(line))) != 0) {
		char *k, *v, *eq, *hash, *dot, name[CTR_NAME + 8];
		const struct ctr_def *d;
		struct threshold *t;
		uint64_t n;
		bool watch = false;
		double w;

		ln++;
		if (r < 0) {
			if (r == PARSE_LINE_NUL)
				snprintf(err, errlen, "%s:%d: the line holds a NUL byte — a config file is text: remove it",
					 path, ln);
			else
				snprintf(err, errlen, "%s:%d: line longer than %d bytes — shorten it",
					 path, ln, THRESH_LINE_MAX);
			fclose(f);
			return -1;
		}
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
			if (parse_num(v, 5, 600, &w)) {
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
			if (parse_num(v, 0, 1e15, &w)) {
				snprintf(err, errlen, "%s:%d: %s '%s' is not a count — fix the line",
					 path, ln, k, v);
				fclose(f);
				return -1;
			}
			if (k[6] == 's')
				th->slow_per_hour = w;
			else if (k[15] == 'w')
				th->life_watch = (uint64_t)w, lw = ln;
			else
				th->life_act = w >= 1e15 ? UINT64_MAX : (uint64_t)w, la = ln;
			continue;
		}
		if (!strcmp(k, "error_watch") || !strcmp(k, "error_act")) {
			if (parse_count(v, &n)) {
				snprintf(err, errlen, "%s:%d: %s '%s' is not a count — fix the line",
					 path, ln, k, v);
				fclose(f);
				return -1;
			}
			if (k[6] == 'w')
				th->watch = n, gw = ln;
			else
				th->act = n, ga = ln;
			snprintf(th->origin, sizeof(th->origin), "config %.30s:%d", path, ln);
			continue;
		}
		/* the test verdicts' table (and the acceptance's fleet rules,
		 * the exporter's fabric_rediscover_s) */
		if (!strncmp(k, "test_", 5) || !strncmp(k, "accept_", 7) ||
		    !strncmp(k, "fabric_", 7)) {
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
		/* Known counters strictly, under the name the rules use
		 * (symbol_error is SymbolErrorCounter); other error-like
		 * names (driver hw_counters) only with a number, else the
		 * key is not ours. */
		d = ctr_lookup(name);
		if (!d && (ctr_classify(name) != CTR_ERROR || parse_count(v, &n)))
			continue;
		if (parse_count(v, &n)) {
			snprintf(err, errlen, "%s:%d: threshold for %s '%s' is not a count — fix the line",
				 path, ln, name, v);
			fclose(f);
			return -1;
		}
		t = row_for(th, d ? d->name : name);
		if (!t)
			continue;
		if (watch)
			t->watch = n, lines[t - th->t][0] = ln;
		else
			t->act = n, lines[t - th->t][1] = ln;
		snprintf(t->origin, sizeof(t->origin), "config %.30s:%d", path, ln);
	}
	fclose(f);
	if (check_pair(path, "every counter", &th->watch, th->act, gw, ga, err, errlen) ||
	    check_pair(path, "the counts since the last clear (error_lifetime_watch, error_lifetime_act)",
		       &th->life_watch, th->life_act, lw, la, err, errlen))
		return -1;
	for (int i = 0; i < th->n; i++) {
		char what[CTR_NAME + 8];

		/* a level a row does not set is the file's, wherever in the
		 * file error_watch / error_act stand */
		if (!lines[i][0])
			th->t[i].watch = th->watch;
		if (!lines[i][1])
			th->t[i].act = th->act;
		snprintf(what, sizeof(what), "%s", th->t[i].counter);
		if (check_pair(path, what, &th->t[i].watch, th->t[i].act,
			       lines[i][0] ? lines[i][0] : gw, lines[i][1] ? lines[i][1] : ga,
			       err, errlen))
			return -1;
	}
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
