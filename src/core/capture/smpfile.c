// SPDX-License-Identifier: MIT
/* The SMP answers of a capture: capture writes each port's PortInfo (as
 * the SMP query returned it) and its peer into smp/DEV/PORT; on --from,
 * source_capture hands them to the same decoder the live query uses, so
 * widths, speeds, MTU and the peer read as they did on the host. */
#include "config.h"
#include "core/capture/smpfile.h"

#include <infiniband/mad.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/capture/replay.h"
#include "core/fabric/fabric.h"
#include "core/port/port.h"
#include "core/port/sources.h"

int smpfile_format(char *buf, size_t len, const struct port_info *p, const uint8_t *pi)
{
	const struct port_peer *q = &p->peer;
	size_t n = (size_t)snprintf(buf, len, "portinfo ");

	for (int i = 0; i < IB_SMP_DATA_SIZE && n + 3 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%02x", pi[i]);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "\npeer %d 0x%016" PRIx64 " %d %d %u %u %u\npeer_name %s\n",
				      q->v.valid, q->guid, q->type, q->port, q->lid, q->vendid, q->devid,
				      q->name);
	return n < len ? (int)n : -1;
}

static int capture_refine(struct port_info *p, const struct snap_opts *o,
			  char *why, size_t whylen)
{
	char path[4200], rel[300], line[256];
	uint8_t pi[IB_SMP_DATA_SIZE] = { 0 };
	struct port_peer q = { 0 };
	int valid = 0, got = 0;
	FILE *f;

	(void)o;
	if (!replay_active())
		return 0;
	snprintf(rel, sizeof(rel), "smp/%.200s/%d", p->dev, p->port);
	f = fopen(replay_path(rel, path, sizeof(path)), "r");
	if (!f)
		return 0;	/* not an IB port, or no SMP on the host: sysfs only */
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "portinfo ", 9) && strlen(line + 9) == 2 * IB_SMP_DATA_SIZE) {
			got = 1;
			for (int i = 0; i < IB_SMP_DATA_SIZE && got; i++) {
				unsigned b;

				got = sscanf(line + 9 + 2 * i, "%2x", &b) == 1;
				pi[i] = (uint8_t)b;
			}
		} else if (!strncmp(line, "peer ", 5)) {
			if (sscanf(line + 5, "%d %" SCNx64 " %d %d %u %u %u", &valid, &q.guid, &q.type,
				   &q.port, &q.lid, &q.vendid, &q.devid) != 7)
				valid = 0;
		} else if (!strncmp(line, "peer_name ", 10)) {
			snprintf(q.name, sizeof(q.name), "%.71s", line + 10);
		}
	}
	fclose(f);
	if (!got) {
		snprintf(why, whylen, "capture: %s holds no readable PortInfo", rel);
		return -1;
	}
	port_read_portinfo(p, pi, mad_get_field(pi, 0, IB_PORT_CAPMASK_F));
	snprintf(p->mtu_source, sizeof(p->mtu_source), "smp");
	if (valid == 1) {
		q.v.valid = true;
		p->peer = q;
	}
	return 0;
}

const struct source source_capture = {
	.name = "smp",
	.refine = capture_refine,
};

/* The fields, in the order a line holds them after GUID and port. */
#define FAB_FIELDS(p) (p)->state, (p)->phys_state, (p)->width_active, (p)->width_enabled, \
	(p)->width_supported, (p)->speed_active, (p)->speed_enabled, (p)->speed_supported, \
	(p)->ext_active, (p)->ext_enabled, (p)->ext_supported, (p)->ext2_active, \
	(p)->ext2_enabled, (p)->ext2_supported, (p)->mtu_active, (p)->mtu_cap

void smpfile_fabric_write(FILE *f, const struct fabric *fab)
{
	for (int i = 0; i < fab->nports; i++) {
		const struct fab_port *p = &fab->ports[i];

		if (!p->info_valid)
			continue;
		fprintf(f, "0x%016" PRIx64 " %d %d %d %u %u %u %u %u %u %u %u %u %u %u %u %d %d %d %d %d\n",
			fab->nodes[p->node].guid, p->portnum, FAB_FIELDS(p), p->ext_valid,
			p->ext2_valid, p->fdr10);
	}
}

int smpfile_fabric_apply(struct fabric *fab, const char *text, size_t len, char *err,
			 size_t errlen)
{
	const char *s = text, *end = text + len;
	int line = 0;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		char buf[256];
		struct fab_port q = { 0 };
		uint64_t guid;
		int k, ev, e2v, fdr10, n = 0;

		line++;
		if (!nl || nl - s >= (long)sizeof(buf)) {
			snprintf(err, errlen, "fabric.ports line %d: no line end within %zu bytes", line, sizeof(buf));
			return -1;
		}
		memcpy(buf, s, (size_t)(nl - s));
		buf[nl - s] = '\0';
		s = nl + 1;
		if (sscanf(buf, "%" SCNx64 " %d %d %d %u %u %u %u %u %u %u %u %u %u %u %u %d %d %d %d %d%n",
			   &guid, &q.portnum, &q.state, &q.phys_state, &q.width_active, &q.width_enabled,
			   &q.width_supported, &q.speed_active, &q.speed_enabled, &q.speed_supported,
			   &q.ext_active, &q.ext_enabled, &q.ext_supported, &q.ext2_active,
			   &q.ext2_enabled, &q.ext2_supported, &q.mtu_active, &q.mtu_cap, &ev, &e2v,
			   &fdr10, &n) != 21 || buf[n] || q.state < 1 || q.state > 5) {
			snprintf(err, errlen, "fabric.ports line %d: not a port's fields", line);
			return -1;
		}
		k = fabric_find_port(fab, guid, q.portnum);
		if (k < 0)
			continue;	/* not in the saved topology */
		struct fab_port *p = &fab->ports[k];

		q.node = p->node;
		q.guid = p->guid;
		q.lid = p->lid;
		q.lmc = p->lmc;
		q.remote = p->remote;
		q.ext_valid = ev == 1;
		q.ext2_valid = e2v == 1;
		q.fdr10 = fdr10 == 1;
		q.info_valid = true;
		*p = q;
		fabric_port_decode(p);
	}
	return 0;
}
