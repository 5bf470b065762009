// SPDX-License-Identifier: MIT
/* The rooted-sysfs source: enumerates ports when libibumad cannot (fixture
 * trees), and adds what only sysfs knows: GID types, netdev, PCIe, NUMA. */
#include "config.h"
#include "core/port/sources.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/port/numa.h"
#include "core/port/pcie.h"
#include "core/base/sysfs.h"

#define IBDIR "/sys/class/infiniband"

static uint64_t parse_guid(const char *s)
{
	char hex[17];
	int n = 0;

	for (; *s && n < 16; s++)
		if (*s != ':')
			hex[n++] = *s;
	hex[n] = '\0';
	return strtoull(hex, NULL, 16);
}

/* Directory entries, however many (no fixed cap: 40 HCAs are 40). */
struct names {
	int n, cap;
	bool nomem;
	char (*name)[64];
};

static void collect_name(const char *name, void *arg)
{
	struct names *nm = arg;

	if (nm->n == nm->cap) {
		int cap = nm->cap ? nm->cap * 2 : 16;
		char (*nn)[64] = nm->nomem ? NULL : realloc(nm->name, (size_t)cap * sizeof(*nn));

		if (!nn) {
			nm->nomem = true;
			return;
		}
		nm->name = nn;
		nm->cap = cap;
	}
	snprintf(nm->name[nm->n++], sizeof(nm->name[0]), "%s", name);
}

static int by_name(const void *a, const void *b)
{
	return snapshot_name_cmp(a, b);
}

static void read_port_basics(struct port_info *p)
{
	const char *d = p->dev;
	char buf[128];
	long v;

	if (!sysfs_read_long(&v, IBDIR "/%s/ports/%d/state", d, p->port))
		p->state = (int)v;
	if (!sysfs_read_long(&v, IBDIR "/%s/ports/%d/phys_state", d, p->port))
		p->phys_state = (int)v;
	if (!sysfs_read_long(&v, IBDIR "/%s/ports/%d/lid", d, p->port)) {
		p->lid = (unsigned)v;
		p->addr_v.valid = true;
	}
	if (!sysfs_read_long(&v, IBDIR "/%s/ports/%d/sm_lid", d, p->port))
		p->sm_lid = (unsigned)v;
	if (!sysfs_read_long(&v, IBDIR "/%s/ports/%d/sm_sl", d, p->port))
		p->sm_sl = (unsigned)v;
	if (!sysfs_read_long(&v, IBDIR "/%s/ports/%d/lid_mask_count", d, p->port))
		p->lmc = (unsigned)v;
	if (!sysfs_read(buf, sizeof(buf), IBDIR "/%s/ports/%d/cap_mask", d, p->port))
		p->cap_mask = (uint32_t)strtoul(buf, NULL, 16);
	if (!sysfs_read(buf, sizeof(buf), IBDIR "/%s/ports/%d/gids/0", d, p->port)) {
		struct in6_addr a;

		if (inet_pton(AF_INET6, buf, &a) == 1) {
			uint64_t hi = 0, lo = 0;

			for (int i = 0; i < 8; i++) {
				hi = hi << 8 | a.s6_addr[i];
				lo = lo << 8 | a.s6_addr[8 + i];
			}
			p->gid_prefix = hi;
			p->port_guid = lo;
		}
	}
	/* libibumad's own rule for "Rate": strtoul of the rate string */
	if (!sysfs_read(buf, sizeof(buf), IBDIR "/%s/ports/%d/rate", d, p->port))
		p->umad_rate = (unsigned)strtoul(buf, NULL, 10);
}

static int sysfs_enumerate(struct snapshot *s, const struct snap_opts *o,
			   char *err, size_t errlen)
{
	struct names devs = { 0 };
	int rc, added = 0;

	rc = sysfs_list(IBDIR, collect_name, &devs);
	if (rc < 0 || devs.nomem) {
		snprintf(err, errlen, "cannot read %s%s: %s", sysfs_is_real_root() ? "" :
			 sysfs_root(), IBDIR, rc < 0 ? strerror(-rc) : "out of memory");
		free(devs.name);
		return rc < 0 ? rc : -ENOMEM;
	}
	if (devs.n)
		qsort(devs.name, (size_t)devs.n, sizeof(devs.name[0]), by_name);
	for (int i = 0; i < devs.n && added >= 0; i++) {
		const char *d = devs.name[i];
		struct names ports = { 0 };
		char path[128], buf[64];

		if (o->device && strcmp(o->device, d))
			continue;
		snprintf(path, sizeof(path), IBDIR "/%s/ports", d);
		if (sysfs_list(path, collect_name, &ports) <= 0) {
			free(ports.name);
			continue;
		}
		qsort(ports.name, (size_t)ports.n, sizeof(ports.name[0]), by_name);
		for (int j = 0; j < ports.n; j++) {
			int pn = atoi(ports.name[j]);
			struct port_info *p;

			if (pn <= 0 || !snapshot_wants(o, d, pn))
				continue;
			p = snapshot_add_port(s);
			if (!p) {
				snprintf(err, errlen, "cannot list ports: out of memory");
				added = -ENOMEM;
				break;
			}
			snprintf(p->dev, sizeof(p->dev), "%s", d);
			p->port = pn;
			if (!sysfs_read(buf, sizeof(buf), IBDIR "/%s/node_guid", d))
				p->node_guid = parse_guid(buf);
			if (!sysfs_read(buf, sizeof(buf), IBDIR "/%s/sys_image_guid", d))
				p->sys_guid = parse_guid(buf);
			sysfs_read(p->fw_ver, sizeof(p->fw_ver), IBDIR "/%s/fw_ver", d);
			sysfs_read(p->hw_ver, sizeof(p->hw_ver), IBDIR "/%s/hw_rev", d);
			sysfs_read(p->ca_type, sizeof(p->ca_type), IBDIR "/%s/hca_type", d);
			read_port_basics(p);
			added++;
		}
		free(ports.name);
	}
	free(devs.name);
	return added;
}

static bool gid_is_zero(const char *g)
{
	for (; *g; g++)
		if (*g != '0' && *g != ':')
			return false;
	return true;
}

/* IPv4-mapped GID (::ffff:a.b.c.d) → dotted quad. */
static void gid_ipv4(const char *gid, char *out, size_t len)
{
	struct in6_addr a;

	out[0] = '\0';
	if (inet_pton(AF_INET6, gid, &a) == 1 && IN6_IS_ADDR_V4MAPPED(&a))
		inet_ntop(AF_INET, &a.s6_addr[12], out, (socklen_t)len);
}

struct gid_walk {
	struct port_info *p;
	int max_index;
};

static void note_gid_index(const char *name, void *arg)
{
	struct gid_walk *w = arg;
	int i = atoi(name);

	if (i > w->max_index)
		w->max_index = i;
}

static void read_gids(struct port_info *p)
{
	struct gid_walk w = { p, -1 };
	char path[128];

	p->ngids = 0;
	p->roce_v2_ipv4_index = -1;
	snprintf(path, sizeof(path), IBDIR "/%s/ports/%d/gids", p->dev, p->port);
	if (sysfs_list(path, note_gid_index, &w) <= 0)
		return;
	for (int i = 0; i <= w.max_index && p->ngids < PORT_MAX_GIDS; i++) {
		struct port_gid *g = &p->gids[p->ngids];

		if (sysfs_read(g->gid, sizeof(g->gid), IBDIR "/%s/ports/%d/gids/%d",
			       p->dev, p->port, i) || gid_is_zero(g->gid))
			continue;
		g->index = i;
		/* EINVAL for entries the kernel has no attributes for */
		sysfs_read(g->type, sizeof(g->type), IBDIR "/%s/ports/%d/gid_attrs/types/%d",
			   p->dev, p->port, i);
		sysfs_read(g->netdev, sizeof(g->netdev), IBDIR "/%s/ports/%d/gid_attrs/ndevs/%d",
			   p->dev, p->port, i);
		p->ngids++;
	}
}

/* ibdev2netdev: a RoCE port's GID 0 names its netdev; an IB port's IPoIB
 * netdevs sit under the PCI device with dev_port = port - 1. */
struct netdev_walk {
	struct port_info *p;
};

static void match_ipoib(const char *name, void *arg)
{
	struct netdev_walk *w = arg;
	long dev_port;

	if (w->p->netdev[0])
		return;
	if (sysfs_read_long(&dev_port, IBDIR "/%s/device/net/%s/dev_port", w->p->dev, name))
		dev_port = 0;
	if (dev_port == w->p->port - 1)
		snprintf(w->p->netdev, sizeof(w->p->netdev), "%s", name);
}

static void read_netdev(struct port_info *p)
{
	char path[128];
	long v;

	p->netdev[0] = '\0';
	for (int i = 0; i < p->ngids && !p->netdev[0]; i++)
		if (p->gids[i].netdev[0])
			snprintf(p->netdev, sizeof(p->netdev), "%s", p->gids[i].netdev);
	if (!p->netdev[0]) {
		struct netdev_walk w = { p };

		snprintf(path, sizeof(path), IBDIR "/%s/device/net", p->dev);
		sysfs_list(path, match_ipoib, &w);
	}
	if (!p->netdev[0])
		return;
	if (!sysfs_read_long(&v, "/sys/class/net/%s/mtu", p->netdev))
		p->netdev_mtu = (int)v;
	if (!sysfs_read_long(&v, "/sys/class/net/%s/speed", p->netdev) && v > 0)
		p->netdev_speed_mbps = (int)v;
}

static void count_counter(const char *name, void *arg)
{
	if (strcmp(name, "lifespan"))
		(*(int *)arg)++;
}

/*
 * The kernel's rate string, "200 Gb/sec (4X HDR)", names the active width
 * and speed; SMP (IB) or verbs may refine it later. umad2sim writes wrong
 * strings ("10 Gb/sec (4X)" for SDR), which SMP then overrides.
 */
static void parse_rate(struct port_info *p)
{
	/* classic speeds first, then LinkSpeedExt, then LinkSpeedExt2 */
	static const struct { const char *name; unsigned bit; } sp[] = {
		{ "SDR", 1 }, { "DDR", 2 }, { "QDR", 4 }, { "FDR10", 4 },
		{ "FDR", 1 }, { "EDR", 2 }, { "HDR", 4 }, { "NDR", 8 },
		{ "XDR", 1 },
	};
	const char *par = strchr(p->rate_sysfs, '(');
	char speed[16] = "";
	int lanes;

	if (!par || sscanf(par, "(%dX %15[A-Z0-9])", &lanes, speed) != 2)
		return;
	switch (lanes) {
	case 1: p->width_active = 0x01; break;
	case 2: p->width_active = 0x10; break;
	case 4: p->width_active = 0x02; break;
	case 8: p->width_active = 0x04; break;
	case 12: p->width_active = 0x08; break;
	default: return;
	}
	for (size_t i = 0; i < sizeof(sp) / sizeof(*sp); i++) {
		if (strcmp(speed, sp[i].name))
			continue;
		p->speed_active = i < 4 ? sp[i].bit : 0;
		p->ext_active = i >= 4 && i < 8 ? sp[i].bit : 0;
		p->ext_valid = i >= 4 && i < 8;
		p->ext2_active = i == 8 ? sp[i].bit : 0;
		p->ext2_valid = i == 8;
		p->link_v.valid = true;
		return;
	}
}

void sysfs_port_derive(struct port_info *p)
{
	for (int i = 0; i < p->ngids; i++)
		gid_ipv4(p->gids[i].gid, p->gids[i].ipv4, sizeof(p->gids[i].ipv4));
	read_netdev(p);
	p->roce_v2_ipv4_index = -1;
	for (int i = 0; i < p->ngids; i++)
		if (!strcmp(p->gids[i].type, "RoCE v2") && p->gids[i].ipv4[0] &&
		    (!p->gids[i].netdev[0] || !strcmp(p->gids[i].netdev, p->netdev))) {
			p->roce_v2_ipv4_index = p->gids[i].index;
			break;
		}
}

void sysfs_port_gids(struct port_info *p)
{
	read_gids(p);
	sysfs_port_derive(p);
}

static int sysfs_refine(struct port_info *p, const struct snap_opts *o,
			char *why, size_t whylen)
{
	char path[160];
	int rc;

	/* libibumad defaults to IB when link_layer is absent (umad2sim) */
	if (sysfs_read(p->link_layer, sizeof(p->link_layer), IBDIR "/%s/ports/%d/link_layer",
		       p->dev, p->port) || !p->link_layer[0])
		snprintf(p->link_layer, sizeof(p->link_layer), "InfiniBand");
	sysfs_read(p->rate_sysfs, sizeof(p->rate_sysfs), IBDIR "/%s/ports/%d/rate",
		   p->dev, p->port);
	p->fdr10 = strstr(p->rate_sysfs, "FDR10") != NULL;
	parse_rate(p);
	rc = sysfs_read(p->board_id, sizeof(p->board_id), IBDIR "/%s/board_id", p->dev);
	p->board_id_v.valid = !rc;
	if (rc)
		snprintf(p->board_id_v.why, sizeof(p->board_id_v.why),
			 "%s has no board_id (%s)", p->dev, strerror(-rc));
	if (!p->ca_type[0])
		sysfs_read(p->ca_type, sizeof(p->ca_type), IBDIR "/%s/hca_type", p->dev);
	/* the verbs source reads the GID table and derives from it */
	if (!verbs_reads_gids(o))
		sysfs_port_gids(p);
	snprintf(path, sizeof(path), IBDIR "/%s/ports/%d/hw_counters", p->dev, p->port);
	p->n_hw_counters = 0;
	p->hw_counters_dir[0] = '\0';
	if (sysfs_list(path, count_counter, &p->n_hw_counters) >= 0)
		snprintf(p->hw_counters_dir, sizeof(p->hw_counters_dir), "%s%s",
			 sysfs_is_real_root() ? "" : sysfs_root(), path);
	pcie_read(&p->pcie, p->dev);
	numa_read(&p->numa, p->dev);
	return 0;
}

const struct source source_sysfs = {
	.name = "sysfs",
	.enumerate = sysfs_enumerate,
	.refine = sysfs_refine,
};

int port_driver_version(const char *ibdev, char *name, size_t nlen, char *ver, size_t vlen)
{
	char buf[64], mod[64];

	name[0] = ver[0] = '\0';
	if (!sysfs_link_name(buf, sizeof(buf), "/sys/class/infiniband/%s/device/driver", ibdev)) {
		snprintf(name, nlen, "%.31s", buf);
		/* the driver's module (mlx5_core for mlx5_core); built-in
		 * drivers have no module link */
		if (sysfs_link_name(mod, sizeof(mod), "/sys/class/infiniband/%s/device/driver/module", ibdev))
			snprintf(mod, sizeof(mod), "%s", buf);
		if (!sysfs_read(buf, sizeof(buf), "/sys/module/%s/version", mod))
			snprintf(ver, vlen, "%.31s", buf);
		else
			snprintf(ver, vlen, "in-tree");
		return 0;
	}
	if (!sysfs_read(buf, sizeof(buf), "/sys/class/infiniband/%s/parent", ibdev)) {
		snprintf(name, nlen, "soft RDMA on %.15s", buf);
		snprintf(ver, vlen, "in-tree");
		return 0;
	}
	return -1;
}
