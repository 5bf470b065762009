// SPDX-License-Identifier: MIT
/* The libibverbs source: ibv_query_port for ports that have a verbs
 * device — on RoCE the only place that knows the active MTU and width. */
#include "config.h"
#include "core/port/sources.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "core/base/sysfs.h"
#include "core/port/verbsdl.h"

/* active_speed (verbs enum) → the PortInfo masks port_decode_rate reads.
 * XDR cannot come this way: rdma-core 44's ibv_port_attr has only the
 * 8-bit active_speed (NDR = 128 is its last value); XDR needs
 * active_speed_ex, which rdma-core added in v49. An XDR port is decoded
 * from the kernel's sysfs rate string ("800 Gb/sec (4X XDR)", parse_rate
 * in sysfs_source.c), which is read first, or from SMP PortInfo's
 * LinkSpeedExtActive2; verbs only fills what both left unknown. */
static void verbs_speed(struct port_info *p, unsigned sp)
{
	p->speed_active = p->ext_active = 0;
	p->ext_valid = sp > 4;
	switch (sp) {
	case 1: case 2: case 4: p->speed_active = sp; break;
	case 8: p->speed_active = 4; p->fdr10 = true; break;	/* FDR10 */
	case 16: p->ext_active = 1; break;			/* FDR */
	case 32: p->ext_active = 2; break;			/* EDR */
	case 64: p->ext_active = 4; break;			/* HDR */
	case 128: p->ext_active = 8; break;			/* NDR */
	default: break;
	}
}

/* libibverbs does not keep open()'s errno; ask the device node itself. */
static int open_errno(struct ibv_device *dev)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/dev/infiniband/%s", dev->dev_name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return EIO;
	}
	return errno;
}

struct uverbs_walk {
	const char *dev;
	bool found;
};

static void match_uverbs(const char *name, void *arg)
{
	struct uverbs_walk *w = arg;
	char ibdev[64];

	if (!sysfs_read(ibdev, sizeof(ibdev), "/sys/class/infiniband_verbs/%s/ibdev", name) &&
	    !strcmp(ibdev, w->dev))
		w->found = true;
}

/* The kernel exposes a uverbs device for dev: libibverbs should see it. */
static bool kernel_has_uverbs(const char *dev)
{
	struct uverbs_walk w = { dev, false };

	sysfs_list("/sys/class/infiniband_verbs", match_uverbs, &w);
	return w.found;
}

bool verbs_reads_gids(const struct snap_opts *o)
{
	return !o->no_verbs && sysfs_is_real_root();
}

static int by_gid_index(const void *a, const void *b)
{
	const struct ibv_gid_entry *x = a, *y = b;

	return (x->gid_index > y->gid_index) - (x->gid_index < y->gid_index);
}

/* The port's GID table in one ioctl (ibv_query_gid_table, the entries in
 * use) instead of a sysfs file per entry: as sysfs prints them (the GID
 * in full IPv6 form, gid_attrs/types' words, gid_attrs/ndevs' name). */
static int verbs_gids(struct ibv_context *ctx, const struct ibv_device_attr *da,
		      const struct ibv_port_attr *pa, struct port_info *p)
{
	struct ibv_gid_entry *e;
	size_t max;
	ssize_t n;
	int k = 0;

	if (pa->gid_tbl_len <= 0 || !da->phys_port_cnt)
		return -1;
	max = (size_t)da->phys_port_cnt * (size_t)pa->gid_tbl_len;
	e = calloc(max, sizeof(*e));
	if (!e)
		return -1;
	n = ibv_query_gid_table(ctx, e, max, 0);
	if (n < 0) {
		free(e);
		return -1;
	}
	for (ssize_t i = 0; i < n; i++)
		if (e[i].port_num == (uint32_t)p->port)
			e[k++] = e[i];
	qsort(e, (size_t)k, sizeof(*e), by_gid_index);
	p->ngids = 0;
	for (int i = 0; i < k && p->ngids < PORT_MAX_GIDS; i++) {
		struct port_gid *g = &p->gids[p->ngids];
		const uint8_t *b = e[i].gid.raw;
		char ifname[IF_NAMESIZE] = "";
		int len = 0;

		memset(g, 0, sizeof(*g));
		for (int w = 0; w < 8; w++)
			len += snprintf(g->gid + len, sizeof(g->gid) - (size_t)len, "%s%02x%02x",
					w ? ":" : "", b[2 * w], b[2 * w + 1]);
		g->index = (int)e[i].gid_index;
		snprintf(g->type, sizeof(g->type), "%s",
			 e[i].gid_type == IBV_GID_TYPE_ROCE_V2 ? "RoCE v2" : "IB/RoCE v1");
		if (e[i].ndev_ifindex && if_indextoname(e[i].ndev_ifindex, ifname))
			snprintf(g->netdev, sizeof(g->netdev), "%s", ifname);
		p->ngids++;
	}
	free(e);
	return 0;
}

static int verbs_port(struct port_info *p, char *why, size_t whylen, bool *gids)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_port_attr attr;
	bool found = false;
	int n, rc = 0, err = 0;

	if (verbsdl_load(why, whylen))
		return -1;
	list = ibv_get_device_list(&n);
	if (!list) {
		if (errno == ENOSYS)
			return 0;	/* kernel without uverbs: no verbs devices */
		snprintf(why, whylen, "libibverbs cannot list devices: %s", strerror(errno));
		return -1;
	}
	for (int i = 0; i < n && !found; i++)
		if (!strcmp(ibv_get_device_name(list[i]), p->dev)) {
			found = true;
			ctx = ibv_open_device(list[i]);
			if (!ctx)
				err = open_errno(list[i]);
		}
	ibv_free_device_list(list);
	if (found && !ctx) {
		snprintf(why, whylen,
			 "cannot open the verbs device of %s: %s — run as root or get rw access to /dev/infiniband/uverbs*",
			 p->dev, strerror(err ? err : EIO));
		return -1;
	}
	if (!found && kernel_has_uverbs(p->dev)) {
		snprintf(why, whylen,
			 "libibverbs has no provider for %s — install ibverbs-providers (apt-get install ibverbs-providers)",
			 p->dev);
		return -1;
	}
	if (!ctx)
		return 0;	/* no verbs device (e.g. ibsim): nothing to add */
	if (ibv_query_port(ctx, (uint8_t)p->port, &attr)) {
		snprintf(why, whylen, "ibv_query_port on %s/%d failed", p->dev, p->port);
		rc = -1;
		goto out;
	}
	{
		struct ibv_device_attr da;

		if (!ibv_query_device(ctx, &da)) {
			*gids = !verbs_gids(ctx, &da, &attr, p);
			if (!p->fw_ver[0])
				snprintf(p->fw_ver, sizeof(p->fw_ver), "%s", da.fw_ver);
		}
	}
	/* SMP (IB) is the authority when it answered; verbs fills the rest */
	if (!p->mtu_v.valid) {
		p->mtu_active = port_mtu_bytes(attr.active_mtu);
		p->mtu_max = port_mtu_bytes(attr.max_mtu);
		p->mtu_v.valid = p->mtu_active > 0;
		snprintf(p->mtu_source, sizeof(p->mtu_source), "verbs");
	}
	if (!p->link_v.valid) {
		p->width_active = attr.active_width;
		verbs_speed(p, attr.active_speed);
		p->link_v.valid = true;
	}
	if (!p->state)
		p->state = attr.state;
	if (!p->phys_state)
		p->phys_state = attr.phys_state;
out:
	ibv_close_device(ctx);
	return rc;
}

static int verbs_refine(struct port_info *p, const struct snap_opts *o,
			char *why, size_t whylen)
{
	bool gids = false;
	int rc;

	if (!verbs_reads_gids(o))
		return 0;
	rc = verbs_port(p, why, whylen, &gids);
	/* the sysfs source left the GID table to this one: from sysfs after
	 * all when the device gave none (not opened, no verbs device) */
	if (gids)
		sysfs_port_derive(p);
	else
		sysfs_port_gids(p);
	return rc;
}

const struct source source_verbs = {
	.name = "verbs",
	.refine = verbs_refine,
};
