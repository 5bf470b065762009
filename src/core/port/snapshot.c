// SPDX-License-Identifier: MIT
/* Snapshot: every local port, gathered once from all sources in a fixed
 * order; the one model the console, the JSON writer and the rules read. */
#include "config.h"
#include "core/port/snapshot.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/port/pcie.h"
#include "core/port/sources.h"
#include "core/base/sysfs.h"
#include "core/base/umadlock.h"
#include "core/optics/source.h"

/* Refiners in order of authority: later ones only fill what is missing. */
static const struct source *const refiners[] = {
	&source_sysfs, &source_smp, &source_verbs, &source_capture,
};

static int snapshot_reserve(struct snapshot *s, int n)
{
	struct port_info *np;
	int cap = s->cap ? s->cap : 8;

	if (n <= s->cap)
		return 0;
	while (cap < n) {
		if (cap > INT_MAX / 2)
			return -1;
		cap *= 2;
	}
	np = realloc(s->ports, (size_t)cap * sizeof(*np));
	if (!np)
		return -1;
	s->ports = np;
	s->cap = cap;
	return 0;
}

struct port_info *snapshot_add_port(struct snapshot *s)
{
	struct port_info *p;

	if (snapshot_reserve(s, s->nports + 1))
		return NULL;
	p = &s->ports[s->nports++];
	memset(p, 0, sizeof(*p));
	p->roce_v2_ipv4_index = -1;
	return p;
}

void snapshot_release(struct snapshot *s)
{
	free(s->ports);
	s->ports = NULL;
	s->cap = s->nports = 0;
}

int snapshot_copy(struct snapshot *dst, const struct snapshot *src)
{
	struct port_info *keep = dst->ports;
	int cap = dst->cap;

	*dst = *src;
	dst->ports = keep;
	dst->cap = cap;
	if (snapshot_reserve(dst, src->nports)) {
		dst->nports = 0;
		return -1;
	}
	if (src->nports)
		memcpy(dst->ports, src->ports, (size_t)src->nports * sizeof(*src->ports));
	return 0;
}

int snapshot_name_cmp(const char *a, const char *b)
{
	/* mlx5_2 before mlx5_10: runs of digits compare as numbers */
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			if (ea - a != eb - b)
				return ea - a < eb - b ? -1 : 1;
			for (; a < ea; a++, b++)
				if (*a != *b)
					return *a < *b ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

bool snapshot_wants(const struct snap_opts *o, const char *dev, int port)
{
	return (!o->device || !strcmp(o->device, dev)) && (!o->port || o->port == port);
}

static void add_source(char *list, size_t len, const char *name)
{
	if (strstr(list, name))
		return;
	snprintf(list + strlen(list), len - strlen(list), "%s%s", *list ? "+" : "", name);
}

static void note(struct snapshot *s, const char *why)
{
	if (!s->warning[0])
		snprintf(s->warning, sizeof(s->warning), "%s", why);
}

/* Why nothing was found, phrased with what to do about it. */
static void explain_empty(const struct snap_opts *o, int rc, const char *enum_err,
			  char *err, size_t errlen)
{
	if (rc == -EACCES || rc == -EPERM)
		snprintf(err, errlen, "no permission: %s — run as root or grant read access to sysfs",
			 enum_err);
	else if (o->device)
		snprintf(err, errlen, "device %s not found%s%s — list devices with `ibconsole snapshot` or pick another with -d",
			 o->device, *enum_err ? ": " : "", enum_err);
	else if (o->port)
		snprintf(err, errlen, "no device has a port %d — list ports with `ibconsole snapshot` or pick another with -i",
			 o->port);
	else if (*enum_err)
		snprintf(err, errlen, "no RDMA device found: %s — load the HCA driver (e.g. mlx5_ib, rdma_rxe) or try `ibconsole --demo`",
			 enum_err);
	else
		snprintf(err, errlen, "no RDMA device found: %s%s/sys/class/infiniband is empty — load the HCA driver (e.g. mlx5_ib, rdma_rxe) or try `ibconsole --demo`",
			 sysfs_is_real_root() ? "" : sysfs_root(), "");
}

static enum snap_status collect(struct snapshot *s, const struct snap_opts *o,
				char *err, size_t errlen);

/* one span of umad use at a time under umad2sim (umadlock.h) */
enum snap_status snapshot_collect(struct snapshot *s, const struct snap_opts *o,
				  char *err, size_t errlen)
{
	enum snap_status st;

	umadlock_span_begin();
	st = collect(s, o, err, errlen);
	umadlock_span_end();
	return st;
}

/* The module behind the port's netdev; an InfiniBand port without one
 * has no way to it through the kernel. */
static void read_module(struct port_info *p, const struct snap_opts *o)
{
	p->module_asked = true;
	if (!p->netdev[0]) {
		memset(&p->module, 0, sizeof(p->module));
		snprintf(p->module.why, sizeof(p->module.why), "%s",
			 strcmp(p->link_layer, "InfiniBand") == 0
				 ? "no network interface on this InfiniBand port: the kernel's ethtool "
				   "interface cannot reach its module (vendor tools such as mlxlink can)"
				 : "no network interface found for this port");
		return;
	}
	optics_port_read(&p->module, p->netdev,
			 o->module_near_db > 0 ? o->module_near_db : OPTICS_NEAR_DB_DEFAULT,
			 p->phys_state == 5 ? 1 : p->phys_state ? 0 : -1);
}

static enum snap_status collect(struct snapshot *s, const struct snap_opts *o,
				char *err, size_t errlen)
{
	char enum_err[160] = "";
	int n = -1;

	{
		struct port_info *keep = s->ports;
		int cap = s->cap;

		memset(s, 0, sizeof(*s));
		s->ports = keep;
		s->cap = cap;
	}
	clock_gettime(CLOCK_REALTIME, &s->taken);
	gethostname(s->host, sizeof(s->host) - 1);
	/* the sysfs root is main's, set once before any thread starts */

	/* libibumad reads the real /sys only; a fixture root needs sysfs */
	if (sysfs_is_real_root()) {
		n = source_umad.enumerate(s, o, enum_err, sizeof(enum_err));
		if (n > 0)
			add_source(s->sources, sizeof(s->sources), "umad");
		if (n == -EHOSTUNREACH) {
			/* sysfs would hang the same way under the preload */
			snprintf(err, errlen, "%s", enum_err);
			return SNAP_NODEV;
		}
	}
	if (n <= 0) {
		s->nports = 0;
		n = source_sysfs.enumerate(s, o, enum_err, sizeof(enum_err));
	}
	if (n <= 0) {
		explain_empty(o, n, enum_err, err, errlen);
		return SNAP_NODEV;
	}

	for (int i = 0; i < s->nports; i++) {
		struct port_info *p = &s->ports[i];

		for (size_t r = 0; r < sizeof(refiners) / sizeof(*refiners); r++) {
			char why[PORT_ERR] = "";
			bool had_link = p->link_v.valid, had_mtu = p->mtu_v.valid;

			if (refiners[r]->refine(p, o, why, sizeof(why))) {
				note(s, why);
				if (!p->peer.v.valid && !p->peer.v.why[0])
					snprintf(p->peer.v.why, sizeof(p->peer.v.why), "%s", why);
				if (!p->link_v.valid && !p->link_v.why[0])
					snprintf(p->link_v.why, sizeof(p->link_v.why), "%s", why);
				continue;
			}
			if (r == 0 || p->link_v.valid != had_link || p->mtu_v.valid != had_mtu) {
				add_source(p->sources, sizeof(p->sources), refiners[r]->name);
				add_source(s->sources, sizeof(s->sources), refiners[r]->name);
			}
		}
		if (!strstr(p->sources, "umad") && strstr(s->sources, "umad")) {
			char tmp[PORT_STR];

			snprintf(tmp, sizeof(tmp), "umad%s%s", *p->sources ? "+" : "", p->sources);
			snprintf(p->sources, sizeof(p->sources), "%s", tmp);
		}
		if (!p->link_v.valid && !p->link_v.why[0])
			snprintf(p->link_v.why, sizeof(p->link_v.why), "%s",
				 o->no_smp ? "SMP queries disabled" :
				 !sysfs_is_real_root() ? "fixture tree: no SMP or verbs access" :
				 "no source reported width and speed");
		if (!p->peer.v.valid && !p->peer.v.why[0])
			snprintf(p->peer.v.why, sizeof(p->peer.v.why), "%s",
				 strcmp(p->link_layer, "InfiniBand") ? "not an InfiniBand port: no SMP to ask" :
				 o->no_smp ? "SMP queries disabled" :
				 !sysfs_is_real_root() ? "fixture tree: no SMP access" :
				 "no SMP answer");
		if (!p->mtu_v.valid && !p->mtu_v.why[0])
			snprintf(p->mtu_v.why, sizeof(p->mtu_v.why), "%s",
				 o->no_smp ? "SMP queries disabled (--no-smp) and no verbs device" :
				 !sysfs_is_real_root() ? "fixture tree: MTU needs SMP or verbs" :
				 p->link_v.why[0] ? p->link_v.why : "no source reported the MTU");
		if (p->link_v.valid)
			port_decode_rate(p);
		port_pick_data_rate(p);
		if (o->modules)
			read_module(p, o);
	}
	return SNAP_OK;
}
