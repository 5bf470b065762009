// SPDX-License-Identifier: MIT
/* The sweep's listing rule (ibqueryerrors' with thresholds 0): which
 * swept ports `errors` and the console's sweep screen list. */
#include "config.h"
#include "diag/sweeplisting.h"

bool sweeplisting_listed(const struct counter_set *cs,
			 const struct counter_set *prev, bool *moved)
{
	bool any = false;

	*moved = false;
	for (int i = 0; i < cs->n; i++) {
		const struct ctr_value *x = &cs->c[i];
		const struct ctr_value *p = prev ? counters_find(prev, x->name) : NULL;

		if (x->cls == CTR_TRAFFIC)
			continue;
		if (x->value)
			any = true;
		if (p && p->value != x->value)
			*moved = any = true;
	}
	return any;
}
