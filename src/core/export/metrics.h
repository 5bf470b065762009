/* SPDX-License-Identifier: MIT */
/* The exporter's metric model: local ports (snapshot, counters, verdicts)
 * and fabric ports (discovery, sweep, verdicts) as Prometheus families. */
#ifndef IBC_EXPORT_METRICS_H
#define IBC_EXPORT_METRICS_H

#include <stdbool.h>
#include "core/counters/counters.h"
#include "core/export/expo.h"

struct snapshot;
struct fabric;
struct sweep;

/* The counter rules a verdict series is written for, by index. */
enum export_rule {
	EXPORT_RULE_WINDOW = 0,		/* local: the delta engine's window */
	EXPORT_RULE_INTERVAL,		/* fabric: between two sweeps */
	EXPORT_RULE_SINCE_CLEAR,	/* both: lifetime levels */
	EXPORT_RULE_SLOW,		/* local: slow growth against the baseline */
	EXPORT_NRULES
};
extern const char *const export_rule_names[EXPORT_NRULES];

/* One port as the writer sees it: its identity labels (already in the
 * format's label syntax), its counters and its verdict per rule. */
struct export_target {
	char labels[320];		/* device="mlx5_0",port="1" */
	const struct counter_set *cs;	/* NULL: not read */
	int verdict[EXPORT_NRULES];	/* verdict_level, -1: not judged */
	/* the counter that decided a verdict above ok and its class
	 * ("congestion / discards", …), "" / NULL none */
	char vcounter[EXPORT_NRULES][CTR_NAME];
	const char *vclass[EXPORT_NRULES];
	/* effective bit error rate since the exporter started (SymbolErrorCounter
	 * over the bits carried); ber_bound: no error, ber is the 95 % bound */
	bool ber_valid, ber_bound;
	double ber, ber_window_s;
};

/* Identity labels of a local port and of a fabric port. */
void export_labels_local(struct export_target *t, const char *dev, int port);
void export_labels_fabric(struct export_target *t, const struct fabric *f,
			  int port_index);

/* Families of every counter, its up / error state and the verdicts, one
 * family at a time over all n targets, names starting with prefix
 * ("ibconsole_port", "ibconsole_fabric_port"). */
void export_write_counters(struct expo_buf *b, const char *prefix,
			   const struct export_target *t, int n);

/* Local ports: info, state, rates, width, MTU, PCIe, NUMA; t[i] belongs
 * to s->ports[i]. */
void export_write_local(struct expo_buf *b, const struct snapshot *s,
			const struct export_target *t);

/* Fabric: node info and up, port info, state, rates, remote ends; t[i]
 * belongs to f->ports[fport[i]], n of them. */
void export_write_fabric(struct expo_buf *b, const struct fabric *f,
			 const struct export_target *t, const int *fport, int n);

/* The exposition name of a PMA counter's own family ("transmit_bytes_total"
 * for PortXmitData), NULL when it goes to the errors family; *mult is the
 * factor to base units (4 for the 4-octet data words). */
const char *export_pma_family(const char *ctr, unsigned *mult);

#endif
