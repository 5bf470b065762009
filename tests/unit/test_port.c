// SPDX-License-Identifier: MIT
/* Unit tests for the port decoders: every generation's rate, the
 * below-capability rule, MTU codes and ibstat's rate wording. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <infiniband/mad.h>

#include "core/port/port.h"
#include "core/port/madaccess.h"

static const struct rate_row {
	unsigned width, speed, ext, ext2;
	bool ext_valid, ext2_valid, fdr10;
	const char *name;
	double lane, rate;
} rate_rows[] = {
	{ 0x02, 1, 0, 0, false, false, false, "SDR", 2.5, 10 },
	{ 0x01, 1, 0, 0, false, false, false, "SDR", 2.5, 2.5 },
	{ 0x02, 2, 0, 0, false, false, false, "DDR", 5.0, 20 },
	{ 0x02, 4, 0, 0, false, false, false, "QDR", 10.0, 40 },
	{ 0x02, 4, 0, 0, true, false, true, "FDR10", 10.3125, 40 },
	{ 0x02, 0, 1, 0, true, false, false, "FDR", 14.0625, 56 },
	{ 0x02, 0, 2, 0, true, false, false, "EDR", 25.78125, 100 },
	{ 0x02, 0, 4, 0, true, false, false, "HDR", 53.125, 200 },
	{ 0x02, 0, 8, 0, true, false, false, "NDR", 106.25, 400 },
	{ 0x02, 0, 0, 1, true, true, false, "XDR", 212.5, 800 },
	{ 0x10, 0, 4, 0, true, false, false, "HDR", 53.125, 100 },	/* 2X HDR */
	{ 0x08, 4, 0, 0, false, false, false, "QDR", 10.0, 120 },	/* 12X QDR */
	/* ext speeds not valid (CapMask bit 14 clear): classic speed wins */
	{ 0x02, 4, 2, 0, false, false, false, "QDR", 10.0, 40 },
};

static void test_rates(void **state)
{
	for (size_t i = 0; i < sizeof(rate_rows) / sizeof(*rate_rows); i++) {
		const struct rate_row *r = &rate_rows[i];
		struct port_info p = { 0 };

		p.width_active = r->width;
		p.speed_active = r->speed;
		p.ext_active = r->ext;
		p.ext2_active = r->ext2;
		p.ext_valid = r->ext_valid;
		p.ext2_valid = r->ext2_valid;
		p.fdr10 = r->fdr10;
		port_decode_rate(&p);
		assert_string_equal(p.speed_name, r->name);
		assert_float_equal(p.lane_gbps, r->lane, 1e-9);
		assert_float_equal(p.rate_gbps, r->rate, 1e-9);
		/* no capability masks: nothing to compare against */
		assert_false(p.below_capability);
		assert_float_equal(p.max_rate_gbps, 0, 0);
	}
}

/*
 * Data rate after line encoding, written out from the specifications
 * (IBTA vol. 2): SDR / DDR / QDR use 8b/10b, FDR10 / FDR / EDR 64b/66b on
 * 10.3125 / 14.0625 / 25.78125 Gb/s lanes, HDR / NDR / XDR carry 50 /
 * 100 / 200 Gb/s of data per lane. 4X: 8, 16, 32, 40, 54.5, 100, 200, 400,
 * 800. Every speed at every width.
 */
static void test_data_rates(void **state)
{
	static const struct {
		const char *name;
		unsigned speed, ext, ext2;
		bool fdr10;
		double lane_data;
	} sp[] = {
		{ "SDR", 1, 0, 0, false, 2.0 },
		{ "DDR", 2, 0, 0, false, 4.0 },
		{ "QDR", 4, 0, 0, false, 8.0 },
		{ "FDR10", 4, 0, 0, true, 10.0 },
		{ "FDR", 0, 1, 0, false, 14.0625 * 64 / 66 },	/* 13.636… */
		{ "EDR", 0, 2, 0, false, 25.0 },
		{ "HDR", 0, 4, 0, false, 50.0 },
		{ "NDR", 0, 8, 0, false, 100.0 },
		{ "XDR", 0, 0, 1, false, 200.0 },
	};
	static const struct { unsigned mask; int lanes; } w[] = {
		{ 0x01, 1 }, { 0x10, 2 }, { 0x02, 4 }, { 0x04, 8 }, { 0x08, 12 },
	};
	static const double four_x[] = { 8, 16, 32, 40, 54.5, 100, 200, 400, 800 };

	for (size_t i = 0; i < sizeof(sp) / sizeof(*sp); i++)
		for (size_t k = 0; k < sizeof(w) / sizeof(*w); k++) {
			struct port_info p = { 0 };

			p.width_active = w[k].mask;
			p.speed_active = sp[i].speed;
			p.ext_active = sp[i].ext;
			p.ext_valid = sp[i].ext != 0;
			p.ext2_active = sp[i].ext2;
			p.ext2_valid = sp[i].ext2 != 0;
			p.fdr10 = sp[i].fdr10;
			port_decode_rate(&p);
			assert_string_equal(p.speed_name, sp[i].name);
			assert_float_equal(p.data_rate_gbps, sp[i].lane_data * w[k].lanes, 1e-9);
			assert_float_equal(port_lane_data_gbps(sp[i].name), sp[i].lane_data, 1e-9);
			assert_non_null(strstr(p.data_rate_source, sp[i].name));
			if (w[k].lanes == 4)	/* the 4X column, rounded as quoted */
				assert_float_equal(p.data_rate_gbps, four_x[i], 0.05);
		}
	assert_float_equal(port_lane_data_gbps("ZDR"), 0, 0);
}

/* RoCE: the netdev's speed wins when the kernel's rate is lower. */
static void test_roce_data_rate(void **state)
{
	struct port_info p = { 0 };

	snprintf(p.link_layer, sizeof(p.link_layer), "Ethernet");
	snprintf(p.netdev, sizeof(p.netdev), "ens1f0np0");
	p.width_active = 0x02;
	p.ext_active = 2;	/* "100 Gb/sec (4X EDR)" */
	p.ext_valid = true;
	port_decode_rate(&p);
	assert_float_equal(p.data_rate_gbps, 100, 1e-9);
	p.netdev_speed_mbps = 200000;
	port_pick_data_rate(&p);
	assert_float_equal(p.data_rate_gbps, 200, 1e-9);
	assert_non_null(strstr(p.data_rate_source, "netdev ens1f0np0"));
	assert_non_null(strstr(p.data_rate_source, "kernel rate says 100"));

	/* netdev slower (or equal): the kernel's rate stands */
	port_decode_rate(&p);
	p.netdev_speed_mbps = 100000;
	port_pick_data_rate(&p);
	assert_float_equal(p.data_rate_gbps, 100, 1e-9);
	assert_non_null(strstr(p.data_rate_source, "EDR"));

	/* InfiniBand: an IPoIB netdev's speed never overrides the link */
	snprintf(p.link_layer, sizeof(p.link_layer), "InfiniBand");
	port_decode_rate(&p);
	p.netdev_speed_mbps = 400000;
	port_pick_data_rate(&p);
	assert_float_equal(p.data_rate_gbps, 100, 1e-9);
}

static void test_unknown_rate(void **state)
{
	struct port_info p = { 0 };

	port_decode_rate(&p);
	assert_string_equal(p.speed_name, "");
	assert_float_equal(p.rate_gbps, 0, 0);
}

static void test_below_capability(void **state)
{
	struct port_info p = { 0 };

	/* ibsim's healthy 4X SDR link: supported 31 must not mean "could be 12X" */
	p.caps_valid = true;
	p.width_active = p.width_enabled = 0x02;
	p.width_supported = 31;
	p.speed_active = p.speed_enabled = p.speed_supported = 1;
	port_decode_rate(&p);
	assert_false(p.below_capability);
	assert_float_equal(p.max_rate_gbps, 10, 0);

	/* a 4X-capable port that trained 1X */
	p.width_active = 0x01;
	p.width_enabled = 0x03;
	p.width_supported = 0x03;
	port_decode_rate(&p);
	assert_true(p.below_capability);
	assert_non_null(strstr(p.below_why, "trained 1X, port supports 4X"));
	assert_float_equal(p.rate_gbps, 2.5, 0);
	assert_float_equal(p.max_rate_gbps, 10, 0);

	/* HDR-capable port running EDR */
	memset(&p, 0, sizeof(p));
	p.caps_valid = true;
	p.width_active = p.width_enabled = p.width_supported = 0x02;
	p.speed_supported = 7;
	p.ext_valid = true;
	p.ext_active = 2;
	p.ext_supported = 7;
	port_decode_rate(&p);
	assert_true(p.below_capability);
	assert_string_equal(p.below_why, "running EDR, port supports HDR");
	assert_float_equal(p.max_rate_gbps, 200, 0);

	/* 12X enabled and supported, trained 4X: flagged */
	memset(&p, 0, sizeof(p));
	p.caps_valid = true;
	p.width_active = 0x02;
	p.width_enabled = 0x0b;
	p.width_supported = 0x0b;
	p.speed_active = p.speed_supported = 4;
	port_decode_rate(&p);
	assert_true(p.below_capability);
	assert_non_null(strstr(p.below_why, "port supports 12X"));
}

static void test_names(void **state)
{
	char buf[64];

	assert_string_equal(port_state_name(4), "Active");
	assert_string_equal(port_state_name(1), "Down");
	assert_string_equal(port_state_name(99), "Unknown");
	assert_string_equal(port_phys_state_name(5), "LinkUp");
	assert_string_equal(port_phys_state_name(2), "Polling");
	assert_string_equal(port_phys_state_name(-1), "Unknown");
	assert_string_equal(port_width_name(0x02), "4X");
	assert_string_equal(port_width_name(0x10), "2X");
	assert_string_equal(port_width_name(0), "?");
	assert_int_equal(port_width_lanes(31), 12);
	assert_string_equal(port_width_list(31, buf, sizeof(buf)), "1X or 4X or 8X or 12X or 2X");
	assert_string_equal(port_width_list(0, buf, sizeof(buf)), "none");
	for (int c = 0; c <= 6; c++)
		assert_int_equal(port_mtu_bytes(c), c >= 1 && c <= 5 ? 128 << c : 0);
	assert_int_equal(port_mtu_bytes(5), 4096);
	/* ibstat: libibumad truncates "2.5 Gb/sec (1X SDR)" to 2 */
	assert_string_equal(port_ibstat_rate(2, false, buf, sizeof(buf)), "2.5");
	assert_string_equal(port_ibstat_rate(200, false, buf, sizeof(buf)), "200");
	assert_string_equal(port_ibstat_rate(40, true, buf, sizeof(buf)), "40 (FDR10)");
}

static void test_speed_list(void **state)
{
	struct port_info p = { 0 };
	char buf[64];

	p.speed_supported = 7;
	p.ext_valid = true;
	p.ext_supported = 7;
	assert_string_equal(port_speed_list(&p, false, buf, sizeof(buf)), "SDR DDR QDR FDR EDR HDR");
	p.ext_valid = false;
	assert_string_equal(port_speed_list(&p, false, buf, sizeof(buf)), "SDR DDR QDR");
	assert_string_equal(port_speed_list(&p, true, buf, sizeof(buf)), "none");
}

/* The one PortInfo decoder the snapshot (SMP) and the fabric both use. */
static void test_read_portinfo(void **state)
{
	uint8_t pi[64] = { 0 };
	struct port_info p = { 0 };

	mad_set_field(pi, 0, IB_PORT_STATE_F, 4);
	mad_set_field(pi, 0, IB_PORT_PHYS_STATE_F, 5);
	mad_set_field(pi, 0, IB_PORT_LINK_WIDTH_ACTIVE_F, 2);
	mad_set_field(pi, 0, IB_PORT_LINK_WIDTH_ENABLED_F, 3);
	mad_set_field(pi, 0, IB_PORT_LINK_WIDTH_SUPPORTED_F, 3);
	mad_set_field(pi, 0, IB_PORT_LINK_SPEED_SUPPORTED_F, 7);
	mad_set_field(pi, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F, 4);
	mad_set_field(pi, 0, IB_PORT_LINK_SPEED_EXT_ENABLED_F, 30);
	mad_set_field(pi, 0, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F, 7);
	mad_set_field(pi, 0, IB_PORT_NEIGHBOR_MTU_F, 5);
	mad_set_field(pi, 0, IB_PORT_MTU_CAP_F, 5);
	mad_set_field(pi, 0, IB_PORT_CAPMASK2_F, 0x0800);
	pi[56] = (1 << 5) | (1 << 3) | 1;	/* XDR active, supported, enabled */

	/* no CapabilityMask bits: extended and XDR fields are not valid */
	port_read_portinfo(&p, pi, 0);
	assert_false(p.ext_valid);
	assert_int_equal(p.ext_active, 0);
	assert_false(p.ext2_valid);
	assert_int_equal(p.state, 4);
	assert_int_equal(p.phys_state, 5);
	assert_int_equal(p.mtu_active, 4096);
	assert_true(p.link_v.valid && p.caps_valid && p.mtu_v.valid);

	/* bit 14: extended speeds; Enabled 30 means "disabled" */
	port_read_portinfo(&p, pi, 0x4000);
	assert_true(p.ext_valid);
	assert_int_equal(p.ext_active, 4);
	assert_int_equal(p.ext_enabled, 0);
	assert_int_equal(p.ext_supported, 7);
	port_decode_rate(&p);
	assert_string_equal(p.speed_name, "HDR");

	/* bit 15 + CapabilityMask2 0x0800: XDR from byte 56 */
	port_read_portinfo(&p, pi, 0xc000);
	assert_true(p.ext2_valid);
	assert_int_equal(p.ext2_active, 1);
	assert_int_equal(p.ext2_supported, 1);
	assert_int_equal(p.ext2_enabled, 1);
	port_decode_rate(&p);
	assert_string_equal(p.speed_name, "XDR");
	assert_float_equal(p.rate_gbps, 800, 0);
}

/* The permission advice for each way a umad device can refuse. */
static void test_madaccess_explain(void **state)
{
	struct madaccess_node n = { .path = "/dev/infiniband/umad0", .err = EACCES,
				    .have_stat = true, .mode = 0600, .owner = "root",
				    .group = "root" };
	char why[256];

	(void)state;
	/* root only: a udev rule and a group, or root */
	madaccess_explain("mlx5_0", 1, &n, why, sizeof(why));
	assert_string_equal(why, "cannot open /dev/infiniband/umad0 (mlx5_0/1): Permission denied (root:root 0600)"
			    " — run as root, or add the udev rule KERNEL==\"umad*\", GROUP=\"rdma\", MODE=\"0660\" and join group rdma");
	/* a group may already: join it */
	n.mode = 0660;
	n.group = "rdma";
	madaccess_explain("mlx5_0", 1, &n, why, sizeof(why));
	assert_non_null(strstr(why, "(root:rdma 0660) — join group rdma (usermod -aG rdma USER"));
	/* joined, but this login predates it */
	n.member = true;
	madaccess_explain("mlx5_0", 1, &n, why, sizeof(why));
	assert_non_null(strstr(why, "you are in group rdma but this session is not: log in again"));
	/* a group without write access is no way in */
	n.mode = 0640;
	n.member = false;
	madaccess_explain("mlx5_0", 1, &n, why, sizeof(why));
	assert_non_null(strstr(why, "run as root, or add the udev rule"));
	/* no device node: the module */
	n.err = ENOENT;
	n.have_stat = false;
	madaccess_explain("mlx5_0", 1, &n, why, sizeof(why));
	assert_string_equal(why, "cannot open /dev/infiniband/umad0 (mlx5_0/1): No such file or directory"
			    " — load the ib_umad module (modprobe ib_umad)");
	/* the whole line fits a port field (the neighbour's reason) */
	n.err = EACCES;
	n.have_stat = true;
	n.mode = 0600;
	n.owner = n.group = "root";
	madaccess_explain("mlx5_bond_0", 1, &n, why, sizeof(why));
	assert_true(strlen(why) < PORT_ERR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_data_rates),
		cmocka_unit_test(test_roce_data_rate),
		cmocka_unit_test(test_unknown_rate),
		cmocka_unit_test(test_below_capability),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_speed_list),
		cmocka_unit_test(test_read_portinfo),
		cmocka_unit_test(test_madaccess_explain),
	};

	return cmocka_run_group_tests_name("port", tests, NULL, NULL);
}
