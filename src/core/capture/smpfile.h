/* SPDX-License-Identifier: MIT */
/* A port's captured SMP answers (PortInfo and peer), smp/DEV/PORT in the
 * archive; source_capture (core/port/sources.h) reads them back. And
 * the fabric's ports' PortInfo fields, fabric.ports, for --from fabric. */
#ifndef IBC_CAPTURE_SMPFILE_H
#define IBC_CAPTURE_SMPFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct port_info;
struct fabric;

/* The file's text for port p with PortInfo pi (IB_SMP_DATA_SIZE bytes):
 * its length, or -1 when buf is too small. */
int smpfile_format(char *buf, size_t len, const struct port_info *p, const uint8_t *pi);

/* Every discovered port's PortInfo link fields (state, widths, speeds
 * active / enabled / supported, MTU), a line "GUID PORT …" each, for
 * member fabric.ports: the saved topology keeps only what a link
 * trained at, and the link rules also need what each end can do. */
void smpfile_fabric_write(FILE *f, const struct fabric *fab);
/* Gives the ports of fab (read from the saved topology) the fields of
 * such text, so the link rules judge them as on the host: 0, or -1 with
 * a one-line reason in err (fab then as it was read). */
int smpfile_fabric_apply(struct fabric *fab, const char *text, size_t len, char *err,
			 size_t errlen);

#endif
