/* SPDX-License-Identifier: MIT */
/* The triage's written forms: JSON (schema ibconsole/triage/1) for
 * scripts and Markdown for a ticket, both the whole walk. */
#ifndef IBC_DIAG_TRIAGE_REPORT_H
#define IBC_DIAG_TRIAGE_REPORT_H

#include <stdio.h>
#include "diag/triage.h"

void triage_write_json(FILE *f, const struct tri_evidence *ev, const struct triage *t);
void triage_write_markdown(FILE *f, const struct tri_evidence *ev, const struct triage *t);
/* The plain-text walk `ibconsole triage` prints. */
void triage_write_text(FILE *f, const struct tri_evidence *ev, const struct triage *t);

#endif
