/* SPDX-License-Identifier: MIT */
/* SHA-256 and HMAC-SHA-256 (FIPS 180-4, RFC 2104), small and dependency
 * free: the agent's optional shared-secret challenge uses it. */
#ifndef IBC_BASE_SHA256_H
#define IBC_BASE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	uint8_t buf[64];
	size_t n;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, uint8_t out[SHA256_LEN]);
void hmac_sha256(const void *key, size_t klen, const void *msg, size_t mlen,
		 uint8_t out[SHA256_LEN]);

#endif
