// SPDX-License-Identifier: MIT
/* libFuzzer target: the agent's message parser (header + every payload
 * type, test orders and their results included) and the record scanner,
 * fed arbitrary bytes. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/agent/proto.h"
#include "core/base/jsonscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void sink(void *arg, const char *path, const char *val, bool is_str)
{
	(void)arg; (void)path; (void)val; (void)is_str;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct proto_msg m, back;
	uint8_t out[PROTO_HDR + PROTO_MAX_PAYLOAD];
	char why[256];
	uint8_t type;

	if (size >= PROTO_HDR && proto_header(data, &type, why, sizeof(why)) >= 0) {
		size_t n = size - PROTO_HDR;

		if (!proto_decode(type, data + PROTO_HDR, n, &m, why, sizeof(why))) {
			/* what decodes must encode back to the same bytes */
			int k = proto_encode(&m, out, sizeof(out));

			if (k < 0 || (size_t)k != size || memcmp(out + PROTO_HDR, data + PROTO_HDR, n))
				__builtin_trap();
			if (proto_decode(type, out + PROTO_HDR, n, &back, why, sizeof(why)))
				__builtin_trap();
			/* a decoded order is within its limits and has a MAC */
			if (type == MSG_ORDER) {
				static const uint8_t nonce[PROTO_NONCE];
				uint8_t mac[32];

				if (proto_check_order(&m, why, sizeof(why)) ||
				    proto_order_mac("secret", nonce, &m, mac))
					__builtin_trap();
			}
		}
	}
	/* any type with any payload */
	if (size >= 1)
		(void)proto_decode((uint8_t)(data[0] % (MSG_TYPE_MAX + 1)), data + 1, size - 1, &m, why, sizeof(why));
	(void)json_scan((const char *)data, size, sink, NULL, why, sizeof(why));
	return 0;
}
