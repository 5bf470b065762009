// SPDX-License-Identifier: MIT
/* PortSamplesControl decoded with libibmad's field table. */
#include "config.h"
#include "core/counters/samples.h"

#include <infiniband/mad.h>

int samples_tick(const uint8_t *psc)
{
	return psc ? (int)mad_get_field((void *)psc, 0, IB_PSC_TICK_F) : -1;
}
