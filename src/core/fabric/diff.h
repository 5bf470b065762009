/* SPDX-License-Identifier: MIT */
/* Topology files and compare: write / read ibnetdiscover's text format and
 * list the nodes and links that disappeared, appeared or changed rate. */
#ifndef IBC_FABRIC_DIFF_H
#define IBC_FABRIC_DIFF_H

#include <stdio.h>
#include "core/fabric/fabric.h"

enum fdiff_kind {
	FDIFF_LINK_GONE, FDIFF_LINK_NEW, FDIFF_LINK_RATE,
	FDIFF_NODE_GONE, FDIFF_NODE_NEW,
};

struct fdiff_entry {
	enum fdiff_kind kind;
	uint64_t guid_a, guid_b;	/* nodes; guid_b 0 for node entries */
	int port_a, port_b;
	char name_a[FAB_NAME], name_b[FAB_NAME];
	char old_rate[16], new_rate[16];	/* "4xQDR", "" none */
};

struct fdiff {
	struct fdiff_entry *e;
	int n, cap;
};

/* Compares old with cur; entries sorted links first. Returns 0 or -1 (out
 * of memory). Free with fdiff_free. */
int fabric_diff(const struct fabric *old, const struct fabric *cur, struct fdiff *d);
void fdiff_free(struct fdiff *d);
const char *fdiff_kind_name(enum fdiff_kind k);	/* "link_gone", ... */
/* One human line: link gone: "sw-b"[2] <-> "hca-x"[1] (was 4xQDR) */
char *fdiff_describe(const struct fdiff_entry *e, char *buf, size_t len);

/* ibnetdiscover's topology text (also readable by ibsim and by
 * fabric_read_topology). Returns 0, or -1 when the stream failed. */
int fabric_write_topology(FILE *fp, const struct fabric *f);
/* Reads ibnetdiscover output (or a file we wrote). Returns NULL with a
 * one-line message in err. */
struct fabric *fabric_read_topology(const char *path, char *err, size_t errlen);
struct fabric *fabric_parse_topology(FILE *fp, const char *name, char *err,
				     size_t errlen);

#endif
