// SPDX-License-Identifier: MIT
/* cmocka tests of the exporter's text writer and metric model: label and
 * help escaping, metric and label names, _total on every counter family,
 * data counters in bytes (4-octet words x 4), a port whose counters could
 * not be read (an error series, the other ports still written), the
 * verdict levels, and `promtool check metrics` on a whole synthetic
 * exposition (local ports and a fabric). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "core/export/expo.h"
#include "core/export/metrics.h"
#include "core/fabric/fabric.h"
#include "core/port/snapshot.h"
#include "diag/rules.h"
#include "diag/thresholds.h"

/* --- helpers --- */

/* The value of the first sample line that starts with prefix (name and
 * labels up to where the caller stops), as text; NULL when none. */
static const char *sample_value(const char *text, const char *prefix,
				char *out, size_t len)
{
	size_t n = strlen(prefix);

	for (const char *l = text; l && *l; ) {
		const char *e = strchr(l, '\n');
		size_t ll = e ? (size_t)(e - l) : strlen(l);

		if (ll >= n && !strncmp(l, prefix, n) && l[0] != '#') {
			const char *sp = l + ll;

			while (sp > l && sp[-1] != ' ')
				sp--;
			snprintf(out, len, "%.*s", (int)(l + ll - sp), sp);
			return out;
		}
		l = e ? e + 1 : NULL;
	}
	return NULL;
}

static bool has_line_prefix(const char *text, const char *prefix)
{
	char v[64];

	return sample_value(text, prefix, v, sizeof(v)) != NULL;
}

static bool name_ok(const char *s, size_t n, bool label)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
			     (!label && c == ':');

		if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
			return false;
	}
	return !(label && n >= 2 && s[0] == '_' && s[1] == '_');
}

/* Walks a whole exposition and checks the format's rules the writer is
 * responsible for: metric and label names, escaped label values, HELP
 * then TYPE once per family, every sample under its own family (all of a
 * family's samples together), counters named *_total. Returns the number
 * of samples; fails the test on the first violation. */
static int check_exposition(const char *text)
{
	char fam[128] = "", type[16] = "", seen[16384] = " ";
	int samples = 0;

	for (const char *l = text; *l; ) {
		const char *e = strchr(l, '\n');
		size_t ll;

		assert_non_null(e);	/* every line ends with a newline */
		ll = (size_t)(e - l);
		if (!strncmp(l, "# HELP ", 7)) {
			const char *nm = l + 7, *sp = memchr(nm, ' ', ll - 7);
			char key[140];

			assert_non_null(sp);
			assert_true(name_ok(nm, (size_t)(sp - nm), false));
			snprintf(fam, sizeof(fam), "%.*s", (int)(sp - nm), nm);
			snprintf(key, sizeof(key), " %s ", fam);
			if (strstr(seen, key))
				fail_msg("family %s written twice", fam);
			assert_true(strlen(seen) + strlen(key) < sizeof(seen));
			strcat(seen, key + 1);
			/* TYPE follows at once */
			l = e + 1;
			e = strchr(l, '\n');
			assert_non_null(e);
			ll = (size_t)(e - l);
			assert_true(ll > 7 && !strncmp(l, "# TYPE ", 7));
			assert_true(!strncmp(l + 7, fam, strlen(fam)) && l[7 + strlen(fam)] == ' ');
			snprintf(type, sizeof(type), "%.*s", (int)(ll - 8 - strlen(fam)), l + 8 + strlen(fam));
			assert_true(!strcmp(type, "gauge") || !strcmp(type, "counter"));
			if (!strcmp(type, "counter")) {
				size_t fl = strlen(fam);

				if (fl < 6 || strcmp(fam + fl - 6, "_total"))
					fail_msg("counter family %s does not end in _total", fam);
			}
		} else {
			const char *p = l, *end = l + ll;
			size_t nl = strcspn(l, "{ ");

			assert_true(l[0] != '#');
			assert_true(name_ok(l, nl, false));
			if (strlen(fam) != nl || strncmp(l, fam, nl))
				fail_msg("sample %.*s outside its family (current %s)", (int)ll, l, fam);
			p = l + nl;
			if (*p == '{') {
				p++;
				while (*p != '}') {
					size_t kl = strcspn(p, "=");

					assert_true(name_ok(p, kl, true));
					p += kl;
					assert_true(p[0] == '=' && p[1] == '"');
					p += 2;
					/* a value: only \\, \" and \n escapes, no raw newline */
					while (*p != '"') {
						assert_true(p < end);
						if (*p == '\\') {
							assert_true(p[1] == '\\' || p[1] == '"' || p[1] == 'n');
							p++;
						}
						p++;
					}
					p++;
					if (*p == ',')
						p++;
					else
						assert_true(*p == '}');
				}
				p++;
			}
			assert_true(*p == ' ');
			p++;
			assert_true(p < end);
			{
				char num[64], *x;

				snprintf(num, sizeof(num), "%.*s", (int)(end - p), p);
				if (strcmp(num, "NaN") && strcmp(num, "+Inf") && strcmp(num, "-Inf")) {
					(void)strtod(num, &x);
					if (*x)
						fail_msg("bad sample value '%s'", num);
				}
			}
			samples++;
		}
		l = e + 1;
	}
	return samples;
}

static void set_local_target(struct export_target *t, const char *dev, int port,
			     const struct counter_set *cs)
{
	memset(t, 0, sizeof(*t));
	export_labels_local(t, dev, port);
	t->cs = cs;
	for (int r = 0; r < EXPORT_NRULES; r++)
		t->verdict[r] = -1;
}

/* An IB port's counters as the PMA gives them (PortCountersExtended
 * data): words, packets, a few errors. */
static void pma_set(struct counter_set *cs, uint64_t xmit_words, uint64_t rcv_words)
{
	memset(cs, 0, sizeof(*cs));
	cs->valid = true;
	cs->source = CTR_SRC_PMA;
	snprintf(cs->mode, sizeof(cs->mode), "%s",
		 "PortCountersExtended (64-bit data) + PortCounters (classic errors)");
	counters_put(cs, "PortXmitData", xmit_words);
	counters_put(cs, "PortRcvData", rcv_words);
	counters_put(cs, "PortXmitPkts", 1000);
	counters_put(cs, "PortRcvPkts", 999);
	counters_put(cs, "PortXmitWait", 12);
	counters_put(cs, "SymbolErrorCounter", 0)->bits = 16;
	counters_put(cs, "PortRcvErrors", 0)->bits = 16;
	counters_put(cs, "LinkDownedCounter", 0)->bits = 8;
	for (int i = 0; i < cs->n; i++)
		cs->c[i].valid = true;
}

/* --- escaping and names --- */

static void test_label_escaping(void **state)
{
	struct expo_buf b;
	bool first = true;

	(void)state;
	expo_init(&b);
	expo_label(&b, &first, "node", "sw \"core\" 1\\2\nrack");
	assert_false(first);
	expo_label(&b, &first, "port", "3");
	/* backslash, double quote and newline as \\ \" \n; a comma between */
	assert_string_equal(b.p, "node=\"sw \\\"core\\\" 1\\\\2\\nrack\",port=\"3\"");
	expo_reset(&b);
	first = true;
	expo_label(&b, &first, "x", NULL);
	assert_string_equal(b.p, "x=\"\"");

	/* the same through a sample's extra label and a port's identity */
	expo_reset(&b);
	expo_sample(&b, "m", "a=\"1\"", "error", "can't read \"counters\"\\x\n", 1);
	assert_string_equal(b.p, "m{a=\"1\",error=\"can't read \\\"counters\\\"\\\\x\\n\"} 1\n");
	expo_free(&b);
	{
		struct export_target t;

		export_labels_local(&t, "mlx\"5\\0", 2);
		assert_string_equal(t.labels, "device=\"mlx\\\"5\\\\0\",port=\"2\"");
	}
}

static void test_help_and_values(void **state)
{
	struct expo_buf b;

	(void)state;
	expo_init(&b);
	/* HELP escapes backslash and newline only (quotes stay) */
	expo_family(&b, "x_total", "counter", "a \"b\" c\\d\ne");
	assert_string_equal(b.p, "# HELP x_total a \"b\" c\\\\d\\ne\n# TYPE x_total counter\n");
	expo_reset(&b);
	expo_sample(&b, "g", "", NULL, NULL, 0.5);
	expo_sample(&b, "g", "", NULL, NULL, -1);
	expo_sample(&b, "g", "", NULL, NULL, 1.25e9);
	expo_sample(&b, "g", "", NULL, NULL, 1.0 / 0.0);
	expo_sample(&b, "g", "", NULL, NULL, 0.0 / 0.0);
	/* counters are exact: 2^64 - 1 is not rounded through a double */
	expo_sample_u64(&b, "c_total", "", NULL, NULL, UINT64_MAX);
	assert_string_equal(b.p, "g 0.5\ng -1\ng 1250000000\ng +Inf\ng NaN\n"
			    "c_total 18446744073709551615\n");
	expo_free(&b);
}

/* Every family name is prefix + a suffix of the model: names and the
 * _total suffix of each counter family, over a model that fills every
 * counter family (PMA port, RoCE port with hw_counters and pause stats). */
static void test_names_and_total(void **state)
{
	struct counter_set ib, roce;
	struct export_target t[2];
	struct expo_buf b;
	int n;

	(void)state;
	pma_set(&ib, 10, 20);
	counters_put(&ib, "PortUnicastXmitPkts", 5)->valid = true;
	counters_put(&ib, "PortUnicastRcvPkts", 5)->valid = true;
	counters_put(&ib, "PortMulticastXmitPkts", 1)->valid = true;
	counters_put(&ib, "PortMulticastRcvPkts", 1)->valid = true;
	memset(&roce, 0, sizeof(roce));
	roce.valid = true;
	roce.source = CTR_SRC_SYSFS;
	snprintf(roce.mode, sizeof(roce.mode), "sysfs hw_counters/ (classic error widths, 64-bit data)");
	counters_put(&roce, "sent_pkts", 4242)->valid = true;
	counters_put(&roce, "out_of_sequence", 3)->valid = true;
	counters_put(&roce, "np_cnp_sent", 9)->valid = true;
	counters_put(&roce, "eth2:rx_pause_ctrl_phy", 17)->valid = true;
	set_local_target(&t[0], "mlx5_0", 1, &ib);
	set_local_target(&t[1], "mlx5_1", 1, &roce);
	t[0].verdict[EXPORT_RULE_SINCE_CLEAR] = 0;

	expo_init(&b);
	export_write_counters(&b, "ibconsole_port", t, 2);
	assert_false(b.oom);
	n = check_exposition(b.p);
	assert_true(n > 20);
	/* every counter family the model has, by its full name */
	static const char *const fams[] = {
		"ibconsole_port_transmit_bytes_total", "ibconsole_port_receive_bytes_total",
		"ibconsole_port_transmit_packets_total", "ibconsole_port_receive_packets_total",
		"ibconsole_port_unicast_transmit_packets_total",
		"ibconsole_port_unicast_receive_packets_total",
		"ibconsole_port_multicast_transmit_packets_total",
		"ibconsole_port_multicast_receive_packets_total",
		"ibconsole_port_transmit_wait_total", "ibconsole_port_errors_total",
		"ibconsole_port_hw_events_total", "ibconsole_port_netdev_pause_stats_total",
	};
	for (size_t k = 0; k < sizeof(fams) / sizeof(*fams); k++) {
		char h[160];

		snprintf(h, sizeof(h), "# TYPE %s counter\n", fams[k]);
		if (!strstr(b.p, h))
			fail_msg("no counter family %s", fams[k]);
	}
	/* driver counters keep their file name and get a class; pause
	 * statistics name their netdev */
	assert_true(has_line_prefix(b.p,
		"ibconsole_port_hw_events_total{device=\"mlx5_1\",port=\"1\",counter=\"sent_pkts\",class=\"traffic\"} 4242"));
	assert_true(has_line_prefix(b.p,
		"ibconsole_port_hw_events_total{device=\"mlx5_1\",port=\"1\",counter=\"out_of_sequence\",class=\"error\"} 3"));
	assert_true(has_line_prefix(b.p,
		"ibconsole_port_hw_events_total{device=\"mlx5_1\",port=\"1\",counter=\"np_cnp_sent\",class=\"congestion\"} 9"));
	assert_true(has_line_prefix(b.p,
		"ibconsole_port_netdev_pause_stats_total{device=\"mlx5_1\",port=\"1\",netdev=\"eth2\",counter=\"rx_pause_ctrl_phy\"} 17"));
	/* PMA counters are never repeated as driver counters */
	assert_false(has_line_prefix(b.p, "ibconsole_port_hw_events_total{device=\"mlx5_0\""));
	/* the fabric prefix gives the same rules */
	expo_reset(&b);
	export_write_counters(&b, "ibconsole_fabric_port", t, 2);
	assert_int_equal(check_exposition(b.p), n);
	expo_free(&b);
}

/* PortXmitData / PortRcvData count 4-octet words: the bytes are the
 * words x 4, written out here; packets and the rest are not scaled. */
static void test_bytes_are_words_times_4(void **state)
{
	struct counter_set cs;
	struct export_target t;
	struct expo_buf b;
	unsigned mult = 0;
	char v[64];

	(void)state;
	assert_string_equal(export_pma_family("PortXmitData", &mult), "transmit_bytes_total");
	assert_int_equal(mult, 4);
	assert_string_equal(export_pma_family("PortRcvData", &mult), "receive_bytes_total");
	assert_int_equal(mult, 4);
	assert_string_equal(export_pma_family("PortXmitPkts", &mult), "transmit_packets_total");
	assert_int_equal(mult, 1);
	assert_string_equal(export_pma_family("PortXmitWait", &mult), "transmit_wait_total");
	assert_int_equal(mult, 1);
	assert_null(export_pma_family("PortRcvErrors", &mult));	/* errors family */
	assert_int_equal(mult, 1);
	assert_null(export_pma_family("sent_pkts", &mult));

	/* 1,000 words = 4,000 bytes; 2^30 words = 4,294,967,296 bytes (past
	 * 32 bits); the largest 64-bit word count whose bytes still fit */
	pma_set(&cs, 1000, 1073741824ULL);
	set_local_target(&t, "mlx5_0", 1, &cs);
	expo_init(&b);
	export_write_counters(&b, "ibconsole_port", &t, 1);
	assert_non_null(sample_value(b.p, "ibconsole_port_transmit_bytes_total{device=\"mlx5_0\",port=\"1\"}", v, sizeof(v)));
	assert_string_equal(v, "4000");
	assert_non_null(sample_value(b.p, "ibconsole_port_receive_bytes_total{device=\"mlx5_0\",port=\"1\"}", v, sizeof(v)));
	assert_string_equal(v, "4294967296");
	assert_non_null(sample_value(b.p, "ibconsole_port_transmit_packets_total{", v, sizeof(v)));
	assert_string_equal(v, "1000");
	assert_non_null(sample_value(b.p, "ibconsole_port_receive_packets_total{", v, sizeof(v)));
	assert_string_equal(v, "999");
	assert_non_null(sample_value(b.p, "ibconsole_port_transmit_wait_total{", v, sizeof(v)));
	assert_string_equal(v, "12");
	/* the help says where the factor comes from */
	assert_non_null(strstr(b.p, "# HELP ibconsole_port_transmit_bytes_total Data transmitted, in bytes (PortXmitData counts 4-octet words: multiplied by 4 here"));

	pma_set(&cs, 4611686018427387903ULL, 0);	/* 2^62 - 1 words */
	expo_reset(&b);
	export_write_counters(&b, "ibconsole_port", &t, 1);
	assert_non_null(sample_value(b.p, "ibconsole_port_transmit_bytes_total{", v, sizeof(v)));
	assert_string_equal(v, "18446744073709551612");
	assert_non_null(sample_value(b.p, "ibconsole_port_receive_bytes_total{", v, sizeof(v)));
	assert_string_equal(v, "0");

	/* a counter the port does not have is absent, never 0 */
	memset(&cs, 0, sizeof(cs));
	cs.valid = true;
	counters_put(&cs, "PortRcvErrors", 0)->valid = true;
	expo_reset(&b);
	export_write_counters(&b, "ibconsole_port", &t, 1);
	assert_null(strstr(b.p, "transmit_bytes_total"));
	assert_true(has_line_prefix(b.p,
		"ibconsole_port_errors_total{device=\"mlx5_0\",port=\"1\",counter=\"PortRcvErrors\"} 0"));
	expo_free(&b);
}

/* A port whose counters could not be read: counters_up 0 and the reason
 * in an error series; its counters are left out, and the other ports of
 * the same collection are written as usual. */
static void test_failed_port_skipped(void **state)
{
	struct counter_set good, bad;
	struct export_target t[3];
	struct expo_buf b;
	char v[64];

	(void)state;
	pma_set(&good, 100, 200);
	memset(&bad, 0, sizeof(bad));
	bad.valid = false;
	snprintf(bad.why, sizeof(bad.why), "PMA query of lid 7 port 1 timed out after 300 ms");
	set_local_target(&t[0], "mlx5_0", 1, &bad);
	set_local_target(&t[1], "mlx5_0", 2, &good);
	set_local_target(&t[2], "mlx5_1", 1, NULL);	/* not read at all */
	t[1].verdict[EXPORT_RULE_SINCE_CLEAR] = 0;

	expo_init(&b);
	export_write_counters(&b, "ibconsole_port", t, 3);
	check_exposition(b.p);
	assert_non_null(sample_value(b.p, "ibconsole_port_counters_up{device=\"mlx5_0\",port=\"1\"}", v, sizeof(v)));
	assert_string_equal(v, "0");
	assert_non_null(sample_value(b.p, "ibconsole_port_counters_up{device=\"mlx5_0\",port=\"2\"}", v, sizeof(v)));
	assert_string_equal(v, "1");
	assert_non_null(sample_value(b.p, "ibconsole_port_counters_up{device=\"mlx5_1\",port=\"1\"}", v, sizeof(v)));
	assert_string_equal(v, "0");
	assert_true(has_line_prefix(b.p,
		"ibconsole_port_counters_error_info{device=\"mlx5_0\",port=\"1\",error=\"PMA query of lid 7 port 1 timed out after 300 ms\"} 1"));
	/* a port never read has no reason to give */
	assert_false(has_line_prefix(b.p, "ibconsole_port_counters_error_info{device=\"mlx5_1\""));
	/* the failed port has no counter, source or verdict series */
	assert_null(strstr(b.p, "_total{device=\"mlx5_0\",port=\"1\""));
	assert_false(has_line_prefix(b.p, "ibconsole_port_counters_info{device=\"mlx5_0\",port=\"1\""));
	assert_false(has_line_prefix(b.p, "ibconsole_port_verdict{device=\"mlx5_0\",port=\"1\""));
	/* the good port is complete */
	assert_non_null(sample_value(b.p, "ibconsole_port_transmit_bytes_total{device=\"mlx5_0\",port=\"2\"}", v, sizeof(v)));
	assert_string_equal(v, "400");
	assert_true(has_line_prefix(b.p,
		"ibconsole_port_errors_total{device=\"mlx5_0\",port=\"2\",counter=\"PortRcvErrors\"} 0"));
	assert_true(has_line_prefix(b.p,
		"ibconsole_port_counters_info{device=\"mlx5_0\",port=\"2\",source=\"pma\",mode=\"PortCountersExtended (64-bit data) + PortCounters (classic errors)\"} 1"));
	assert_true(has_line_prefix(b.p,
		"ibconsole_port_verdict{device=\"mlx5_0\",port=\"2\",rule=\"errors-since-clear\"} 0"));
	expo_free(&b);
}

/* The verdict series: 0 ok, 1 watch, 2 act as the counter rules judge
 * them (here the since-clear rule with the default lifetime levels), one
 * sample per rule judged, none for a rule not judged. */
static void test_verdict_levels(void **state)
{
	struct thresholds th;
	struct counter_set cs[3];
	struct export_target t[3];
	struct expo_buf b;
	uint64_t vals[3];
	char v[64], pre[160];

	(void)state;
	thresholds_defaults(&th);
	assert_true(th.life_watch > 0 && th.life_act > th.life_watch);
	vals[0] = 0;
	vals[1] = th.life_watch;	/* at the watch level */
	vals[2] = th.life_act + 1;	/* above the act level */
	for (int i = 0; i < 3; i++) {
		struct verdict vd;
		char dev[16];

		memset(&cs[i], 0, sizeof(cs[i]));
		cs[i].valid = true;
		counters_put(&cs[i], "PortRcvErrors", vals[i])->valid = true;
		cs[i].c[0].bits = 64;	/* not saturated */
		snprintf(dev, sizeof(dev), "hca%d", i);
		set_local_target(&t[i], dev, 1, &cs[i]);
		rules_eval_values(&cs[i], &th, &vd);
		t[i].verdict[EXPORT_RULE_SINCE_CLEAR] = (int)vd.level;
	}
	assert_int_equal(t[0].verdict[EXPORT_RULE_SINCE_CLEAR], VERDICT_OK);
	assert_int_equal(t[1].verdict[EXPORT_RULE_SINCE_CLEAR], VERDICT_WATCH);
	assert_int_equal(t[2].verdict[EXPORT_RULE_SINCE_CLEAR], VERDICT_ACT);
	t[0].verdict[EXPORT_RULE_WINDOW] = VERDICT_ACT;
	t[2].verdict[EXPORT_RULE_INTERVAL] = VERDICT_WATCH;

	expo_init(&b);
	export_write_counters(&b, "ibconsole_port", t, 3);
	check_exposition(b.p);
	for (int i = 0; i < 3; i++) {
		static const char *const want[] = { "0", "1", "2" };

		snprintf(pre, sizeof(pre),
			 "ibconsole_port_verdict{device=\"hca%d\",port=\"1\",rule=\"errors-since-clear\"}", i);
		assert_non_null(sample_value(b.p, pre, v, sizeof(v)));
		assert_string_equal(v, want[i]);
	}
	assert_non_null(sample_value(b.p, "ibconsole_port_verdict{device=\"hca0\",port=\"1\",rule=\"errors-in-window\"}", v, sizeof(v)));
	assert_string_equal(v, "2");
	assert_non_null(sample_value(b.p, "ibconsole_port_verdict{device=\"hca2\",port=\"1\",rule=\"errors-in-interval\"}", v, sizeof(v)));
	assert_string_equal(v, "1");
	/* rules not judged (-1) have no sample */
	assert_false(has_line_prefix(b.p, "ibconsole_port_verdict{device=\"hca1\",port=\"1\",rule=\"errors-in-window\"}"));
	assert_false(has_line_prefix(b.p, "ibconsole_port_verdict{device=\"hca0\",port=\"1\",rule=\"errors-in-interval\"}"));
	assert_non_null(strstr(b.p, "# HELP ibconsole_port_verdict Verdict of each counter rule on the port: 0 ok, 1 watch, 2 act"));
	expo_free(&b);
}

/* --- a whole synthetic exposition through promtool --- */

static void synthetic_snapshot(struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->ports = calloc(2, sizeof(*s->ports));	/* freed by snapshot_release */
	assert_non_null(s->ports);
	s->cap = s->nports = 2;
	for (int i = 0; i < 2; i++) {
		struct port_info *p = &s->ports[i];

		snprintf(p->dev, sizeof(p->dev), "mlx5_%d", i);
		p->port = 1;
		snprintf(p->ca_type, sizeof(p->ca_type), "MT4123");
		snprintf(p->fw_ver, sizeof(p->fw_ver), "20.39.1002");
		snprintf(p->hw_ver, sizeof(p->hw_ver), "0x0");
		snprintf(p->board_id, sizeof(p->board_id), "MT_\"0000\"\\223");
		p->board_id_v.valid = true;
		p->node_guid = 0x0c42a10300010002ULL + (uint64_t)i;
		p->port_guid = p->node_guid;
		p->lid = 0x11 + (unsigned)i;
		p->state = 4;
		p->phys_state = 5;
		p->link_v.valid = true;
		p->width_active = 2;	/* 4X */
		snprintf(p->speed_name, sizeof(p->speed_name), "HDR");
		p->lane_gbps = 53.125;
		p->data_rate_gbps = 200;
		p->mtu_v.valid = true;
		p->mtu_active = 4096;
		snprintf(p->link_layer, sizeof(p->link_layer), "%s", i ? "Ethernet" : "InfiniBand");
		snprintf(p->netdev, sizeof(p->netdev), "%s", i ? "eth2" : "");
		p->pcie.v.valid = true;
		p->pcie.cur_gts = 16;
		p->pcie.cur_width = 16;
		p->pcie.cur_gbps = 252.06;
		p->pcie.max_gbps = 252.06;
		p->numa.v.valid = true;
		p->numa.node = i ? -1 : 0;
	}
}

/* Two switches and an HCA, one of the switches' ports not answering its
 * PMA; names with quotes and backslashes as a node-name map may give. */
static void synthetic_fabric(struct fabric *f, struct fab_node *nd, struct fab_port *pt)
{
	memset(f, 0, sizeof(*f));
	memset(nd, 0, 3 * sizeof(*nd));
	memset(pt, 0, 5 * sizeof(*pt));
	f->nodes = nd;
	f->nnodes = 3;
	f->ports = pt;
	f->nports = 5;
	f->from_node = 2;
	snprintf(nd[0].name, sizeof(nd[0].name), "leaf \"A\" \\1");
	snprintf(nd[0].desc, sizeof(nd[0].desc), "MF0;leaf-a:MQM8700/U1");
	nd[0].type = FAB_SWITCH;
	nd[0].guid = 0x0002c90200000001ULL;
	nd[0].lid = 1;
	snprintf(nd[1].name, sizeof(nd[1].name), "spine\n2");
	snprintf(nd[1].desc, sizeof(nd[1].desc), "spine2");
	nd[1].type = FAB_SWITCH;
	nd[1].guid = 0x0002c90200000002ULL;
	nd[1].lid = 2;
	snprintf(nd[2].name, sizeof(nd[2].name), "node001 HCA-1");
	snprintf(nd[2].desc, sizeof(nd[2].desc), "node001 HCA-1");
	nd[2].type = FAB_CA;
	nd[2].guid = 0x0002c90300000003ULL;
	nd[2].lid = 3;
	/* leaf 1 <-> HCA 1, leaf 2 <-> spine 1, spine 2 down */
	int node[5] = { 0, 0, 1, 1, 2 }, num[5] = { 1, 2, 1, 2, 1 }, rem[5] = { 4, 2, 1, -1, 0 };
	for (int i = 0; i < 5; i++) {
		pt[i].node = node[i];
		pt[i].portnum = num[i];
		pt[i].lid = nd[node[i]].lid;
		pt[i].info_valid = true;
		pt[i].state = rem[i] < 0 ? 1 : 4;
		pt[i].phys_state = rem[i] < 0 ? 2 : 5;
		pt[i].width_active = 2;
		pt[i].speed_active = 4;	/* QDR */
		pt[i].mtu_active = 4096;
		pt[i].remote = rem[i];
	}
}

static void test_promtool_clean(void **state)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	struct counter_set cs[2], fcs[5];
	struct export_target t[2], ft[5];
	struct fab_node nd[3];
	struct fab_port pt[5];
	struct fabric f;
	int fport[5];
	struct expo_buf b;
	char path[] = "/tmp/test_export.XXXXXX", cmd[256], out[4096];
	FILE *p;
	size_t got;
	int fd, st;

	(void)state;
	assert_non_null(s);
	synthetic_snapshot(s);
	pma_set(&cs[0], 123456, 654321);
	memset(&cs[1], 0, sizeof(cs[1]));
	cs[1].valid = true;
	cs[1].source = CTR_SRC_SYSFS;
	snprintf(cs[1].mode, sizeof(cs[1].mode), "sysfs hw_counters/");
	counters_put(&cs[1], "sent_pkts", 5)->valid = true;
	counters_put(&cs[1], "eth2:rx_pfc_0", 2)->valid = true;
	for (int i = 0; i < 2; i++) {
		set_local_target(&t[i], s->ports[i].dev, 1, &cs[i]);
		t[i].verdict[EXPORT_RULE_WINDOW] = i;
		t[i].verdict[EXPORT_RULE_SINCE_CLEAR] = 2 * i;
	}
	synthetic_fabric(&f, nd, pt);
	for (int i = 0; i < 5; i++) {
		fport[i] = i;
		pma_set(&fcs[i], 40 * (uint64_t)i, 80);
		export_labels_fabric(&ft[i], &f, i);
		ft[i].cs = &fcs[i];
		ft[i].verdict[EXPORT_RULE_WINDOW] = -1;
		ft[i].verdict[EXPORT_RULE_INTERVAL] = 0;
		ft[i].verdict[EXPORT_RULE_SINCE_CLEAR] = 1;
	}
	fcs[3].valid = false;
	snprintf(fcs[3].why, sizeof(fcs[3].why), "PMA \"PortCounters\" of lid 2 port 2: timed out\\retries 2");

	expo_init(&b);
	export_write_local(&b, s, t);
	export_write_counters(&b, "ibconsole_port", t, 2);
	export_write_fabric(&b, &f, ft, fport, 5);
	export_write_counters(&b, "ibconsole_fabric_port", ft, 5);
	assert_false(b.oom);
	assert_true(check_exposition(b.p) > 60);
	/* label values as written */
	assert_true(has_line_prefix(b.p,
		"ibconsole_fabric_node_info{node_guid=\"0x0002c90200000001\",node=\"leaf \\\"A\\\" \\\\1\",description=\"MF0;leaf-a:MQM8700/U1\",type=\"Switch\",lid=\"1\"} 1"));
	assert_true(has_line_prefix(b.p, "ibconsole_fabric_node_up{node_guid=\"0x0002c90200000002\",node=\"spine\\n2\"} 0"));
	assert_true(has_line_prefix(b.p, "ibconsole_fabric_node_up{node_guid=\"0x0002c90200000001\",node=\"leaf \\\"A\\\" \\\\1\"} 1"));
	assert_true(has_line_prefix(b.p,
		"ibconsole_fabric_port_counters_error_info{node_guid=\"0x0002c90200000002\",node=\"spine\\n2\",port=\"2\",error=\"PMA \\\"PortCounters\\\" of lid 2 port 2: timed out\\\\retries 2\"} 1"));
	assert_true(has_line_prefix(b.p,
		"ibconsole_port_signalling_rate_bytes_per_second{device=\"mlx5_0\",port=\"1\"} 26562500000"));
	assert_true(has_line_prefix(b.p,
		"ibconsole_port_data_rate_bytes_per_second{device=\"mlx5_0\",port=\"1\"} 25000000000"));

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b.p, b.len), (ssize_t)b.len);
	close(fd);
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s 2>&1", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	got = fread(out, 1, sizeof(out) - 1, p);
	out[got] = '\0';
	st = pclose(p);
	if (getenv("TEST_EXPORT_KEEP"))
		fprintf(stderr, "exposition kept in %s\n", path);
	else
		unlink(path);
	expo_free(&b);
	snapshot_release(s);
	free(s);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		fail_msg("promtool not found — apt-get install prometheus (its promtool checks the exposition)");
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || got)
		fail_msg("promtool check metrics (status %d) says: %s", st, out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_escaping),
		cmocka_unit_test(test_help_and_values),
		cmocka_unit_test(test_names_and_total),
		cmocka_unit_test(test_bytes_are_words_times_4),
		cmocka_unit_test(test_failed_port_skipped),
		cmocka_unit_test(test_verdict_levels),
		cmocka_unit_test(test_promtool_clean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
