/* SPDX-License-Identifier: MIT */
/* The console's counters on a capture: the two captured samples of the
 * local ports (counters-1.json, counters-2.json) fed to the delta engine
 * as the counter worker feeds it, the capture's interval apart. */
#ifndef IBC_CAPTURE_CTRFILE_H
#define IBC_CAPTURE_CTRFILE_H

#include <stddef.h>

struct ctr_model;

/* Fills m (zeroed first) from the open capture: 0, or -1 with a one-line
 * reason in err (m then holds no port). */
int replay_counters(struct ctr_model *m, char *err, size_t errlen);

#endif
