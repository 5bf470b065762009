// SPDX-License-Identifier: MIT
/* RoCE (and kernel-side) counters: ports/N/counters/ and the driver's
 * hw_counters/ under the sysfs root, plus the netdev's pause / PFC
 * statistics through the ethtool ioctl when reading the real system. */
#include "config.h"
#include "core/counters/counters.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/parse.h"
#include "core/base/sysfs.h"
#include "core/counters/ethstats.h"

#define IBDIR "/sys/class/infiniband"

struct walk {
	struct counter_set *cs;
	const char *dir;	/* rooted-relative directory */
	bool hw;
	int added;
};

static void read_one(const char *name, void *arg)
{
	struct walk *w = arg;
	char buf[64];
	uint64_t v;
	const struct ctr_def *d;
	struct ctr_value *cv;

	if (!strcmp(name, "lifespan"))
		return;		/* hw_counters' cache time, not a counter */
	if (sysfs_read(buf, sizeof(buf), "%s/%s", w->dir, name))
		return;
	/* a count and nothing else: strtoull alone reads "1e99" as 1 and
	 * "-1" as 2^64 - 1 */
	if (parse_u64(buf, &v))
		return;		/* "N/A (no PMA)" and friends */
	/* counters/ uses the kernel's names: show the PMA ones */
	d = w->hw ? NULL : ctr_lookup(name);
	cv = counters_put(w->cs, d ? d->name : name, v);
	if (!cv)
		return;
	/*
	 * counters/ comes from the PMA and keeps its semantics: the kernel
	 * reads the error counters (and PortXmitWait) from the classic
	 * PortCounters, 16 / 8 / 4 / 32 bits wide, saturating at all-ones;
	 * only the data and packet counters switch to the 64-bit extended
	 * set when the PMA has it. A 16-bit SymbolErrorCounter stuck at
	 * 65535 must read "saturated", not a delta of 0.
	 */
	cv->bits = 64;
	if (d && d->classic_bits && d->cls != CTR_TRAFFIC)
		cv->bits = (uint8_t)d->classic_bits;
	cv->saturates = !w->hw;
	w->added++;
}

/* Pause / PFC statistics of the netdev: ethtool -S names containing
 * "pause" or "pfc". Best effort: most virtual NICs have none. */
static int ethtool_pause(const char *netdev, struct counter_set *cs)
{
	struct ethstats st;
	char why[120];
	int added = 0;

	if (ethstats_read(netdev, &st, why, sizeof(why)))
		return -1;
	for (int i = 0; i < st.n; i++) {
		char full[CTR_NAME];
		struct ctr_value *cv;

		if (!strstr(st.names[i], "pause") && !strstr(st.names[i], "pfc"))
			continue;
		snprintf(full, sizeof(full), "%s:%s", netdev, st.names[i]);
		cv = counters_put(cs, full, st.values[i]);
		if (!cv)
			break;
		cv->cls = CTR_CONGESTION;
		cv->bits = 64;
		added++;
	}
	ethstats_free(&st);
	return added;
}

int counters_sysfs_sample(const char *dev, int port, const char *netdev,
			  struct counter_set *cs)
{
	char dir[256], hwdir[256];
	struct walk w = { .cs = cs };
	int a, b;

	cs->n = 0;
	cs->valid = false;
	cs->source = CTR_SRC_SYSFS;
	snprintf(cs->dev, sizeof(cs->dev), "%s", dev);
	cs->port = port;
	if (!cs->label[0])
		snprintf(cs->label, sizeof(cs->label), "%s/%d", dev, port);
	cs->t_mono = counters_now();

	snprintf(dir, sizeof(dir), IBDIR "/%s/ports/%d/counters", dev, port);
	w.dir = dir;
	a = sysfs_list(dir, read_one, &w);
	a = a < 0 ? a : w.added;
	snprintf(hwdir, sizeof(hwdir), IBDIR "/%s/ports/%d/hw_counters", dev, port);
	w.dir = hwdir;
	w.hw = true;
	w.added = 0;
	b = sysfs_list(hwdir, read_one, &w);
	b = b < 0 ? b : w.added;
	if (netdev && *netdev && sysfs_is_real_root())
		ethtool_pause(netdev, cs);
	snprintf(cs->mode, sizeof(cs->mode), "sysfs %s%s%s (classic error widths, 64-bit data)",
		 a > 0 ? "counters/" : "", a > 0 && b > 0 ? " + " : "",
		 b > 0 ? "hw_counters/" : "");
	if (cs->n == 0) {
		snprintf(cs->why, sizeof(cs->why),
			 "no readable counters under %.40s%.90s or hw_counters/ (%s)",
			 sysfs_is_real_root() ? "" : sysfs_root(), dir,
			 a < 0 ? strerror(-a) : "no numeric values");
		return -1;
	}
	cs->valid = true;
	cs->why[0] = '\0';
	return 0;
}
