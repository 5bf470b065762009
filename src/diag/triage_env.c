// SPDX-License-Identifier: MIT
/* Triage, the environment check that comes before any test: port states
 * and link layers, the device-to-netdev mapping, the locked-memory limit,
 * then the extras (both ends' driver / firmware, governor, irqbalance). */
#include "config.h"
#include "diag/triage.h"
#include "diag/triage_int.h"

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

	/* the extras: reported, and warned about, never a failure */
	if (ev->peer_facts_valid) {
		const struct proto_facts *l = &ev->local_facts, *p = &ev->peer_facts;

		tri_line(r, "driver %s / %s, firmware %s / %s, HCA %s / %s (here / peer)",
		     l->driver[0] ? l->driver : "?", p->driver[0] ? p->driver : "?",
		     l->fw_ver[0] ? l->fw_ver : "?", p->fw_ver[0] ? p->fw_ver : "?",
		     l->ca_type[0] ? l->ca_type : "?", p->ca_type[0] ? p->ca_type : "?");
		if (strcmp(l->driver, p->driver) || strcmp(l->fw_ver, p->fw_ver) || strcmp(l->ca_type, p->ca_type))
			tri_judge(r, TRI_WARN, "run the same HCA model, driver and firmware on both ends",
			      "the ends differ: driver %s / %s, firmware %s / %s", l->driver, p->driver,
			      l->fw_ver, p->fw_ver);
	} else {
		tri_line(r, "driver %s, firmware %s (the peer's: %s)", ev->env.driver[0] ? ev->env.driver : "?",
		     ev->local.fw_ver[0] ? ev->local.fw_ver : "?",
		     ev->peer[0] ? ev->peer_why : "no --peer given");
	}
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
