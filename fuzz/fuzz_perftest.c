// SPDX-License-Identifier: MIT
/* libFuzzer target: every perftest handshake decoder on arbitrary bytes;
 * whatever decodes must encode back to the same bytes (key lines, MTU,
 * negotiation block) or decode again to the same values (the bandwidth
 * report). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/testrun/perftest_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	uint8_t out[PT_NEG_LEN_MLX5];
	char why[256], ver[32];
	struct pt_key k;
	struct pt_negotiate a, b;

	for (int g = 0; g < 2; g++)
		if (pt_key_decode(d, n, g, &k, why, sizeof(why)) == 0) {
			int len = pt_key_encode(&k, g, out, sizeof(out));
			struct pt_key k2;

			/* hex case may differ; the values may not */
			if (len != (int)n || pt_key_decode(out, n, g, &k2, why, sizeof(why)) ||
			    memcmp(&k, &k2, sizeof(k)))
				abort();
		}
	if (n >= PT_VERSION_LEN)
		(void)pt_version_decode(d, ver, sizeof(ver), why, sizeof(why));
	if (n >= PT_MTU_LEN) {
		int m = pt_mtu_decode(d, why, sizeof(why));

		if (m >= 0 && (pt_mtu_encode(m, out) != PT_MTU_LEN || memcmp(out, d, PT_MTU_LEN)))
			abort();
	}
	if (n >= PT_REPORT_MSGS * 8) {
		/* the bandwidth report: decode, encode, decode again */
		uint8_t in[PT_REPORT_MSGS][8], re[PT_REPORT_MSGS][8];
		size_t len[PT_REPORT_MSGS];
		struct pt_report r1, r2;
		int ver = d[0] & 1 ? 606 : 532;

		memcpy(in, d, sizeof(in));
		pt_report_decode(in, ver, &r1);
		pt_report_encode(&r1, ver, re, len);
		pt_report_decode(re, ver, &r2);
		if (r1.size != r2.size || r1.iters != r2.iters ||
		    memcmp(&r1.bw_peak, &r2.bw_peak, sizeof(double)) ||
		    memcmp(&r1.msg_rate_mpps, &r2.msg_rate_mpps, sizeof(double)))
			abort();
	}
	if (pt_negotiate_decode(d, n, &a, why, sizeof(why)) == 0) {
		int len = pt_negotiate_encode(&a, out, sizeof(out));

		/* the padding bytes are not kept: compare values, not bytes */
		if (len != (int)n || pt_negotiate_decode(out, n, &b, why, sizeof(why)) ||
		    memcmp(&a, &b, sizeof(a)))
			abort();
		(void)pt_negotiate_compare(&a, &b, why, sizeof(why));
	}
	return 0;
}
