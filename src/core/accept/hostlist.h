/* SPDX-License-Identifier: MIT */
/* The hosts file of an all-pairs acceptance: one agent a line as
 * host[:port] ([v6]:port), '#' comments; also the list an agent takes
 * test orders towards. */
#ifndef IBC_ACCEPT_HOSTLIST_H
#define IBC_ACCEPT_HOSTLIST_H

#include <stdbool.h>
#include <stddef.h>
#include "core/agent/proto.h"

#define HOSTLIST_MAX 256

struct hostlist_entry {
	char host[PROTO_PEER];
	int port;
	char name[PROTO_PEER + 8];	/* as shown: host:port */
};

struct hostlist {
	int n;
	struct hostlist_entry h[HOSTLIST_MAX];
};

/* One line: 1 with *e filled, 0 for a blank or comment line, -1 with why. */
int hostlist_parse_line(const char *line, int default_port, struct hostlist_entry *e,
			char *why, size_t whylen);
/* Reads a whole file; 0, or -1 with a one-line "what — what to do" error
 * naming the file and line (a bad line, a duplicate, too many hosts). */
int hostlist_load(struct hostlist *l, const char *path, int default_port, char *err, size_t errlen);
/* Whether host:port is in the list (the host as written there). */
bool hostlist_has(const struct hostlist *l, const char *host, int port);

#endif
