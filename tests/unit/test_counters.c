// SPDX-License-Identifier: MIT
/* cmocka tests of the counter table, the classifier and PMA decoding:
 * classic vs extended counters as ClassPortInfo allows. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <infiniband/mad.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/sysfs.h"
#include "core/base/json.h"
#include "core/counters/counters.h"
#include "core/counters/counters_json.h"
#include "core/counters/delta.h"
#include "core/counters/reader.h"

static void test_table_rows(void **state)
{
	for (int i = 0; i < ctr_table_count; i++) {
		const struct ctr_def *d = &ctr_table[i];

		assert_non_null(d->name);
		assert_ptr_equal(ctr_lookup(d->name), d);
		if (d->sysfs)
			assert_ptr_equal(ctr_lookup(d->sysfs), d);
		assert_true(d->classic_bits == 0 || d->classic_bits == 4 ||
			    d->classic_bits == 8 || d->classic_bits == 16 ||
			    d->classic_bits == 32);
	}
	assert_int_equal(ctr_lookup("PortXmitData")->unit, CTR_WORDS4);
	assert_int_equal(ctr_lookup("port_rcv_data")->unit, CTR_WORDS4);
	assert_int_equal(ctr_lookup("PortXmitWait")->cls, CTR_CONGESTION);
	assert_int_equal(ctr_lookup("SymbolErrorCounter")->classic_bits, 16);
}

static void test_classify(void **state)
{
	/* rxe and mlx5 hw_counters */
	assert_int_equal(ctr_classify("rcvd_seq_err"), CTR_ERROR);
	assert_int_equal(ctr_classify("duplicate_request"), CTR_ERROR);
	assert_int_equal(ctr_classify("out_of_seq_request"), CTR_ERROR);
	assert_int_equal(ctr_classify("completer_retry_err"), CTR_ERROR);
	assert_int_equal(ctr_classify("local_ack_timeout_err"), CTR_ERROR);
	assert_int_equal(ctr_classify("out_of_buffer"), CTR_ERROR);
	assert_int_equal(ctr_classify("np_cnp_sent"), CTR_CONGESTION);
	assert_int_equal(ctr_classify("rp_cnp_handled"), CTR_CONGESTION);
	assert_int_equal(ctr_classify("np_ecn_marked_roce_packets"), CTR_CONGESTION);
	assert_int_equal(ctr_classify("eth0:rx_pause_ctrl_phy"), CTR_CONGESTION);
	assert_int_equal(ctr_classify("sent_pkts"), CTR_TRAFFIC);
	assert_int_equal(ctr_classify("rdma_sends"), CTR_TRAFFIC);
	assert_int_equal(ctr_classify("link_downed"), CTR_ERROR);
	/* "deferred" contains "err": an exact row keeps it traffic */
	assert_int_equal(ctr_classify("ack_deferred"), CTR_TRAFFIC);
	assert_int_equal(ctr_classify("req_cqe_error"), CTR_ERROR);
	assert_int_equal(ctr_classify("rcvd_rnr_err"), CTR_ERROR);
	assert_int_equal(ctr_classify("roce_adp_retrans"), CTR_ERROR);
	assert_string_equal(ctr_class_name(CTR_CONGESTION), "congestion");
}

static void test_cpi_byte_order(void **state)
{
	uint8_t cpi[192] = { 0 };
	uint16_t cap;
	uint32_t cap2;

	/* ibsim HCA: CapabilityMask 0x1200, big-endian on the wire */
	cpi[2] = 0x12;
	cpi[3] = 0x00;
	/* CapabilityMask2 bit 1 in the top 27 bits of bytes 4..7 */
	cpi[7] = 0x40;	/* (0x2 << 5) = 0x40 */
	counters_parse_cpi(cpi, &cap, &cap2);
	assert_int_equal(cap, 0x1200);
	assert_int_equal(cap2, 0x2);
}

static void test_classic_vs_extended(void **state)
{
	uint8_t pc[1024] = { 0 }, pce[1024] = { 0 };
	struct counter_set cs;
	uint64_t big = 0x123456789aULL;
	uint32_t v;
	const struct ctr_value *x;

	v = 7;
	mad_encode_field(pc, IB_PC_ERR_SYM_F, &v);
	v = 0xffffffff;
	mad_encode_field(pc, IB_PC_XMT_BYTES_F, &v);
	v = 99;
	mad_encode_field(pc, IB_PC_XMT_WAIT_F, &v);
	mad_encode_field(pce, IB_PC_EXT_XMT_BYTES_F, &big);

	/* classic only: 32-bit data, saturated at all-ones */
	memset(&cs, 0, sizeof(cs));
	counters_from_pma(&cs, pc, NULL, 0x0000, 0);
	assert_false(cs.extended);
	x = counters_find(&cs, "PortXmitData");
	assert_int_equal(x->value, 0xffffffffULL);
	assert_int_equal(x->bits, 32);
	assert_true(x->saturates);
	assert_null(counters_find(&cs, "PortXmitWait"));	/* unsupported */
	assert_null(counters_find(&cs, "PortUnicastXmitPkts"));
	assert_non_null(strstr(cs.mode, "classic"));

	/* ibsim HCA: 0x1200 = extended width + PortXmitWait */
	memset(&cs, 0, sizeof(cs));
	counters_from_pma(&cs, pc, pce, 0x1200, 0);
	assert_true(cs.extended);
	assert_false(cs.ext_errors);
	x = counters_find(&cs, "PortXmitData");
	assert_int_equal(x->value, big);
	assert_int_equal(x->bits, 64);
	x = counters_find(&cs, "SymbolErrorCounter");
	assert_int_equal(x->value, 7);
	assert_int_equal(x->bits, 16);	/* errors stay classic */
	assert_int_equal(counters_find(&cs, "PortXmitWait")->value, 99);
	assert_non_null(counters_find(&cs, "PortUnicastXmitPkts"));
	assert_non_null(strstr(cs.mode, "64-bit data"));

	/* NoIETF: only the four data / packet counters are 64-bit */
	memset(&cs, 0, sizeof(cs));
	counters_from_pma(&cs, pc, pce, 0x0400, 0);
	assert_true(cs.extended);
	assert_null(counters_find(&cs, "PortUnicastXmitPkts"));
	assert_int_equal(counters_find(&cs, "PortXmitData")->bits, 64);

	/* CapabilityMask2 bit 1: 64-bit error counters */
	big = 70000;
	mad_encode_field(pce, IB_PC_EXT_ERR_SYM_F, &big);
	memset(&cs, 0, sizeof(cs));
	counters_from_pma(&cs, pc, pce, 0x1200, PMA_CAP2_EXT_ERRORS);
	assert_true(cs.ext_errors);
	x = counters_find(&cs, "SymbolErrorCounter");
	assert_int_equal(x->value, 70000);
	assert_int_equal(x->bits, 64);
}

static void test_put_find(void **state)
{
	struct counter_set cs;
	struct ctr_value *v;

	memset(&cs, 0, sizeof(cs));
	v = counters_put(&cs, "rcvd_pkts", 5);
	assert_int_equal(v->unit, CTR_PACKETS);
	assert_int_equal(v->cls, CTR_TRAFFIC);
	counters_put(&cs, "rcvd_pkts", 6);
	assert_int_equal(cs.n, 1);
	assert_int_equal(counters_find(&cs, "rcvd_pkts")->value, 6);
	for (int i = 0; i < CTR_MAX + 3; i++) {
		char n[16];

		snprintf(n, sizeof(n), "c%d", i);
		counters_put(&cs, n, 1);
	}
	assert_int_equal(cs.n, CTR_MAX);
}

/* The index names follow the table, and every name (PMA and kernel)
 * resolves to its row; a set filled from the PMA keeps table order, so
 * counters_find_near finds each name at its own slot. */
static void test_index_and_near(void **state)
{
	static const struct { int idx; const char *name; } want[] = {
		{ CTR_IDX_SYMBOL_ERROR, "SymbolErrorCounter" },
		{ CTR_IDX_LINK_DOWNED, "LinkDownedCounter" },
		{ CTR_IDX_VL15_DROPPED, "VL15Dropped" },
		{ CTR_IDX_XMIT_WAIT, "PortXmitWait" },
		{ CTR_IDX_RCV_DATA, "PortRcvData" },
		{ CTR_IDX_MULTICAST_RCV_PKTS, "PortMulticastRcvPkts" },
	};
	struct counter_set a, b;
	uint8_t pc[IB_PC_DATA_SZ] = { 0 }, pce[IB_PC_DATA_SZ] = { 0 };

	(void)state;
	assert_int_equal(ctr_table_count, CTR_IDX_COUNT);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_string_equal(ctr_table[want[i].idx].name, want[i].name);
		assert_int_equal(ctr_index(want[i].name), want[i].idx);
	}
	for (int i = 0; i < ctr_table_count; i++) {
		assert_int_equal(ctr_index(ctr_table[i].name), i);
		if (ctr_table[i].sysfs)
			assert_int_equal(ctr_index(ctr_table[i].sysfs), i);
	}
	assert_int_equal(ctr_index("PortRcvErrorsX"), -1);
	assert_int_equal(ctr_index(""), -1);
	assert_null(ctr_lookup("np_cnp_sent"));

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	counters_from_pma(&a, pc, pce, PMA_CAP_EXT_WIDTH | PMA_CAP_XMIT_WAIT, 0);
	counters_from_pma(&b, pc, NULL, 0, 0);
	for (int i = 0; i < a.n; i++)
		assert_ptr_equal(counters_find_near(&a, a.c[i].name, i), &a.c[i]);
	/* b lacks PortXmitWait and the 64-bit-only rows: a wrong hint
	 * falls back to the full search, an absent name is NULL */
	assert_ptr_equal(counters_find_near(&b, "PortRcvData", CTR_IDX_RCV_DATA),
			 counters_find(&b, "PortRcvData"));
	assert_non_null(counters_find(&b, "PortRcvData"));
	assert_null(counters_find_near(&b, "PortXmitWait", CTR_IDX_XMIT_WAIT));
	assert_null(counters_find_near(&b, "PortUnicastXmitPkts", 99));
}

static void test_remote_targets(void **state)
{
	static struct snapshot s;
	static struct port_info ports[2];
	struct ctr_target t[4];
	char err[200];

	memset(&s, 0, sizeof(s));
	s.ports = ports;
	s.cap = 2;
	s.nports = 2;
	snprintf(s.ports[0].dev, sizeof(s.ports[0].dev), "rxe0");
	snprintf(s.ports[0].link_layer, sizeof(s.ports[0].link_layer), "Ethernet");
	s.ports[0].port = 1;
	snprintf(s.ports[1].dev, sizeof(s.ports[1].dev), "mlx5_1");
	snprintf(s.ports[1].link_layer, sizeof(s.ports[1].link_layer), "InfiniBand");
	s.ports[1].port = 2;
	s.ports[1].lid = 9;
	/* through the first IB port with a LID; default PMA port 1 */
	assert_int_equal(reader_targets_remote("3:5,0x10", &s, t, 4, err, sizeof(err)), 2);
	assert_string_equal(t[0].dev, "mlx5_1");
	assert_int_equal(t[0].port, 2);
	assert_int_equal(t[0].lid, 3);
	assert_int_equal(t[0].pma_port, 5);
	assert_true(t[0].remote);
	assert_string_equal(t[0].label, "lid 3 port 5");
	assert_int_equal(t[1].lid, 16);
	assert_int_equal(t[1].pma_port, 1);
	/* "010" is ten, not octal eight */
	assert_int_equal(reader_targets_remote("010", &s, t, 4, err, sizeof(err)), 1);
	assert_int_equal(t[0].lid, 10);
	assert_int_equal(reader_targets_remote("0", &s, t, 4, err, sizeof(err)), -1);
	assert_int_equal(reader_targets_remote("3:", &s, t, 4, err, sizeof(err)), -1);
	assert_int_equal(reader_targets_remote("3;4", &s, t, 4, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "LID[:PORT]"));
	s.ports[1].lid = 0;	/* no IB port with a LID: nowhere to ask from */
	assert_int_equal(reader_targets_remote("3", &s, t, 4, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no local InfiniBand port"));
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * The kernel's counters/ files keep the PMA's classic widths for the error
 * counters (IBA PortCounters: SymbolErrorCounter 16 bits, LinkDownedCounter
 * 8, LocalLinkIntegrityErrors 4) and saturate at all-ones: read through
 * the real sysfs reader from a temporary tree.
 */
static void test_sysfs_widths(void **state)
{
	char root[] = "/tmp/ibc-ctr-XXXXXX", dir[512], cmd[600];
	struct counter_set cs = { 0 };
	struct delta_port dp;
	const struct ctr_value *v;
	const struct delta_ctr *dc;

	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/sys/class/infiniband/mlx5_0/ports/1/counters", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", dir);
	assert_int_equal(system(cmd), 0);
	put_file(dir, "symbol_error", "65535\n");		/* 2^16 - 1 */
	put_file(dir, "link_downed", "255\n");		/* 2^8 - 1 */
	put_file(dir, "local_link_integrity_errors", "15\n");	/* 2^4 - 1 */
	put_file(dir, "port_rcv_errors", "65534\n");
	put_file(dir, "port_xmit_data", "65535\n");		/* 64-bit data */
	sysfs_set_root(root);
	assert_int_equal(counters_sysfs_sample("mlx5_0", 1, NULL, &cs), 0);

	v = counters_find(&cs, "SymbolErrorCounter");
	assert_non_null(v);
	assert_int_equal(v->bits, 16);
	assert_true(v->saturates);
	assert_int_equal(counters_find(&cs, "LinkDownedCounter")->bits, 8);
	assert_int_equal(counters_find(&cs, "LocalLinkIntegrityErrors")->bits, 4);
	assert_int_equal(counters_find(&cs, "PortRcvErrors")->bits, 16);
	assert_int_equal(counters_find(&cs, "PortXmitData")->bits, 64);

	delta_init(&dp, "mlx5_0/1", 1);
	delta_update(&dp, &cs, 100);
	dc = delta_find(&dp, "SymbolErrorCounter");
	assert_int_equal(dc->state, DELTA_SATURATED);
	assert_int_equal(delta_find(&dp, "LinkDownedCounter")->state, DELTA_SATURATED);
	assert_int_equal(delta_find(&dp, "PortXmitData")->state, DELTA_FIRST);
	/* 65534 -> 65535: saturated on the way, the delta a lower bound */
	put_file(dir, "port_rcv_errors", "65535\n");
	assert_int_equal(counters_sysfs_sample("mlx5_0", 1, NULL, &cs), 0);
	delta_update(&dp, &cs, 101);
	dc = delta_find(&dp, "PortRcvErrors");
	assert_int_equal(dc->state, DELTA_SATURATED);
	assert_true(dc->lower_bound);
	assert_int_equal(dc->saturations, 1);
	sysfs_set_root("/");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* PortRcvErrorDetails and PortXmitDiscardDetails data as the
 * specification lays them out: reserved, PortSelect, CounterSelect (16),
 * then one 16-bit big-endian counter after another. */
static void test_error_details(void **state)
{
	static const uint8_t rcv[64] = {
		0x00, 0x01, 0x00, 0x00,
		0x00, 0x05,	/* PortLocalPhysicalErrors */
		0x00, 0x00,	/* PortMalformedPktErrors */
		0x01, 0x02,	/* PortBufferOverrunErrors 258 */
		0x00, 0x00,	/* PortDLIDMappingErrors */
		0xff, 0xff,	/* PortVLMappingErrors, saturated */
		0x00, 0x07,	/* PortLoopingErrors */
	};
	static const uint8_t xmt[64] = {
		0x00, 0x03, 0x00, 0x00,
		0x00, 0x02,	/* PortInactiveDiscards */
		0x00, 0x00,	/* PortNeighborMTUDiscards */
		0x00, 0x00,	/* PortSwLifetimeLimitDiscards */
		0x00, 0x09,	/* PortSwHOQLifetimeLimitDiscards */
	};
	struct det_values d;
	char line[200];

	(void)state;
	memset(&d, 0, sizeof(d));
	details_decode(&d, DET_RCV_ERR, rcv);
	assert_true(d.valid);
	assert_int_equal(d.n, 6);
	assert_int_equal(d.v[0], 5);
	assert_int_equal(d.v[2], 258);
	assert_int_equal(d.v[4], 65535);
	assert_int_equal(d.v[5], 7);
	assert_string_equal(details_field_name(DET_RCV_ERR, 0), "PortLocalPhysicalErrors");
	assert_string_equal(details_field_name(DET_RCV_ERR, 5), "PortLoopingErrors");
	details_text(&d, DET_RCV_ERR, line, sizeof(line));
	assert_string_equal(line, "PortLocalPhysicalErrors 5, PortBufferOverrunErrors 258, "
			    "PortVLMappingErrors 65535, PortLoopingErrors 7");
	memset(&d, 0, sizeof(d));
	details_decode(&d, DET_XMIT_DISC, xmt);
	assert_int_equal(d.n, 4);
	assert_int_equal(d.v[0], 2);
	assert_int_equal(d.v[3], 9);
	assert_string_equal(details_field_name(DET_XMIT_DISC, 3), "PortSwHOQLifetimeLimitDiscards");
	assert_int_equal(details_count(DET_VL_WAIT), 16);
	assert_string_equal(details_total_name(DET_XMIT_DISC), "PortXmitDiscards");
	/* a refusal reads as such, never as zeros */
	memset(&d, 0, sizeof(d));
	snprintf(d.why, sizeof(d.why), "not supported by the port (MAD status 0x000c)");
	details_text(&d, DET_RCV_ERR, line, sizeof(line));
	assert_string_equal(line, "n/a (not supported by the port (MAD status 0x000c))");
}

/* The reference for watch's per-port counter members: the generic
 * writer, member by member, with the keys man/ibconsole.8 lists for
 * watch --json (ibconsole/watch/1) in their order. */
static void ref_delta_json(struct json *j, const struct delta_port *d, double now)
{
	struct ctr_rates r;

	counters_rates(d, &r);
	json_num(j, "interval_s", d->dt);
	json_num_or_null(j, "tx_gbps", r.tx_gbps >= 0, r.tx_gbps);
	json_num_or_null(j, "rx_gbps", r.rx_gbps >= 0, r.rx_gbps);
	json_num_or_null(j, "tx_pps", r.tx_pps >= 0, r.tx_pps);
	json_num_or_null(j, "rx_pps", r.rx_pps >= 0, r.rx_pps);
	json_u64(j, "errors_interval", delta_errors_window(d, now, DELTA_WIN_INTERVAL));
	json_u64(j, "errors_1min", delta_errors_window(d, now, DELTA_WIN_MINUTE));
	json_u64(j, "errors_10min", delta_errors_window(d, now, DELTA_WIN_10MIN));
	json_arr_begin(j, "counters");
	for (int i = 0; i < d->n; i++) {
		const struct delta_ctr *c = &d->c[i];
		bool have = c->state != DELTA_FIRST && c->state != DELTA_MISSING;
		double g = delta_gbps(c);

		json_obj_begin(j, NULL);
		json_str(j, "name", c->name);
		json_str(j, "class", ctr_class_name((enum ctr_class)c->cls));
		json_str(j, "unit", ctr_unit_name((enum ctr_unit)c->unit));
		json_int(j, "bits", c->bits);
		json_u64(j, "value", c->value);
		json_str(j, "state", delta_state_name(c->state));
		if (have)
			json_u64(j, "delta", c->delta);
		else
			json_null(j, "delta");
		json_bool(j, "delta_lower_bound", c->lower_bound);
		json_num_or_null(j, "per_s", c->rate_valid, c->rate);
		if (c->unit == CTR_WORDS4 || c->unit == CTR_BYTES) {
			if (have)
				json_u64(j, "bytes", delta_bytes(c, c->delta));
			else
				json_null(j, "bytes");
			json_num_or_null(j, "gbps", g >= 0, g);
		}
		json_u64(j, "total", c->total);
		json_u64(j, "total_since_mark", c->total_mark);
		json_bool(j, "total_lower_bound", c->total_lb);
		json_u64(j, "window_1min", delta_window(c, now, DELTA_WIN_MINUTE));
		json_u64(j, "window_10min", delta_window(c, now, DELTA_WIN_10MIN));
		json_int(j, "resets", c->resets);
		json_int(j, "saturations", c->saturations);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void put_ctr(struct delta_port *d, const char *name, enum ctr_class cls,
		    enum ctr_unit unit, unsigned bits, enum delta_state st)
{
	struct delta_ctr *c = &d->c[d->n++];

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->cls = (uint8_t)cls;
	c->unit = (uint8_t)unit;
	c->bits = (uint8_t)bits;
	c->have = st != DELTA_MISSING;
	c->state = st;
	c->bucket_id = 200;	/* t = 1000 s */
}

/* One port's members in a document of the given nesting, by fn. */
static char *port_doc(const struct delta_port *d, bool compact, int nest,
		      void (*fn)(struct json *, const struct delta_port *, double), double now)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	struct json j;

	assert_non_null(f);
	json_init(&j, f);
	j.compact = compact;
	json_obj_begin(&j, NULL);
	for (int k = 0; k < nest; k++)
		json_arr_begin(&j, k ? NULL : "ports");
	json_obj_begin(&j, NULL);
	json_str(&j, "port", "x/1");
	fn(&j, d, now);
	json_obj_end(&j);
	for (int k = 0; k < nest; k++)
		json_arr_end(&j);
	json_obj_end(&j);
	fclose(f);
	return out;
}

static void delta_json_under_test(struct json *j, const struct delta_port *d, double now)
{
	counters_json_delta(j, d, now, NULL);
}

/* watch's counter members, written as text in one piece per counter,
 * are the generic writer's, byte for byte, compact and indented, for
 * every state, nulls, 64-bit extremes, fractions and a name to escape. */
static void test_delta_json_as_writer(void **state)
{
	static struct delta_port d;
	struct delta_ctr *c;

	(void)state;
	memset(&d, 0, sizeof(d));
	d.dt = 0.999871;
	put_ctr(&d, "SymbolErrorCounter", CTR_ERROR, CTR_COUNT, 16, DELTA_FIRST);
	c = &d.c[d.n - 1];
	c->value = 3;
	put_ctr(&d, "PortXmitData", CTR_TRAFFIC, CTR_WORDS4, 64, DELTA_OK);
	c = &d.c[d.n - 1];
	c->value = UINT64_MAX;
	c->delta = 123456789012ULL;
	c->rate = 123471053.6;
	c->rate_valid = true;
	c->total = c->total_mark = UINT64_MAX - 1;
	c->bucket[200 % DELTA_NBUCKETS] = c->bucket_total = 99;
	c->moved = true;
	c->moved_bucket = 200;
	put_ctr(&d, "Odd \"name\\\xff", CTR_CONGESTION, CTR_COUNT, 32, DELTA_SATURATED);
	c = &d.c[d.n - 1];
	c->value = 0xffffffff;
	c->delta = 12;
	c->lower_bound = c->total_lb = true;
	c->saturations = 1;
	put_ctr(&d, "rcvd_bytes", CTR_TRAFFIC, CTR_BYTES, 64, DELTA_MISSING);
	put_ctr(&d, "LinkDownedCounter", CTR_ERROR, CTR_COUNT, 8, DELTA_RESET);
	c = &d.c[d.n - 1];
	c->value = 2;
	c->delta = 2;
	c->resets = 4000000000u;
	c->bucket[199 % DELTA_NBUCKETS] = 5;
	c->bucket[200 % DELTA_NBUCKETS] = 2;
	c->bucket[150 % DELTA_NBUCKETS] = 30;	/* in the 10 minutes only */
	c->bucket_total = 37;
	c->moved = true;
	c->moved_bucket = 200;
	put_ctr(&d, "PortRcvPkts", CTR_TRAFFIC, CTR_PACKETS, 64, DELTA_OK);
	c = &d.c[d.n - 1];
	c->delta = 0;
	c->rate = 0;
	c->rate_valid = true;
	for (int nest = 0; nest < 3; nest++)
		for (int compact = 0; compact < 2; compact++) {
			char *want = port_doc(&d, compact, nest, ref_delta_json, 1000.0);
			char *got = port_doc(&d, compact, nest, delta_json_under_test, 1000.0);

			assert_string_equal(got, want);
			free(want);
			free(got);
		}
}

static struct ctr_json_cache test_cache;

static void delta_json_cached(struct json *j, const struct delta_port *d, double now)
{
	counters_json_delta(j, d, now, &test_cache);
}

/* One sample of the cache test's port: each counter moves now and then
 * (a few at once), is cleared, saturates, or is left out; now and then
 * the whole sample is missed. */
static void cache_sample(struct counter_set *cs, uint64_t *v, double t)
{
	static const struct { const char *name; unsigned bits; } ctr[] = {
		{ "SymbolErrorCounter", 16 }, { "LinkDownedCounter", 8 },
		{ "PortRcvErrors", 16 }, { "PortXmitData", 64 }, { "PortRcvPkts", 64 },
		{ "Odd \"name\\\xff", 32 }, { "rcvd_bytes", 64 }, { "PortXmitWait", 32 },
	};

	memset(cs, 0, sizeof(*cs));
	cs->valid = rand() % 40 != 0;
	cs->t_mono = t;
	for (int i = 0; i < 8; i++) {
		uint64_t max = ctr[i].bits == 64 ? UINT64_MAX : (UINT64_C(1) << ctr[i].bits) - 1;
		int r = rand() % 100;
		struct ctr_value *x;

		if (r < 8)
			v[i] += 1 + (uint64_t)(rand() % 3);
		else if (r == 8)
			v[i] = 0;				/* cleared */
		else if (r == 9 && ctr[i].bits < 64)
			v[i] = max;				/* saturated */
		else if (r == 10 && i == 3)
			v[i] += UINT64_C(1) << 40;		/* a big delta */
		if (v[i] > max)
			v[i] = max;
		if (rand() % 50 == 0)
			continue;				/* left out */
		x = counters_put(cs, ctr[i].name, v[i]);
		assert_non_null(x);
		x->bits = (uint8_t)ctr[i].bits;
		x->saturates = ctr[i].bits < 64;
		x->cls = (uint8_t)(i < 3 || i == 5 ? CTR_ERROR : i == 7 ? CTR_CONGESTION : CTR_TRAFFIC);
		x->unit = (uint8_t)(i == 3 ? CTR_WORDS4 : i == 6 ? CTR_BYTES : i == 4 ? CTR_PACKETS : CTR_COUNT);
		x->valid = true;
	}
}

/* watch's counter objects written from the cache are what the writer
 * writes member by member (the reference) and what the uncached path
 * writes, byte for byte, sample after sample: a counter that moves, is
 * cleared or saturates, whose windows age (the clock runs on, jumps by
 * minutes), or a sample missed, changes its text in the same interval;
 * one that did not keeps it. */
static void test_delta_json_cache(void **state)
{
	static struct delta_port d;
	struct counter_set *cs = calloc(1, sizeof(*cs));
	uint64_t v[8] = { 0, 0, 0, 1000, 5, 0, 77, 0 };
	char *prev = NULL;
	double t = 5000.0;
	int changed = 0, same = 0;

	(void)state;
	assert_non_null(cs);
	memset(&test_cache, 0, sizeof(test_cache));
	delta_init(&d, "x/1", 1.0);
	srand(26);
	for (int step = 0; step < 3000; step++) {
		int r = rand() % 100;
		char *want, *plain, *got;

		t += r < 3 ? 61.0 + rand() % 600 : r < 10 ? 5.0 : r < 20 ? 1.0 + (rand() % 100) / 1000.0 : 1.0;
		cache_sample(cs, v, t);
		delta_update(&d, cs, t);
		if (step % 500 == 0)
			delta_mark(&d, t);
		want = port_doc(&d, true, 1, ref_delta_json, t);
		plain = port_doc(&d, true, 1, delta_json_under_test, t);
		got = port_doc(&d, true, 1, delta_json_cached, t);
		assert_string_equal(plain, want);
		assert_string_equal(got, want);
		if (prev && strcmp(prev, got))
			changed++;
		else if (prev)
			same++;
		free(prev);
		prev = got;
		free(want);
		free(plain);
	}
	/* both kinds of interval were met: the cache served and was renewed */
	assert_true(changed > 100);
	assert_true(same > 100);
	free(prev);
	counters_json_cache_free(&test_cache);
	free(cs);
}

/* One port's error details (doc_cs through doc_dc, NULL: the plain
 * writer) as port_doc's members. */
static const struct counter_set *doc_cs;
static struct det_json_cache *doc_dc;

static void details_members(struct json *j, const struct delta_port *d, double now)
{
	(void)d;
	(void)now;
	counters_json_details_cached(j, doc_cs, doc_dc);
	json_int(j, "after", 1);
}

static char *details_doc(const struct counter_set *cs, struct det_json_cache *c)
{
	doc_cs = cs;
	doc_dc = c;
	return port_doc(NULL, true, 1, details_members, 0);
}

/* Ports' error details written from the text of the last port's are
 * the writer's, byte for byte, whatever changed between them: a
 * detail's value, what was asked, why not, the sample's validity or
 * source. */
static void test_details_cache(void **state)
{
	struct counter_set *cs = calloc(1, sizeof(*cs));
	struct det_json_cache c;
	int served = 0;

	(void)state;
	assert_non_null(cs);
	memset(&c, 0, sizeof(c));
	srand(27);
	for (int step = 0; step < 4000; step++) {
		int r = rand() % 100;
		char *want, *got;

		if (r < 2)
			cs->valid = !cs->valid;
		else if (r < 4)
			cs->source = cs->source == CTR_SRC_PMA ? CTR_SRC_SYSFS : CTR_SRC_PMA;
		else if (r < 6)
			snprintf(cs->no_mad, sizeof(cs->no_mad), "%s", rand() % 2 ? "" : "no umad");
		else if (r < 30) {
			struct det_values *dv = &cs->det.g[rand() % DET_GROUPS];

			switch (rand() % 5) {
			case 0: dv->asked = !dv->asked; break;
			case 1: dv->valid = !dv->valid; break;
			case 2: dv->n = rand() % (DET_MAX_FIELDS + 1); break;
			case 3: dv->v[rand() % DET_MAX_FIELDS] += 1; break;
			default: snprintf(dv->why, sizeof(dv->why), "why %d", rand() % 3);
			}
		}
		want = details_doc(cs, NULL);
		got = details_doc(cs, &c);
		assert_string_equal(got, want);
		served += r >= 30;
		free(want);
		free(got);
	}
	assert_true(served > 1000);
	counters_json_details_cache_free(&c);
	free(cs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_cpi_byte_order),
		cmocka_unit_test(test_classic_vs_extended),
		cmocka_unit_test(test_put_find),
		cmocka_unit_test(test_index_and_near),
		cmocka_unit_test(test_remote_targets),
		cmocka_unit_test(test_sysfs_widths),
		cmocka_unit_test(test_error_details),
		cmocka_unit_test(test_delta_json_as_writer),
		cmocka_unit_test(test_delta_json_cache),
		cmocka_unit_test(test_details_cache),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
