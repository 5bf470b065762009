// SPDX-License-Identifier: MIT
/* Hmacdl (see hmacdl.h): nettle's three HMAC-SHA-256 functions through
 * pointers that dlsym() filled. */
#include "config.h"
#include "core/base/hmacdl.h"

#include <string.h>
#include <nettle/hmac.h>

#include "core/base/dynlib.h"

/* hmac_sha256_* are macros for nettle_hmac_sha256_*, the symbols. */
static struct {
	__typeof__(nettle_hmac_sha256_set_key) *set_key;
	__typeof__(nettle_hmac_sha256_update) *update;
	__typeof__(nettle_hmac_sha256_digest) *digest;
} nt;
static const struct dynlib_sym nt_syms[] = {
	{ "nettle_hmac_sha256_set_key", (void **)&nt.set_key },
	{ "nettle_hmac_sha256_update", (void **)&nt.update },
	{ "nettle_hmac_sha256_digest", (void **)&nt.digest },
};
static struct dynlib nt_lib = DYNLIB(NETTLE_SONAME, "nettle", "libnettle8", nt_syms);

int hmacdl_load(char *err, size_t errlen)
{
	return dynlib_need(&nt_lib, err, errlen);
}

int hmacdl_sha256(const char *key, const uint8_t *msg, size_t len, uint8_t mac[32])
{
	struct hmac_sha256_ctx c;

	if (dynlib_need(&nt_lib, NULL, 0)) {
		memset(mac, 0, 32);
		return -1;
	}
	nt.set_key(&c, strlen(key), (const uint8_t *)key);
	nt.update(&c, len, msg);
	nt.digest(&c, SHA256_DIGEST_SIZE, mac);
	return 0;
}
