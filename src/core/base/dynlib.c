// SPDX-License-Identifier: MIT
/* Dynlib: dlopen(), then dlsym() down the caller's table. */
#include "config.h"
#include "core/base/dynlib.h"

#include <dlfcn.h>
#include <stdio.h>

int dynlib_load(const char *soname, const struct dynlib_sym *syms, size_t n,
		char *err, size_t errlen)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	size_t i;

	if (!h) {
		snprintf(err, errlen, "%s", dlerror());
		return -1;
	}
	for (i = 0; i < n; i++) {
		*syms[i].slot = dlsym(h, syms[i].name);
		if (!*syms[i].slot)
			break;
	}
	if (i == n)
		return 0;
	snprintf(err, errlen, "%s lacks %s", soname, syms[i].name);
	for (i = 0; i < n; i++)
		*syms[i].slot = NULL;
	dlclose(h);
	return -1;
}

int dynlib_need(struct dynlib *d, char *err, size_t errlen)
{
	int st = atomic_load_explicit(&d->state, memory_order_acquire);

	if (!st) {
		pthread_mutex_lock(&d->lock);
		st = atomic_load_explicit(&d->state, memory_order_relaxed);
		if (!st) {
			st = dynlib_load(d->soname, d->syms, d->n, d->why, sizeof(d->why)) ? -1 : 1;
			atomic_store_explicit(&d->state, st, memory_order_release);
		}
		pthread_mutex_unlock(&d->lock);
	}
	if (st > 0)
		return 0;
	if (err)
		snprintf(err, errlen, "cannot load %s (%s) — install %s (apt-get install %s)",
			 d->soname, d->why, d->name, d->package);
	return -1;
}
