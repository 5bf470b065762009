// SPDX-License-Identifier: MIT
/* PerfGet(PortSamplesControl) through libibmad. */
#include "config.h"
#include "core/counters/samples.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "core/port/madaccess.h"

int samples_tick(const uint8_t *psc)
{
	return psc ? (int)mad_get_field((void *)psc, 0, IB_PSC_TICK_F) : -1;
}

int samples_control_get(const char *dev, int port, unsigned lid, int pma_port,
			int timeout_ms, uint8_t data[SAMPLES_DATA_SZ],
			char *why, size_t whylen)
{
	int classes[] = { IB_PERFORMANCE_CLASS };
	uint8_t buf[1024] = { 0 };	/* libibmad writes up to a whole MAD */
	struct ibmad_port *mp;
	ib_portid_t id;

	if (!lid) {
		snprintf(why, whylen, "no LID");
		return -1;
	}
	if (madaccess_probe(dev, port, why, whylen))
		return -1;
	mp = mad_rpc_open_port((char *)dev, port, classes, 1);
	if (!mp) {
		snprintf(why, whylen, "libibmad cannot open %s/%d", dev, port);
		return -1;
	}
	mad_rpc_set_timeout(mp, timeout_ms > 0 ? timeout_ms : 300);
	mad_rpc_set_retries(mp, 1);
	memset(&id, 0, sizeof(id));
	id.lid = (int)lid;
	id.qp = 1;
	id.qkey = IB_DEFAULT_QP1_QKEY;
	if (!pma_query_via(buf, &id, pma_port, (unsigned)(timeout_ms > 0 ? timeout_ms : 300),
			   IB_GSI_PORT_SAMPLES_CONTROL, mp)) {
		snprintf(why, whylen, "no answer to PortSamplesControl from LID %u", lid);
		mad_rpc_close_port(mp);
		return -1;
	}
	mad_rpc_close_port(mp);
	memcpy(data, buf, SAMPLES_DATA_SZ);
	return 0;
}
