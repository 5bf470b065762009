// SPDX-License-Identifier: MIT
/* The libibumad / libibmad sources: CAs and ports as libibumad reports them
 * (what ibstat prints), and SMP PortInfo for widths, speeds and MTUs. */
#include "config.h"
#include "core/port/sources.h"

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "core/port/madaccess.h"
#include "core/port/smpagent.h"
#include "core/base/sysfs.h"

/*
 * Under ibsim's umad2sim preload, the first libibumad call connects to the
 * simulator and retries for ever while nothing listens. Look for ibsim's
 * abstract socket first so a stopped simulator is an error, not a hang.
 * A remote simulator (IBSIM_SERVER_NAME) cannot be checked this way.
 */
static bool sim_unreachable(char *err, size_t errlen)
{
	const char *pre = getenv("LD_PRELOAD"), *name = getenv("IBSIM_SOCKNAME");
	char want[128], line[512];
	bool seen = false;
	FILE *f;

	if (!pre || !strstr(pre, "umad2sim") || getenv("IBSIM_SERVER_NAME"))
		return false;
	snprintf(want, sizeof(want), " @%s:ctl", name && *name ? name : "sim");
	f = fopen("/proc/net/unix", "re");
	if (!f)
		return false;	/* cannot tell: let libibumad try */
	while (!seen && fgets(line, sizeof(line), f)) {
		size_t n, w = strlen(want);

		/* the name's trailing NUL padding prints as '@' */
		line[strcspn(line, "\n")] = '\0';
		n = strlen(line);
		while (n && line[n - 1] == '@')
			line[--n] = '\0';

		seen = n >= w && !strcmp(line + n - w, want);
	}
	fclose(f);
	if (!seen)
		snprintf(err, errlen,
			 "simulated fabric not reachable: no ibsim listening on @%s:ctl — start ibsim, or unset LD_PRELOAD to use real devices",
			 name && *name ? name : "sim");
	return !seen;
}

static int by_name(const void *a, const void *b)
{
	return snapshot_name_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every CA, however many: umad_get_cas_names stops at UMAD_MAX_DEVICES
 * (32) without a word, the device list does not. Sorted by name. */
static int ca_names(char ***out, char *err, size_t errlen)
{
	struct umad_device_node *head, *d;
	char **names = NULL;
	int n = 0, cap = 0;

	errno = 0;
	head = umad_get_ca_device_list();
	if (!head) {
		*out = NULL;
		if (errno && errno != ENOENT && errno != ENODEV) {
			snprintf(err, errlen, "libibumad cannot list devices: %s", strerror(errno));
			return -errno;
		}
		return 0;
	}
	for (d = head; d; d = d->next) {
		if (n == cap) {
			char **nn = realloc(names, (size_t)(cap ? cap * 2 : 16) * sizeof(*nn));

			if (!nn)
				goto nomem;
			names = nn;
			cap = cap ? cap * 2 : 16;
		}
		if (!(names[n] = strdup(d->ca_name)))
			goto nomem;
		n++;
	}
	umad_free_ca_device_list(head);
	qsort(names, (size_t)n, sizeof(*names), by_name);
	*out = names;
	return n;
nomem:
	umad_free_ca_device_list(head);
	while (n > 0)
		free(names[--n]);
	free(names);
	snprintf(err, errlen, "cannot list devices: out of memory");
	return -ENOMEM;
}

static int umad_enumerate(struct snapshot *s, const struct snap_opts *o,
			  char *err, size_t errlen)
{
	char **names;
	int n, added = 0;

	if (sim_unreachable(err, errlen))
		return -EHOSTUNREACH;

	n = ca_names(&names, err, errlen);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		umad_ca_t ca;

		if (added < 0 || (o->device && strcmp(o->device, names[i])))
			continue;
		if (umad_get_ca(names[i], &ca) < 0)
			continue;
		for (int pn = 1; pn <= ca.numports && pn < UMAD_CA_MAX_PORTS; pn++) {
			umad_port_t *up = ca.ports[pn];
			struct port_info *p;

			if (!up || !snapshot_wants(o, ca.ca_name, pn))
				continue;
			p = snapshot_add_port(s);
			if (!p) {
				snprintf(err, errlen, "cannot list ports: out of memory");
				added = -ENOMEM;
				break;
			}
			snprintf(p->dev, sizeof(p->dev), "%s", ca.ca_name);
			snprintf(p->ca_type, sizeof(p->ca_type), "%s", ca.ca_type);
			snprintf(p->fw_ver, sizeof(p->fw_ver), "%s", ca.fw_ver);
			snprintf(p->hw_ver, sizeof(p->hw_ver), "%s", ca.hw_ver);
			p->node_guid = be64toh(ca.node_guid);
			p->sys_guid = be64toh(ca.system_guid);
			p->port = pn;
			p->state = (int)up->state;
			p->phys_state = (int)up->phys_state;
			p->umad_rate = up->rate;
			p->lid = up->base_lid;
			p->lmc = up->lmc;
			p->sm_lid = up->sm_lid;
			p->sm_sl = up->sm_sl;
			p->cap_mask = be32toh(up->capmask);
			p->port_guid = be64toh(up->port_guid);
			p->gid_prefix = be64toh(up->gid_prefix);
			p->addr_v.valid = true;
			/* libibumad says "IB" when sysfs has no link_layer */
			snprintf(p->link_layer, sizeof(p->link_layer), "%s",
				 strcmp(up->link_layer, "IB") ? up->link_layer : "InfiniBand");
			added++;
		}
		umad_release_ca(&ca);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return added;
}

const struct source source_umad = {
	.name = "umad",
	.enumerate = umad_enumerate,
};

/* --- SMP PortInfo through libibmad --- */

#define SMP_TIMEOUT_MS 300

/* The node at the other end of p's cable: NodeInfo and NodeDescription
 * over the directed route out of p (as `smpquery -D nodeinfo 0,PORT`),
 * then its PortInfo for the LID its PMA answers on — port 0's on a
 * switch, the cabled port's on a CA. Fills p->peer or its reason. */
static void smp_peer(struct port_info *p, struct smp_agent *a)
{
	struct port_peer *q = &p->peer;
	uint8_t ni[IB_SMP_DATA_SIZE] = { 0 }, nd[IB_SMP_DATA_SIZE] = { 0 };
	uint8_t pi[IB_SMP_DATA_SIZE] = { 0 };
	char path[16];
	ib_portid_t dr;

	memset(q, 0, sizeof(*q));
	if (p->phys_state != 5) {	/* LinkUp: nothing answers otherwise */
		snprintf(q->v.why, sizeof(q->v.why), "the link is %s: no neighbour to ask",
			 port_phys_state_name(p->phys_state));
		return;
	}
	memset(&dr, 0, sizeof(dr));
	snprintf(path, sizeof(path), "0,%d", p->port);
	if (str2drpath(&dr.drpath, path, 0, 0) < 0) {
		snprintf(q->v.why, sizeof(q->v.why), "bad directed route %s", path);
		return;
	}
	if (!smp_agent_query(a, ni, &dr, IB_ATTR_NODE_INFO, 0)) {
		snprintf(q->v.why, sizeof(q->v.why),
			 "SMP NodeInfo over the directed route %s timed out", path);
		return;
	}
	q->type = (int)mad_get_field(ni, 0, IB_NODE_TYPE_F);
	q->guid = mad_get_field64(ni, 0, IB_NODE_GUID_F);
	q->port = (int)mad_get_field(ni, 0, IB_NODE_LOCAL_PORT_F);
	q->vendid = mad_get_field(ni, 0, IB_NODE_VENDORID_F);
	q->devid = mad_get_field(ni, 0, IB_NODE_DEVID_F);
	if (smp_agent_query(a, nd, &dr, IB_ATTR_NODE_DESC, 0)) {
		nd[IB_SMP_DATA_SIZE - 1] = '\0';
		snprintf(q->name, sizeof(q->name), "%.64s", (const char *)nd);
	}
	if (smp_agent_query(a, pi, &dr, IB_ATTR_PORT_INFO, q->type == 2 ? 0 : (unsigned)q->port))
		q->lid = mad_get_field(pi, 0, IB_PORT_LID_F);
	q->v.valid = true;
}

void (*smp_tap)(const struct port_info *p, const uint8_t *portinfo);

static int smp_refine(struct port_info *p, const struct snap_opts *o,
		      char *why, size_t whylen)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	uint8_t pi[IB_SMP_DATA_SIZE] = { 0 };
	struct smp_agent a;
	ib_portid_t self;

	if (o->no_smp || !sysfs_is_real_root() || strcmp(p->link_layer, "InfiniBand"))
		return 0;	/* RoCE ports have no SMA: verbs fills these */

	/* libibmad warns on stderr when the open fails; probe quietly
	 * first so the reason (e.g. permission) reaches the user intact. */
	if (madaccess_probe(p->dev, p->port, p->mad_why, sizeof(p->mad_why))) {
		snprintf(why, whylen, "%s", p->mad_why);
		return -1;
	}
	if (smp_agent_open(&a, p->dev, p->port, classes, 2, SMP_TIMEOUT_MS, 0)) {
		snprintf(why, whylen, "libibmad cannot open %s/%d", p->dev, p->port);
		return -1;
	}
	memset(&self, 0, sizeof(self));	/* directed route, zero hops: us */
	if (!smp_agent_query(&a, pi, &self, IB_ATTR_PORT_INFO, (unsigned)p->port)) {
		snprintf(why, whylen, "SMP PortInfo query on %s/%d timed out", p->dev, p->port);
		smp_agent_close(&a);
		return -1;
	}
	port_read_portinfo(p, pi, mad_get_field(pi, 0, IB_PORT_CAPMASK_F));
	smp_peer(p, &a);
	if (smp_tap)
		smp_tap(p, pi);
	smp_agent_close(&a);

	snprintf(p->mtu_source, sizeof(p->mtu_source), "smp");
	return 0;
}

const struct source source_smp = {
	.name = "smp",
	.refine = smp_refine,
};
