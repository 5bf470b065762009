// SPDX-License-Identifier: MIT
/* Congestion units held against the specification: the Tick read from a
 * PortSamplesControl answer written out byte by byte (and checked with
 * libibmad's own field table), the tick length in symbol times, the wait
 * share; and the RoCE counter table. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <infiniband/mad.h>

#include "diag/congestion.h"
#include "core/counters/samples.h"
#include "core/counters/portcong.h"
#include <string.h>

/* A PerfMgt GetResp(PortSamplesControl) MAD: the 24-byte common header,
 * 40 reserved bytes, then the attribute data (IBA vol. 1, 16.1.3.2).
 * OpCode 0xff, PortSelect 1, Tick 0x07, CounterWidth 4 (32 bits),
 * CounterMask0 2 (counter 0 can count PortXmitWait), SampleStatus 0. */
static const uint8_t psc_mad[256] = {
	/* header: BaseVersion 1, MgmtClass 0x04 PerfMgt, ClassVersion 1,
	 * Method 0x81 GetResp, Status 0, ClassSpecific 0, TID, AttrID 0x0010 */
	0x01, 0x04, 0x01, 0x81, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78,
	0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* bytes 24..63 reserved */
	[64] = 0xff,		/* OpCode */
	[65] = 0x01,		/* PortSelect */
	[66] = 0x07,		/* Tick */
	[67] = 0x04,		/* reserved(5) CounterWidth(3) = 4 */
	[68] = 0x10,		/* CounterMask0 (bits 34..36) = 2: 0b010 << 3 */
};

static void test_tick_from_mad(void **state)
{
	const uint8_t *data = psc_mad + IB_PC_DATA_OFFS;

	(void)state;
	assert_int_equal(IB_PC_DATA_OFFS, 64);
	assert_int_equal(psc_mad[16] << 8 | psc_mad[17], IB_GSI_PORT_SAMPLES_CONTROL);
	assert_int_equal(samples_tick(data), 7);
	/* the same field through libibmad's table */
	assert_int_equal(mad_get_field((void *)data, 0, IB_PSC_TICK_F), 7);
	assert_int_equal(mad_get_field((void *)data, 0, IB_PSC_PORT_SELECT_F), 1);
	assert_int_equal(mad_get_field((void *)data, 0, IB_PSC_COUNTER_WIDTH_F), 4);
	assert_int_equal(mad_get_field((void *)data, 0, IB_PSC_COUNTER_MASK0_F), 2);
	assert_int_equal(samples_tick(NULL), -1);
}

static void test_tick_ns(void **state)
{
	(void)state;
	/* IBA: Tick 0x00 is one symbol time, 4 ns at SDR (2 Gb/s of data
	 * per lane: 8 bits / 2 Gb/s); 0xFF is 256 symbol times */
	assert_true(fabs(congestion_tick_ns(0, 2.0) - 4.0) < 1e-9);
	assert_true(fabs(congestion_tick_ns(0xff, 2.0) - 1024.0) < 1e-9);
	/* QDR: 8 Gb/s per lane, 1 ns a symbol; Tick 7 = 8 symbols */
	assert_true(fabs(congestion_tick_ns(7, 8.0) - 8.0) < 1e-9);
	/* EDR: 25 Gb/s per lane, 0.32 ns; Tick 31 = 32 symbols = 10.24 ns */
	assert_true(fabs(congestion_tick_ns(31, 25.0) - 10.24) < 1e-9);
	/* unknown: no number */
	assert_true(congestion_tick_ns(-1, 8.0) == 0);
	assert_true(congestion_tick_ns(7, 0) == 0);
	assert_true(congestion_tick_ns(256, 8.0) == 0);
}

static void test_wait_share(void **state)
{
	bool clamped;
	double s;

	(void)state;
	/* EDR, Tick 31: 48,828,125 ticks of 10.24 ns = 0.5 s of 1 s */
	s = congestion_wait_share(48828125, 31, 25.0, 1.0, &clamped);
	assert_true(fabs(s - 0.5) < 1e-9);
	assert_false(clamped);
	/* the tick read from the MAD above, QDR, 2 s: 25,000,000 x 8 ns = 0.2 s */
	s = congestion_wait_share(25000000, samples_tick(psc_mad + 64), 8.0, 2.0, &clamped);
	assert_true(fabs(s - 0.1) < 1e-9);
	assert_true(congestion_wait_share(0, 7, 8.0, 1.0, NULL) == 0);
	/* more waiting than time: the port's tick is wrong; clamp and say so */
	s = congestion_wait_share(1000000000, 7, 8.0, 1.0, &clamped);
	assert_true(s == 1);
	assert_true(clamped);
	/* no tick (ibsim, or no answer): no share */
	assert_true(congestion_wait_share(100, -1, 8.0, 1.0, &clamped) < 0);
	assert_true(congestion_wait_share(100, 7, 0, 1.0, &clamped) < 0);
	assert_true(congestion_wait_share(100, 7, 8.0, 0, &clamped) < 0);
}

/* What a tick is timed at, per device, after NVIDIA's ibdiagnet manual:
 * Switch-IB counts 32 bytes per lane (Tick 31: the IBTA's lane symbol
 * times), Quantum 8 bytes per port (Tick 7: a quarter of that on 4X); a
 * host adapter or an undocumented switch is n/a. */
static void test_tick_per_device(void **state)
{
	char why[120];
	bool clamped;
	double g, share;

	(void)state;
	/* Switch-IB (0xcb20), 4X EDR: a lane's 25 Gb/s; 32 bytes = 10.24 ns */
	g = portcong_tick_gbps(2, 0x02c9, 0xcb20, 4, 25.0, why, sizeof(why));
	assert_true(fabs(g - 25.0) < 1e-9);
	assert_string_equal(why, "");
	assert_true(fabs(congestion_tick_ns(31, g) - 10.24) < 1e-9);
	/* Quantum (0xd2f0), 4X HDR (lanes of 50 Gb/s): 8 bytes at 200 Gb/s =
	 * 0.32 ns, not the 1.28 ns the lane reading gives */
	g = portcong_tick_gbps(2, 0x02c9, 0xd2f0, 4, 50.0, why, sizeof(why));
	assert_true(fabs(g - 200.0) < 1e-9);
	assert_true(fabs(congestion_tick_ns(7, g) - 0.32) < 1e-9);
	/* a second of 4X HDR waiting is 3.125e9 Quantum ticks: all of it */
	share = congestion_wait_share(3125000000ull, 7, g, 1.0, &clamped);
	assert_true(fabs(share - 1.0) < 1e-9);
	assert_false(clamped);
	g = portcong_tick_gbps(2, 0x02c9, 0xd2f2, 4, 100.0, why, sizeof(why));	/* Quantum-2 NDR */
	assert_true(fabs(g - 400.0) < 1e-9);
	g = portcong_tick_gbps(2, 0x119f, 0x1bf0, 2, 50.0, why, sizeof(why));	/* Bull Quantum, 2X */
	assert_true(fabs(g - 100.0) < 1e-9);
	/* host adapters and undocumented devices: n/a */
	assert_true(portcong_tick_gbps(1, 0x02c9, 0x101b, 4, 50.0, why, sizeof(why)) == 0);
	assert_string_equal(why, "n/a (tick unknown for this device)");
	assert_true(portcong_tick_gbps(2, 0x02c9, 0xb924, 4, 8.0, why, sizeof(why)) == 0);
	assert_string_equal(why, "n/a (tick unknown for this device)");
	assert_true(portcong_tick_gbps(2, 0x1234, 0xcb20, 4, 25.0, why, sizeof(why)) == 0);
	assert_true(portcong_tick_gbps(0, 0, 0, 4, 25.0, why, sizeof(why)) == 0);
	/* a known device whose link speed or width is not known */
	assert_true(portcong_tick_gbps(2, 0x02c9, 0xd2f0, 0, 50.0, why, sizeof(why)) == 0);
	assert_string_equal(why, "n/a (the port's link speed is not known here)");
	assert_true(portcong_tick_gbps(2, 0x02c9, 0xcb20, 4, 0, why, sizeof(why)) == 0);
	assert_string_equal(why, "n/a (the port's link speed is not known here)");
}

static void test_roce_table(void **state)
{
	static const char *const cong[] = {
		"np_cnp_sent", "rp_cnp_handled", "np_ecn_marked_roce_packets", "rp_cnp_ignored",
	};
	static const char *const loss[] = {
		"out_of_sequence", "local_ack_timeout_err", "packet_seq_err",
		"out_of_seq_request", "rcvd_seq_err", "retry_exceeded_err",
		"duplicate_request", "implied_nak_seq_err",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cong) / sizeof(*cong); i++) {
		assert_int_equal(congestion_roce_class(cong[i]), ROCE_CLASS_CONGESTION);
		assert_non_null(congestion_roce_meaning(cong[i]));
	}
	for (size_t i = 0; i < sizeof(loss) / sizeof(*loss); i++) {
		assert_int_equal(congestion_roce_class(loss[i]), ROCE_CLASS_LOSS);
		assert_non_null(congestion_roce_meaning(loss[i]));
	}
	/* traffic and receiver-side trouble are neither */
	assert_int_equal(congestion_roce_class("rcvd_pkts"), ROCE_CLASS_NONE);
	assert_int_equal(congestion_roce_class("rnr_nak_retry_err"), ROCE_CLASS_NONE);
	assert_int_equal(congestion_roce_class("np_cnp_sent_x"), ROCE_CLASS_NONE);
	assert_int_equal(congestion_roce_class(NULL), ROCE_CLASS_NONE);
	assert_null(congestion_roce_meaning("rcvd_pkts"));
	assert_string_equal(congestion_roce_class_name(ROCE_CLASS_LOSS), "loss");
	assert_string_equal(congestion_roce_class_name(ROCE_CLASS_CONGESTION), "congestion");
	assert_null(congestion_roce_class_name(ROCE_CLASS_NONE));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_from_mad),
		cmocka_unit_test(test_tick_ns),
		cmocka_unit_test(test_wait_share),
		cmocka_unit_test(test_tick_per_device),
		cmocka_unit_test(test_roce_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
