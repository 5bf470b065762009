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
