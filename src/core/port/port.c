// SPDX-License-Identifier: MIT
/* Port model decoders: state names, width / speed masks, MTU codes and the
 * resulting rate — pure functions, no I/O, unit-tested row by row. */
#include "config.h"
#include "core/port/port.h"

#include <stdio.h>
#include <string.h>
#include <infiniband/mad.h>

static const char *const state_names[] = {
	"Unknown", "Down", "Initializing", "Armed", "Active", "ActiveDefer"
};
static const char *const phys_names[] = {
	"Unknown", "Sleep", "Polling", "Disabled", "PortConfigurationTraining",
	"LinkUp", "LinkErrorRecovery", "PhyTest"
};

const char *port_state_name(int state)
{
	if (state < 0 || state >= (int)(sizeof(state_names) / sizeof(*state_names)))
		return "Unknown";
	return state_names[state];
}

const char *port_phys_state_name(int phys)
{
	if (phys < 0 || phys >= (int)(sizeof(phys_names) / sizeof(*phys_names)))
		return "Unknown";
	return phys_names[phys];
}

const char *port_peer_type_name(int type)
{
	switch (type) {
	case 1: return "CA";
	case 2: return "Switch";
	case 3: return "Router";
	default: return "?";
	}
}

/* Width mask bits, in the order smpquery lists them. */
static const struct { unsigned bit; int lanes; const char *name; } widths[] = {
	{ 0x01, 1, "1X" }, { 0x02, 4, "4X" }, { 0x04, 8, "8X" },
	{ 0x08, 12, "12X" }, { 0x10, 2, "2X" },
};
#define NWIDTHS (int)(sizeof(widths) / sizeof(*widths))

int port_width_lanes(unsigned mask)
{
	int best = 0;

	for (int i = 0; i < NWIDTHS; i++)
		if ((mask & widths[i].bit) && widths[i].lanes > best)
			best = widths[i].lanes;
	return best;
}

const char *port_width_name(unsigned mask)
{
	int lanes = port_width_lanes(mask);

	for (int i = 0; i < NWIDTHS; i++)
		if (widths[i].lanes == lanes && lanes)
			return widths[i].name;
	return "?";
}

static unsigned width_bit_for_lanes(int lanes)
{
	for (int i = 0; i < NWIDTHS; i++)
		if (widths[i].lanes == lanes)
			return widths[i].bit;
	return 0;
}

char *port_width_list(unsigned mask, char *buf, int len)
{
	int n = 0;

	buf[0] = '\0';
	for (int i = 0; i < NWIDTHS && n < len; i++)
		if (mask & widths[i].bit)
			n += snprintf(buf + n, len - n, "%s%s", n ? " or " : "",
				      widths[i].name);
	if (!n)
		snprintf(buf, len, "none");
	return buf;
}

/*
 * Speeds, one table for the three PortInfo encodings: classic
 * LinkSpeed (SDR..QDR), LinkSpeedExt (FDR..NDR) and LinkSpeedExt2 (XDR).
 * lane_gbps is the signalling rate smpquery prints; rate_gbps the nominal
 * per-lane figure ibstat's "Rate" multiplies by the width; data_gbps what
 * a lane carries after line encoding: 8b/10b up to QDR, 64b/66b for
 * FDR10 / FDR / EDR, and the nominal rate for the PAM4 speeds, whose
 * signalling rate already includes their FEC and encoding (IBTA vol. 2).
 */
enum { SP_CLASSIC, SP_EXT, SP_EXT2 };
static const struct speed {
	int enc;
	unsigned bit;
	const char *name;
	double lane_gbps, rate_gbps, data_gbps;
	const char *encoding;
} speeds[] = {
	{ SP_CLASSIC, 1, "SDR", 2.5, 2.5, 2.5 * 8 / 10, "8b/10b" },
	{ SP_CLASSIC, 2, "DDR", 5.0, 5.0, 5.0 * 8 / 10, "8b/10b" },
	{ SP_CLASSIC, 4, "QDR", 10.0, 10.0, 10.0 * 8 / 10, "8b/10b" },
	{ SP_EXT, 1, "FDR", 14.0625, 14.0, 14.0625 * 64 / 66, "64b/66b" },
	{ SP_EXT, 2, "EDR", 25.78125, 25.0, 25.78125 * 64 / 66, "64b/66b" },
	{ SP_EXT, 4, "HDR", 53.125, 50.0, 50.0, "PAM4" },
	{ SP_EXT, 8, "NDR", 106.25, 100.0, 100.0, "PAM4" },
	{ SP_EXT2, 1, "XDR", 212.5, 200.0, 200.0, "PAM4" },
};
#define NSPEEDS (int)(sizeof(speeds) / sizeof(*speeds))
static const struct speed speed_fdr10 = {
	SP_CLASSIC, 4, "FDR10", 10.3125, 10.0, 10.3125 * 64 / 66, "64b/66b"
};

double port_lane_data_gbps(const char *speed_name)
{
	if (!speed_name)
		return 0;
	if (!strcmp(speed_name, speed_fdr10.name))
		return speed_fdr10.data_gbps;
	for (int i = 0; i < NSPEEDS; i++)
		if (!strcmp(speed_name, speeds[i].name))
			return speeds[i].data_gbps;
	return 0;
}

static unsigned speed_mask(const struct port_info *p, int enc, int which)
{
	/* which: 0 active, 1 enabled, 2 supported */
	switch (enc) {
	case SP_CLASSIC:
		return which == 0 ? p->speed_active :
		       which == 1 ? p->speed_enabled : p->speed_supported;
	case SP_EXT:
		if (!p->ext_valid)
			return 0;
		return which == 0 ? p->ext_active :
		       which == 1 ? p->ext_enabled : p->ext_supported;
	default:
		if (!p->ext2_valid)
			return 0;
		return which == 0 ? p->ext2_active :
		       which == 1 ? p->ext2_enabled : p->ext2_supported;
	}
}

/* Fastest speed present in the active / enabled / supported masks. */
static unsigned top_bit(unsigned m)
{
	unsigned b = 0;

	for (unsigned i = 0; i < 32; i++)
		if (m & (1u << i))
			b = 1u << i;
	return b;
}

unsigned port_capable_widths(unsigned supported, unsigned enabled)
{
	unsigned sup = supported ? supported : enabled;

	return (sup & (0x01 | 0x02 | 0x10)) | (sup & enabled & (0x04 | 0x08));
}

double port_lane_rate(unsigned classic, unsigned ext, bool ext_valid, unsigned ext2,
		      bool ext2_valid, char *name, size_t len)
{
	struct port_info q;

	memset(&q, 0, sizeof(q));
	q.width_active = 0x02;	/* 4X */
	q.speed_active = top_bit(classic);
	q.ext_valid = ext_valid;
	q.ext_active = ext_valid ? top_bit(ext) : 0;
	q.ext2_valid = ext2_valid;
	q.ext2_active = ext2_valid ? top_bit(ext2) : 0;
	port_decode_rate(&q);
	if (name)
		snprintf(name, len, "%s", q.speed_name[0] ? q.speed_name : "?");
	return q.rate_gbps / 4;
}

static const struct speed *best_speed(const struct port_info *p, int which)
{
	for (int i = NSPEEDS - 1; i >= 0; i--)
		if (speed_mask(p, speeds[i].enc, which) & speeds[i].bit)
			return &speeds[i];
	return NULL;
}

char *port_speed_list(const struct port_info *p, bool enabled, char *buf, int len)
{
	int n = 0;

	buf[0] = '\0';
	for (int i = 0; i < NSPEEDS && n < len; i++)
		if (speed_mask(p, speeds[i].enc, enabled ? 1 : 2) & speeds[i].bit)
			n += snprintf(buf + n, len - n, "%s%s", n ? " " : "",
				      speeds[i].name);
	if (!n)
		snprintf(buf, len, "none");
	return buf;
}

int port_mtu_bytes(int code)
{
	return code >= 1 && code <= 5 ? 128 << code : 0;
}

/*
 * The width a port is capable of: the widest supported width, where 8X
 * and 12X count only when enabled too. Real HCAs are 1X/2X/4X devices;
 * ibsim reports every width as supported (mask 31) on every port, and
 * a rule that took 12X at face value would flag every link.
 */
static int capable_lanes(const struct port_info *p)
{
	unsigned sup = p->width_supported;
	unsigned wide = sup & p->width_enabled & (0x04 | 0x08);

	sup = (sup & (0x01 | 0x02 | 0x10)) | wide;
	return port_width_lanes(sup ? sup : p->width_enabled);
}

void port_decode_rate(struct port_info *p)
{
	const struct speed *act = NULL, *cap;
	int lanes = port_width_lanes(p->width_active);

	p->rate_gbps = p->lane_gbps = p->max_rate_gbps = p->data_rate_gbps = 0;
	p->speed_name[0] = '\0';
	p->data_rate_source[0] = '\0';
	p->below_capability = false;
	p->below_why[0] = '\0';

	for (int i = NSPEEDS - 1; i >= 0 && !act; i--)
		if (speeds[i].enc != SP_CLASSIC &&
		    (speed_mask(p, speeds[i].enc, 0) & speeds[i].bit))
			act = &speeds[i];
	if (!act && p->fdr10)
		act = &speed_fdr10;
	for (int i = NSPEEDS - 1; i >= 0 && !act; i--)
		if (speeds[i].enc == SP_CLASSIC && (p->speed_active & speeds[i].bit))
			act = &speeds[i];
	if (!act || !lanes)
		return;

	snprintf(p->speed_name, sizeof(p->speed_name), "%s", act->name);
	p->lane_gbps = act->lane_gbps;
	p->rate_gbps = lanes * act->rate_gbps;
	p->data_rate_gbps = lanes * act->data_gbps;
	snprintf(p->data_rate_source, sizeof(p->data_rate_source),
		 "%s %s, %s", port_width_name(p->width_active), act->name, act->encoding);

	if (!p->caps_valid)
		return;		/* capabilities unknown (sysfs / verbs only) */
	cap = best_speed(p, 2);
	if (!cap || cap->rate_gbps < act->rate_gbps)
		cap = act;
	int cap_lanes = capable_lanes(p);

	if (cap_lanes < lanes)
		cap_lanes = lanes;
	p->max_rate_gbps = cap_lanes * cap->rate_gbps;

	int n = 0;

	if (cap_lanes > lanes)
		n += snprintf(p->below_why + n, sizeof(p->below_why) - n,
			      "trained %s, port supports %s", port_width_name(p->width_active),
			      port_width_name(width_bit_for_lanes(cap_lanes)));
	if (cap->rate_gbps > act->rate_gbps)
		snprintf(p->below_why + n, sizeof(p->below_why) - n,
			 "%srunning %s, port supports %s", n ? "; " : "",
			 act->name, cap->name);
	p->below_capability = p->below_why[0] != '\0';
}

#define PI_CAP_EXT_SPEEDS 0x4000u	/* IsExtendedSpeedsSupported */
#define PI_CAP_CAPMASK2 0x8000u		/* CapabilityMask2 present */
#define PI_CAP2_XDR 0x0800u		/* LinkSpeedExt2 fields valid */

void port_read_portinfo(struct port_info *p, const uint8_t *pi, uint32_t capmask)
{
	uint8_t *b = (uint8_t *)pi;	/* libibmad's getters take void * */

	p->width_active = mad_get_field(b, 0, IB_PORT_LINK_WIDTH_ACTIVE_F);
	p->width_enabled = mad_get_field(b, 0, IB_PORT_LINK_WIDTH_ENABLED_F);
	p->width_supported = mad_get_field(b, 0, IB_PORT_LINK_WIDTH_SUPPORTED_F);
	p->speed_active = mad_get_field(b, 0, IB_PORT_LINK_SPEED_ACTIVE_F);
	p->speed_enabled = mad_get_field(b, 0, IB_PORT_LINK_SPEED_ENABLED_F);
	p->speed_supported = mad_get_field(b, 0, IB_PORT_LINK_SPEED_SUPPORTED_F);
	p->ext_valid = capmask & PI_CAP_EXT_SPEEDS;
	p->ext_active = p->ext_enabled = p->ext_supported = 0;
	if (p->ext_valid) {
		p->ext_active = mad_get_field(b, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F);
		p->ext_enabled = mad_get_field(b, 0, IB_PORT_LINK_SPEED_EXT_ENABLED_F);
		p->ext_supported = mad_get_field(b, 0, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F);
		/* 30 (0x1e) in Enabled means "extended speeds disabled" */
		if (p->ext_enabled == 30)
			p->ext_enabled = 0;
	}
	/* rdma-core 44 has no field ids for LinkSpeedExt2: byte 56 by hand */
	p->ext2_valid = (capmask & PI_CAP_CAPMASK2) &&
			(mad_get_field(b, 0, IB_PORT_CAPMASK2_F) & PI_CAP2_XDR);
	p->ext2_active = p->ext2_valid ? (pi[56] >> 5) & 3 : 0;
	p->ext2_supported = p->ext2_valid ? (pi[56] >> 3) & 3 : 0;
	p->ext2_enabled = p->ext2_valid ? pi[56] & 7 : 0;
	p->mtu_active = port_mtu_bytes((int)mad_get_field(b, 0, IB_PORT_NEIGHBOR_MTU_F));
	p->mtu_max = port_mtu_bytes((int)mad_get_field(b, 0, IB_PORT_MTU_CAP_F));
	p->mtu_v.valid = p->mtu_active > 0;
	p->link_v.valid = true;
	p->caps_valid = true;
	if (!p->state)
		p->state = (int)mad_get_field(b, 0, IB_PORT_STATE_F);
	if (!p->phys_state)
		p->phys_state = (int)mad_get_field(b, 0, IB_PORT_PHYS_STATE_F);
}

void port_pick_data_rate(struct port_info *p)
{
	double kernel = p->data_rate_gbps, netdev = p->netdev_speed_mbps / 1000.0;

	if (strcmp(p->link_layer, "Ethernet"))
		return;
	if (netdev <= 0 && kernel > 0) {
		/* No speed from the netdev (a virtual NIC, a link being
		 * negotiated): the kernel's ib_get_eth_speed() then assumes
		 * 1 Gb/s Ethernet and reports SDR, so the rate string is a
		 * stand-in, not what the wire carries. Say so; the figure
		 * stays as the kernel gives it (--line-rate overrides it). */
		snprintf(p->data_rate_source, sizeof(p->data_rate_source),
			 "speed unknown (netdev %.16s reports none): kernel default %.4g Gb/s",
			 p->netdev[0] ? p->netdev : "?", kernel);
		return;
	}
	if (!(netdev > kernel))
		return;
	/* Older kernels cap a RoCE port's rate at "100 Gb/sec (4X EDR)";
	 * the netdev's speed is the Ethernet data rate itself. */
	p->data_rate_gbps = netdev;
	if (kernel > 0)
		snprintf(p->data_rate_source, sizeof(p->data_rate_source),
			 "netdev %s speed (kernel rate says %g Gb/s)", p->netdev, kernel);
	else
		snprintf(p->data_rate_source, sizeof(p->data_rate_source),
			 "netdev %s speed", p->netdev);
}

const char *port_ibstat_rate(unsigned umad_rate, bool fdr10, char *buf, int len)
{
	if (umad_rate == 2)
		snprintf(buf, len, "2.5");
	else
		snprintf(buf, len, fdr10 ? "%u (FDR10)" : "%u", umad_rate);
	return buf;
}
