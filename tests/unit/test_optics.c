// SPDX-License-Identifier: MIT
/* The module decoders on saved pages (tests/fixtures/optics, written by
 * mkdumps.py from the field definitions): every expected value below is
 * worked out here from the raw field and the specification's unit, not
 * taken from the decoder. Also the dump reader's refusals, the pages each
 * layout asks for, the kernel's answer for a netdev without a module, and
 * the module as JSON, Prometheus gauges (promtool checks them) and text. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/json.h"
#include "core/base/jsonscan.h"
#include "core/export/expo.h"
#include "core/optics/optics.h"
#include "core/optics/report.h"
#include "core/optics/source.h"

#define EPS 1e-6

/* cmocka's assert_float_equal compares floats; these are doubles. */
static void near_at(double got, double want, double eps, const char *what, int line)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("line %d: %s = %.9g, want %.9g (within %g)", line, what, got, want, eps);
}
#define assert_near(got, want, eps) near_at((got), (want), (eps), #got, __LINE__)

/* The units of all three specifications' monitors: optical power 0.1 µW,
 * bias 2 µA, temperature 1/256 °C, supply 100 µV. */
static double dbm(double raw) { return 10.0 * log10(raw * 0.1e-3); }
static double ma(double raw) { return raw * 2e-3; }

static void load(const char *name, struct optics_module *m)
{
	char err[256] = "";
	int rc = optics_read_module(name, OPTICS_FIXTURES, m, err, sizeof(err));

	if (rc != 0)
		fail_msg("%s: %s", name, err);
}

/* What the module says it is, from the identity fields. */
static void identity(const struct optics_module *m, enum optics_layout layout,
		     const char *type, const char *vendor, const char *part, const char *serial)
{
	assert_int_equal(m->layout, layout);
	assert_string_equal(m->type, type);
	assert_string_equal(m->vendor, vendor);
	assert_string_equal(m->part, part);
	assert_string_equal(m->serial, serial);
}

static void test_qsfp28(void **state)
{
	struct optics_module m;
	char text[96];

	(void)state;
	load("qsfp28", &m);
	identity(&m, OPTICS_SFF8636, "QSFP28", "ACME OPTICS", "QSFP28-SR4-100G", "QX1234567890");
	assert_near(m.temp.value, 0x2380 / 256.0, EPS);	/* 35.5 °C */
	assert_near(m.temp.low_alarm, -5.0, EPS);	/* 0xfb00 signed */
	assert_near(m.vcc.value, 33000 * 100e-6, EPS);
	assert_near(m.vcc.high_alarm, 36300 * 100e-6, EPS);
	assert_int_equal(m.nlanes, 4);
	assert_near(m.lane[0].rx.value, dbm(562), EPS);
	assert_near(m.lane[0].rx.value, -12.5, 0.01);
	assert_near(m.lane[0].rx.low_alarm, dbm(398), EPS);
	assert_near(m.lane[0].rx.low_alarm, -14.0, 0.01);
	assert_near(m.lane[0].rx.high_alarm, dbm(21878), EPS);
	assert_near(m.lane[0].rx.low_warn, dbm(794), EPS);
	assert_near(m.lane[1].rx.value, dbm(7943), EPS);
	assert_near(m.lane[2].tx.value, 0.0, EPS);	/* 10000 = 1 mW */
	assert_near(m.lane[2].tx.low_alarm, dbm(1585), EPS);
	assert_near(m.lane[3].bias.value, ma(3750), EPS);
	assert_near(m.lane[3].bias.high_alarm, ma(7500), EPS);
	/* byte 9, high nibble = lane 1: only its low-warning bit */
	assert_int_equal(m.lane[0].rx.flags, OPTICS_LOW_WARN);
	assert_int_equal(m.lane[1].rx.flags, 0);

	optics_judge(&m, 2.0, 1);
	assert_true(m.lane[0].judged & OPTICS_NEAR_LOW_RX);
	assert_true(m.lane[0].judged & OPTICS_WARN);
	assert_false(m.lane[0].judged & (OPTICS_ALARM | OPTICS_DARK));
	assert_int_equal(m.lane[1].judged, 0);
	assert_true(m.lane[0].margin_low);
	assert_near(m.lane[0].margin_db, dbm(562) - dbm(398), EPS);
	optics_margin_text(&m.lane[0], text, sizeof(text));
	assert_string_equal(text, "1.5 dB above the low receive-power alarm");
	/* lane 2 at -1.0 dBm: its high alarm (3.4 dBm) is nearer than -14 */
	assert_false(m.lane[1].margin_low);
	assert_near(m.lane[1].margin_db, dbm(21878) - dbm(7943), EPS);
	optics_margin_text(&m.lane[1], text, sizeof(text));
	assert_string_equal(text, "4.4 dB below the high receive-power alarm");
	/* the near distance is the caller's (a config key): at 1 dB, 1.5 is not near */
	optics_judge(&m, 1.0, 1);
	assert_false(m.lane[0].judged & OPTICS_NEAR_LOW_RX);
}

static void test_cmis(void **state)
{
	struct optics_module m;

	(void)state;
	load("qsfpdd", &m);
	identity(&m, OPTICS_CMIS, "QSFP-DD", "CMIS VENDOR", "QDD-400G-DR4", "CM0001");
	assert_near(m.temp.value, 12352 / 256.0, EPS);	/* 48.25 °C */
	assert_near(m.temp.high_warn, 45.0, EPS);
	assert_near(m.temp.low_alarm, -10.0, EPS);
	assert_int_equal(m.temp.flags, OPTICS_HIGH_WARN);	/* byte 9 bit 2 */
	assert_int_equal(m.vcc.flags, 0);
	assert_near(m.vcc.value, 32500 * 100e-6, EPS);
	assert_near(m.vcc.low_warn, 31000 * 100e-6, EPS);
	assert_int_equal(m.nlanes, 8);
	for (int i = 0; i < 7; i++) {
		assert_near(m.lane[i].rx.value, dbm(4000 + 250 * i), EPS);
		assert_near(m.lane[i].tx.value, dbm(5000 + 100 * i), EPS);
		/* page 01h byte 160 bits 3-4 = 1: bias in 4 µA steps */
		assert_near(m.lane[i].bias.value, ma(3000 + 10 * i) * 2, EPS);
		assert_false(m.lane[i].rx_los);
	}
	assert_near(m.lane[0].bias.high_alarm, ma(5000) * 2, EPS);
	assert_near(m.lane[0].rx.low_alarm, dbm(500), EPS);
	assert_near(m.lane[0].tx.high_warn, dbm(8000), EPS);
	assert_int_equal(m.lane[2].bias.flags, OPTICS_HIGH_ALARM);	/* 143 bit 2 */
	assert_int_equal(m.lane[7].rx.flags, OPTICS_LOW_ALARM);		/* 150 bit 7 */
	assert_true(m.lane[7].rx_los);
	assert_true(isinf(m.lane[7].rx.value) && m.lane[7].rx.value < 0);

	optics_judge(&m, 2.0, 1);
	assert_true(m.judged & OPTICS_WARN);	/* the module's temperature */
	assert_true(m.lane[2].judged & OPTICS_ALARM);
	assert_true(m.lane[7].judged & OPTICS_DARK);
	assert_false(m.lane[7].margin_valid);	/* never a margin from no light */
	assert_false(m.lane[0].judged & OPTICS_DARK);
	/* lane 1 at -4.0 dBm, low alarm -13.0: 9 dB away, not near */
	assert_false(m.lane[0].judged & OPTICS_NEAR_LOW_RX);
	/* a dark lane on a link that is down is expected */
	optics_judge(&m, 2.0, 0);
	assert_false(m.lane[7].judged & OPTICS_DARK);
}

static void test_sfp(void **state)
{
	struct optics_module m;

	(void)state;
	load("sfp", &m);
	identity(&m, OPTICS_SFF8472, "SFP", "SFP VENDOR", "SFP-10G-LR", "SF12345");
	assert_true(m.ddm);
	assert_false(m.ext_cal);
	assert_int_equal(m.nlanes, 1);
	assert_near(m.temp.value, -640 / 256.0, EPS);	/* signed: -2.5 °C */
	assert_near(m.temp.high_alarm, 85.0, EPS);
	assert_int_equal(m.temp.flags, OPTICS_LOW_WARN);	/* A2h 116 bit 6 */
	assert_near(m.vcc.value, 3.3, EPS);
	assert_near(m.lane[0].bias.value, ma(3200), EPS);
	assert_near(m.lane[0].bias.low_warn, ma(1500), EPS);
	assert_near(m.lane[0].tx.value, dbm(5012), EPS);
	assert_near(m.lane[0].rx.value, -10.0, EPS);	/* 1000 = 0.1 mW */
	assert_near(m.lane[0].rx.low_alarm, dbm(316), EPS);
	assert_near(m.lane[0].rx.high_alarm, dbm(12589), EPS);
	optics_judge(&m, 2.0, 1);
	assert_true(m.judged & OPTICS_WARN);
	assert_false(m.judged & (OPTICS_ALARM | OPTICS_NEAR_LOW_RX | OPTICS_DARK));
}

/* External calibration (SFF-8472): the raw reading through the
 * module's own constants, as mkdumps.py wrote them. */
static void test_sfp_external(void **state)
{
	struct optics_module m;

	(void)state;
	load("sfpext", &m);
	assert_true(m.ext_cal);
	assert_near(m.temp.value, (0x1a00 * 1.0 - 256) / 256.0, EPS);	/* 25 °C */
	assert_near(m.temp.high_alarm, 85.0, EPS);
	assert_near(m.lane[0].rx.value, dbm(0.5 * 1980 + 10), EPS);
	assert_near(m.lane[0].rx.low_alarm, dbm(0.5 * 200 + 10), EPS);
	assert_near(m.lane[0].bias.value, ma(1600 * 2.0), EPS);
	assert_near(m.lane[0].tx.value, dbm(3000 * 1.5 + 100), EPS);
	assert_near(m.lane[0].tx_mw, (3000 * 1.5 + 100) * 1e-4, EPS);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_dump_refusals(void **state)
{
	char dir[] = "/tmp/test_optics.XXXXXX", path[256], err[256], text[1024];
	struct optics_pages pg;
	struct optics_module m;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(optics_load_dump(dir, &pg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no saved module pages"));
	snprintf(path, sizeof(path), "%s/50-lower.hex", dir);
	write_file(path, "00: 11 zz\n");
	assert_int_equal(optics_load_dump(dir, &pg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":1: not a hex byte pair"));
	write_file(path, "# short\n11 00 00\n");
	assert_int_equal(optics_load_dump(dir, &pg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "3 bytes, a half page is 128"));
	/* a full page with an identifier no decoder knows */
	text[0] = '\0';
	for (int i = 0; i < 128; i++)
		strcat(text, i == 0 ? "7f" : " 00");
	write_file(path, text);
	assert_int_equal(optics_load_dump(dir, &pg, err, sizeof(err)), 0);
	assert_int_equal(optics_decode(&pg, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "identifier 0x7f"));
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void test_pages_wanted(void **state)
{
	struct optics_pages pg;
	int want[8][2];

	(void)state;
	memset(&pg, 0, sizeof(pg));
	pg.lower[0][0] = 0x11;
	assert_int_equal(optics_pages_wanted(&pg, want, 8), 2);
	assert_int_equal(want[1][1], 3);
	pg.lower[0][2] = 0x04;	/* flat memory: page 00h only */
	assert_int_equal(optics_pages_wanted(&pg, want, 8), 1);
	pg.lower[0][0] = 0x18;
	pg.lower[0][2] = 0;
	assert_int_equal(optics_pages_wanted(&pg, want, 8), 4);
	assert_int_equal(want[3][1], 0x11);
	pg.lower[0][0] = 0x03;
	pg.lower[0][92] = 0x40;
	assert_int_equal(optics_pages_wanted(&pg, want, 8), 3);
	assert_int_equal(want[1][0], 1);	/* A2h */
}

/* The real kernel: loopback has no module, and a missing netdev is named. */
static void test_kernel_refuses(void **state)
{
	struct optics_module m;
	char err[256];

	(void)state;
	assert_int_equal(optics_read_module("lo", NULL, &m, err, sizeof(err)), -1);
	assert_string_equal(err, "lo: the driver does not expose the module; vendor tools "
				 "read it through vendor registers");
	assert_int_equal(optics_read_module("ibcnosuch0", NULL, &m, err, sizeof(err)), -1);
	assert_string_equal(err, "ibcnosuch0: no such network interface");
}

/* Two ports: the QSFP28 fixture, and loopback through the kernel (no
 * module): what snapshot --json, the exporter and the detail pane get. */
static void two_ports(struct optics_port p[2])
{
	optics_set_dump_root(OPTICS_FIXTURES);
	optics_port_read(&p[0], "qsfp28", 2.0, 1);
	optics_set_dump_root(NULL);
	optics_port_read(&p[1], "lo", 2.0, 1);
	assert_true(p[0].readable);
	assert_false(p[1].readable);
}

/* Every scalar of a JSON text by its dotted path (the project's reader). */
struct scalars {
	int n;
	char path[600][96];
	char val[600][200];
};

static void keep(void *arg, const char *path, const char *val, bool is_str)
{
	struct scalars *sc = arg;

	(void)is_str;
	if (sc->n < 600) {
		snprintf(sc->path[sc->n], sizeof(sc->path[0]), "%s", path);
		snprintf(sc->val[sc->n], sizeof(sc->val[0]), "%s", val);
		sc->n++;
	}
}

static const char *get(const struct scalars *sc, const char *path)
{
	for (int i = 0; i < sc->n; i++)
		if (strcmp(sc->path[i], path) == 0)
			return sc->val[i];
	return NULL;
}

static int count_prefix(const struct scalars *sc, const char *prefix)
{
	int k = 0;

	for (int i = 0; i < sc->n; i++)
		k += strncmp(sc->path[i], prefix, strlen(prefix)) == 0;
	return k;
}

static void test_json(void **state)
{
	static struct scalars sc;
	struct optics_port p[2];
	char *text = NULL, why[128];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json j;

	(void)state;
	assert_non_null(f);
	two_ports(p);
	json_init(&j, f);
	json_arr_begin(&j, NULL);
	for (int i = 0; i < 2; i++) {
		json_obj_begin(&j, NULL);
		optics_json(&j, "module", &p[i]);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	assert_int_equal(fclose(f), 0);
	sc.n = 0;
	if (json_scan(text, len, keep, &sc, why, sizeof(why)) != 0)
		fail_msg("not JSON (%s): %s", why, text);
	assert_string_equal(get(&sc, "[0].module.readable"), "true");
	assert_string_equal(get(&sc, "[0].module.type"), "QSFP28");
	assert_int_equal(count_prefix(&sc, "[0].module.lanes[3].lane"), 1);
	assert_null(get(&sc, "[0].module.lanes[4].lane"));
	assert_near(strtod(get(&sc, "[0].module.lanes[0].rx_power_dbm.value"), NULL), dbm(562), 1e-6);
	assert_near(strtod(get(&sc, "[0].module.lanes[0].rx_power_dbm.low_alarm"), NULL), dbm(398), 1e-6);
	assert_string_equal(get(&sc, "[0].module.lanes[0].rx_margin"),
			    "1.5 dB above the low receive-power alarm");
	assert_string_equal(get(&sc, "[0].module.lanes[0].flags[0]"), "near_low_rx_alarm");
	/* the unreadable port: a reason, and no number at all */
	assert_string_equal(get(&sc, "[1].module.readable"), "false");
	assert_non_null(strstr(get(&sc, "[1].module.why"), "does not expose the module"));
	assert_int_equal(count_prefix(&sc, "[1].module."), 2);
	free(text);
}

/* The value of the sample line that starts with prefix; fails when none. */
static double sample(const char *text, const char *prefix)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, prefix, strlen(prefix)) == 0)
			return strtod(l + strlen(prefix), NULL);
	fail_msg("no sample line %s", prefix);
	return NAN;
}

static void test_expo(void **state)
{
	struct optics_port p[2];
	const struct optics_port *ports[2] = { &p[0], &p[1] };
	const char *labels[2] = { "device=\"mlx5_0\",port=\"1\"", "device=\"mlx5_1\",port=\"1\"" };
	char path[] = "/tmp/test_optics_expo.XXXXXX", cmd[256], out[4096];
	struct expo_buf b;
	FILE *pp;
	size_t got;
	int fd;

	(void)state;
	two_ports(p);
	expo_init(&b);
	optics_expo(&b, ports, labels, 2);
	assert_false(b.oom);
	assert_near(sample(b.p, "ibconsole_module_rx_power_dbm{device=\"mlx5_0\",port=\"1\",lane=\"1\"} "),
		    dbm(562), 1e-9);
	assert_near(sample(b.p, "ibconsole_module_rx_margin_db{device=\"mlx5_0\",port=\"1\",lane=\"1\"} "),
		    dbm(562) - dbm(398), 1e-9);
	assert_near(sample(b.p, "ibconsole_module_lane_flag{device=\"mlx5_0\",port=\"1\",lane=\"1\",flag=\"near_low_rx_alarm\"} "),
		    1, 0);
	assert_near(sample(b.p, "ibconsole_module_lane_flag{device=\"mlx5_0\",port=\"1\",lane=\"2\",flag=\"near_low_rx_alarm\"} "),
		    0, 0);
	assert_near(sample(b.p, "ibconsole_module_readable{device=\"mlx5_1\",port=\"1\"} "), 0, 0);
	assert_null(strstr(b.p, "ibconsole_module_rx_power_dbm{device=\"mlx5_1\""));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b.p, b.len), (ssize_t)b.len);
	assert_int_equal(close(fd), 0);
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s 2>&1", path);
	pp = popen(cmd, "r");
	assert_non_null(pp);
	got = fread(out, 1, sizeof(out) - 1, pp);
	out[got] = '\0';
	if (pclose(pp) != 0)
		fail_msg("promtool check metrics: %s", out);
	unlink(path);
	expo_free(&b);
}

static void test_lines(void **state)
{
	struct optics_port p[2];
	char line[12][OPTICS_LINE];
	int n;

	(void)state;
	two_ports(p);
	n = optics_lines(&p[0], line, 12);
	assert_int_equal(n, 6);
	assert_string_equal(line[0], "module: QSFP28 ACME OPTICS QSFP28-SR4-100G, serial QX1234567890");
	assert_string_equal(line[2], "  lane 1: rx -12.50 dBm, tx 0.00 dBm, 1.5 dB above the low "
				     "receive-power alarm — near the low receive-power alarm, warning flag set");
	n = optics_lines(&p[1], line, 12);
	assert_int_equal(n, 1);
	assert_null(strstr(line[0], "dBm"));
	assert_non_null(strstr(line[0], "vendor tools read it through vendor registers"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qsfp28),
		cmocka_unit_test(test_cmis),
		cmocka_unit_test(test_sfp),
		cmocka_unit_test(test_sfp_external),
		cmocka_unit_test(test_dump_refusals),
		cmocka_unit_test(test_pages_wanted),
		cmocka_unit_test(test_kernel_refuses),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_expo),
		cmocka_unit_test(test_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
