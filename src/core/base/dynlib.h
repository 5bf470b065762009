/* SPDX-License-Identifier: MIT */
/* Dynlib: a shared library loaded when a command first needs it, not
 * linked, its functions looked up from a table; a miss is a value. */
#ifndef IBC_BASE_DYNLIB_H
#define IBC_BASE_DYNLIB_H

#include <pthread.h>
#include <stdatomic.h>
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

/* A library loaded on first need, whichever thread needs it first:
 * what to load, what to install when it is missing; DYNLIB() fills it. */
struct dynlib {
	const char *soname;
	const char *name, *package;	/* "json-c", Debian's "libjson-c5" */
	const struct dynlib_sym *syms;
	size_t n;
	pthread_mutex_t lock;
	atomic_int state;	/* 0 not tried yet, 1 loaded, -1 failed */
	char why[300];		/* dynlib_load()'s err when it failed */
};
#define DYNLIB(soname, name, package, syms) \
	{ (soname), (name), (package), (syms), sizeof(syms) / sizeof((syms)[0]), \
	  PTHREAD_MUTEX_INITIALIZER, 0, "" }

/* 0 when D is loaded (the first call loads it); -1 with err, where err
 * is not NULL: "cannot load SONAME (why) — install NAME (apt-get
 * install PACKAGE)". A failure is final: later calls fail at once. */
int dynlib_need(struct dynlib *d, char *err, size_t errlen);

#endif
