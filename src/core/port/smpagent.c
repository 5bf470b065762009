// SPDX-License-Identifier: MIT
/* SMP agents that let go only once fenced under umad2sim (smpagent.h). */
#include "config.h"
#include "core/port/smpagent.h"

#include <string.h>

#include "core/base/clock.h"
#include "core/base/umadlock.h"

int smp_agent_open(struct smp_agent *a, const char *dev, int port, const int *classes, int n,
		   int timeout_ms, int retries)
{
	memset(a, 0, sizeof(*a));
	umadlock_span_begin();
	a->mp = mad_rpc_open_port((char *)dev, port, (int *)classes, n);
	if (!a->mp) {
		umadlock_span_end();
		return -1;
	}
	a->port = port;
	a->timeout_ms = timeout_ms;
	mad_rpc_set_timeout(a->mp, timeout_ms);
	if (retries > 0)
		mad_rpc_set_retries(a->mp, retries);
	return 0;
}

uint8_t *smp_agent_query(struct smp_agent *a, void *buf, ib_portid_t *id, unsigned attr,
			 unsigned mod)
{
	double t0 = mono_s();
	uint8_t *r = smp_query_via(buf, id, attr, mod, 0, a->mp);

	/* one that took its time-out may have been sent again */
	if (!r || mono_s() - t0 >= a->timeout_ms / 1000.0)
		a->late = true;
	return r;
}

/* The fence: the local port's own SMA always answers. */
static int self_portinfo(void *arg)
{
	struct smp_agent *a = arg;
	uint8_t pi[IB_SMP_DATA_SIZE];
	ib_portid_t self;

	memset(&self, 0, sizeof(self));	/* directed route, zero hops */
	return smp_query_via(pi, &self, IB_ATTR_PORT_INFO, (unsigned)a->port, 0, a->mp) ? 0 : -1;
}

static void close_mad_port(void *mp)
{
	mad_rpc_close_port(mp);
}

void smp_agent_close(struct smp_agent *a)
{
	if (!a->mp)
		return;
	umadlock_let_go(a->mp, close_mad_port,
			umadlock_fenced(a->late, a->timeout_ms, self_portinfo, a));
	a->mp = NULL;
	umadlock_span_end();
}

void smp_agent_fence(const char *dev, int port, int timeout_ms)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	struct smp_agent a;

	if (!umadlock_sim() || smp_agent_open(&a, dev, port, classes, 2, timeout_ms, 0))
		return;
	a.late = true;
	smp_agent_close(&a);
}
