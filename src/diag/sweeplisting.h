/* SPDX-License-Identifier: MIT */
/* The sweep's listing rule (ibqueryerrors' with thresholds 0): which
 * swept ports `errors` and the console's sweep screen list. */
#ifndef IBC_DIAG_SWEEPLISTING_H
#define IBC_DIAG_SWEEPLISTING_H

#include <stdbool.h>
#include "core/counters/counters.h"

/* True when an error or congestion counter of cs is not zero; *moved when
 * one changed since prev (NULL: first sweep), which lists it too. */
bool sweeplisting_listed(const struct counter_set *cs,
			 const struct counter_set *prev, bool *moved);

#endif
