/* SPDX-License-Identifier: MIT */
/* A port's captured SMP answers (PortInfo and peer), smp/DEV/PORT in the
 * archive; source_capture (core/port/sources.h) reads them back. */
#ifndef IBC_CAPTURE_SMPFILE_H
#define IBC_CAPTURE_SMPFILE_H

#include <stddef.h>
#include <stdint.h>

struct port_info;

/* The file's text for port p with PortInfo pi (IB_SMP_DATA_SIZE bytes):
 * its length, or -1 when buf is too small. */
int smpfile_format(char *buf, size_t len, const struct port_info *p, const uint8_t *pi);

#endif
