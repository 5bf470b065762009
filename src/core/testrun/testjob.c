// SPDX-License-Identifier: MIT
/* A test run on a worker thread for the console (base/worker: thread,
 * lock, wake descriptor). The worker owns a work copy of the view and
 * publishes it under the lock; the UI copies the published one out. */
#include "config.h"
#include "core/testrun/testjob.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/base/parse.h"
#include "core/base/worker.h"
#include "core/testrun/perftest_client.h"
#include "core/testrun/tcptest.h"
#include "core/counters/testctr.h"
#include "core/base/clock.h"
#include "core/base/hmacdl.h"

struct testjob {
	struct worker wk;
	atomic_int cancel;
	atomic_int finished;
	char peer[128], device[64], secret[256];
	struct tj_opts o;
	struct tj_view pub;	/* under lock */
	/* the worker's own */
	struct tj_view w;
	struct client_result res;
	double t0, sec_start, last_ctr;
	uint64_t sec_bytes, sec_msgs, last_bytes, last_msgs;
	uint64_t last_size;
	uint32_t peer_msgs, peer_t_ms;
	bool have_base;
	struct testctr base;
	uint64_t sizes[TESTRUN_MAX_PHASES];
};

static void publish(struct testjob *j)
{
	if (atomic_load(&j->cancel) && (j->w.state == TJ_RUNNING || j->w.state == TJ_CONNECTING))
		j->w.state = TJ_CANCELLING;
	j->w.t_s = mono_s() - j->t0;
	worker_lock(&j->wk);
	j->w.gen = j->pub.gen + 1;
	j->pub = j->w;
	worker_unlock(&j->wk);
	worker_notify(&j->wk);
}

/* New counter deltas of one end into side: rates over dt, and the time
 * each counter last rose. */
static void side_update(struct tj_side *side, const struct testctr *d, double t, double dt)
{
	struct tj_side old = *side;

	side->n = 0;
	for (uint32_t i = 0; i < d->n && side->n < PROTO_MAX_COUNTERS; i++) {
		struct tj_ctr *c = &side->c[side->n++];
		const struct tj_ctr *was = NULL;

		for (uint32_t k = 0; k < old.n; k++)
			if (!strcmp(old.c[k].name, d->c[i].name)) {
				was = &old.c[k];
				break;
			}
		snprintf(c->name, sizeof(c->name), "%s", d->c[i].name);
		c->delta = d->c[i].delta;
		c->rose_at = was ? was->rose_at : -1;
		c->rate_per_s = 0;
		if (was && c->delta > was->delta) {
			c->rose_at = t;
			if (dt > 0)
				c->rate_per_s = (uint64_t)((double)(c->delta - was->delta) / dt);
		} else if (!was && c->delta) {
			c->rose_at = t;
		}
	}
	side->valid = true;
}

static void take_facts(struct testjob *j)
{
	if (j->w.have_facts)
		return;
	j->w.info = j->res.info;
	j->w.local = j->res.local;
	j->w.peer_facts = j->res.peer;
	j->w.have_facts = true;
	j->w.nphases = client_sizes(&j->o.c.p, j->o.c.p.conn == CONN_UD ? j->res.info.mtu : 0,
				    j->sizes, TESTRUN_MAX_PHASES);
}

/* Closes per-second buckets that are due. */
static void seconds(struct testjob *j, double now)
{
	double dt = now - j->sec_start;

	float g, m;
	int whole = (int)dt;

	if (dt < 1.0)
		return;
	/* a late report (a busy host) spans several seconds: each gets the
	 * mean of the span, so the graph keeps one bar per second */
	g = (float)((double)j->sec_bytes * 8.0 / dt / 1e9);
	m = (float)((double)j->sec_msgs / dt / 1e6);
	for (int k = 0; k < whole && j->w.nsec < TJ_SECONDS; k++) {
		j->w.gbps[j->w.nsec] = g;
		j->w.mpps[j->w.nsec] = m;
		j->w.nsec++;
	}
	if (g > j->w.peak_gbps)
		j->w.peak_gbps = g;
	j->sec_start = now;
	j->sec_bytes = j->sec_msgs = 0;
}

static void counters(struct testjob *j, double now)
{
	const char *dev = j->res.info.device;
	int port = j->res.info.ib_port;

	if (!dev[0])
		return;
	if (!j->have_base) {
		testctr_sample(&j->base, dev, port);
		j->have_base = true;
		j->last_ctr = now;
		return;
	}
	if (now - j->last_ctr >= 1.0) {
		struct testctr cur, d;

		testctr_sample(&cur, dev, port);
		testctr_delta(&j->base, &cur, &d);
		side_update(&j->w.lctr, &d, now - j->t0, now - j->last_ctr);
		j->last_ctr = now;
	}
	if (j->res.peer_ctr_msgs != j->peer_msgs) {
		/* the agent stamps each message: rates over its own clock */
		double dt = j->peer_msgs && j->res.peer_ctr_t_ms > j->peer_t_ms ?
				    (j->res.peer_ctr_t_ms - j->peer_t_ms) / 1000.0 : 0;

		side_update(&j->w.pctr, &j->res.peer_ctr, now - j->t0, dt);
		j->peer_msgs = j->res.peer_ctr_msgs;
		j->peer_t_ms = j->res.peer_ctr_t_ms;
	}
}

/* The engine's progress, on the worker thread, every 250 ms. */
static void on_progress(void *arg, const struct eng_progress *p)
{
	struct testjob *j = arg;
	double now = mono_s();
	uint64_t db, dm;

	take_facts(j);
	if (p->size != j->last_size || p->msgs < j->last_msgs) {	/* a new phase */
		j->last_bytes = j->last_msgs = 0;
		j->last_size = p->size;
		for (int i = 0; i < j->w.nphases; i++)
			if (j->sizes[i] == p->size)
				j->w.phase = i;
	}
	db = p->bytes - j->last_bytes;
	dm = p->msgs - j->last_msgs;
	j->last_bytes = p->bytes;
	j->last_msgs = p->msgs;
	j->sec_bytes += db;
	j->sec_msgs += dm;
	j->w.bytes_total += db;
	j->w.state = TJ_RUNNING;
	j->w.size = p->size;
	j->w.msgs = p->msgs;
	j->w.msgs_goal = j->o.c.p.duration_ms ? 0 : j->o.c.p.iters * j->o.c.p.qps;
	j->w.now_gbps = p->interval_gbps;
	j->w.now_mpps = p->interval_mpps;
	if (p->lat)
		j->w.lat = *p->lat;
	seconds(j, now);
	counters(j, now);
	publish(j);
}

static void on_tcp_progress(void *arg, double t_s, double gbps, uint64_t bytes)
{
	struct testjob *j = arg;
	double now = mono_s();

	(void)t_s;
	j->sec_bytes += bytes - j->last_bytes;
	j->w.bytes_total = bytes;
	j->last_bytes = bytes;
	j->w.state = TJ_RUNNING;
	j->w.now_gbps = gbps;
	seconds(j, now);
	publish(j);
}

static void tj_main(struct worker *wk, void *arg)
{
	struct testjob *j = arg;
	char err[ENG_ERR] = "";

	(void)wk;
	int st;

	j->t0 = j->sec_start = mono_s();
	j->w.state = TJ_CONNECTING;
	publish(j);
	if (j->o.kind == TJ_KIND_TCP) {
		struct tcptest_opts t = { .peer = j->o.c.peer, .agent_port = j->o.c.tcp_port,
					  .secret = j->o.c.secret, .seconds = j->o.tcp_seconds,
					  .timeout_ms = j->o.c.timeout_ms, .progress = on_tcp_progress,
					  .arg = j, .cancel = &j->cancel };
		struct tcptest_result r;

		st = tcptest_run(&t, &r, err, sizeof(err));
		if (!st) {
			j->w.tcp_gbps = r.gbps;
			j->w.tcp_bytes = r.bytes;
			j->w.tcp_s = r.seconds;
		}
	} else {
		j->o.c.progress = on_progress;
		j->o.c.progress_arg = j;
		j->o.c.cancel = &j->cancel;
		st = j->o.c.perftest ? ptclient_run(&j->o.c, &j->res, err, sizeof(err))
				     : client_run(&j->o.c, &j->res, err, sizeof(err));
		if (j->res.info.device[0])
			take_facts(j);
		/* the whole run's deltas, as the command line reports them */
		if (!st) {
			side_update(&j->w.lctr, &j->res.local_ctr, mono_s() - j->t0, 0);
			side_update(&j->w.pctr, &j->res.peer_ctr, mono_s() - j->t0, 0);
		}
		j->w.res = j->res;
	}
	{	/* the last, partial second, when long enough to mean something */
		double dt = mono_s() - j->sec_start;

		if (j->sec_bytes && dt >= 0.2 && j->w.nsec < TJ_SECONDS) {
			j->w.gbps[j->w.nsec] = (float)((double)j->sec_bytes * 8.0 / dt / 1e9);
			j->w.mpps[j->w.nsec] = (float)((double)j->sec_msgs / dt / 1e6);
			j->w.nsec++;
		}
	}
	j->w.status = st;
	if (st && atomic_load(&j->cancel)) {
		j->w.state = TJ_CANCELLED;
	} else if (st) {
		j->w.state = TJ_FAILED;
		snprintf(j->w.err, sizeof(j->w.err), "%s", err);
	} else {
		j->w.state = TJ_DONE;
	}
	atomic_store(&j->finished, 1);
	publish(j);
}

struct testjob *testjob_start(const struct tj_opts *o, char *err, size_t errlen)
{
	struct testjob *j = calloc(1, sizeof(*j));

	if (!j) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	j->o = *o;
	snprintf(j->peer, sizeof(j->peer), "%s", o->c.peer ? o->c.peer : "");
	j->o.c.peer = j->peer;
	if (o->c.device) {
		snprintf(j->device, sizeof(j->device), "%s", o->c.device);
		j->o.c.device = j->device;
	}
	if (o->c.secret) {
		snprintf(j->secret, sizeof(j->secret), "%s", o->c.secret);
		j->o.c.secret = j->secret;
	}
	j->w.o = j->o;
	j->w.o.c.secret = NULL;
	j->w.o.c.peer = NULL;
	j->w.o.c.device = NULL;
	snprintf(j->w.peer, sizeof(j->w.peer), "%s", j->peer);
	j->w.nphases = 1;
	if (worker_init(&j->wk, NULL, "test", err, errlen)) {
		free(j);
		return NULL;
	}
	/* the worker runs with every signal blocked: they stay with the UI */
	if (worker_start(&j->wk, tj_main, j, "test", err, errlen)) {
		worker_stop(&j->wk);
		free(j);
		return NULL;
	}
	return j;
}

void testjob_cancel(struct testjob *j)
{
	if (!j)
		return;
	atomic_store(&j->cancel, 1);
	worker_lock(&j->wk);
	if (j->pub.state == TJ_RUNNING || j->pub.state == TJ_CONNECTING) {
		j->pub.state = TJ_CANCELLING;
		j->pub.gen++;
	}
	worker_unlock(&j->wk);
	worker_notify(&j->wk);
}

_Static_assert(offsetof(struct tj_view, gen) == 0, "worker_take_view reads gen first");

bool testjob_get(struct testjob *j, struct tj_view *v)
{
	return worker_take_view(&j->wk, v, &j->pub, sizeof(*v));
}

int testjob_fd(const struct testjob *j)
{
	return worker_fd(&j->wk);
}

void testjob_drain(struct testjob *j)
{
	worker_drain(&j->wk);
}

bool testjob_finished(struct testjob *j)
{
	return atomic_load(&j->finished) != 0;
}

void testjob_stop(struct testjob *j)
{
	if (!j)
		return;
	atomic_store(&j->cancel, 1);
	worker_stop(&j->wk);
	memset(j->secret, 0, sizeof(j->secret));
	free(j);
}

void testjob_params(const struct tj_choice *t, struct proto_params *p)
{
	memset(p, 0, sizeof(*p));
	p->kind = (uint8_t)t->kind;
	p->op = (uint8_t)(t->op >= 0 ? t->op : t->kind == KIND_RATE ? OP_SEND : OP_WRITE);
	p->conn = (uint8_t)t->conn;
	p->flags = (t->bidir ? PARAM_BIDIR : 0) | (t->sweep ? PARAM_SWEEP : 0);
	p->qps = (uint32_t)(t->qps ? t->qps : t->kind == KIND_RATE ? 4 : 1);
	/* perftest's defaults, so numbers compare */
	if (t->size > 0)
		p->size = (uint64_t)t->size;
	else if (t->accept && t->kind == KIND_BW && !t->sweep)
		p->size = 1u << 20;	/* acceptance judges large messages */
	else if (t->sweep)
		p->size = 8u << 20;
	else
		p->size = t->kind == KIND_BW ? 65536 : t->kind == KIND_LAT ? 2 : 4;
	p->iters = t->iters ? (uint64_t)t->iters :
		   t->kind == KIND_BW && p->op == OP_WRITE ? 5000 : 1000;
	p->duration_ms = (uint32_t)(t->duration_s * 1000 + 0.5);
	p->tx_depth = (uint32_t)(t->tx_depth > 0 ? t->tx_depth : t->kind == KIND_LAT ? 1 : 128);
	p->inline_size = (uint32_t)(t->inline_size >= 0 ? t->inline_size : p->op == OP_READ ? 0 : 220);
	if (t->cq_mod > 0)
		p->cq_mod = (uint32_t)t->cq_mod;
	else
		/* perftest: moderation off above 8 KiB, except UD and sweeps */
		p->cq_mod = t->kind == KIND_LAT ||
			    (p->size > 8192 && !t->sweep && p->conn != CONN_UD) ? 1 : 100;
	if (p->cq_mod > p->tx_depth)
		p->cq_mod = p->tx_depth;
	p->counter_ms = 1000;
}

int testjob_check(const struct proto_params *p, char *err, size_t errlen)
{
	char why[200];

	if (p->kind == KIND_LAT && p->qps != 1) {
		snprintf(err, errlen, "latency tests use one QP — drop --qps");
		return -1;
	}
	if (p->duration_ms && (p->flags & PARAM_BIDIR) && p->op == OP_SEND) {
		snprintf(err, errlen, "a bidirectional send test runs by --iters, not --duration — give --iters");
		return -1;
	}
	if (p->conn == CONN_UD && p->op != OP_SEND) {
		snprintf(err, errlen, "UD carries send only — give --op send (or drop --connection UD)");
		return -1;
	}
	if (proto_check_params(p, why, sizeof(why))) {
		snprintf(err, errlen, "bad test parameters: %s — see ibconsole --help", why);
		return -1;
	}
	return 0;
}

/* ---- records ---- */

static int state_dir(char *out, size_t len, const char *sub)
{
	const char *st = getenv("XDG_STATE_HOME"), *home = getenv("HOME");

	if (st && *st)
		snprintf(out, len, "%s/ibconsole%s", st, sub);
	else if (home && *home)
		snprintf(out, len, "%s/.local/state/ibconsole%s", home, sub);
	else
		return -1;
	return 0;
}

int testjob_record_dir(char *out, size_t len)
{
	const char *dir = getenv("IBCONSOLE_RECORD_DIR");

	if (dir && *dir) {
		snprintf(out, len, "%s", dir);
		return 0;
	}
	return state_dir(out, len, "/records");
}

static int mkdirs(char *path)
{
	for (char *s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*s = '/';
			return -1;
		}
		*s = '/';
	}
	return 0;
}

int testjob_record_path(int kind, int op, char *out, size_t len)
{
	char dir[400], stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (testjob_record_dir(dir, sizeof(dir)))
		return -1;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(out, len, "%s/test-%s-%s-%s-%d.json", dir,
		 kind == TJ_KIND_TCP ? "tcp" : eng_kind_name(kind), kind == TJ_KIND_TCP ? "stream" : eng_op_name(op),
		 stamp, (int)getpid());
	return mkdirs(out);
}

int testjob_load_record(const char *path, struct record_saved *s, char *why, size_t whylen)
{
	size_t n = 0;
	char *buf = parse_slurp(path, 4 << 20, &n, why, whylen);
	int rc = buf ? record_parse(buf, n, s, why, whylen) : -1;

	free(buf);
	return rc;
}

static bool same_test(const struct proto_params *a, const struct proto_params *b)
{
	return a->kind == b->kind && a->op == b->op && a->conn == b->conn && a->size == b->size &&
	       a->qps == b->qps && a->flags == b->flags;
}

static int by_name_desc(const void *a, const void *b)
{
	return -strcmp(((const struct tj_record_ref *)a)->name, ((const struct tj_record_ref *)b)->name);
}

int testjob_find_records(const struct proto_params *p, const char *peer, const char *skip,
			 struct tj_record_ref *out, int max)
{
	char dir[400];
	struct dirent *de;
	DIR *d;
	int n = 0;
	struct record_saved *s = calloc(1, sizeof(*s));

	if (!s || testjob_record_dir(dir, sizeof(dir)) || !(d = opendir(dir))) {
		free(s);
		return 0;
	}
	while ((de = readdir(d)) && n < max) {
		char path[512], why[200];
		size_t l = strlen(de->d_name);

		if (strncmp(de->d_name, "test-", 5) || l < 6 || strcmp(de->d_name + l - 5, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (skip && !strcmp(path, skip))
			continue;
		memset(s, 0, sizeof(*s));
		if (testjob_load_record(path, s, why, sizeof(why)) || !s->have_params ||
		    !same_test(&s->p, p) || strcmp(s->peer, peer) || !s->nphases)
			continue;
		snprintf(out[n].path, sizeof(out[n].path), "%s", path);
		/* test-KIND-OP-STAMP-PID.json: the stamp sorts by time */
		snprintf(out[n].name, sizeof(out[n].name), "%s", de->d_name);
		n++;
	}
	closedir(d);
	free(s);
	/* one test, one kind and op: the names sort by their stamp */
	qsort(out, (size_t)n, sizeof(out[0]), by_name_desc);
	return n;
}

/* ---- recent peers ---- */

int testjob_peers_load(char peers[][128], int max)
{
	char path[512], line[256];
	FILE *f;
	int n = 0;

	if (state_dir(path, sizeof(path), "/peers"))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n \t")] = '\0';
		if (line[0])
			snprintf(peers[n++], 128, "%.127s", line);
	}
	fclose(f);
	return n;
}

int testjob_peers_remember(const char *peer)
{
	char peers[TJ_MAX_PEERS][128], path[512], tmp[520];
	int n = testjob_peers_load(peers, TJ_MAX_PEERS);
	FILE *f;

	if (!peer || !peer[0] || state_dir(path, sizeof(path), "/peers") || mkdirs(path))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "%s\n", peer);
	for (int i = 0, kept = 1; i < n && kept < TJ_MAX_PEERS; i++)
		if (strcmp(peers[i], peer)) {
			fprintf(f, "%s\n", peers[i]);
			kept++;
		}
	if (fclose(f) || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

void testjob_peer_host(const char *node_desc, char *out, size_t len)
{
	size_t i = 0;

	while (*node_desc == ' ' || *node_desc == '\t')
		node_desc++;
	while (node_desc[i] && node_desc[i] != ' ' && node_desc[i] != '\t' && i + 1 < len) {
		out[i] = node_desc[i];
		i++;
	}
	out[i] = '\0';
}

int testjob_read_secret(const char *path, char *buf, size_t len, char *err, size_t errlen)
{
	char why[96];
	FILE *f = parse_fopen(path, why, sizeof(why));
	int r = f ? parse_line(f, buf, len) : 0;

	if (f)
		fclose(f);
	if (r <= 0) {
		snprintf(err, errlen, "cannot read the secret file %s: %s — give a readable file whose first line is the secret",
			 path, !f ? why : r == PARSE_LINE_NUL ? "its first line holds a NUL byte" :
			 r < 0 ? "its first line is too long" : "empty");
		return -1;
	}
	buf[strcspn(buf, "\r\n")] = '\0';
	if (!buf[0]) {
		snprintf(err, errlen, "the secret file %s has an empty first line — put the secret there", path);
		return -1;
	}
	/* a secret is only ever used through nettle's HMAC: say now when
	 * it cannot be loaded, not at the first handshake */
	return hmacdl_load(err, errlen);
}
