/* SPDX-License-Identifier: MIT */
/* An SMP agent on a local port for libibmad queries (as smpquery sends
 * them) that, under ibsim's umad2sim preload, is one span of umad use and
 * is closed only once no late answer can come (umadlock.h). */
#ifndef IBC_PORT_SMPAGENT_H
#define IBC_PORT_SMPAGENT_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/mad.h>

struct smp_agent {
	struct ibmad_port *mp;
	int port;		/* the local port: the fence's PortInfo */
	int timeout_ms;
	bool late;		/* a query unanswered, or answered after its time-out */
};

/* Opens the agents of classes[0..n) on dev/port (NULL, 0: libibmad's
 * default) with timeout_ms per query and retries (0: libibmad's). 0, or
 * -1 when libibmad cannot open the port. */
int smp_agent_open(struct smp_agent *a, const char *dev, int port, const int *classes, int n,
		   int timeout_ms, int retries);
/* smp_query_via() through the agent, with its time-out. */
uint8_t *smp_agent_query(struct smp_agent *a, void *buf, ib_portid_t *id, unsigned attr,
			 unsigned mod);
/* Closes the agent: under umad2sim after a fence (the local port's own
 * PortInfo over the directed route of zero hops) when a query was late,
 * else it is parked. */
void smp_agent_close(struct smp_agent *a);
/* After another user of dev/port's SMP classes (libibnetdisc) let go of
 * its agent with queries unanswered: a fence on an agent of our own,
 * under umad2sim; nothing elsewhere. */
void smp_agent_fence(const char *dev, int port, int timeout_ms);

#endif
