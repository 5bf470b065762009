/* SPDX-License-Identifier: MIT */
/* The PMA pipeline: many PerfMgt Gets in flight on one umad agent, matched
 * back by TID, with per-MAD time-outs and retries. */
#ifndef IBC_COUNTERS_PMA_H
#define IBC_COUNTERS_PMA_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/mad.h>

struct pma_req {
	unsigned lid;
	int port;		/* PortSelect */
	int attr;		/* CLASS_PORT_INFO, IB_GSI_PORT_COUNTERS(_EXT) */
	uint8_t *out;		/* IB_PC_DATA_SZ bytes */
	int status;		/* 0 pending, 1 answered, -1 failed */
	int mad_status;		/* failed with an answer: its MAD status */
	int tries;
	double deadline;
	bool inflight;
};

#define PMA_PIPE_TEMPLATES 4

struct pma_pipe {
	int fd, agent;
	int window, timeout_ms, retries;
	uint32_t tid_base;
	void *sbuf, *rbuf;
	unsigned long sent, failed;
	unsigned long retried;	/* of sent: asked again after a time-out */
	/* a Get of each attribute built once: a query copies it and sets
	 * the LID, the TID and the port */
	void *tmpl[PMA_PIPE_TEMPLATES];
	int tmpl_attr[PMA_PIPE_TEMPLATES];
};

/* On mp's performance-class agent. Returns 0, or -1 out of memory. */
int pma_pipe_init(struct pma_pipe *pp, struct ibmad_port *mp, int window,
		  int timeout_ms, int retries);
void pma_pipe_fini(struct pma_pipe *pp);
/* Appends a Get of attr for lid/port to r[*n], its answer into bufs. */
struct pma_req *pma_req_add(struct pma_req *r, int *n, uint8_t *bufs,
			    unsigned lid, int port, int attr);
/* Runs r[0..n) to completion (answered or failed after the retries).
 * Returns 0, or -1 with errno when the local port cannot send. */
int pma_pipe_run(struct pma_pipe *pp, struct pma_req *r, int n);

#endif
