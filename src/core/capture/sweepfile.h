/* SPDX-License-Identifier: MIT */
/* A fabric-wide counter sweep in a capture: capture writes the two
 * rounds of `errors` (errors-1.sweep, errors-2.sweep, the sampling
 * interval apart) as text; --from FILE errors reads them back into the
 * sweeps the live command would have judged. The reader takes files
 * from strangers: it bounds every count by the text's own length. */
#ifndef IBC_CAPTURE_SWEEPFILE_H
#define IBC_CAPTURE_SWEEPFILE_H

#include <stddef.h>
#include <stdio.h>

#include "core/fabric/sweep.h"

#define SWEEPFILE_MAGIC "ibconsole-sweep 2"

/* Writes sweep sw, read at time (ISO 8601 UTC), to f. */
void sweepfile_write(FILE *f, const struct sweep *sw, const char *time);
/* Parses len bytes of text into sw (freed with sweep_free) and its time
 * into time: 0, or -1 with a one-line reason in err and sw empty. */
int sweepfile_read(const char *text, size_t len, struct sweep *sw, char *time,
		   size_t tlen, char *err, size_t errlen);

#endif
