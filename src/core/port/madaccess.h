/* SPDX-License-Identifier: MIT */
/* May this user send MADs from a port? Opens the umad device behind it
 * (quietly: libibmad prints when its own open fails) and, when it cannot,
 * says which device, its owner, group and mode, and the permission that
 * would let this user in. */
#ifndef IBC_PORT_MADACCESS_H
#define IBC_PORT_MADACCESS_H

#include <stdbool.h>
#include <stddef.h>

/* 0 when dev/port's umad device opens read-write; else -1 with one line
 * in why: "cannot open /dev/infiniband/umad0 (mlx5_0/1): Permission
 * denied (root:root 0600) — …what to do". */
int madaccess_probe(const char *dev, int port, char *why, size_t whylen);

/* What a refused open found, for madaccess_explain. */
struct madaccess_node {
	const char *path;	/* "/dev/infiniband/umad0", NULL unknown */
	int err;		/* errno of the open */
	bool have_stat;
	unsigned mode;		/* permission bits */
	const char *owner, *group;
	bool member;		/* the user is listed in group… */
	bool in_session;	/* …and this process has it */
};
/* The line itself: pure, for the tests. */
void madaccess_explain(const char *dev, int port, const struct madaccess_node *n,
		       char *why, size_t whylen);

#endif
