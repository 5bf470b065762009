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
#include "core/counters/delta.h"
#include "core/optics/optics.h"
#include "diag/ber.h"

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
	th->ber_watch = BER_WATCH_DEFAULT;
	th->ber_act = BER_ACT_DEFAULT;
	th->optic_near_db = OPTICS_NEAR_DB_DEFAULT;
	th->optic_read_s = OPTICS_READ_S_DEFAULT;
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

/* Reading one config file: where each level was set, for the errors
 * that name lines. */
struct load {
	struct thresholds *th;
	const char *path;
	int ln;				/* the line being read */
	int lines[THRESH_MAX][2];	/* per row: the watch / act line */
	int gw, ga, lw, la;		/* error_watch / _act, error_lifetime_* */
	char *err;
	size_t errlen;
};

/* The link-quality keys: a bit error rate level (1e-18 … 1), a dB
 * distance (0 … 20) or how often the console reads the modules. 1 taken, 0 not ours, -1 a bad value. */
static int load_link_quality(struct load *L, const char *k, const char *v)
{
	bool db = !strcmp(k, "optic_rx_near_db");
	double x;

	if (!strcmp(k, "optic_read_s")) {
		if (parse_num(v, 1, 86400, &x)) {
			snprintf(L->err, L->errlen, "%s:%d: optic_read_s '%s' is not 1 … 86400 seconds — fix the line",
				 L->path, L->ln, v);
			return -1;
		}
		L->th->optic_read_s = x;
		return 1;
	}
	if (!db && strcmp(k, "ber_watch") && strcmp(k, "ber_act"))
		return 0;
	if (parse_num(v, db ? 0 : 1e-18, db ? 20 : 1, &x)) {
		snprintf(L->err, L->errlen, "%s:%d: %s '%s' is not %s — fix the line", L->path, L->ln,
			 k, v, db ? "0 … 20 dB" : "a rate from 1e-18 to 1");
		return -1;
	}
	if (db)
		L->th->optic_near_db = x;
	else if (k[4] == 'w')
		L->th->ber_watch = x;
	else
		L->th->ber_act = x;
	return 1;
}

/* The whole file's keys: 1 taken, 0 not one of them, -1 bad value. */
static int load_global(struct load *L, const char *k, const char *v)
{
	struct thresholds *th = L->th;
	uint64_t n;
	double w;
	int rc = load_link_quality(L, k, v);

	if (rc)
		return rc;

	if (!strcmp(k, "error_window_s")) {
		/* the counters' history is as long as the longest window */
		if (parse_num(v, 5, DELTA_HISTORY_S, &w)) {
			snprintf(L->err, L->errlen, "%s:%d: error_window_s '%s' is not 5 … %d seconds (the counter history kept) — fix the line",
				 L->path, L->ln, v, DELTA_HISTORY_S);
			return -1;
		}
		th->window_s = w;
		return 1;
	}
	if (!strcmp(k, "error_lifetime_watch") || !strcmp(k, "error_lifetime_act") ||
	    !strcmp(k, "error_slow_per_hour")) {
		if (parse_num(v, 0, 1e15, &w)) {
			snprintf(L->err, L->errlen, "%s:%d: %s '%s' is not a count — fix the line",
				 L->path, L->ln, k, v);
			return -1;
		}
		if (k[6] == 's')
			th->slow_per_hour = w;
		else if (k[15] == 'w')
			th->life_watch = (uint64_t)w, L->lw = L->ln;
		else
			th->life_act = w >= 1e15 ? UINT64_MAX : (uint64_t)w, L->la = L->ln;
		return 1;
	}
	if (!strcmp(k, "error_watch") || !strcmp(k, "error_act")) {
		if (parse_count(v, &n)) {
			snprintf(L->err, L->errlen, "%s:%d: %s '%s' is not a count — fix the line",
				 L->path, L->ln, k, v);
			return -1;
		}
		if (k[6] == 'w')
			th->watch = n, L->gw = L->ln;
		else
			th->act = n, L->ga = L->ln;
		snprintf(th->origin, sizeof(th->origin), "config %.30s:%d", L->path, L->ln);
		return 1;
	}
	return 0;
}

/* A counter's key (NAME, NAME.watch, NAME.act): 0 taken or not ours,
 * -1 bad value. */
static int load_counter(struct load *L, const char *k, const char *v)
{
	char name[CTR_NAME + 8], *dot;
	const struct ctr_def *d;
	struct threshold *t;
	bool watch = false;
	uint64_t n;

	snprintf(name, sizeof(name), "%s", k);
	dot = strrchr(name, '.');
	if (dot && (!strcmp(dot, ".watch") || !strcmp(dot, ".act"))) {
		watch = !strcmp(dot, ".watch");
		*dot = '\0';
	} else if (dot) {
		return 0;	/* some other module's dotted key */
	}
	/* Known counters strictly, under the name the rules use
	 * (symbol_error is SymbolErrorCounter); other error-like
	 * names (driver hw_counters) only with a number, else the
	 * key is not ours. */
	d = ctr_lookup(name);
	if (!d && (ctr_classify(name) != CTR_ERROR || parse_count(v, &n)))
		return 0;
	if (parse_count(v, &n)) {
		snprintf(L->err, L->errlen, "%s:%d: threshold for %s '%s' is not a count — fix the line",
			 L->path, L->ln, name, v);
		return -1;
	}
	t = row_for(L->th, d ? d->name : name);
	if (!t)
		return 0;
	if (watch)
		t->watch = n, L->lines[t - L->th->t][0] = L->ln;
	else
		t->act = n, L->lines[t - L->th->t][1] = L->ln;
	snprintf(t->origin, sizeof(t->origin), "config %.30s:%d", L->path, L->ln);
	return 0;
}

/* One line, read whole: 0 taken or skipped, -1 an error in L->err. */
static int load_line(struct load *L, char *line, int r)
{
	char *k, *v, *eq, *hash;
	int rc;

	if (r < 0) {
		if (r == PARSE_LINE_NUL)
			snprintf(L->err, L->errlen, "%s:%d: the line holds a NUL byte — a config file is text: remove it",
				 L->path, L->ln);
		else
			snprintf(L->err, L->errlen, "%s:%d: line longer than %d bytes — shorten it",
				 L->path, L->ln, THRESH_LINE_MAX);
		return -1;
	}
	hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	k = trim(line);
	if (!*k)
		return 0;
	eq = strchr(k, '=');
	if (!eq)
		return 0;	/* not ours to judge */
	*eq = '\0';
	v = trim(eq + 1);
	k = trim(k);
	rc = load_global(L, k, v);
	if (rc)
		return rc < 0 ? -1 : 0;
	/* the test verdicts' table (and the acceptance's fleet rules,
	 * the exporter's fabric_rediscover_s) */
	if (!strncmp(k, "test_", 5) || !strncmp(k, "accept_", 7) ||
	    !strncmp(k, "fabric_", 7)) {
		rc = tv_limits_set(&L->th->tv, k, v);
		if (rc < 0) {
			snprintf(L->err, L->errlen, "%s:%d: %s '%s' is not a number in range — fix the line",
				 L->path, L->ln, k, v);
			return -1;
		}
		if (!rc)
			return 0;
	}
	return load_counter(L, k, v);
}

/* After the whole file: the levels each row did not set, and no watch
 * level above its act level. */
static int load_finish(struct load *L)
{
	struct thresholds *th = L->th;

	if (th->ber_watch > th->ber_act) {
		snprintf(L->err, L->errlen, "%s: ber_watch %g is above ber_act %g — lower it or raise ber_act",
			 L->path, th->ber_watch, th->ber_act);
		return -1;
	}
	if (check_pair(L->path, "every counter", &th->watch, th->act, L->gw, L->ga, L->err, L->errlen) ||
	    check_pair(L->path, "the counts since the last clear (error_lifetime_watch, error_lifetime_act)",
		       &th->life_watch, th->life_act, L->lw, L->la, L->err, L->errlen))
		return -1;
	for (int i = 0; i < th->n; i++) {
		char what[CTR_NAME + 8];
		int *ln = L->lines[i];

		/* a level a row does not set is the file's, wherever in the
		 * file error_watch / error_act stand */
		if (!ln[0])
			th->t[i].watch = th->watch;
		if (!ln[1])
			th->t[i].act = th->act;
		snprintf(what, sizeof(what), "%s", th->t[i].counter);
		if (check_pair(L->path, what, &th->t[i].watch, th->t[i].act,
			       ln[0] ? ln[0] : L->gw, ln[1] ? ln[1] : L->ga, L->err, L->errlen))
			return -1;
	}
	return 0;
}

int thresholds_load(struct thresholds *th, const char *path, char *err,
		    size_t errlen)
{
	/* 511 bytes and the terminator; a longer line is an error, never
	 * split into two (a key hidden past byte 511 must not take effect) */
	char line[THRESH_LINE_MAX + 2], why[96];
	struct load L = { .th = th, .path = path, .err = err, .errlen = errlen };
	FILE *f;
	int r;

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
		L.ln++;
		if (load_line(&L, line, r) < 0) {
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return load_finish(&L);
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
