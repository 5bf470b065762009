/* SPDX-License-Identifier: MIT */
/* Link health rules: one table of rules that judge each discovered link
 * (and each port without a peer), every finding with its evidence. */
#ifndef IBC_LINKHEALTH_H
#define IBC_LINKHEALTH_H

#include <stdbool.h>
#include "core/fabric/fabric.h"

enum lh_rule_id {
	LH_BELOW_WIDTH,		/* trained narrower than both ends could */
	LH_BELOW_SPEED,		/* trained slower than both ends could */
	LH_ENDS_DISAGREE,	/* the two ends report different active values */
	LH_MTU_MISMATCH,	/* NeighborMTU differs between the ends */
	LH_NOT_ACTIVE,		/* a cabled port not Active / LinkUp */
	LH_UP_NO_PEER,		/* up, but nothing discovered behind it */
	LH_LINK_LOST,		/* in the baseline, gone now */
	LH_UNLINKED,		/* down with nothing behind it */
	LH_NRULES
};

enum lh_severity { LH_INFO = 0, LH_WARN = 1, LH_ERROR = 2 };

struct lh_rule {
	enum lh_rule_id id;
	const char *name;	/* JSON / CLI name, snake_case */
	enum lh_severity severity;
	const char *title;	/* what it means, one line */
	const char *hint;	/* what to do */
};

extern const struct lh_rule lh_rules[LH_NRULES];
const char *lh_severity_name(enum lh_severity s);	/* "info", "warn", "error" */

struct lh_finding {
	enum lh_rule_id rule;
	int port, peer;		/* indices into the fabric's ports, -1 none */
	char where[160];	/* "sw-a"[1] <-> "hca-x"[1] */
	char evidence[400];
};

struct lh_report {
	struct lh_finding *f;
	int n, cap;
	int by_severity[3];
};

/* Pure rules for one link (a, b both ends) or one port without a peer;
 * fill out[] (rule + evidence) and return how many fired. */
#define LH_MAX_PER_LINK 6
int linkhealth_link(const struct fab_port *a, const struct fab_port *b,
		    struct lh_finding *out);
int linkhealth_lone_port(const struct fab_port *p, struct lh_finding *out);

/* Every link and port of f; with a baseline, links it had that f lacks
 * come out as LH_LINK_LOST. Findings sorted most severe first. Returns 0
 * or -1 (out of memory). */
int linkhealth_eval(const struct fabric *f, const struct fabric *baseline,
		    struct lh_report *r);
void linkhealth_free(struct lh_report *r);
/* Findings that name port index p (either end). */
int linkhealth_count_port(const struct lh_report *r, int port);

#endif
