/* SPDX-License-Identifier: MIT */
/* The exporter's metric model: local ports (snapshot, counters, verdicts)
 * and fabric ports (discovery, sweep, verdicts) as Prometheus families. */
#ifndef IBC_EXPORT_METRICS_H
#define IBC_EXPORT_METRICS_H

#include <stdbool.h>
#include <stdint.h>
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

/* The same from each port's own text, which a collector may keep for a
 * port whose counters and verdicts did not change: the families are
 * cut into sections (the error counters' family: one per counter), and
 * a port's text holds its samples of every section in order. A text may
 * hold one part of them: the traffic families (data, packets,
 * PortXmitWait), which a sweep's own MADs move on every port they pass,
 * or the rest (error counters, read state, verdicts). */
#define EXPORT_MAX_SECTIONS 96
enum export_part { EXPORT_PART_ALL, EXPORT_PART_TRAFFIC, EXPORT_PART_REST };
/* How many sections a port's text has (the same for every port). */
int export_nsections(void);
/* Appends port t's text (its part) to b: section k is b->p[start +
 * off[k] .. start + off[k + 1]) where start is b->len at the call (off:
 * export_nsections() + 1 entries). */
void export_port_text(struct expo_buf *b, const char *prefix,
		      const struct export_target *t, uint32_t *off,
		      enum export_part part);
/* Which traffic families cs has (bit f: the f-th), for the next. */
unsigned export_traffic_present(const struct counter_set *cs);
/* The traffic family f section k holds (its bit in the above), -1 when
 * it holds none. */
int export_section_traffic(int k);
/* Section k's family header, where the section starts a family; any:
 * some port has a sample in it (a traffic family that none has is left
 * out). */
void export_section_header(struct expo_buf *b, const char *prefix, int k, bool any);
/* A port's sample of traffic section k from its raw values (v: by
 * ctr_table row, counters_pma_values()), as export_port_text() writes
 * it for the counter set they make; nothing in any other section. */
void export_traffic_sample(struct expo_buf *b, const char *prefix, int k,
			   const char *labels, const uint64_t *v);
struct export_port_text {
	const char *p;		/* section k: p[off[k] .. off[k + 1]) */
	const uint32_t *off;
};
/* export_write_counters()' families from n ports' texts. */
void export_write_texts(struct expo_buf *b, const char *prefix,
			const struct export_port_text *pt, int n);

/* Local ports: info, state, rates, width, MTU, PCIe, NUMA; t[i] belongs
 * to s->ports[i]. */
void export_write_local(struct expo_buf *b, const struct snapshot *s,
			const struct export_target *t);

/* Fabric: node up, node info, port info, state, rates, remote ends;
 * t[i] belongs to f->ports[fport[i]], n of them. */
void export_write_fabric(struct expo_buf *b, const struct fabric *f,
			 const struct export_target *t, const int *fport, int n);
/* Its parts: node up from each port's counters read (ok[i], t[i]'s),
 * and what only the model gives (only t[i].labels used). */
void export_write_node_up(struct expo_buf *b, const struct fabric *f,
			  const bool *ok, const int *fport, int n);
void export_write_fabric_model(struct expo_buf *b, const struct fabric *f,
			       const struct export_target *t, const int *fport, int n);

/* The exposition name of a PMA counter's own family ("transmit_bytes_total"
 * for PortXmitData), NULL when it goes to the errors family; *mult is the
 * factor to base units (4 for the 4-octet data words). */
const char *export_pma_family(const char *ctr, unsigned *mult);

#endif
