/* SPDX-License-Identifier: MIT */
/* A test against an unmodified perftest server (ib_write_bw, ib_read_bw,
 * ib_write_lat …): speaks its handshake as the client and drives our own
 * engine, so local counters, percentiles and the verdict stay ours. */
#ifndef IBC_TESTRUN_PERFTEST_CLIENT_H
#define IBC_TESTRUN_PERFTEST_CLIENT_H

#include <stddef.h>
#include "core/agent/client.h"

/* Runs the test; o->tcp_port 0 means perftest's 18515. Fills r as
 * client_run does (the peer's facts: host, "perftest" and its version).
 * Returns 0 or an exit status with err filled. */
int ptclient_run(const struct client_opts *o, struct client_result *r, char *err, size_t errlen);

#endif
