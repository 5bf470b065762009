/* SPDX-License-Identifier: MIT */
/* Hmacdl: HMAC-SHA-256 through nettle, loaded by the commands that hold
 * a shared secret, not linked into every one. */
#ifndef IBC_BASE_HMACDL_H
#define IBC_BASE_HMACDL_H

#include <stddef.h>
#include <stdint.h>

/* Loads nettle (NETTLE_SONAME) on the first call; later calls only
 * report the outcome. 0, or -1 with err naming the library and the
 * package. */
int hmacdl_load(char *err, size_t errlen);

/* HMAC-SHA-256 (RFC 2104) of msg under key into mac: 0, or -1 when
 * nettle cannot be loaded (mac then holds no MAC: fail closed). */
int hmacdl_sha256(const char *key, const uint8_t *msg, size_t len, uint8_t mac[32]);

#endif
