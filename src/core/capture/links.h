/* SPDX-License-Identifier: MIT */
/* The links the port sources read on the host (a device's PCI function,
 * its driver and module), which an archive cannot carry as links:
 * capture writes them as member "links", a line "PATH TAB NAME" each;
 * on --from they are made again in the extracted folder, so
 * sysfs_link_name() names what it named on the host. */
#ifndef IBC_CAPTURE_LINKS_H
#define IBC_CAPTURE_LINKS_H

#include <stddef.h>

/* In the extracted capture DIR: each PATH (under DIR/sysfs) becomes a
 * link to DIR/links.d/K/NAME, holding what was at PATH. A line that
 * would leave /sys or names more than a plain name, or more lines than
 * a host reads, refuse the archive: -1 with a one-line reason in err. 0
 * when done (or no member "links"). */
int links_remake(const char *dir, char *err, size_t errlen);

#endif
