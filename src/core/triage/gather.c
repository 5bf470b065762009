// SPDX-License-Identifier: MIT
/* Triage evidence gathering: what the seven steps judge, read from the
 * snapshot, the process's limits, sysfs / procfs, a one-hop discovery of
 * the local link, the config file and test runs against the peer's agent. */
#include "config.h"
#include "core/triage/gather.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>
#include <sys/resource.h>

#include "core/agent/client.h"
#include "core/base/spawn.h"
#include "core/triage/envtools.h"
#include "core/base/sysfs.h"
#include "core/base/umadlock.h"
#include "core/counters/reader.h"
#include "core/engine/engine.h"

/* ---- host limits and settings ---- */

static bool cap_ipc_lock(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long caps;
	bool yes = false;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			yes = caps & (1ull << 14);	/* CAP_IPC_LOCK */
	if (f)
		fclose(f);
	return yes;
}

static struct proto_params run_params(unsigned run, double duration_s)
{
	struct proto_params p = {
		.kind = KIND_BW, .op = OP_WRITE, .conn = CONN_RC,
		.qps = run == TRI_RUN_BW1 ? 1 : TRI_LOAD_QPS,
		.flags = run == TRI_RUN_LOAD ? PARAM_BIDIR : 0,
		.tx_depth = 128, .inline_size = 0, .cq_mod = 1,
		.duration_ms = (uint32_t)((duration_s > 0 ? duration_s : 2.0) * 1000 + 0.5),
		.counter_ms = 1000, .size = TRI_RUN_SIZE, .iters = 1000,
	};

	return p;
}

static void memlock_read(struct tri_memlock *m)
{
	struct rlimit rl;
	struct proto_params p = run_params(TRI_RUN_LOAD, 0);

	memset(m, 0, sizeof(*m));
	m->need_bytes = eng_mem_need(&p);
	if (getrlimit(RLIMIT_MEMLOCK, &rl)) {
		snprintf(m->why, sizeof(m->why), "getrlimit: %s", strerror(errno));
		return;
	}
	m->valid = true;
	m->unlimited = rl.rlim_cur == RLIM_INFINITY;
	m->limit_bytes = m->unlimited ? 0 : (uint64_t)rl.rlim_cur;
	m->cap_ipc_lock = cap_ipc_lock();
}

struct gov_walk {
	struct tri_hostenv *h;
};

static void gov_one(const char *name, void *arg)
{
	struct tri_hostenv *h = ((struct gov_walk *)arg)->h;
	char buf[32];

	if (strncmp(name, "cpu", 3) || !isdigit((unsigned char)name[3]))
		return;
	if (sysfs_read(buf, sizeof(buf), "/sys/devices/system/cpu/%s/cpufreq/scaling_governor", name))
		return;
	h->gov_cpus++;
	if (strcmp(buf, "performance"))
		h->gov_other++;
	if (!h->governor[0] || strcmp(buf, "performance"))
		snprintf(h->governor, sizeof(h->governor), "%s", buf);
}

static void governor_read(struct tri_hostenv *h)
{
	struct gov_walk w = { h };
	int n = sysfs_list("/sys/devices/system/cpu", gov_one, &w);

	if (!h->gov_cpus)
		snprintf(h->governor_why, sizeof(h->governor_why), "%s",
			 n < 0 ? "no CPU list in sysfs" :
			 "no cpufreq governor in sysfs (a virtual machine, or no frequency scaling driver)");
}

/* irqbalance by process name, as pgrep would find it. */
static int irqbalance_running(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;

	if (!d)
		return -1;
	while (!found && (e = readdir(d))) {
		char path[300], comm[64];
		FILE *f;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "irqbalance", 10))
			found = 1;
		fclose(f);
	}
	closedir(d);
	return found;
}

/* ---- NetworkManager and the firewall, from their own tools ---- */

#define TOOL_TIMEOUT_S 5.0

/* The tool's path in the usual system directories, or NULL. */
static const char *tool_path(const char *name, char *buf, size_t len)
{
	static const char *const dirs[] = { "/usr/sbin", "/usr/bin", "/sbin", "/bin" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		snprintf(buf, len, "%s/%s", dirs[i], name);
		if (!access(buf, X_OK))
			return buf;
	}
	return NULL;
}

/* Runs argv to its end (bounded by TOOL_TIMEOUT_S); its exit status, or
 * -1 with the reason in s->out. */
static int tool_run(struct spawn *s, char *const argv[])
{
	int rc = -1;

	if (spawn_start(s, argv, TOOL_TIMEOUT_S) < 0)
		return -1;
	while (!spawn_poll(s, &rc)) {
		struct pollfd p = { .fd = s->fd, .events = POLLIN };

		poll(&p, 1, 100);
	}
	return rc;
}

static void nm_probe(struct tri_hostenv *env, const char *netdev)
{
	char path[64];
	struct spawn s;
	int rc;

	env->nm = -1;
	if (!netdev[0]) {
		env->nm = 0;
		snprintf(env->nm_line, sizeof(env->nm_line), "NetworkManager: no netdev to ask about");
		return;
	}
	if (!tool_path("nmcli", path, sizeof(path))) {
		/* its run directory exists while the daemon runs */
		env->nm = 0;
		snprintf(env->nm_line, sizeof(env->nm_line), "NetworkManager %s",
			 access("/run/NetworkManager", F_OK) ? "not running (no nmcli, no /run/NetworkManager)" :
			 "present (/run/NetworkManager) but no nmcli to ask");
		if (!access("/run/NetworkManager", F_OK))
			env->nm = -1;
		return;
	}
	char *argv[] = { path, "-t", "-f", "DEVICE,STATE", "device", NULL };

	rc = tool_run(&s, argv);
	if (rc == 8 || (rc && strstr(s.out, "not running"))) {
		env->nm = 0;
		snprintf(env->nm_line, sizeof(env->nm_line), "NetworkManager not running (nmcli)");
	} else if (rc) {
		snprintf(env->nm_line, sizeof(env->nm_line), "NetworkManager: nmcli failed (%d): %.120s", rc, s.out);
	} else {
		env->nm = env_judge_nmcli(s.out, netdev, env->nm_line, sizeof(env->nm_line));
	}
}

static void fw_probe(struct tri_hostenv *env)
{
	char path[64], why[160] = "";
	struct spawn s;
	int rc;

	env->firewall = -1;
	if (!tool_path("nft", path, sizeof(path))) {
		snprintf(env->fw_line, sizeof(env->fw_line),
			 "could not read the firewall: no nft on this host — check that UDP %d (RoCE v2) is accepted",
			 ROCE_V2_UDP_PORT);
		return;
	}
	char *argv[] = { path, "-j", "list", "ruleset", NULL };

	rc = tool_run(&s, argv);
	if (rc) {
		snprintf(env->fw_line, sizeof(env->fw_line), "could not read the firewall (needs root): nft %s%.100s",
			 rc < 0 ? "" : "failed: ", s.out);
		return;
	}
	if (s.n + 1 >= sizeof(s.out)) {
		snprintf(env->fw_line, sizeof(env->fw_line),
			 "could not read the firewall: its ruleset is over %d bytes, not judged — check UDP %d by hand (nft list ruleset)",
			 SPAWN_OUT - 1, ROCE_V2_UDP_PORT);
		return;
	}
	env->firewall = env_judge_nft(s.out, s.n, env->fw_line, sizeof(env->fw_line), why, sizeof(why));
	if (env->firewall < 0)
		snprintf(env->fw_line, sizeof(env->fw_line), "could not read the firewall: nft's ruleset: %.160s", why);
}

const struct tri_probes tri_probes_real = { nm_probe, fw_probe };

/* DCB / trust where a driver puts them in sysfs; mainline drivers keep
 * them behind dcbnl, which the tool named in dcb_why reads. */
static void dcb_read(struct tri_evidence *ev)
{
	const char *nd = ev->local.netdev;
	char trust[32], pfc[64];
	bool t, p;

	if (!nd[0]) {
		snprintf(ev->dcb_why, sizeof(ev->dcb_why), "no netdev to read DCB settings from");
		return;
	}
	t = !sysfs_read(trust, sizeof(trust), "/sys/class/net/%s/qos/trust", nd);
	p = !sysfs_read(pfc, sizeof(pfc), "/sys/class/net/%s/qos/pfc", nd);
	if (t || p)
		snprintf(ev->dcb, sizeof(ev->dcb), "%s: trust %s, PFC %s", nd, t ? trust : "?", p ? pfc : "?");
	else
		snprintf(ev->dcb_why, sizeof(ev->dcb_why),
			 "%s exposes no DCB settings in sysfs: read them with 'dcb pfc show dev %s' or 'mlnx_qos -i %s'",
			 nd, nd, nd);
}

/* ---- the other end of the local link (InfiniBand) ---- */

static void link_read(struct tri_evidence *ev, const struct tri_opts *o)
{
	struct fab_opts fo = { .ca = ev->local.dev, .ca_port = ev->local.port, .max_hops = 1,
			       .timeout_ms = 500, .retries = 2, .max_smps = 8 };
	struct tri_link *l = &ev->link;
	char err[320];
	struct fabric *f;
	int me;

	if (strcmp(ev->local.link_layer, "InfiniBand")) {
		snprintf(l->why, sizeof(l->why), "RoCE: the other end is an Ethernet switch port");
		return;
	}
	if (!sysfs_is_real_root() || o->snap->no_smp) {
		snprintf(l->why, sizeof(l->why), "%s",
			 o->snap->no_smp ? "SMP queries disabled (--no-smp)" :
			 "a fixture tree: no SMP access to the other end");
		return;
	}
	if (ev->local.state < 2) {
		snprintf(l->why, sizeof(l->why), "the port is down: no link to read");
		return;
	}
	f = fabric_discover(&fo, err, sizeof(err));
	if (!f) {
		/* A query lost or answered late (an SM sweeping, a loaded
		 * host) fails all of libibnetdisc's discovery: once more,
		 * with libibnetdisc's own time-out and retries. */
		fo.timeout_ms = 1000;
		fo.retries = 3;
		f = fabric_discover(&fo, err, sizeof(err));
	}
	if (!f) {
		snprintf(l->why, sizeof(l->why), "one-hop discovery failed: %.200s", err);
		return;
	}
	me = fabric_find_port(f, ev->local.node_guid, ev->local.port);
	if (me < 0 || f->ports[me].remote < 0) {
		snprintf(l->why, sizeof(l->why), "one-hop discovery found nothing behind %s/%d",
			 ev->local.dev, ev->local.port);
	} else {
		l->valid = true;
		l->local = f->ports[me];
		l->peer = f->ports[f->ports[me].remote];
		fabric_port_label(f, me, l->local_name, sizeof(l->local_name));
		fabric_port_label(f, f->ports[me].remote, l->peer_name, sizeof(l->peer_name));
	}
	fabric_free(f);
}

/* ---- config ---- */

/* The number of key (lo < v < hi) in the config file; 0 when absent, -1
 * with err on a bad value. */
static double config_num(const char *config, const char *key, double lo, double hi,
			 const char *what, char *origin, size_t len, char *err, size_t errlen)
{
	char pathbuf[512], line[256];
	const char *path = NULL;
	double v = 0;
	int ln = 0;
	FILE *f;

	if (config && *config) {
		path = config;
	} else {
		const char *e = getenv("IBCONSOLE_CONFIG"), *x = getenv("XDG_CONFIG_HOME"),
			   *h = getenv("HOME");

		if (e && *e)
			path = e;
		else if (x && *x)
			snprintf(pathbuf, sizeof(pathbuf), "%s/ibconsole/config", x), path = pathbuf;
		else if (h && *h)
			snprintf(pathbuf, sizeof(pathbuf), "%s/.config/ibconsole/config", h), path = pathbuf;
	}
	if (!path || !(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *k = line, *eq, *end;

		ln++;
		while (isspace((unsigned char)*k))
			k++;
		if (strncmp(k, key, strlen(key)))
			continue;
		eq = strchr(k, '=');
		if (!eq)
			continue;
		v = strtod(eq + 1, &end);
		while (isspace((unsigned char)*end))
			end++;
		if (end == eq + 1 || (*end && *end != '#') || !(v > lo && v < hi)) {
			snprintf(err, errlen, "%s:%d: %s is not %s — fix the line",
				 path, ln, key, what);
			fclose(f);
			return -1;
		}
		if (origin)
			snprintf(origin, len, "config %s:%d", path, ln);
	}
	fclose(f);
	return v;
}

double tri_expected_rate(const char *config, char *origin, size_t len, char *err, size_t errlen)
{
	return config_num(config, "triage.expected_rate_gbps", 0, 100000, "a rate in Gb/s",
			  origin, len, err, errlen);
}

/* ---- both ends' error counters over the triage's window ---- */

/* The first sample: the port under triage and, where the snapshot knows
 * it, the other end of its link (its PMA through this port). */
static void errors_begin(struct tri_evidence *ev, const struct snapshot *s,
			 const struct port_info *pick, struct ctr_reader *rd,
			 struct ctr_target *tl, struct ctr_target *tp)
{
	struct ctr_target t[CTRS_MAX_TARGETS];
	int n = reader_targets_local(s, t, CTRS_MAX_TARGETS);
	struct tri_errors *e = &ev->errors;

	for (int i = 0; i < n; i++)
		if (!strcmp(t[i].dev, pick->dev) && t[i].port == pick->port)
			*tl = t[i], e->local_valid = true;
	if (!e->local_valid || !rd) {
		snprintf(e->why, sizeof(e->why), "%s", rd ? "the port's counters have no reader" :
			 "out of memory");
		e->local_valid = false;
		return;
	}
	e->t0 = counters_now();
	umadlock_span_begin();	/* umad2sim: one umad user at a time */
	reader_read(rd, tl, &e->local_prev);
	e->local_valid = e->local_prev.valid;
	if (!e->local_valid)
		snprintf(e->why, sizeof(e->why), "%s", e->local_prev.why);
	if (!reader_target_peer(pick, tp)) {
		reader_read(rd, tp, &e->peer_prev);
		e->peer_valid = e->peer_prev.valid;
		snprintf(e->peer_label, sizeof(e->peer_label), "%s", tp->label);
	}
	if (!e->peer_valid)
		snprintf(e->peer_why, sizeof(e->peer_why), "%s",
			 e->peer_prev.why[0] ? e->peer_prev.why : "no other end with a LID known");
	reader_release(rd);
	umadlock_span_end();
}

/* The second sample, window_s after the first. */
static void errors_end(struct tri_evidence *ev, struct ctr_reader *rd, double window_s,
		       const struct ctr_target *tl, const struct ctr_target *tp)
{
	struct tri_errors *e = &ev->errors;
	double until = e->t0 + window_s;
	struct timespec ts;

	if (!e->local_valid)
		return;
	while (counters_now() < until) {
		double d = until - counters_now();

		ts.tv_sec = (time_t)d;
		ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
	}
	umadlock_span_begin();
	reader_read(rd, tl, &e->local_cur);
	e->local_valid = e->local_cur.valid;
	if (e->peer_valid) {
		reader_read(rd, tp, &e->peer_cur);
		e->peer_valid = e->peer_cur.valid;
	}
	e->span_s = counters_now() - e->t0;
	reader_release(rd);
	umadlock_span_end();
}

/* ---- local ---- */

static bool wanted(const struct snap_opts *o, const struct port_info *p)
{
	return (!o->device || !strcmp(o->device, p->dev)) && (!o->port || o->port == p->port);
}

/* The evidence's header: when, where, which peer and GID were asked. */
static void evidence_begin(struct tri_evidence *ev, const struct tri_opts *o)
{
	time_t now = time(NULL);
	struct tm tm;

	memset(ev, 0, sizeof(*ev));
	ev->gid_given = o->gid_index;
	ev->env.irqbalance = -1;
	gmtime_r(&now, &tm);
	strftime(ev->time, sizeof(ev->time), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(ev->peer, sizeof(ev->peer), "%s", o->peer ? o->peer : "");
	snprintf(ev->sysfs_root, sizeof(ev->sysfs_root), "%s", sysfs_root_label());
	ev->line_gbps = o->line_gbps > 0 ? o->line_gbps : 0;
	snprintf(ev->line_origin, sizeof(ev->line_origin), "%s", o->line_origin);
}

/* The port judged: the first wanted one, an active one before others;
 * NULL with err said when -d / -i match none. */
static const struct port_info *pick_port(const struct snapshot *s, const struct snap_opts *o,
					 char *err, size_t errlen)
{
	const struct port_info *pick = NULL;

	for (int i = 0; i < s->nports; i++)
		if (wanted(o, &s->ports[i]) &&
		    (!pick || (pick->state != 4 && s->ports[i].state == 4)))
			pick = &s->ports[i];
	if (pick)
		return pick;
	if (o->device && o->port)
		snprintf(err, errlen, "port %s/%d not found — list ports with `ibconsole snapshot` and pick one with -d / -i",
			 o->device, o->port);
	else if (o->device)
		snprintf(err, errlen, "device %s not found — list devices with `ibconsole snapshot` or pick another with -d",
			 o->device);
	else
		snprintf(err, errlen, "no device has a port %d — list ports with `ibconsole snapshot` or pick another with -i",
			 o->port);
	return NULL;
}

/* Every port's state, for the environment check. */
static void port_states(struct tri_evidence *ev, const struct snapshot *s,
			const struct port_info *pick)
{
	for (int i = 0; i < s->nports && ev->nports < TRI_MAX_PORTS; i++) {
		const struct port_info *p = &s->ports[i];
		struct tri_portstate *q = &ev->ports[ev->nports++];

		snprintf(q->dev, sizeof(q->dev), "%s", p->dev);
		q->port = p->port;
		q->state = p->state;
		q->phys_state = p->phys_state;
		snprintf(q->link_layer, sizeof(q->link_layer), "%s", p->link_layer);
		snprintf(q->netdev, sizeof(q->netdev), "%s", p->netdev);
		q->under_test = p == pick;
	}
}

/* The host around the port: limits, governor, irqbalance, driver, the
 * network manager and firewall, hw counters, DCB, the link's other end. */
static void host_read(struct tri_evidence *ev, const struct tri_opts *o)
{
	const struct tri_probes *pr = o->probes ? o->probes : &tri_probes_real;

	memlock_read(&ev->memlock);
	governor_read(&ev->env);
	ev->env.irqbalance = irqbalance_running();
	port_driver_version(ev->local.dev, ev->env.driver, sizeof(ev->env.driver), ev->env.driver_version,
			    sizeof(ev->env.driver_version));
	pr->nm(&ev->env, ev->local.netdev);
	pr->firewall(&ev->env);
	testctr_sample(&ev->counters, ev->local.dev, ev->local.port);
	dcb_read(ev);
	link_read(ev, o);
}

/* The config's expected rate and error window (*window_s 0: the
 * default); 2 with err said when the file has a bad value. */
static int config_read(struct tri_evidence *ev, const struct tri_opts *o, double *window_s,
		       char *err, size_t errlen)
{
	char cerr[320] = "";
	double v = tri_expected_rate(o->config, ev->expected_origin, sizeof(ev->expected_origin),
				     cerr, sizeof(cerr));

	if (v < 0) {
		snprintf(err, errlen, "%s", cerr);
		return 2;
	}
	ev->expected_rate_gbps = v;
	*window_s = config_num(o->config, "triage.error_window_s", 0, 601, "a time in seconds",
			       NULL, 0, cerr, sizeof(cerr));
	if (*window_s < 0) {
		snprintf(err, errlen, "%s", cerr);
		return 2;
	}
	/* step 1 judges the bit error rates by the levels the console and
	 * watch use */
	ev->ber_watch = config_num(o->config, "ber_watch", 0, 1.000001, "a rate from 1e-18 to 1",
				   NULL, 0, cerr, sizeof(cerr));
	if (ev->ber_watch >= 0)
		ev->ber_act = config_num(o->config, "ber_act", 0, 1.000001, "a rate from 1e-18 to 1",
					 NULL, 0, cerr, sizeof(cerr));
	if (ev->ber_watch < 0 || ev->ber_act < 0) {
		snprintf(err, errlen, "%s", cerr);
		return 2;
	}
	ev->path_rate_min = config_num(o->config, "triage.path_rate_min", 0, 1.000001,
				       "a fraction above 0, at most 1", NULL, 0, cerr, sizeof(cerr));
	if (ev->path_rate_min >= 0)
		ev->qp_gain = config_num(o->config, "triage.qp_gain", 1, 1000, "a factor above 1",
					 NULL, 0, cerr, sizeof(cerr));
	if (ev->path_rate_min < 0 || ev->qp_gain < 0) {
		snprintf(err, errlen, "%s", cerr);
		return 2;
	}
	return 0;
}

int tri_gather_local(struct tri_evidence *ev, const struct tri_opts *o, char *err, size_t errlen)
{
	struct snap_opts all = *o->snap;
	struct snapshot *s = calloc(1, sizeof(*s));
	const struct port_info *pick;
	int st;
	struct ctr_reader *rd;
	struct ctr_target tl, tp;
	double wv = 0;

	if (!s) {
		snprintf(err, errlen, "cannot start the triage: out of memory — close other programs and retry");
		return 5;
	}
	evidence_begin(ev, o);
	/* every port for the environment check; -d / -i choose the one judged */
	all.device = NULL;
	all.port = 0;
	all.modules = true;	/* step 1 names the optic's margin where readable */
	st = snapshot_collect(s, &all, err, errlen);
	if (st != SNAP_OK) {
		snapshot_release(s);
		free(s);
		return st;
	}
	if (o->judge)
		o->judge(s);
	snprintf(ev->host, sizeof(ev->host), "%s", s->host);
	pick = pick_port(s, o->snap, err, errlen);
	if (!pick) {
		snapshot_release(s);
		free(s);
		return 3;
	}
	port_states(ev, s, pick);
	ev->local = *pick;
	ev->local_valid = true;
	rd = reader_open();
	errors_begin(ev, s, pick, rd, &tl, &tp);
	snapshot_release(s);
	free(s);

	host_read(ev, o);
	st = config_read(ev, o, &wv, err, errlen);
	if (st) {
		reader_close(rd);
		return st;
	}
	errors_end(ev, rd, wv > 0 ? wv : TRI_ERROR_WINDOW_S, &tl, &tp);
	reader_close(rd);
	if (!o->peer)
		snprintf(ev->peer_why, sizeof(ev->peer_why), "no --peer given");
	else
		snprintf(ev->peer_why, sizeof(ev->peer_why), "not reached yet");
	return 0;
}

/* ---- traffic ---- */

static void one_run(struct tri_evidence *ev, const struct tri_opts *o, unsigned run,
		    struct tri_traffic *t)
{
	struct client_opts co = {
		.peer = o->peer, .tcp_port = o->tcp_port, .secret = o->secret,
		.device = ev->local.dev, .ib_port = ev->local.port, .gid_index = o->gid_index,
		.p = run_params(run, o->duration_s),
		.timeout_ms = (int)((o->timeout_s > 0 ? o->timeout_s : 10) * 1000),
		.stall_ms = 5000,
	};
	struct client_result *r = calloc(1, sizeof(*r));
	char err[ENG_ERR + 200];
	int st;

	memset(t, 0, sizeof(*t));
	t->qps = co.p.qps;
	t->bidir = co.p.flags & PARAM_BIDIR;
	t->size = co.p.size;
	t->numa_node = -1;
	if (!o->peer) {
		snprintf(t->err, sizeof(t->err), "needs --peer (an agent: ibconsole serve on the peer)");
		free(r);
		return;
	}
	if (!r) {
		snprintf(t->err, sizeof(t->err), "out of memory");
		return;
	}
	t->ran = true;
	st = client_run(&co, r, err, sizeof(err));
	if (r->peer.host[0] && !ev->peer_facts_valid) {
		ev->peer_facts = r->peer;
		ev->local_facts = r->local;
		ev->peer_facts_valid = true;
	}
	/* the counters around the transfer, also when it broke off: a run
	 * that dies under load with retransmissions rising is evidence */
	t->local_ctr = r->local_ctr;
	t->peer_ctr.n = r->peer_ctr.n;
	memcpy(t->peer_ctr.c, r->peer_ctr.c, sizeof(r->peer_ctr.c[0]) * r->peer_ctr.n);
	if (st || !r->nphases) {
		snprintf(t->err, sizeof(t->err), "%.230s", st ? err : "no phase completed");
		if (!ev->peer_facts_valid)
			snprintf(ev->peer_why, sizeof(ev->peer_why), "%s", t->err);
		t->broke = r->local_ctr.n > 0;	/* sampled: the QPs were connected */
		free(r);
		return;
	}
	t->ok = true;
	t->gbps = r->ph[0].total_avg_gbps;
	t->numa_node = r->info.numa_node;
	t->numa_placed = r->info.numa_placed;
	snprintf(t->numa_note, sizeof(t->numa_note), "%s", r->info.numa_note);
	free(r);
}

void tri_gather_traffic(struct tri_evidence *ev, const struct tri_opts *o, unsigned runs)
{
	static const unsigned order[] = { TRI_RUN_BW1, TRI_RUN_BW8, TRI_RUN_LOAD };
	struct tri_traffic *slot[] = { &ev->bw1, &ev->bw8, &ev->load };
	const struct tri_traffic *failed = NULL;

	for (int i = 0; i < 3; i++) {
		if (!(runs & order[i]))
			continue;
		if (failed) {
			/* an unreachable agent is not tried again and again */
			struct proto_params p = run_params(order[i], o->duration_s);

			memset(slot[i], 0, sizeof(*slot[i]));
			slot[i]->qps = p.qps;
			slot[i]->bidir = p.flags & PARAM_BIDIR;
			slot[i]->size = p.size;
			slot[i]->numa_node = -1;
			snprintf(slot[i]->err, sizeof(slot[i]->err), "not run: %.200s", failed->err);
			continue;
		}
		one_run(ev, o, order[i], slot[i]);
		if (slot[i]->ran && !slot[i]->ok && !ev->peer_facts_valid)
			failed = slot[i];
	}
}
