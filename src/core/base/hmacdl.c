// SPDX-License-Identifier: MIT
/* Hmacdl (see hmacdl.h): nettle's three HMAC-SHA-256 functions through
 * pointers that dlsym() filled. */
#include "config.h"
#include "core/base/hmacdl.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <nettle/hmac.h>

#include "core/base/dynlib.h"

/* hmac_sha256_* are macros for nettle_hmac_sha256_*, the symbols. */
static struct {
	__typeof__(nettle_hmac_sha256_set_key) *set_key;
	__typeof__(nettle_hmac_sha256_update) *update;
	__typeof__(nettle_hmac_sha256_digest) *digest;
} nt;
static char nt_err[300];	/* why it could not be loaded */
static pthread_once_t nt_once = PTHREAD_ONCE_INIT;

static void nt_load(void)
{
	static const struct dynlib_sym syms[] = {
		{ "nettle_hmac_sha256_set_key", (void **)&nt.set_key },
		{ "nettle_hmac_sha256_update", (void **)&nt.update },
		{ "nettle_hmac_sha256_digest", (void **)&nt.digest },
	};

	dynlib_load(NETTLE_SONAME, syms, sizeof(syms) / sizeof(syms[0]), nt_err, sizeof(nt_err));
}

int hmacdl_load(char *err, size_t errlen)
{
	pthread_once(&nt_once, nt_load);
	if (nt.set_key)
		return 0;
	snprintf(err, errlen, "cannot load %s (%s) — install nettle (apt-get install libnettle8)",
		 NETTLE_SONAME, nt_err);
	return -1;
}

int hmacdl_sha256(const char *key, const uint8_t *msg, size_t len, uint8_t mac[32])
{
	struct hmac_sha256_ctx c;

	pthread_once(&nt_once, nt_load);
	if (!nt.set_key) {
		memset(mac, 0, 32);
		return -1;
	}
	nt.set_key(&c, strlen(key), (const uint8_t *)key);
	nt.update(&c, len, msg);
	nt.digest(&c, SHA256_DIGEST_SIZE, mac);
	return 0;
}
