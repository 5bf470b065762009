/* SPDX-License-Identifier: MIT */
/* Rooted sysfs reads: every path is taken under a configurable root so
 * fixture trees can stand in for /sys (like hwloc's HWLOC_FSROOT). */
#ifndef IBC_BASE_SYSFS_H
#define IBC_BASE_SYSFS_H

#include <stddef.h>
#include <stdbool.h>

/* The root ("/" by default); set once at start-up. */
void sysfs_set_root(const char *root);
const char *sysfs_root(void);
bool sysfs_is_real_root(void);

/*
 * Reads the first line of ROOT/PATH into buf, trailing newline removed.
 * Returns 0, or -errno. Uses open()/read() rather than stdio on purpose:
 * umad2sim (ibsim's preload) fakes sysfs by intercepting exactly those.
 */
/* Called with the path (under the root) and first line of every file
 * read (capture records them); NULL: nothing. */
extern void (*sysfs_tap)(const char *path, const char *line);
int sysfs_read(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sysfs_read_long(long *val, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Basename of a symlink's target under the root; -errno on failure. */
int sysfs_link_name(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Calls fn for each entry (no dot entries) of ROOT/PATH; returns the count
 * or -errno. */
int sysfs_list(const char *path, void (*fn)(const char *name, void *arg), void *arg);

#endif
