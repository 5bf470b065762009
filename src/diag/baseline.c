// SPDX-License-Identifier: MIT
/* Slow growth: a per-port baseline of the error counters kept in the state
 * directory, so ~10 errors an hour (an aging optic) is flagged across days
 * instead of disappearing in the 10-minute window. */
#include "config.h"
#include "baseline.h"

#include <math.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ctrclass.h"
#include "core/counters/delta.h"
#include "core/counters/monitor.h"
#include "core/counters/reader.h"

const char *baseline_path(const char *port, char *buf, size_t len)
{
	const char *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");

	if (x && *x)
		snprintf(buf, len, "%s/ibconsole/baseline/%s", x, port);
	else if (h && *h)
		snprintf(buf, len, "%s/.local/state/ibconsole/baseline/%s", h, port);
	else
		return NULL;
	return buf;
}

int baseline_load(struct baseline *b, const char *path, char *err, size_t errlen)
{
	char line[256];
	FILE *f;

	memset(b, 0, sizeof(*b));
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "cannot read the baseline %s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f) && b->n < CTR_MAX) {
		struct baseline_ctr *c = &b->c[b->n];
		char name[CTR_NAME];
		unsigned long long v;
		double t;

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%39s %llu %lf", name, &v, &t) != 3 || !(t > 0))
			continue;	/* a damaged line only costs that base */
		snprintf(c->name, sizeof(c->name), "%s", name);
		c->value = v;
		c->t = t;
		b->n++;
	}
	fclose(f);
	return 0;
}

static int mkdirs(char *path)
{
	for (char *s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(path, 0700) && errno != EEXIST) {
			*s = '/';
			return -1;
		}
		*s = '/';
	}
	return 0;
}

int baseline_save(const struct baseline *b, const char *path, char *err, size_t errlen)
{
	char tmp[600], dir[600];
	FILE *f;
	int rc = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
	if (mkdirs(dir) || !(f = fopen(tmp, "w"))) {
		snprintf(err, errlen, "cannot write the baseline %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# ibconsole error-counter baseline: counter value seconds-since-epoch\n");
	for (int i = 0; i < b->n; i++)
		fprintf(f, "%s %" PRIu64 " %.0f\n", b->c[i].name, b->c[i].value, b->c[i].t);
	if (fclose(f) || rename(tmp, path)) {
		snprintf(err, errlen, "cannot write the baseline %s: %s", path, strerror(errno));
		unlink(tmp);
		rc = -1;
	}
	return rc;
}

static struct baseline_ctr *find(struct baseline *b, const char *name)
{
	for (int i = 0; i < b->n; i++)
		if (!strcmp(b->c[i].name, name))
			return &b->c[i];
	if (b->n >= CTR_MAX)
		return NULL;
	memset(&b->c[b->n], 0, sizeof(b->c[b->n]));
	snprintf(b->c[b->n].name, sizeof(b->c[b->n].name), "%s", name);
	return &b->c[b->n++];
}

static void rebase(struct baseline *b, struct baseline_ctr *c, uint64_t value, double now)
{
	c->value = value;
	c->t = now;
	b->dirty = true;
}

bool baseline_port_open(struct baseline_port *pb, const char *dev, int port,
			char *err, size_t errlen)
{
	char key[80], why[600];

	memset(pb, 0, sizeof(*pb));
	if (!dev || !dev[0])
		return true;
	snprintf(key, sizeof(key), "%s-%d", dev, port);
	if (!baseline_path(key, pb->path, sizeof(pb->path)))
		return true;
	if (baseline_load(&pb->b, pb->path, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s — slow growth is judged from a new baseline", why);
		pb->warned = true;
		return false;
	}
	return true;
}

bool baseline_port_keep(struct baseline_port *pb, char *err, size_t errlen)
{
	char why[600];

	if (!pb->b.dirty || !pb->path[0])
		return true;
	pb->b.dirty = false;
	if (baseline_save(&pb->b, pb->path, why, sizeof(why)) && !pb->warned) {
		snprintf(err, errlen, "%s — slow growth is judged within this run only (set XDG_STATE_HOME to a writable directory)",
			 why);
		pb->warned = true;
		return false;
	}
	return true;
}

void baseline_eval(struct baseline *b, const struct counter_set *cs, double now,
		   const struct thresholds *th, struct verdict *v)
{
	for (int i = 0; i < cs->n; i++) {
		const struct ctr_value *x = &cs->c[i];
		struct baseline_ctr *c;
		bool sat;
		double age, per_h;

		if (x->cls != CTR_ERROR || !x->valid)
			continue;
		sat = x->saturates && x->bits < 64 && x->value == (UINT64_C(1) << x->bits) - 1;
		c = find(b, x->name);
		if (!c)
			continue;
		if (!(c->t > 0) || x->value < c->value || sat || c->t > now) {
			rebase(b, c, x->value, now);	/* new, reset or saturated */
			continue;
		}
		age = now - c->t;
		per_h = (double)(x->value - c->value) * 3600 / (age > 0 ? age : 1);
		/* judged as printed, to a tenth: "10.0 an hour" is 10 */
		per_h = round(per_h * 10) / 10;
		if (age >= th->slow_min_s && x->value > c->value &&
		    th->slow_per_hour > 0 && per_h >= th->slow_per_hour &&
		    v->level < VERDICT_WATCH) {
			char when[32];
			time_t t0 = (time_t)c->t;
			/* the reference: receive errors growing slowly can announce
			 * an aging optic; so can the physical class */
			bool optic = ctr_fault_of(x->name) == FAULT_PHYSICAL ||
				     ctr_fault_of(x->name) == FAULT_RECEIVE;
			struct tm tm;

			gmtime_r(&t0, &tm);
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
			v->level = VERDICT_WATCH;
			v->count = x->value - c->value;
			v->lower_bound = false;
			v->threshold = (uint64_t)th->slow_per_hour;
			snprintf(v->counter, sizeof(v->counter), "%s", x->name);
			snprintf(v->cls_counter, sizeof(v->cls_counter), "%s", x->name);
			snprintf(v->rule, sizeof(v->rule), "slow-growth");
			snprintf(v->window, sizeof(v->window), "since %s", when);
			snprintf(v->text, sizeof(v->text),
				 "%s rose by %llu in %.1f h since the baseline of %s: %.1f an hour >= %g (slow growth%s) — %s",
				 x->name, (unsigned long long)(x->value - c->value), age / 3600,
				 when, per_h, th->slow_per_hour,
				 optic ? ", e.g. an aging optic" : "",
				 optic ? "check the optic's receive power" : ctr_fault_advice(x->name));
		}
		if (age > BASELINE_MAX_AGE_S)
			rebase(b, c, x->value, now);
	}
}

/* The console's slots: one baseline per local port on screen. */
static struct {
	char label[64];
	struct baseline_port pb;
} console_bl[CTRW_MAX_PORTS];

void baseline_console_eval(int i, const struct ctr_target *t, const struct delta_port *d,
			   const struct thresholds *th, struct verdict *v, char *err, size_t errlen)
{
	struct counter_set *cs;

	err[0] = '\0';
	if (i < 0 || i >= CTRW_MAX_PORTS || t->remote || !t->dev[0] || !d->have)
		return;
	if (strcmp(console_bl[i].label, t->label)) {
		snprintf(console_bl[i].label, sizeof(console_bl[i].label), "%s", t->label);
		baseline_port_open(&console_bl[i].pb, t->dev, t->port, err, errlen);
	}
	cs = calloc(1, sizeof(*cs));
	if (!cs)
		return;
	/* the newest readings, as a counter set */
	for (int k = 0; k < d->n && k < CTR_MAX; k++) {
		struct ctr_value *x = &cs->c[cs->n++];

		snprintf(x->name, sizeof(x->name), "%s", d->c[k].name);
		x->cls = d->c[k].cls;
		x->unit = d->c[k].unit;
		x->bits = d->c[k].bits;
		x->saturates = d->c[k].saturates;
		x->valid = true;
		x->value = d->c[k].value;
	}
	baseline_eval(&console_bl[i].pb.b, cs, (double)time(NULL), th, v);
	free(cs);
	if (!err[0])
		baseline_port_keep(&console_bl[i].pb, err, errlen);
}
