/* SPDX-License-Identifier: MIT */
/* Per-priority PFC pause statistics of a RoCE port's netdev, from the
 * ethtool statistics (ETHTOOL_GSTATS, no privileges needed), and the
 * priority the RoCE traffic uses where the driver shows it. */
#ifndef IBC_COUNTERS_PFC_H
#define IBC_COUNTERS_PFC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PFC_PRIOS 8
#define PFC_NO_COUNTERS "the driver exposes no per-priority pause counters"

struct pfc_sample {
	bool read;		/* the ethtool statistics were read */
	bool per_prio;		/* the driver has per-priority pause counters */
	bool have_dur;		/* … and pause durations */
	bool has[PFC_PRIOS];	/* this priority has a counter */
	uint64_t rx[PFC_PRIOS], tx[PFC_PRIOS];		/* pause frames */
	uint64_t rx_dur[PFC_PRIOS], tx_dur[PFC_PRIOS];	/* driver units (mlx5: us) */
	char why[120];		/* !read: why not */
};

/* A per-priority pause statistic's name (mlx5 rx_prio3_pause,
 * tx_prio3_pause_duration; bnxt rx_pfc_ena_frames_pri3; ice / i40e
 * rx_priority_3_xoff[.nic]): 0 with the priority, direction and whether
 * it is a duration, -1 for any other name. */
int pfc_parse_name(const char *name, int *prio, bool *tx, bool *duration);

/* Fills s from n ethtool statistics (names and values). */
void pfc_from_stats(struct pfc_sample *s, const char *const *names,
		    const uint64_t *values, int n);

/* Reads netdev's ethtool statistics into s; 0, or -1 with s->why. */
int pfc_read(const char *netdev, struct pfc_sample *s);

/* The priority RoCE traffic of dev/port uses, where the driver shows
 * it: mlx5's tc/<port>/traffic_class ("tclass=N" or "Global tclass=N"),
 * mapped by the default DSCP-to-priority map (DSCP / 8). -1 when not
 * shown; *how says where it came from. */
int pfc_roce_priority(const char *dev, int port, char *how, size_t howlen);
/* The same from a traffic_class file's text: pure, for the tests. */
int pfc_priority_of_tclass_text(const char *text, int *tclass);

#endif
