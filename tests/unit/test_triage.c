// SPDX-License-Identifier: MIT
/* The seven-step triage and its fingerprints, rule by rule: each test
 * builds the evidence of one situation and names the state, the reason
 * and the conclusion it must give, written out in full. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "core/fabric/fabric.h"
#include "core/triage/envtools.h"
#include "diag/fingerprint.h"
#include "diag/triage.h"
#include "diag/triage_lines.h"

static struct tri_evidence *ev;
static struct tri_result r;

/* One end of a healthy 4X HDR link (both 1X and 4X enabled). */
static void hdr_masks(unsigned *wa, unsigned *we, unsigned *ws, unsigned *sa, unsigned *se,
		      unsigned *ss, unsigned *xa, unsigned *xe, unsigned *xs, bool *xv)
{
	*wa = 0x02, *we = 0x03, *ws = 0x03;
	*sa = 0, *se = 7, *ss = 7;
	*xa = 4, *xe = 7, *xs = 7;
	*xv = true;
}

static struct fab_port hdr_end(int portnum)
{
	struct fab_port p = { 0 };

	p.portnum = portnum;
	p.info_valid = true;
	p.state = 4;
	p.phys_state = 5;
	hdr_masks(&p.width_active, &p.width_enabled, &p.width_supported, &p.speed_active,
		  &p.speed_enabled, &p.speed_supported, &p.ext_active, &p.ext_enabled,
		  &p.ext_supported, &p.ext_valid);
	p.mtu_active = p.mtu_cap = 4096;
	p.remote = -1;
	fabric_port_decode(&p);
	return p;
}

/* A healthy InfiniBand HDR host: everything passes that can run alone. */
static void healthy_ib(void)
{
	struct port_info *p = &ev->local;

	memset(ev, 0, sizeof(*ev));
	snprintf(ev->host, sizeof(ev->host), "node07");
	ev->gid_given = -1;
	ev->local_valid = true;
	snprintf(p->dev, sizeof(p->dev), "mlx5_0");
	p->port = 1;
	p->state = 4;
	p->phys_state = 5;
	snprintf(p->link_layer, sizeof(p->link_layer), "InfiniBand");
	snprintf(p->netdev, sizeof(p->netdev), "ib0");
	snprintf(p->fw_ver, sizeof(p->fw_ver), "20.39.1002");
	hdr_masks(&p->width_active, &p->width_enabled, &p->width_supported, &p->speed_active,
		  &p->speed_enabled, &p->speed_supported, &p->ext_active, &p->ext_enabled,
		  &p->ext_supported, &p->ext_valid);
	p->caps_valid = true;
	p->link_v.valid = true;
	port_decode_rate(p);
	p->mtu_v.valid = true;
	p->mtu_active = p->mtu_max = 4096;
	snprintf(p->mtu_source, sizeof(p->mtu_source), "smp");
	p->roce_v2_ipv4_index = -1;
	p->pcie.v.valid = true;
	snprintf(p->pcie.address, sizeof(p->pcie.address), "0000:3b:00.0");
	p->pcie.cur_gts = p->pcie.max_gts = 16.0;
	p->pcie.cur_width = p->pcie.max_width = 16;
	p->pcie.cur_gbps = p->pcie.max_gbps = 16.0 * 128 / 130 * 16;
	p->numa.v.valid = true;
	p->numa.node = 0;
	snprintf(p->numa.local_cpus, sizeof(p->numa.local_cpus), "0-15");
	snprintf(p->numa.relation, sizeof(p->numa.relation), "local");
	ev->nports = 1;
	snprintf(ev->ports[0].dev, sizeof(ev->ports[0].dev), "mlx5_0");
	ev->ports[0].port = 1;
	ev->ports[0].state = 4;
	ev->ports[0].phys_state = 5;
	snprintf(ev->ports[0].link_layer, sizeof(ev->ports[0].link_layer), "InfiniBand");
	snprintf(ev->ports[0].netdev, sizeof(ev->ports[0].netdev), "ib0");
	ev->ports[0].under_test = true;
	ev->memlock.valid = true;
	ev->memlock.unlimited = true;
	ev->memlock.need_bytes = 10u << 20;
	snprintf(ev->env.governor, sizeof(ev->env.governor), "performance");
	ev->env.gov_cpus = 16;
	ev->env.irqbalance = 0;
	snprintf(ev->env.driver, sizeof(ev->env.driver), "mlx5_core");
	ev->link.valid = true;
	ev->link.local = hdr_end(1);
	ev->link.peer = hdr_end(2);
	snprintf(ev->link.local_name, sizeof(ev->link.local_name), "\"node07 HCA-1\"[1]");
	snprintf(ev->link.peer_name, sizeof(ev->link.peer_name), "\"leaf02\"[2]");
	snprintf(ev->bw1.err, sizeof(ev->bw1.err), "needs --peer");
	snprintf(ev->bw8.err, sizeof(ev->bw8.err), "needs --peer");
	snprintf(ev->load.err, sizeof(ev->load.err), "needs --peer");
}

/* A RoCE host with the GID table of the fixture tests. */
static void healthy_roce(void)
{
	struct port_info *p = &ev->local;
	static const struct { const char *gid, *type, *ip; } g[] = {
		{ "fe80:0000:0000:0000:0e42:a1ff:fe00:0002", "IB/RoCE v1", "" },
		{ "fe80:0000:0000:0000:0e42:a1ff:fe00:0002", "RoCE v2", "" },
		{ "0000:0000:0000:0000:0000:ffff:c0a8:0107", "IB/RoCE v1", "192.168.1.7" },
		{ "0000:0000:0000:0000:0000:ffff:c0a8:0107", "RoCE v2", "192.168.1.7" },
	};

	healthy_ib();
	snprintf(p->link_layer, sizeof(p->link_layer), "Ethernet");
	snprintf(ev->ports[0].link_layer, sizeof(ev->ports[0].link_layer), "Ethernet");
	snprintf(p->netdev, sizeof(p->netdev), "ens1f0np0");
	p->netdev_mtu = 9000;
	snprintf(p->mtu_source, sizeof(p->mtu_source), "verbs");
	p->ngids = 4;
	for (int i = 0; i < 4; i++) {
		p->gids[i].index = i;
		snprintf(p->gids[i].gid, sizeof(p->gids[i].gid), "%s", g[i].gid);
		snprintf(p->gids[i].type, sizeof(p->gids[i].type), "%s", g[i].type);
		snprintf(p->gids[i].ipv4, sizeof(p->gids[i].ipv4), "%s", g[i].ip);
		snprintf(p->gids[i].netdev, sizeof(p->gids[i].netdev), "ens1f0np0");
	}
	p->roce_v2_ipv4_index = 3;
	ev->link.valid = false;
	snprintf(ev->link.why, sizeof(ev->link.why), "RoCE: the other end is an Ethernet switch port");
}

static void with_peer(void)
{
	struct proto_facts *l = &ev->local_facts, *p = &ev->peer_facts;

	snprintf(ev->peer, sizeof(ev->peer), "node12");
	ev->peer_facts_valid = true;
	snprintf(l->host, sizeof(l->host), "node07");
	snprintf(p->host, sizeof(p->host), "node12");
	snprintf(l->device, sizeof(l->device), "mlx5_0");
	snprintf(p->device, sizeof(p->device), "mlx5_0");
	snprintf(l->driver, sizeof(l->driver), "mlx5_core");
	snprintf(p->driver, sizeof(p->driver), "mlx5_core");
	snprintf(l->fw_ver, sizeof(l->fw_ver), "20.39.1002");
	snprintf(p->fw_ver, sizeof(p->fw_ver), "20.39.1002");
	snprintf(l->link_layer, sizeof(l->link_layer), "%s", ev->local.link_layer);
	snprintf(p->link_layer, sizeof(p->link_layer), "%s", ev->local.link_layer);
	l->rate_mbps = p->rate_mbps = 200000;
	l->mtu = p->mtu = 4096;
	l->gid_index = p->gid_index = strcmp(ev->local.link_layer, "Ethernet") ? -1 : 3;
	if (l->gid_index >= 0) {
		snprintf(l->gid_type, sizeof(l->gid_type), "RoCE v2");
		snprintf(p->gid_type, sizeof(p->gid_type), "RoCE v2");
		snprintf(l->gid, sizeof(l->gid), "0000:0000:0000:0000:0000:ffff:c0a8:0107");
		snprintf(p->gid, sizeof(p->gid), "0000:0000:0000:0000:0000:ffff:c0a8:010c");
	}
	l->numa_node = p->numa_node = 0;
}

static void run(struct tri_traffic *t, uint32_t qps, bool bidir, double gbps)
{
	memset(t, 0, sizeof(*t));
	t->ran = t->ok = true;
	t->qps = qps;
	t->bidir = bidir;
	t->size = 65536;
	t->gbps = gbps;
	t->numa_node = 0;
	t->numa_placed = true;
	snprintf(t->numa_note, sizeof(t->numa_note), "thread and buffers on node 0");
}

static void ctr(struct testctr *c, const char *name, uint64_t delta)
{
	snprintf(c->c[c->n].name, sizeof(c->c[c->n].name), "%s", name);
	c->c[c->n++].delta = delta;
}

static int setup(void **state)
{
	(void)state;
	ev = calloc(1, sizeof(*ev));
	return ev ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(ev);
	return 0;
}

#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))
#define STEP(s) triage_step(ev, (s), &r)
/* step s judged state st with reason why */
#define EXPECT(s, st, why) do { STEP(s); assert_int_equal(r.state, (st)); assert_string_equal(r.reason, (why)); } while (0)
#define HAS(str, sub) do { if (!strstr((str), (sub))) fail_msg("\"%s\" lacks \"%s\"", (str), (sub)); } while (0)

/* ---- environment ---- */

static void env_healthy_passes(void **s)
{
	(void)s;
	healthy_ib();
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_PASS);
	assert_string_equal(r.reason, "mlx5_0/1 Active/LinkUp, InfiniBand; mlx5_0 <-> ib0; memlock unlimited");
	assert_true(triage_env_ok(ev));
}

static void env_memlock_64k_fails(void **s)
{
	(void)s;
	healthy_ib();
	ev->memlock.unlimited = false;
	ev->memlock.limit_bytes = 64 << 10;
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "memlock 64 KiB and no CAP_IPC_LOCK: the tests lock 10.0 MiB, memory registration would fail");
	HAS(r.hint, "ulimit -l unlimited");
	assert_false(triage_env_ok(ev));
	/* CAP_IPC_LOCK lifts the limit */
	ev->memlock.cap_ipc_lock = true;
	assert_true(triage_env_ok(ev));
}

/* The reference expects unlimited: a limit enough for these tests warns */
static void env_memlock_enough_warns(void **s)
{
	(void)s;
	healthy_ib();
	ev->memlock.unlimited = false;
	ev->memlock.limit_bytes = 64u << 20;
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_WARN);
	HAS(r.reason, "memlock 64.0 MiB, not unlimited");
	HAS(r.hint, "ulimit -l unlimited");
	assert_true(triage_env_ok(ev));
}

static void env_port_down_fails(void **s)
{
	(void)s;
	healthy_ib();
	ev->ports[0].state = 1;
	ev->ports[0].phys_state = 2;
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "mlx5_0/1 is Down/Polling, want Active/LinkUp");
	/* another port down only warns */
	healthy_ib();
	ev->nports = 2;
	ev->ports[1] = ev->ports[0];
	ev->ports[1].port = 2;
	ev->ports[1].state = 1;
	ev->ports[1].phys_state = 2;
	ev->ports[1].under_test = false;
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_WARN);
	assert_string_equal(r.reason, "mlx5_0/2 is Down/Polling (not under triage)");
}

static void env_roce_without_netdev_fails(void **s)
{
	(void)s;
	healthy_roce();
	ev->local.netdev[0] = '\0';
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "no netdev behind mlx5_0/1: RoCE needs one");
}

static void env_extras_warn(void **s)
{
	(void)s;
	healthy_ib();
	snprintf(ev->env.governor, sizeof(ev->env.governor), "powersave");
	ev->env.gov_other = 16;
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_WARN);
	assert_string_equal(r.reason, "CPU governor powersave on 16 of 16 CPUs, want performance");
	healthy_ib();
	ev->env.irqbalance = 1;
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_WARN);
	assert_string_equal(r.reason, "irqbalance is running: it moves the HCA's interrupts during a test");
	healthy_ib();
	with_peer();
	snprintf(ev->peer_facts.fw_ver, sizeof(ev->peer_facts.fw_ver), "20.35.1012");
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_WARN);
	assert_string_equal(r.reason, "the ends differ: firmware 20.39.1002 / 20.35.1012");
	assert_true(triage_env_ok(ev));
}

/* The reference procedure's parity: driver version and firmware against
 * the peer's, NetworkManager on the RDMA netdev, a firewall dropping UDP
 * 4791 — each a warning with its evidence, never a failure. */
static void env_parity_warns(void **s)
{
	(void)s;
	healthy_ib();
	with_peer();
	snprintf(ev->local_facts.driver_version, PROTO_NAME, "24.10-1.1.4");
	snprintf(ev->peer_facts.driver_version, PROTO_NAME, "23.10-2.1.3");
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_WARN);
	assert_string_equal(r.reason, "the ends differ: driver mlx5_core 24.10-1.1.4 / mlx5_core 23.10-2.1.3");
	HAS(r.hint, "same driver version");
	assert_true(triage_env_ok(ev));
	/* both in-tree: the kernels' releases are the versions */
	snprintf(ev->local_facts.driver_version, PROTO_NAME, "in-tree");
	snprintf(ev->peer_facts.driver_version, PROTO_NAME, "in-tree");
	snprintf(ev->local_facts.kernel, PROTO_STR, "6.1.0-18-amd64");
	snprintf(ev->peer_facts.kernel, PROTO_STR, "6.1.0-18-amd64");
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_PASS);
	snprintf(ev->peer_facts.kernel, PROTO_STR, "6.12.9-amd64");
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_WARN);
	assert_string_equal(r.reason, "the ends differ: driver mlx5_core in-tree (kernel 6.1.0-18-amd64) / "
			    "mlx5_core in-tree (kernel 6.12.9-amd64)");
	/* an older peer does not say: no warning, the evidence says so */
	ev->peer_facts.driver_version[0] = '\0';
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_PASS);
	HAS(r.lines[r.nlines - 3], "mlx5_core (version: peer did not say)");

	healthy_ib();
	ev->env.nm = 1;
	snprintf(ev->env.nm_line, sizeof(ev->env.nm_line), "nmcli: ib0 is connected");
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_WARN);
	assert_string_equal(r.reason, "NetworkManager manages ib0: nmcli: ib0 is connected");
	HAS(r.hint, "managed no");
	ev->env.nm = 0;
	snprintf(ev->env.nm_line, sizeof(ev->env.nm_line), "NetworkManager not running (nmcli)");
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_PASS);

	/* the firewall: RoCE's traffic only */
	healthy_ib();
	ev->env.firewall = 1;
	snprintf(ev->env.fw_line, sizeof(ev->env.fw_line), "nft: table inet t, chain in (input hook): a rule drops UDP dport 4791");
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_PASS);
	snprintf(ev->local.link_layer, sizeof(ev->local.link_layer), "Ethernet");
	snprintf(ev->local.netdev, sizeof(ev->local.netdev), "ens1f0np0");
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_WARN);
	assert_string_equal(r.reason, "the firewall drops RoCE v2: nft: table inet t, chain in (input hook): a rule drops UDP dport 4791");
	ev->env.firewall = -1;
	snprintf(ev->env.fw_line, sizeof(ev->env.fw_line), "could not read the firewall (needs root): nft failed: Operation not permitted");
	STEP(TRI_ENV);
	assert_int_equal(r.state, TRI_PASS);
	HAS(r.lines[r.nlines - 3], "could not read the firewall (needs root)");
}

/* nft's JSON ruleset as `nft -j list ruleset` prints it (nftables 1.0.6). */
#define NFT_HEAD "{\"nftables\": [{\"metainfo\": {\"version\": \"1.0.6\", \"json_schema_version\": 1}}, " \
	"{\"table\": {\"family\": \"inet\", \"name\": \"t\", \"handle\": 1}}, " \
	"{\"chain\": {\"family\": \"inet\", \"table\": \"t\", \"name\": \"in\", \"handle\": 1, " \
	"\"type\": \"filter\", \"hook\": \"%s\", \"prio\": 0, \"policy\": \"%s\"}}"
#define NFT_RULE ", {\"rule\": {\"family\": \"inet\", \"table\": \"t\", \"chain\": \"in\", \"handle\": 2, " \
	"\"expr\": [{\"match\": {\"op\": \"%s\", \"left\": {\"payload\": {\"protocol\": \"%s\", " \
	"\"field\": \"dport\"}}, \"right\": %s}}, {\"%s\": null}]}}"

static int nft(const char *hook, const char *policy, const char *op, const char *proto,
	       const char *right, const char *verdict, char *evd)
{
	char js[2048], why[160];
	int n = snprintf(js, sizeof(js), NFT_HEAD, hook, policy);

	if (right)
		n += snprintf(js + n, sizeof(js) - (size_t)n, NFT_RULE, op, proto, right, verdict);
	snprintf(js + n, sizeof(js) - (size_t)n, "]}");
	return env_judge_nft(js, strlen(js), evd, TRI_TEXT, why, sizeof(why));
}

static void env_nft_judged(void **s)
{
	char e[TRI_TEXT], why[160];

	(void)s;
	assert_int_equal(nft("input", "accept", "==", "udp", "4791", "drop", e), 1);
	assert_string_equal(e, "nft: table inet t, chain in (input hook): a rule drops UDP dport 4791");
	assert_int_equal(nft("input", "accept", "==", "udp", "{\"set\": [53, 4791]}", "reject", e), 1);
	assert_int_equal(nft("input", "accept", "==", "udp", "{\"range\": [4000, 5000]}", "drop", e), 1);
	/* not RoCE's port, not UDP, negated, only outgoing, accepted */
	assert_int_equal(nft("input", "accept", "==", "udp", "4790", "drop", e), 0);
	assert_string_equal(e, "nft: 1 chains, 1 rules, none drops UDP dport 4791");
	assert_int_equal(nft("input", "accept", "==", "udp", "{\"range\": [4792, 5000]}", "drop", e), 0);
	assert_int_equal(nft("input", "accept", "==", "tcp", "4791", "drop", e), 0);
	assert_int_equal(nft("input", "accept", "!=", "udp", "4791", "drop", e), 0);
	assert_int_equal(nft("output", "accept", "==", "udp", "4791", "drop", e), 0);
	assert_int_equal(nft("input", "accept", "==", "udp", "4791", "accept", e), 0);
	/* a default-drop input policy: dropped unless a rule accepts it */
	assert_int_equal(nft("input", "drop", NULL, NULL, NULL, NULL, e), 1);
	assert_string_equal(e, "nft: table inet t, chain in (input hook): policy drop and no rule accepts UDP dport 4791");
	assert_int_equal(nft("input", "drop", "==", "udp", "4791", "accept", e), 0);
	assert_int_equal(nft("forward", "drop", NULL, NULL, NULL, NULL, e), 0);
	assert_int_equal(env_judge_nft("{}", 2, e, sizeof(e), why, sizeof(why)), -1);
	assert_int_equal(env_judge_nft("{\"nftables\": [", 14, e, sizeof(e), why, sizeof(why)), -1);

	assert_int_equal(env_judge_nmcli("lo:unmanaged\nens1f0np0:connected\n", "ens1f0np0", e, sizeof(e)), 1);
	assert_string_equal(e, "nmcli: ens1f0np0 is connected");
	assert_int_equal(env_judge_nmcli("ens1f0np0:unmanaged\n", "ens1f0np0", e, sizeof(e)), 0);
	assert_int_equal(env_judge_nmcli("ens1f0np01:connected\n", "ens1f0np0", e, sizeof(e)), 0);
	assert_string_equal(e, "nmcli: ens1f0np0 not in NetworkManager's device list");
}

/* ---- step 1 ---- */

static void rate_healthy_passes(void **s)
{
	(void)s;
	healthy_ib();
	STEP(TRI_RATE);
	assert_int_equal(r.state, TRI_PASS);
	assert_string_equal(r.reason, "4X HDR 200 Gb/s, what both ends of the link support");
	/* the agent reports the data rate after encoding: compared with this
	 * port's data rate, not its signalling rate */
	healthy_ib();
	ev->local.data_rate_gbps = 8;
	with_peer();
	ev->peer_facts.rate_mbps = 8000;
	STEP(TRI_RATE);
	assert_int_equal(r.state, TRI_PASS);
	ev->peer_facts.rate_mbps = 4000;
	STEP(TRI_RATE);
	assert_int_equal(r.state, TRI_WARN);
	assert_string_equal(r.reason, "the peer's port carries 4 Gb/s of data, this one 8 Gb/s");
}

static void rate_1x_link_fails(void **s)
{
	(void)s;
	healthy_ib();
	/* the demo's planted fault: the switch end enables only 1X */
	ev->link.local.width_active = ev->link.peer.width_active = 0x01;
	ev->link.peer.width_enabled = 0x01;
	fabric_port_decode(&ev->link.local);
	fabric_port_decode(&ev->link.peer);
	STEP(TRI_RATE);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "\"node07 HCA-1\"[1] <-> \"leaf02\"[2] trained 1X, supports 4X");
	HAS(r.hint, "LinkWidthEnabled");
}

static void rate_slow_speed_fails(void **s)
{
	(void)s;
	healthy_ib();
	ev->link.local.ext_active = ev->link.peer.ext_active = 2;	/* EDR */
	fabric_port_decode(&ev->link.local);
	fabric_port_decode(&ev->link.peer);
	STEP(TRI_RATE);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "\"node07 HCA-1\"[1] <-> \"leaf02\"[2] running EDR, supports HDR");
}

static void rate_site_expectation(void **s)
{
	(void)s;
	healthy_ib();
	ev->expected_rate_gbps = 400;
	snprintf(ev->expected_origin, sizeof(ev->expected_origin), "config x:1");
	STEP(TRI_RATE);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "mlx5_0/1 runs 4X HDR 200 Gb/s, the site expects 400 Gb/s");
}

static void rate_without_caps_is_info(void **s)
{
	(void)s;
	healthy_ib();
	ev->link.valid = false;
	ev->local.caps_valid = false;
	STEP(TRI_RATE);
	assert_int_equal(r.state, TRI_INFO);
	assert_string_equal(r.reason, "4X HDR 200 Gb/s; enabled / supported not readable here");
	/* a single port whose own PortInfo shows the fault still fails */
	healthy_ib();
	ev->link.valid = false;
	ev->local.width_active = 0x01;
	port_decode_rate(&ev->local);
	STEP(TRI_RATE);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "mlx5_0/1 trained 1X, supports 4X");
}

/* ---- step 2 ---- */

static void pcie_gen3_x8_under_hdr_fails(void **s)
{
	(void)s;
	healthy_ib();
	ev->local.pcie.cur_gts = 8.0;
	ev->local.pcie.cur_width = 8;
	ev->local.pcie.cur_gbps = 8.0 * 128 / 130 * 8;
	ev->local.pcie.degraded = true;
	STEP(TRI_PCIE);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "Gen3 x8 (cap Gen4 x16): 63 of 200 Gb/s, short 137 Gb/s");
	HAS(r.hint, "reseat");
}

static void pcie_degraded_but_enough_warns(void **s)
{
	(void)s;
	healthy_ib();
	ev->local.ext_active = 2;	/* EDR 100 */
	port_decode_rate(&ev->local);
	ev->local.pcie.cur_gts = 8.0;
	ev->local.pcie.cur_gbps = 8.0 * 128 / 130 * 16;
	ev->local.pcie.degraded = true;
	STEP(TRI_PCIE);
	assert_int_equal(r.state, TRI_WARN);
	assert_string_equal(r.reason, "Gen3 x16 (cap Gen4 x16) still carries 100 Gb/s: 126 Gb/s usable");
}

/* NDR signalling is 4 x 106.25 = 425 Gb/s, its data rate 400 */
static void pcie_ndr_signalling(void **s)
{
	bool seen = false;

	(void)s;
	healthy_ib();
	ev->local.ext_active = 8;	/* NDR */
	port_decode_rate(&ev->local);
	STEP(TRI_PCIE);
	for (int i = 0; i < r.nlines; i++)
		seen |= strstr(r.lines[i], "port data rate 400 Gb/s (4X NDR, 425 Gb/s signalling)") != NULL;
	if (!seen)
		fail_msg("no 425 Gb/s signalling line");
}

/* Step 1 checks the error rate first: both ends' increments over the
 * window, per 10 minutes; act fails with the class's advice. */
static void rate_errors_first(void **s)
{
	struct tri_errors *e;

	(void)s;
	healthy_ib();
	e = &ev->errors;
	e->local_valid = e->peer_valid = true;
	e->span_s = 10;
	snprintf(e->peer_label, sizeof(e->peer_label), "leaf02 port 2");
	counters_put(&e->local_prev, "SymbolErrorCounter", 7)->bits = 16;
	e->local_cur = e->local_prev;
	e->peer_prev = e->local_prev;
	e->peer_cur = e->local_prev;
	STEP(TRI_RATE);
	assert_int_equal(r.state, TRI_PASS);
	HAS(r.lines[r.nlines - 2], "this end error counters in the last 10 s: no change");
	e->peer_cur.c[0].value = 7 + 60;	/* the other end gained 60 */
	STEP(TRI_RATE);
	assert_int_equal(r.state, TRI_FAIL);
	HAS(r.reason, "leaf02 port 2: SymbolErrorCounter 60 in 10 s, 3,600 per 10 min: act");
	HAS(r.hint, "optic / cable");
	HAS(r.lines[r.nlines - 1], "SymbolErrorCounter +60");
	e->peer_cur.c[0].value = 7 + 3;	/* 3: not act */
	STEP(TRI_RATE);
	assert_int_equal(r.state, TRI_WARN);
}

static void pcie_healthy_and_unknown(void **s)
{
	(void)s;
	healthy_ib();
	STEP(TRI_PCIE);
	assert_int_equal(r.state, TRI_PASS);
	assert_string_equal(r.reason, "Gen4 x16: 252 Gb/s usable for 200 Gb/s");
	ev->local.pcie.v.valid = false;
	snprintf(ev->local.pcie.v.why, sizeof(ev->local.pcie.v.why), "no PCI function behind rxe0 (software device)");
	STEP(TRI_PCIE);
	assert_int_equal(r.state, TRI_NA);
	assert_string_equal(r.reason, "no PCI function behind rxe0 (software device)");
}

/* ---- step 3 ---- */

static void gid_rules(void **s)
{
	(void)s;
	healthy_ib();
	STEP(TRI_GID);
	assert_int_equal(r.state, TRI_NA);
	healthy_roce();
	STEP(TRI_GID);
	assert_int_equal(r.state, TRI_PASS);
	assert_string_equal(r.reason, "index 3, RoCE v2, 192.168.1.7 (the peer's index needs --peer)");
	ev->gid_given = 0;
	STEP(TRI_GID);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "-x 0 is RoCE v1; the right index is 3 (RoCE v2, 192.168.1.7)");
	ev->gid_given = 1;
	STEP(TRI_GID);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "-x 1 is RoCE v2, IPv6 link-local; the right index is 3 (RoCE v2, 192.168.1.7)");
	HAS(r.hint, "-x 3");
	ev->gid_given = 9;
	STEP(TRI_GID);
	assert_string_equal(r.reason, "-x 9: no such GID index on mlx5_0; the right index is 3 (RoCE v2, 192.168.1.7)");
	ev->gid_given = 3;
	with_peer();
	STEP(TRI_GID);
	assert_int_equal(r.state, TRI_PASS);
	assert_string_equal(r.reason, "index 3, RoCE v2, 192.168.1.7");
	HAS(r.lines[r.nlines - 1], "the same kind on both ends: RoCE v2, IPv4");
	/* the peer's kind comes from its agent's facts */
	snprintf(ev->peer_facts.gid_type, sizeof(ev->peer_facts.gid_type), "RoCE v1");
	ev->peer_facts.gid_index = 2;
	EXPECT(TRI_GID, TRI_FAIL, "the ends use different kinds: RoCE v2, IPv4 here, RoCE v1 at the peer's index 2");
	HAS(r.hint, "start the agent without -x");
	snprintf(ev->peer_facts.gid_type, sizeof(ev->peer_facts.gid_type), "RoCE v2");
	snprintf(ev->peer_facts.gid, sizeof(ev->peer_facts.gid), "fe80:0000:0000:0000:0e42:a1ff:fe00:000c");
	ev->peer_facts.gid_index = 1;
	EXPECT(TRI_GID, TRI_FAIL, "the ends use different kinds: RoCE v2, IPv4 here, RoCE v2, IPv6 link-local at the peer's index 1");
	/* both ends on link-local: step 3 fails on this end's index first */
	ev->gid_given = 1;
	EXPECT(TRI_GID, TRI_FAIL, "-x 1 is RoCE v2, IPv6 link-local; the right index is 3 (RoCE v2, 192.168.1.7)");
	ev->gid_given = -1;
	ev->peer_facts.gid_type[0] = '\0';
	EXPECT(TRI_GID, TRI_WARN, "the peer's GID type is unknown (index 1)");
	healthy_roce();
	ev->local.roce_v2_ipv4_index = -1;
	STEP(TRI_GID);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "no RoCE v2 entry with an IPv4 address of ens1f0np0");
}

/* ---- step 4 ---- */

static void mtu_rules(void **s)
{
	(void)s;
	healthy_ib();
	STEP(TRI_MTU);
	assert_int_equal(r.state, TRI_PASS);
	assert_string_equal(r.reason, "4096 / 4096");
	ev->link.peer.mtu_active = 2048;
	STEP(TRI_MTU);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "NeighborMTU 4096 at \"node07 HCA-1\"[1] vs 2048 at \"leaf02\"[2]");
	healthy_roce();
	STEP(TRI_MTU);
	assert_int_equal(r.state, TRI_NA);
	assert_string_equal(r.reason, "4096 here (netdev ens1f0np0 MTU 9000); the other end needs --peer (its agent reports its MTU)");
	with_peer();
	ev->peer_facts.mtu = 1024;
	STEP(TRI_MTU);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "active MTU 4096 here vs 1024 on the peer node12 (netdev ens1f0np0 MTU 9000)");
	/* with the peer's netdev MTU from its agent: both named */
	ev->peer_facts.netdev_mtu = 1500;
	STEP(TRI_MTU);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "active MTU 4096 here vs 1024 on the peer node12 (netdev MTU 9000 here, 1500 on the peer)");
	ev->peer_facts.netdev_mtu = 9000;
	ev->peer_facts.mtu = 4096;
	STEP(TRI_MTU);
	assert_int_equal(r.state, TRI_PASS);
	assert_string_equal(r.reason, "4096 / 4096 (netdev ens1f0np0 MTU 9000)");
}

/* ---- step 5 ---- */

static void lossless_rules(void **s)
{
	(void)s;
	healthy_ib();
	STEP(TRI_LOSSLESS);
	assert_int_equal(r.state, TRI_NA);
	assert_string_equal(r.reason, "InfiniBand: credit-based link-level flow control, lossless by design");
	healthy_roce();
	STEP(TRI_LOSSLESS);
	assert_int_equal(r.state, TRI_NA);
	assert_string_equal(r.reason, "the load test needs --peer");
	with_peer();
	run(&ev->bw1, 1, false, 0.030);
	run(&ev->load, 8, true, 0.0034);
	ctr(&ev->load.local_ctr, "rcvd_seq_err", 560);
	ctr(&ev->load.local_ctr, "completer_retry_err", 580);
	ctr(&ev->load.peer_ctr, "duplicate_request", 502);
	ctr(&ev->load.peer_ctr, "rcvd_pkts", 90000);	/* not a retransmission */
	STEP(TRI_LOSSLESS);
	assert_int_equal(r.state, TRI_FAIL);
	assert_string_equal(r.reason, "fine idle (1 QP 0.03 Gb/s), collapses under load (0.0034 Gb/s, 8 QPs both ways) with retransmissions +1642");
	/* the same collapse on time-outs alone: late acks, a warning */
	memset(&ev->load.local_ctr, 0, sizeof(ev->load.local_ctr));
	ctr(&ev->load.local_ctr, "completer_retry_err", 580);
	EXPECT(TRI_LOSSLESS, TRI_WARN, "collapses under load (0.0034 of 0.03 Gb/s) with retransmissions +1082 but no sequence gap: acks came late, nothing was seen lost");
	/* collapse with nothing counted only warns */
	memset(&ev->load.local_ctr, 0, sizeof(ev->load.local_ctr));
	memset(&ev->load.peer_ctr, 0, sizeof(ev->load.peer_ctr));
	STEP(TRI_LOSSLESS);
	assert_int_equal(r.state, TRI_WARN);
	/* the bandwidth held, but packets went missing under load only: a
	 * fabric without lossless configuration (and a CPU-bound host) */
	run(&ev->load, 8, true, 0.033);
	ctr(&ev->load.local_ctr, "rcvd_seq_err", 38);
	ctr(&ev->load.peer_ctr, "duplicate_request", 3287);
	EXPECT(TRI_LOSSLESS, TRI_FAIL, "fine idle (1 QP 0.03 Gb/s, no gap), drops under load (0.033 Gb/s, 8 QPs both ways): sequence gaps +38, retransmissions +3325");
	/* gaps at 1 QP too: not a load effect */
	ctr(&ev->bw1.local_ctr, "rcvd_seq_err", 3);
	EXPECT(TRI_LOSSLESS, TRI_WARN, "retransmissions under load (+3325) though the bandwidth held");
	memset(&ev->bw1.local_ctr, 0, sizeof(ev->bw1.local_ctr));
	/* held under load, pauses counted: lossless doing its work */
	run(&ev->load, 8, true, 0.058);
	ctr(&ev->load.local_ctr, "rx_pause", 12);
	STEP(TRI_LOSSLESS);
	assert_int_equal(r.state, TRI_PASS);
	assert_string_equal(r.reason, "pause / CNP +12; 1 QP 0.03 Gb/s, 8 QPs both ways 0.058 Gb/s");
	/* the load run broke off (Soft-RoCE on a lossy wire): its counters
	 * up to the break decide */
	memset(&ev->load, 0, sizeof(ev->load));
	ev->load.ran = ev->load.broke = true;
	ev->load.qps = 8;
	ev->load.bidir = true;
	snprintf(ev->load.err, sizeof(ev->load.err), "transfer on QP 0x1e: remote invalid request error");
	ctr(&ev->load.peer_ctr, "duplicate_request", 969);
	/* retries on time-outs alone, no gap seen: the acks were late */
	EXPECT(TRI_LOSSLESS, TRI_WARN, "the load test broke off with retransmissions +969 but no sequence gap: acks came late, nothing was seen lost");
	HAS(r.hint, "starved host");
	ctr(&ev->load.peer_ctr, "out_of_seq_request", 31);
	EXPECT(TRI_LOSSLESS, TRI_FAIL, "fine idle (1 QP 0.03 Gb/s), collapses under load: 8 QPs both ways broke off with retransmissions +1000");
	HAS(r.lines[r.nlines - 2], "8 QPs both ways broke off: transfer on QP 0x1e: remote invalid request error");
	HAS(r.lines[r.nlines - 1], "retransmissions +1000 (sequence gaps +31)");
	/* broke off with nothing counted: a warning, not a cause */
	memset(&ev->load.peer_ctr, 0, sizeof(ev->load.peer_ctr));
	STEP(TRI_LOSSLESS);
	assert_int_equal(r.state, TRI_WARN);
	HAS(r.reason, "broke off with no retransmission or pause counted");
	/* a load run that never connected says so, as before */
	ev->load.broke = false;
	STEP(TRI_LOSSLESS);
	assert_int_equal(r.state, TRI_WARN);
	HAS(r.reason, "the load test did not complete");
}

/* ---- step 6 ---- */

static void numa_rules(void **s)
{
	(void)s;
	healthy_ib();
	STEP(TRI_NUMA);
	assert_int_equal(r.state, TRI_PASS);
	snprintf(ev->local.numa.relation, sizeof(ev->local.numa.relation), "remote");
	ev->local.numa.node = 1;
	snprintf(ev->local.numa.local_cpus, sizeof(ev->local.numa.local_cpus), "1");
	STEP(TRI_NUMA);
	assert_int_equal(r.state, TRI_WARN);
	assert_string_equal(r.reason, "HCA on node 1, this process may only run on other nodes' CPUs (1)");
	HAS(r.hint, "numactl --cpunodebind=N --membind=N");
	healthy_ib();
	run(&ev->bw1, 1, false, 190);
	ev->bw1.numa_placed = false;
	snprintf(ev->bw1.numa_note, sizeof(ev->bw1.numa_note), "buffers on node 1 (no memory on node 0)");
	STEP(TRI_NUMA);
	assert_int_equal(r.state, TRI_WARN);
	assert_string_equal(r.reason, "the test ran off the HCA's node 0: buffers on node 1 (no memory on node 0)");
}

/* ---- step 7 ---- */

static void qps_rules(void **s)
{
	(void)s;
	healthy_ib();
	STEP(TRI_QPS);
	assert_int_equal(r.state, TRI_NA);
	HAS(r.reason, "needs --peer");
	run(&ev->bw1, 1, false, 100);
	run(&ev->bw8, 8, false, 190);
	STEP(TRI_QPS);
	assert_int_equal(r.state, TRI_INFO);
	assert_string_equal(r.reason, "8 QPs carry 1.9x one QP: a single-QP limit, not a link problem");
	run(&ev->bw8, 8, false, 103);
	STEP(TRI_QPS);
	assert_int_equal(r.state, TRI_PASS);
	assert_string_equal(r.reason, "1 QP 100, 8 QPs 103 Gb/s (+3 %): the limit is not per QP");
}

/* ---- fingerprints and conclusions ---- */

static void fp_pcie(void **s)
{
	struct triage t;

	(void)s;
	healthy_ib();
	with_peer();
	ev->local.pcie.cur_width = 8;	/* Gen4 x8: 126 Gb/s */
	ev->local.pcie.cur_gbps = 16.0 * 128 / 130 * 8;
	ev->local.pcie.degraded = true;
	run(&ev->bw1, 1, false, 118);
	run(&ev->bw8, 8, false, 119);
	run(&ev->load, 8, true, 236);
	triage_eval(ev, &t);
	assert_int_equal(t.fp.id, FP_PCIE);
	assert_int_equal(t.c.step, TRI_PCIE);
	assert_string_equal(t.c.text, "PCIe (step 2): Gen4 x8 (cap Gen4 x16): 126 of 200 Gb/s, short 74 Gb/s");
	assert_string_equal(t.fp.text, "measured 119 Gb/s = 60 % of 200 Gb/s and PCIe Gen4 x8 carries 126 Gb/s: the PCIe fingerprint (about 60 %)");
	assert_true(t.any_fail);
	/* the same failure far off the band: no fingerprint, still step 2 */
	run(&ev->bw1, 1, false, 20);
	run(&ev->bw8, 8, false, 21);
	triage_eval(ev, &t);
	assert_int_equal(t.fp.id, FP_NONE);
	assert_int_equal(t.c.step, TRI_PCIE);
}

static void fp_link_rate(void **s)
{
	struct triage t;

	(void)s;
	healthy_ib();
	with_peer();
	/* trained 4X EDR on a link both ends could run at HDR */
	ev->local.ext_active = 2;
	port_decode_rate(&ev->local);
	ev->link.local.ext_active = ev->link.peer.ext_active = 2;
	fabric_port_decode(&ev->link.local);
	fabric_port_decode(&ev->link.peer);
	ev->local_facts.rate_mbps = ev->peer_facts.rate_mbps = 100000;
	run(&ev->bw1, 1, false, 96);
	run(&ev->bw8, 8, false, 98);
	run(&ev->load, 8, true, 190);
	triage_eval(ev, &t);
	assert_near(fingerprint_reference_gbps(ev), 200, 1e-9);
	assert_int_equal(t.fp.id, FP_LINK_RATE);
	assert_int_equal(t.c.step, TRI_RATE);
	assert_string_equal(t.c.text, "port rate (step 1): \"node07 HCA-1\"[1] <-> \"leaf02\"[2] running EDR, supports HDR");
	assert_string_equal(t.fp.text, "measured 98 Gb/s = 49 % of 200 Gb/s with the link trained 4X EDR: the degraded-link fingerprint (about half)");
}

/* A RoCE pair whose wire collapses under load: fine at 1 and 8 QPs, a
 * tenth of it at 8 QPs both ways with retransmissions. */
static void collapsing_roce(void)
{
	healthy_roce();
	with_peer();
	run(&ev->bw1, 1, false, 0.030);
	run(&ev->bw8, 8, false, 0.031);
	run(&ev->load, 8, true, 0.0034);
	ctr(&ev->load.local_ctr, "rcvd_seq_err", 560);
}

static void fp_lossless(void **s)
{
	struct triage t;

	(void)s;
	collapsing_roce();
	triage_eval(ev, &t);
	assert_int_equal(t.fp.id, FP_LOSSLESS);
	assert_int_equal(t.c.step, TRI_LOSSLESS);
	HAS(t.c.text, "lossless configuration (step 5): fine idle");
	HAS(t.c.action, "PFC");
}

static void conclusion_order(void **s)
{
	struct triage t;

	(void)s;
	/* the environment comes first, whatever else fails */
	healthy_ib();
	ev->memlock.unlimited = false;
	ev->memlock.limit_bytes = 64 << 10;
	ev->local.pcie.cur_width = 8;
	ev->local.pcie.cur_gbps = 63;
	triage_eval(ev, &t);
	assert_int_equal(t.c.step, TRI_ENV);
	HAS(t.c.text, "environment: memlock 64 KiB");
	/* nothing wrong: no cause, exit 0 */
	healthy_ib();
	triage_eval(ev, &t);
	assert_false(t.any_fail);
	assert_int_equal(t.c.step, TRI_NSTEPS);
	assert_string_equal(t.c.text, "no cause found: every step that could run passed");
	/* a single-QP limit is named when nothing else is */
	with_peer();
	run(&ev->bw1, 1, false, 100);
	run(&ev->bw8, 8, false, 190);
	run(&ev->load, 8, true, 380);
	triage_eval(ev, &t);
	assert_int_equal(t.c.step, TRI_QPS);
	assert_false(t.any_fail);
	HAS(t.c.text, "more QPs (step 7): ");
	/* an MTU mismatch that also broke the load run: step 4 is the cause,
	 * not the lossless fingerprint of step 5 */
	collapsing_roce();
	ev->peer_facts.mtu = 1024;
	triage_eval(ev, &t);
	assert_int_equal(t.fp.id, FP_LOSSLESS);
	assert_int_equal(t.r[TRI_LOSSLESS].state, TRI_FAIL);
	assert_int_equal(t.c.step, TRI_MTU);
	HAS(t.c.text, "MTU (step 4): active MTU 4096 here vs 1024");
}

static void data_rate(void **s)
{
	struct port_info p;

	(void)s;
	memset(&p, 0, sizeof(p));
	p.rate_gbps = 40;
	snprintf(p.speed_name, sizeof(p.speed_name), "QDR");
	assert_near(triage_data_rate_gbps(&p), 32, 1e-9);
	p.rate_gbps = 56;
	snprintf(p.speed_name, sizeof(p.speed_name), "FDR");
	assert_near(triage_data_rate_gbps(&p), 54.5454, 1e-3);
	p.rate_gbps = 100;
	snprintf(p.speed_name, sizeof(p.speed_name), "EDR");
	assert_near(triage_data_rate_gbps(&p), 100, 1e-9);
	p.rate_gbps = 0;
	assert_near(triage_data_rate_gbps(&p), 0, 1e-9);
}

static void counter_classes(void **s)
{
	(void)s;
	assert_true(triage_counter_is_retrans("rcvd_seq_err"));
	assert_true(triage_counter_is_retrans("completer_retry_err"));
	assert_true(triage_counter_is_retrans("duplicate_request"));
	assert_true(triage_counter_is_retrans("out_of_sequence"));
	assert_true(triage_counter_is_retrans("local_ack_timeout_err"));
	assert_false(triage_counter_is_retrans("rcvd_pkts"));
	assert_true(triage_counter_is_pause("np_cnp_sent"));
	assert_true(triage_counter_is_pause("rx_pause_ctrl_phy"));
	assert_true(triage_counter_is_pause("np_ecn_marked_roce_packets"));
	assert_false(triage_counter_is_pause("sent_pkts"));
	/* gaps: a receiver saw a packet missing (rxe, mlx5) */
	assert_true(triage_counter_is_gap("rcvd_seq_err"));
	assert_true(triage_counter_is_gap("out_of_seq_request"));
	assert_true(triage_counter_is_gap("out_of_sequence"));
	assert_true(triage_counter_is_gap("packet_seq_err"));
	assert_false(triage_counter_is_gap("completer_retry_err"));
	assert_false(triage_counter_is_gap("duplicate_request"));
	assert_false(triage_counter_is_gap("local_ack_timeout_err"));
}

/* The helpers every rule builds its result with: the first reason at
 * the highest state stays, with its hint; lines past TRI_LINES drop. */
static void judge_and_lines(void **s)
{
	struct tri_result res;
	char last[16];

	(void)s;
	memset(&res, 0, sizeof(res));
	tri_judge(&res, TRI_WARN, "hint one", "first warning");
	tri_judge(&res, TRI_WARN, "hint two", "second warning");
	assert_int_equal(res.state, TRI_WARN);
	assert_string_equal(res.reason, "first warning");
	assert_string_equal(res.hint, "hint one");
	tri_judge(&res, TRI_FAIL, NULL, "a failure %d", 7);
	tri_judge(&res, TRI_INFO, "info hint", "an info");
	assert_int_equal(res.state, TRI_FAIL);
	assert_string_equal(res.reason, "a failure 7");
	assert_string_equal(res.hint, "");
	for (int i = 0; i < TRI_LINES + 3; i++)
		tri_line(&res, "line %d", i);
	assert_int_equal(res.nlines, TRI_LINES);
	snprintf(last, sizeof(last), "line %d", TRI_LINES - 1);
	assert_string_equal(res.lines[TRI_LINES - 1], last);
}

/* The fingerprints' JSON ids (the man page's fingerprint.id). */
static void fingerprint_names(void **s)
{
	(void)s;
	assert_string_equal(fingerprint_name(FP_PCIE), "pcie");
	assert_string_equal(fingerprint_name(FP_LINK_RATE), "link_rate");
	assert_string_equal(fingerprint_name(FP_LOSSLESS), "lossless");
	assert_string_equal(fingerprint_name(FP_NONE), "none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(env_healthy_passes, setup, teardown),
		cmocka_unit_test_setup_teardown(env_memlock_64k_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(env_port_down_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(env_roce_without_netdev_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(env_extras_warn, setup, teardown),
		cmocka_unit_test_setup_teardown(env_parity_warns, setup, teardown),
		cmocka_unit_test_setup_teardown(env_nft_judged, setup, teardown),
		cmocka_unit_test_setup_teardown(rate_healthy_passes, setup, teardown),
		cmocka_unit_test_setup_teardown(rate_1x_link_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(rate_slow_speed_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(rate_site_expectation, setup, teardown),
		cmocka_unit_test_setup_teardown(rate_without_caps_is_info, setup, teardown),
		cmocka_unit_test_setup_teardown(pcie_gen3_x8_under_hdr_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(pcie_degraded_but_enough_warns, setup, teardown),
		cmocka_unit_test_setup_teardown(pcie_healthy_and_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(pcie_ndr_signalling, setup, teardown),
		cmocka_unit_test_setup_teardown(env_memlock_enough_warns, setup, teardown),
		cmocka_unit_test_setup_teardown(rate_errors_first, setup, teardown),
		cmocka_unit_test_setup_teardown(gid_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(mtu_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(lossless_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(numa_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(qps_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(fp_pcie, setup, teardown),
		cmocka_unit_test_setup_teardown(fp_link_rate, setup, teardown),
		cmocka_unit_test_setup_teardown(fp_lossless, setup, teardown),
		cmocka_unit_test_setup_teardown(conclusion_order, setup, teardown),
		cmocka_unit_test(data_rate),
		cmocka_unit_test(counter_classes),
		cmocka_unit_test(judge_and_lines),
		cmocka_unit_test(fingerprint_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
