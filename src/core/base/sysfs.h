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
/* What the root is called where a user reads it (JSON, messages): the
 * root itself unless a label was set (--from: the capture's file). */
void sysfs_set_root_label(const char *label);
const char *sysfs_root_label(void);

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
/* Reads up to len raw bytes of ROOT/PATH (a binary attribute such as a
 * PCI function's config): the count, or -errno. */
int sysfs_read_bin(void *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* For capture: each link sysfs_link_name() reads (path under the root,
 * its target's basename) and each binary read (path, bytes). */
extern void (*sysfs_link_tap)(const char *path, const char *name);
extern void (*sysfs_bin_tap)(const char *path, const void *data, size_t len);
/* Basename of a symlink's target under the root; -errno on failure. */
int sysfs_link_name(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Calls fn for each entry (no dot entries) of ROOT/PATH; returns the count
 * or -errno. */
int sysfs_list(const char *path, void (*fn)(const char *name, void *arg), void *arg);

#endif
