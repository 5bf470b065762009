/* SPDX-License-Identifier: MIT */
/* Dynlib: a shared library loaded when a command first needs it, not
 * linked, its functions looked up from a table; a miss is a value. */
#ifndef IBC_BASE_DYNLIB_H
#define IBC_BASE_DYNLIB_H

#include <stddef.h>

/* One function to look up: its name in the library, and the pointer
 * that receives its address. */
struct dynlib_sym {
	const char *name;
	void **slot;
};

/* dlopen()s SONAME (RTLD_NOW | RTLD_LOCAL) and fills every slot of the
 * N in SYMS. 0, or -1 with every slot NULL and err filled: dlerror()'s
 * text, or "SONAME lacks NAME". Once loaded the library stays: the
 * caller's threads may run its code until exit. */
int dynlib_load(const char *soname, const struct dynlib_sym *syms, size_t n,
		char *err, size_t errlen);

#endif
