// SPDX-License-Identifier: MIT
/* JSON writers for counters: plain values (snapshot, sweep) and the
 * delta engine's view (watch); missing values are null, never 0. */
#include "config.h"
#include "core/counters/counters_json.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every counter exact to the last of its 64 bits: a wrapped or
 * saturated 64-bit counter is 18446744073709551615, not 1.8e+19. */
static void u64(struct json *j, const char *k, uint64_t v)
{
	json_u64(j, k, v);
}

/* What a counter is and its value: the fields every counter object
 * starts with, in a sample and in a delta alike. */
static void counter_head(struct json *j, const char *name, unsigned cls,
			 unsigned unit, unsigned bits, uint64_t value)
{
	json_str(j, "name", name);
	json_str(j, "class", ctr_class_name((enum ctr_class)cls));
	json_str(j, "unit", ctr_unit_name((enum ctr_unit)unit));
	json_int(j, "bits", bits);
	u64(j, "value", value);
}

static const char *src_name(enum ctr_source s)
{
	return s == CTR_SRC_PMA ? "pma" : s == CTR_SRC_SYSFS ? "sysfs" : NULL;
}

void counters_json_set(struct json *j, const struct counter_set *cs)
{
	if (!cs->valid) {
		json_null(j, "counters");
		json_str(j, "counters_error", cs->why[0] ? cs->why : "not read");
		return;
	}
	json_obj_begin(j, "counters");
	json_str(j, "source", src_name(cs->source));
	json_str(j, "mode", cs->mode);
	json_bool(j, "extended", cs->extended);
	json_arr_begin(j, "values");
	for (int i = 0; i < cs->n; i++) {
		const struct ctr_value *v = &cs->c[i];

		json_obj_begin(j, NULL);
		counter_head(j, v->name, v->cls, v->unit, v->bits, v->value);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static const struct delta_ctr *first_of(const struct delta_port *d,
					const char *a, const char *b)
{
	const struct delta_ctr *c = delta_find(d, a);

	return c ? c : b ? delta_find(d, b) : NULL;
}

void counters_rates(const struct delta_port *d, struct ctr_rates *r)
{
	const struct delta_ctr *c;

	r->tx_gbps = r->rx_gbps = r->tx_pps = r->rx_pps = -1;
	c = first_of(d, "PortXmitData", NULL);
	if (c && c->rate_valid)
		r->tx_gbps = delta_gbps(c);
	c = first_of(d, "PortRcvData", NULL);
	if (c && c->rate_valid)
		r->rx_gbps = delta_gbps(c);
	c = first_of(d, "PortXmitPkts", "sent_pkts");
	if (c && c->rate_valid)
		r->tx_pps = c->rate;
	c = first_of(d, "PortRcvPkts", "rcvd_pkts");
	if (c && c->rate_valid)
		r->rx_pps = c->rate;
}

static void num_or_null(struct json *j, const char *k, double v)
{
	if (v < 0)
		json_null(j, k);
	else
		json_num(j, k, v);
}

/* A counter object of watch's "counters" array: its name through the
 * writer (escaped as every string is), the rest as text built here and
 * handed over whole. Member by member through the writer, 17 members of
 * 21 counters of 1,000 ports were most of a 1,000-port watch tick
 * (callgrind). The members, their order and their text are json_*'s;
 * the separators follow the writer's indentation. */
struct cbuf {
	char *p;
	const char *sep;	/* between members: "," or ",\n" + indentation */
	size_t seplen;
};

static void cb_put(struct cbuf *b, const char *s, size_t n)
{
	memcpy(b->p, s, n);
	b->p += n;
}

/* key is a literal: its quotes, colon and space come with it */
#define KEY(b, k) do { \
		cb_put(b, (b)->sep, (b)->seplen); \
		cb_put(b, "\"" k "\": ", sizeof("\"" k "\": ") - 1); \
	} while (0)

static void cb_u64(struct cbuf *b, uint64_t v)
{
	char d[24], *q = d + sizeof(d);

	do {
		*--q = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	cb_put(b, q, (size_t)(d + sizeof(d) - q));
}

static void cb_bool(struct cbuf *b, bool v)
{
	if (v)
		cb_put(b, "true", 4);
	else
		cb_put(b, "false", 5);
}

static void cb_null_or_u64(struct cbuf *b, bool have, uint64_t v)
{
	if (have)
		cb_u64(b, v);
	else
		cb_put(b, "null", 4);
}

static void cb_num(struct cbuf *b, bool have, double v)
{
	if (have)
		b->p += json_num_text(b->p, v);
	else
		cb_put(b, "null", 4);
}

/* one of our own names (class, unit, state): nothing to escape */
static void cb_str(struct cbuf *b, const char *s)
{
	*b->p++ = '"';
	cb_put(b, s, strlen(s));
	*b->p++ = '"';
}

/* Room for the text after a counter's name: 16 keys, 16 separators, 10
 * 20-digit counts, 3 numbers, 3 names. */
#define CTR_REST_MAX (16 * 24 + 16 * (2 + 2 * JSON_MAX_DEPTH) + 10 * 20 + 3 * JSON_NUM_MAX + 3 * 16)

/* The value of a counter's "class" and the members after it, into b;
 * w1 and w10 its windows. */
static void counter_rest(struct cbuf *b, const struct delta_ctr *c, uint64_t w1,
			 uint64_t w10)
{
	bool have = c->state != DELTA_FIRST && c->state != DELTA_MISSING;

	cb_str(b, ctr_class_name((enum ctr_class)c->cls));
	KEY(b, "unit");
	cb_str(b, ctr_unit_name((enum ctr_unit)c->unit));
	KEY(b, "bits");
	cb_u64(b, c->bits);
	KEY(b, "value");
	cb_u64(b, c->value);
	KEY(b, "state");
	cb_str(b, delta_state_name(c->state));
	KEY(b, "delta");
	cb_null_or_u64(b, have, c->delta);
	KEY(b, "delta_lower_bound");
	cb_bool(b, c->lower_bound);
	KEY(b, "per_s");
	cb_num(b, c->rate_valid, c->rate);
	if (c->unit == CTR_WORDS4 || c->unit == CTR_BYTES) {
		double g = delta_gbps(c);

		KEY(b, "bytes");
		cb_null_or_u64(b, have, delta_bytes(c, c->delta));
		KEY(b, "gbps");
		cb_num(b, g >= 0, g);
	}
	KEY(b, "total");
	cb_u64(b, c->total);
	KEY(b, "total_since_mark");
	cb_u64(b, c->total_mark);
	KEY(b, "total_lower_bound");
	cb_bool(b, c->total_lb);
	KEY(b, "window_1min");
	cb_u64(b, w1);
	KEY(b, "window_10min");
	cb_u64(b, w10);
	KEY(b, "resets");
	cb_u64(b, c->resets);
	KEY(b, "saturations");
	cb_u64(b, c->saturations);
}

/* What a counter's object text is made of: two counters with equal
 * keys have the same text. */
struct ctr_key {
	char name[CTR_NAME];
	uint64_t value, delta, total, total_mark, w1, w10, rate_bits;
	unsigned resets, saturations;
	uint8_t cls, unit, bits, state;
	bool lower_bound, rate_valid, total_lb;
};

struct ctr_text {
	struct ctr_key k;
	bool ok;		/* text is k's */
	size_t len, cap;
	char *text;
};

void counters_json_cache_free(struct ctr_json_cache *c)
{
	for (int i = 0; c && i < c->n; i++)
		free(c->e[i].text);
	if (c) {
		free(c->e);
		c->e = NULL;
		c->n = 0;
	}
}

static void ctr_key_of(struct ctr_key *k, const struct delta_ctr *c, uint64_t w1,
		       uint64_t w10)
{
	memset(k, 0, sizeof(*k));
	strncpy(k->name, c->name, sizeof(k->name) - 1);
	k->value = c->value;
	k->delta = c->delta;
	k->total = c->total;
	k->total_mark = c->total_mark;
	k->w1 = w1;
	k->w10 = w10;
	memcpy(&k->rate_bits, &c->rate, sizeof(k->rate_bits));
	k->resets = c->resets;
	k->saturations = c->saturations;
	k->cls = c->cls;
	k->unit = c->unit;
	k->bits = c->bits;
	k->state = (uint8_t)c->state;
	k->lower_bound = c->lower_bound;
	k->rate_valid = c->rate_valid;
	k->total_lb = c->total_lb;
}

/* The writer's plain string (json.c's copy_plain): printable ASCII
 * without a quote or backslash, written as it is. */
static bool plain_name(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f || *s == '"' || *s == '\\')
			return false;
	return true;
}

/* Counter i's object text for a compact document from the cache, made
 * now when the counter's key changed; NULL when its name is not plain
 * (the writer escapes it) or out of memory. */
static const struct ctr_text *cached_counter(struct ctr_json_cache *cache, int i,
					     const struct delta_ctr *c, uint64_t w1,
					     uint64_t w10)
{
	char buf[CTR_NAME + 24 + CTR_REST_MAX];
	struct ctr_key k;
	struct ctr_text *e;
	struct cbuf b = { .sep = ",", .seplen = 1 };

	if (i >= cache->n) {
		int n = i + 1 > 2 * cache->n ? i + 1 : 2 * cache->n;
		struct ctr_text *ne = realloc(cache->e, (size_t)n * sizeof(*ne));

		if (!ne)
			return NULL;
		memset(ne + cache->n, 0, (size_t)(n - cache->n) * sizeof(*ne));
		cache->e = ne;
		cache->n = n;
	}
	e = &cache->e[i];
	ctr_key_of(&k, c, w1, w10);
	if (e->ok && !memcmp(&k, &e->k, sizeof(k)))
		return e;
	e->ok = false;
	if (!plain_name(c->name))
		return NULL;
	/* as the writer puts it: {"name": "…","class": … } */
	b.p = buf;
	cb_put(&b, "{\"name\": \"", sizeof("{\"name\": \"") - 1);
	cb_put(&b, c->name, strlen(c->name));
	cb_put(&b, "\",\"class\": ", sizeof("\",\"class\": ") - 1);
	counter_rest(&b, c, w1, w10);
	*b.p++ = '}';
	e->len = (size_t)(b.p - buf);
	if (e->len > e->cap) {
		size_t cap = (e->len + 63) & ~(size_t)63;
		char *t = realloc(e->text, cap);

		if (!t)
			return NULL;
		e->text = t;
		e->cap = cap;
	}
	memcpy(e->text, buf, e->len);
	e->k = k;
	e->ok = true;
	return e;
}

void counters_json_delta(struct json *j, const struct delta_port *d, double now,
			 struct ctr_json_cache *cache)
{
	char sep[2 + 2 * JSON_MAX_DEPTH] = ",", rest[CTR_REST_MAX], run[8192];
	size_t rn = 0;
	uint64_t w1[CTR_MAX], w10[CTR_MAX], e1 = 0, e10 = 0;
	struct ctr_rates r;
	struct cbuf b = { .sep = sep, .seplen = 1 };

	/* each window once: the port's error windows are their sums */
	for (int i = 0; i < d->n; i++) {
		w1[i] = delta_window(&d->c[i], now, DELTA_WIN_MINUTE);
		w10[i] = delta_window(&d->c[i], now, DELTA_WIN_10MIN);
		if (d->c[i].cls == CTR_ERROR) {
			e1 += w1[i];
			e10 += w10[i];
		}
	}
	counters_rates(d, &r);
	json_num(j, "interval_s", d->dt);
	num_or_null(j, "tx_gbps", r.tx_gbps);
	num_or_null(j, "rx_gbps", r.rx_gbps);
	num_or_null(j, "tx_pps", r.tx_pps);
	num_or_null(j, "rx_pps", r.rx_pps);
	u64(j, "errors_interval", delta_errors_window(d, now, DELTA_WIN_INTERVAL));
	u64(j, "errors_1min", e1);
	u64(j, "errors_10min", e10);
	json_arr_begin(j, "counters");
	for (int i = 0; i < d->n; i++) {
		const struct ctr_text *t;

		if (cache && j->compact &&
		    (t = cached_counter(cache, i, &d->c[i], w1[i], w10[i]))) {
			/* a run of them in one write, "," between */
			if (rn + 1 + t->len > sizeof(run)) {
				json_raw(j, NULL, run, rn);
				rn = 0;
			}
			if (rn)
				run[rn++] = ',';
			memcpy(run + rn, t->text, t->len);
			rn += t->len;
			continue;
		}
		if (rn) {
			json_raw(j, NULL, run, rn);
			rn = 0;
		}
		json_obj_begin(j, NULL);
		if (i == 0 && !j->compact) {
			/* a member's indentation at this depth, as the writer's */
			sep[b.seplen++] = '\n';
			memset(sep + b.seplen, ' ', 2 * (size_t)j->depth);
			b.seplen += 2 * (size_t)j->depth;
		}
		json_str(j, "name", d->c[i].name);
		b.p = rest;
		counter_rest(&b, &d->c[i], w1[i], w10[i]);
		json_raw(j, "class", rest, (size_t)(b.p - rest));
		json_obj_end(j);
	}
	if (rn)
		json_raw(j, NULL, run, rn);
	json_arr_end(j);
}

void counters_json_details(struct json *j, const struct counter_set *cs)
{
	if (!cs->valid || cs->source != CTR_SRC_PMA) {
		char why[CTR_WHY_LONG + 128];

		snprintf(why, sizeof(why), "%s%s", cs->no_mad[0] ? "the error details need MADs: " :
			 !cs->valid ? "no counter sample" :
			 "counters come from sysfs: the error details need the PMA (InfiniBand)",
			 cs->no_mad);
		json_null(j, "error_details");
		json_str(j, "error_details_error", why);
		return;
	}
	json_arr_begin(j, "error_details");
	for (int g = 0; g < DET_GROUPS; g++) {
		const struct det_values *dv = &cs->det.g[g];

		json_obj_begin(j, NULL);
		json_str(j, "attribute", details_attr_name(g));
		json_str(j, "detail_of", details_total_name(g));
		json_bool(j, "asked", dv->asked);
		if (dv->valid) {
			json_arr_begin(j, "counters");
			for (int i = 0; i < dv->n; i++) {
				json_obj_begin(j, NULL);
				json_str(j, "name", details_field_name(g, i));
				u64(j, "value", dv->v[i]);
				json_obj_end(j);
			}
			json_arr_end(j);
		} else {
			json_null(j, "counters");
			json_str(j, "counters_error", dv->why[0] ? dv->why : "not read");
		}
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* Whether c holds the details text of a sample like cs: the fields
 * counters_json_details reads. */
static bool det_same(const struct det_json_cache *c, const struct counter_set *cs)
{
	if (!c->have || c->valid != cs->valid || c->source != cs->source ||
	    strcmp(c->no_mad, cs->no_mad))
		return false;
	for (int g = 0; g < DET_GROUPS; g++) {
		const struct det_values *a = &c->det.g[g], *b = &cs->det.g[g];

		if (a->asked != b->asked || a->valid != b->valid || a->n != b->n ||
		    a->n < 0 || a->n > DET_MAX_FIELDS || strcmp(a->why, b->why) ||
		    memcmp(a->v, b->v, (size_t)a->n * sizeof(a->v[0])))
			return false;
	}
	return true;
}

static void details_fn(struct json *j, const void *cs)
{
	counters_json_details(j, cs);
}

void counters_json_details_cached(struct json *j, const struct counter_set *cs,
				  struct det_json_cache *c)
{
	if (!c) {
		counters_json_details(j, cs);
		return;
	}
	if (det_same(c, cs) && json_piece_put(j, &c->p))
		return;
	json_piece_make(j, &c->p, details_fn, cs);
	c->have = true;
	c->valid = cs->valid;
	c->source = cs->source;
	memcpy(c->no_mad, cs->no_mad, sizeof(c->no_mad));
	c->det = cs->det;
}

void counters_json_details_cache_free(struct det_json_cache *c)
{
	json_piece_free(&c->p);
	c->have = false;
}
