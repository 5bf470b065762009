// SPDX-License-Identifier: MIT
/* Counter classes and their advice (see ctrclass.h). Sources: the
 * reference procedure (optic / cable for physical-layer counters,
 * discards and waits for congestion or a port that went down) and the
 * IBTA specification vol. 1, 16.1.3.5 PortCounters (what each counts). */
#include "config.h"
#include "ctrclass.h"

#include <string.h>

#include "core/counters/counters.h"

const struct ctr_fault_class ctr_fault_classes[FAULT_NCLASSES] = {
	[FAULT_PHYSICAL] = { "physical link",
		"check the optic / cable now (reseat or replace; compare both ends)" },
	[FAULT_REMOTE_PHYSICAL] = { "remote physical",
		"a link upstream marked the packets bad: find the port with symbol errors along the path" },
	[FAULT_RECEIVE] = { "receive errors",
		"read the receive-error details (perfquery -E): local physical errors mean the optic / cable, malformed packets or overruns the sender or the buffers" },
	[FAULT_CONGESTION] = { "congestion / discards",
		"packets dropped at transmit: congestion (check PortXmitWait, adaptive routing and congestion control) or the port went down (check its link state)" },
	[FAULT_CONFIG] = { "configuration",
		"check the partition (P_Key) and routing configuration of both ends and the switch" },
	[FAULT_SM] = { "SM traffic",
		"subnet management packets dropped: check the subnet manager's load and log" },
	[FAULT_BUFFER] = { "local buffer",
		"receive buffer overruns: check the VL / buffer configuration and flow-control credits of both ends" },
	[FAULT_TRANSPORT] = { "transport",
		"retries and out-of-order packets: loss on the path — check the lossless configuration (PFC / ECN) and the pause and discard counters" },
};

static const struct {
	const char *counter;	/* PMA name */
	enum ctr_fault fault;
} rows[] = {
	{ "SymbolErrorCounter", FAULT_PHYSICAL },
	{ "LinkErrorRecoveryCounter", FAULT_PHYSICAL },
	{ "LinkDownedCounter", FAULT_PHYSICAL },
	{ "LocalLinkIntegrityErrors", FAULT_PHYSICAL },
	{ "PortRcvErrors", FAULT_RECEIVE },
	{ "PortRcvRemotePhysicalErrors", FAULT_REMOTE_PHYSICAL },
	{ "PortRcvSwitchRelayErrors", FAULT_CONFIG },
	{ "PortXmitDiscards", FAULT_CONGESTION },
	{ "PortXmitConstraintErrors", FAULT_CONFIG },
	{ "PortRcvConstraintErrors", FAULT_CONFIG },
	{ "ExcessiveBufferOverrunErrors", FAULT_BUFFER },
	{ "VL15Dropped", FAULT_SM },
	{ "PortXmitWait", FAULT_CONGESTION },
	/* the details' local physical errors (PortRcvErrorDetails) */
	{ "PortLocalPhysicalErrors", FAULT_PHYSICAL },
};

enum ctr_fault ctr_fault_of(const char *counter)
{
	const struct ctr_def *d = ctr_lookup(counter);
	const char *name = d ? d->name : counter;

	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++)
		if (!strcmp(rows[i].counter, name))
			return rows[i].fault;
	if (strstr(name, "discard"))
		return FAULT_CONGESTION;
	return FAULT_TRANSPORT;
}

const char *ctr_fault_name(const char *counter)
{
	return ctr_fault_classes[ctr_fault_of(counter)].name;
}

const char *ctr_fault_advice(const char *counter)
{
	return ctr_fault_classes[ctr_fault_of(counter)].advice;
}
