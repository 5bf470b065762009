// SPDX-License-Identifier: MIT
/* Link health rules, row by row: each row is two port ends and the rules
 * that must fire (and only those). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/fabric/fabric.h"
#include "diag/linkhealth.h"

/* A port as ibsim reports a healthy 4X QDR end: supported width 31. */
static struct fab_port qdr(void)
{
	struct fab_port p = { 0 };

	p.portnum = 1;
	p.info_valid = true;
	p.state = 4;
	p.phys_state = 5;
	p.width_active = 0x02;
	p.width_enabled = 0x03;
	p.width_supported = 0x1f;
	p.speed_active = 4;
	p.speed_enabled = 7;
	p.speed_supported = 7;
	p.ext_valid = true;
	p.mtu_active = p.mtu_cap = 2048;
	p.remote = 0;
	fabric_port_decode(&p);
	return p;
}

struct row {
	const char *name;
	void (*mod_a)(struct fab_port *);
	void (*mod_b)(struct fab_port *);
	unsigned want;		/* bit per lh_rule_id */
	const char *evidence;	/* substring of the first finding */
};

static void none(struct fab_port *p) { (void)p; }
static void w1x(struct fab_port *p) { p->width_active = 1; p->width_enabled = 1; fabric_port_decode(p); }
static void w1x_act(struct fab_port *p) { p->width_active = 1; fabric_port_decode(p); }
static void sup1x(struct fab_port *p) { p->width_supported = 1; p->width_enabled = 1; p->width_active = 1; fabric_port_decode(p); }
static void hdr_cap_fdr(struct fab_port *p)
{
	p->ext_supported = 7; p->ext_enabled = 1; p->ext_active = 1; p->speed_active = 0;
	fabric_port_decode(p);
}
static void hdr_cap_hdr(struct fab_port *p)
{
	p->ext_supported = 7; p->ext_enabled = 7; p->ext_active = 4; p->speed_active = 0;
	fabric_port_decode(p);
}
static void fdr_only(struct fab_port *p)
{
	p->ext_supported = 1; p->ext_enabled = 1; p->ext_active = 1; p->speed_active = 0;
	fabric_port_decode(p);
}
static void ndr_cap_xdr(struct fab_port *p)
{
	p->ext_supported = 0xf; p->ext_enabled = 0xf; p->ext_active = 8; p->speed_active = 0;
	p->ext2_valid = true; p->ext2_supported = 1; p->ext2_enabled = 1; p->ext2_active = 0;
	fabric_port_decode(p);
}
static void xdr(struct fab_port *p) { ndr_cap_xdr(p); p->ext_active = 0; p->ext2_active = 1; fabric_port_decode(p); }
static void sdr(struct fab_port *p) { p->speed_active = 1; p->speed_enabled = 1; fabric_port_decode(p); }
static void mtu1k(struct fab_port *p) { p->mtu_active = 1024; }
static void init(struct fab_port *p) { p->state = 2; fabric_port_decode(p); }
static void sw12x(struct fab_port *p) { p->width_supported = 0x0b; p->width_enabled = 0x0b; fabric_port_decode(p); }
static void sw12x_act(struct fab_port *p) { sw12x(p); p->width_active = 0x08; fabric_port_decode(p); }
static void down(struct fab_port *p) { p->state = 1; p->phys_state = 2; fabric_port_decode(p); }

#define B(x) (1u << (x))
static const struct row rows[] = {
	{ "healthy 4X QDR (ibsim supported=31)", none, none, 0, NULL },
	{ "1X where both do 4X", w1x, w1x_act, B(LH_BELOW_WIDTH), "trained 1X, both ends support 4X" },
	{ "1X, enabled says so on both", w1x, w1x, B(LH_BELOW_WIDTH), "enabled widths allow no more" },
	{ "1X because one end only supports 1X", sup1x, w1x_act, 0, NULL },
	{ "FDR, both support HDR (enabled FDR)", hdr_cap_fdr, hdr_cap_fdr, B(LH_BELOW_SPEED), "running FDR, both ends support HDR" },
	{ "HDR, healthy", hdr_cap_hdr, hdr_cap_hdr, 0, NULL },
	{ "FDR because one end only does FDR", fdr_only, hdr_cap_fdr, 0, NULL },
	{ "NDR where both do XDR", ndr_cap_xdr, ndr_cap_xdr, B(LH_BELOW_SPEED), "running NDR, both ends support XDR" },
	{ "XDR, healthy", xdr, xdr, 0, NULL },
	{ "SDR where both do QDR", sdr, sdr, B(LH_BELOW_SPEED), "running SDR, both ends support QDR" },
	{ "MTU mismatch", mtu1k, none, B(LH_MTU_MISMATCH), "NeighborMTU 1024 vs 2048" },
	{ "both Init", init, init, B(LH_NOT_ACTIVE), "Initializing/LinkUp" },
	{ "one Init", init, none, B(LH_NOT_ACTIVE) | B(LH_ENDS_DISAGREE), "want Active/LinkUp" },
	{ "ends report different widths", w1x_act, none, B(LH_ENDS_DISAGREE) | B(LH_BELOW_WIDTH), "one end says 1X QDR" },
	{ "12X switch pair trained 4X", sw12x, sw12x, B(LH_BELOW_WIDTH), "both ends support 12X" },
	{ "12X switch pair at 12X", sw12x_act, sw12x_act, 0, NULL },
	{ "12X switch to 4X HCA at 4X", sw12x, none, 0, NULL },
	{ "down both ends: only not_active", down, down, B(LH_NOT_ACTIVE), "Down/Polling" },
};

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fab_port a = qdr(), b = qdr();
		struct lh_finding out[LH_MAX_PER_LINK];
		unsigned got = 0;
		int n;

		rows[i].mod_a(&a);
		rows[i].mod_b(&b);
		n = linkhealth_link(&a, &b, out);
		for (int k = 0; k < n; k++)
			got |= B(out[k].rule);
		if (got != rows[i].want)
			fail_msg("row '%s': rules 0x%x, want 0x%x (%s)", rows[i].name, got,
				 rows[i].want, n ? out[0].evidence : "none");
		if (rows[i].evidence) {
			bool seen = false;

			for (int k = 0; k < n; k++)
				seen |= strstr(out[k].evidence, rows[i].evidence) != NULL;
			if (!seen)
				fail_msg("row '%s': no evidence '%s' (first: %s)", rows[i].name,
					 rows[i].evidence, n ? out[0].evidence : "none");
		}
	}
}

static void test_lone_ports(void **state)
{
	struct lh_finding out[1];
	struct fab_port p = qdr();

	(void)state;
	p.remote = -1;
	assert_int_equal(linkhealth_lone_port(&p, out), 1);
	assert_int_equal(out[0].rule, LH_UP_NO_PEER);
	down(&p);
	assert_int_equal(linkhealth_lone_port(&p, out), 1);
	assert_int_equal(out[0].rule, LH_UNLINKED);
	assert_non_null(strstr(out[0].evidence, "Down/Polling"));
	p.portnum = 0;		/* switch management port: never judged */
	assert_int_equal(linkhealth_lone_port(&p, out), 0);
	p = qdr();		/* linked: not a lone port */
	assert_int_equal(linkhealth_lone_port(&p, out), 0);
}

static void test_table(void **state)
{
	(void)state;
	for (int i = 0; i < LH_NRULES; i++) {
		assert_int_equal(lh_rules[i].id, i);
		assert_non_null(lh_rules[i].name);
		assert_non_null(lh_rules[i].hint);
		for (int j = 0; j < i; j++)
			assert_string_not_equal(lh_rules[i].name, lh_rules[j].name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_lone_ports),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
