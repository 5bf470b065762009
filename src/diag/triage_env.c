// SPDX-License-Identifier: MIT
/* Triage, the environment check that comes before any test: port states
 * and link layers, the device-to-netdev mapping, the locked-memory limit,
 * then the extras (both ends' driver / firmware, governor, irqbalance). */
#include "config.h"
#include "diag/triage_steps.h"
#include "diag/triage_lines.h"

#include <stdio.h>
#include <string.h>

static const char *human_bytes(uint64_t b, char *buf, size_t len)
{
	if (b >= (1ull << 30))
		snprintf(buf, len, "%.1f GiB", (double)b / (1ull << 30));
	else if (b >= (1ull << 20))
		snprintf(buf, len, "%.1f MiB", (double)b / (1ull << 20));
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
	return buf;
}

/* A driver version for the evidence: "mlx5_core 24.10-1.1.4",
 * "mlx5_core in-tree (kernel 6.1.0-18)", "mlx5_core (version: peer did
 * not say)". */
static const char *drv_text(const struct proto_facts *f, char *buf, size_t len)
{
	if (!f->driver[0])
		snprintf(buf, len, "?");
	else if (!f->driver_version[0])
		snprintf(buf, len, "%s (version: peer did not say)", f->driver);
	else if (!strcmp(f->driver_version, "in-tree"))
		snprintf(buf, len, "%s in-tree (kernel %s)", f->driver, f->kernel[0] ? f->kernel : "?");
	else
		snprintf(buf, len, "%s %s", f->driver, f->driver_version);
	return buf;
}

/* Same driver version: the same module version, or both in-tree in the
 * same kernel release. Unknown on either side is not a difference. */
static bool drv_differs(const struct proto_facts *l, const struct proto_facts *p)
{
	if (!l->driver_version[0] || !p->driver_version[0])
		return false;
	if (strcmp(l->driver_version, p->driver_version))
		return true;
	return !strcmp(l->driver_version, "in-tree") && l->kernel[0] && p->kernel[0] &&
	       strcmp(l->kernel, p->kernel);
}

static void env_parity(const struct tri_evidence *ev, struct tri_result *r)
{
	const struct proto_facts *l = &ev->local_facts, *p = &ev->peer_facts;
	char d1[192], d2[192];

	if (!ev->peer_facts_valid) {
		tri_line(r, "driver %s %s, firmware %s (the peer's: %s)", ev->env.driver[0] ? ev->env.driver : "?",
			 ev->env.driver_version[0] ? ev->env.driver_version : "(version unknown)",
			 ev->local.fw_ver[0] ? ev->local.fw_ver : "?",
			 ev->peer[0] ? ev->peer_why : "no --peer given");
		return;
	}
	drv_text(l, d1, sizeof(d1));
	drv_text(p, d2, sizeof(d2));
	tri_line(r, "driver %s / %s, firmware %s / %s, HCA %s / %s (here / peer)", d1, d2,
		 l->fw_ver[0] ? l->fw_ver : "?", p->fw_ver[0] ? p->fw_ver : "?",
		 l->ca_type[0] ? l->ca_type : "?", p->ca_type[0] ? p->ca_type : "?");
	if (strcmp(l->ca_type, p->ca_type))
		tri_judge(r, TRI_WARN, "run the same HCA model on both ends",
			  "the ends differ: HCA %s / %s", l->ca_type, p->ca_type);
	if (strcmp(l->driver, p->driver) || drv_differs(l, p))
		tri_judge(r, TRI_WARN, "run the same driver version on both ends (ethtool -i <netdev>; modinfo <driver>)",
			  "the ends differ: driver %s / %s", d1, d2);
	if (strcmp(l->fw_ver, p->fw_ver))
		tri_judge(r, TRI_WARN, "run the same firmware on both ends (mlxfwmanager, or the vendor's firmware tool)",
			  "the ends differ: firmware %s / %s", l->fw_ver[0] ? l->fw_ver : "?",
			  p->fw_ver[0] ? p->fw_ver : "?");
}

void tri_step_env(const struct tri_evidence *ev, struct tri_result *r)
{
	const char *hint = tri_steps[TRI_ENV].hint;
	const struct tri_memlock *m = &ev->memlock;
	char b1[32], b2[32];

	for (int i = 0; i < ev->nports; i++) {
		const struct tri_portstate *q = &ev->ports[i];
		bool up = q->state == 4 && q->phys_state == 5;

		tri_line(r, "%s/%d %s/%s %s%s%s%s", q->dev, q->port, port_state_name(q->state),
		     port_phys_state_name(q->phys_state),
		     !strcmp(q->link_layer, "Ethernet") ? "Ethernet (RoCE)" :
		     q->link_layer[0] ? q->link_layer : "link layer unknown",
		     q->netdev[0] ? ", netdev " : ", no netdev", q->netdev,
		     q->under_test ? " (under triage)" : "");
		if (up)
			continue;
		if (q->under_test)
			tri_judge(r, TRI_FAIL, "bring the port up: check the cable (Polling), the subnet manager (Init / Armed) or the switch port",
			      "%s/%d is %s/%s, want Active/LinkUp", q->dev, q->port,
			      port_state_name(q->state), port_phys_state_name(q->phys_state));
		else
			tri_judge(r, TRI_WARN, "nothing to do if the port is meant to be unused",
			      "%s/%d is %s/%s (not under triage)", q->dev, q->port,
			      port_state_name(q->state), port_phys_state_name(q->phys_state));
	}
	if (!ev->local_valid) {
		tri_judge(r, TRI_FAIL, "pick a port that 'ibconsole snapshot' lists (-d, -i)", "%s", ev->local_why);
		return;
	}
	if (!ev->local.netdev[0] && tri_is_roce(ev))
		tri_judge(r, TRI_FAIL, "create or bring up the Ethernet interface of the RoCE device (rdma link show)",
		      "no netdev behind %s/%d: RoCE needs one", ev->local.dev, ev->local.port);
	else if (!ev->local.netdev[0])
		tri_line(r, "no IPoIB netdev behind %s/%d (tests do not need one)", ev->local.dev, ev->local.port);

	if (!m->valid)
		tri_judge(r, TRI_WARN, hint, "locked-memory limit not readable: %s", m->why);
	else if (m->unlimited)
		tri_line(r, "memlock unlimited");
	else if (m->cap_ipc_lock)
		tri_line(r, "memlock %s, but CAP_IPC_LOCK is held", human_bytes(m->limit_bytes, b1, sizeof(b1)));
	else if (m->limit_bytes >= m->need_bytes)
		/* enough for these tests, but the reference expects unlimited:
		 * a larger run (more QPs, bigger messages) would fail */
		tri_judge(r, TRI_WARN, "raise the limit: ulimit -l unlimited (memlock in /etc/security/limits.conf), as the reference procedure expects",
			  "memlock %s, not unlimited: enough for the %s these tests lock, not for larger runs",
			  human_bytes(m->limit_bytes, b1, sizeof(b1)),
			  human_bytes(m->need_bytes, b2, sizeof(b2)));
	else
		tri_judge(r, TRI_FAIL, "raise the limit: ulimit -l unlimited (memlock in /etc/security/limits.conf); containers also need IPC_LOCK",
		      "memlock %s and no CAP_IPC_LOCK: the tests lock %s, memory registration would fail",
		      human_bytes(m->limit_bytes, b1, sizeof(b1)), human_bytes(m->need_bytes, b2, sizeof(b2)));

	/* the extras: reported, and warned about, never a failure. The
	 * reference procedure's environment checklist: both ends on the same
	 * HCA model, driver and firmware version; interfering services quiet
	 * (NetworkManager re-configuring the RDMA netdev; a firewall dropping
	 * RoCE v2, UDP 4791 per the IBTA's RoCEv2 annex A17) */
	env_parity(ev, r);
	if (ev->env.nm == 1)
		tri_judge(r, TRI_WARN, "mark the RDMA netdev unmanaged (nmcli device set <netdev> managed no) so NetworkManager does not re-configure it under a test",
			  "NetworkManager manages %s: %s", ev->local.netdev, ev->env.nm_line);
	else if (ev->env.nm_line[0])
		tri_line(r, "%s", ev->env.nm_line);
	if (ev->env.firewall == 1 && tri_is_roce(ev))
		tri_judge(r, TRI_WARN, "accept UDP 4791 (RoCE v2) on the RDMA netdev, e.g. nft add rule inet filter input udp dport 4791 accept",
			  "the firewall drops RoCE v2: %s", ev->env.fw_line);
	else if (ev->env.fw_line[0])
		tri_line(r, "%s%s", ev->env.fw_line,
			  ev->env.firewall == 1 ? " (InfiniBand: not RoCE's traffic)" : "");
	if (!ev->env.governor[0])
		tri_line(r, "CPU governor unknown: %s", ev->env.governor_why);
	else if (ev->env.gov_other || strcmp(ev->env.governor, "performance"))
		tri_judge(r, TRI_WARN, "set the CPU governor to performance (cpupower frequency-set -g performance)",
		      "CPU governor %s on %d of %d CPUs, want performance", ev->env.governor,
		      ev->env.gov_other ? ev->env.gov_other : ev->env.gov_cpus, ev->env.gov_cpus);
	else
		tri_line(r, "CPU governor performance on all %d CPUs", ev->env.gov_cpus);
	if (ev->env.irqbalance == 1)
		tri_judge(r, TRI_WARN, "stop irqbalance during tests, or pin the HCA's interrupts to its node",
		      "irqbalance is running: it moves the HCA's interrupts during a test");
	else
		tri_line(r, "irqbalance %s", ev->env.irqbalance == 0 ? "not running" : "state unknown");
	if (r->state <= TRI_PASS) {
		r->state = TRI_PASS;
		tri_fmt(r->reason, TRI_LINE, "%s/%d %s/%s, %s; %s%s%s; memlock %s",
			 ev->local.dev, ev->local.port, port_state_name(ev->local.state),
			 port_phys_state_name(ev->local.phys_state),
			 tri_is_roce(ev) ? "RoCE" : "InfiniBand", ev->local.dev,
			 ev->local.netdev[0] ? " <-> " : " (no netdev)", ev->local.netdev,
			 m->unlimited ? "unlimited" : m->cap_ipc_lock ? "CAP_IPC_LOCK" :
			 human_bytes(m->limit_bytes, b1, sizeof(b1)));
	}
}

bool triage_env_ok(const struct tri_evidence *ev)
{
	struct tri_result r;

	memset(&r, 0, sizeof(r));
	tri_step_env(ev, &r);
	return r.state != TRI_FAIL;
}
