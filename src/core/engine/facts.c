// SPDX-License-Identifier: MIT
/* Host facts for test records: device, firmware, driver, PCIe, NUMA, CPU
 * frequency and governor — what both ends of a test report. */
#include "config.h"
#include "core/engine/facts.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "core/engine/engine_int.h"
#include "core/base/sysfs.h"

static void ascii(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			*s = '?';
}

void facts_collect(struct proto_facts *f, const struct eng *e)
{
	const struct eng_info *in = eng_info(e);
	const struct port_info *p = eng_port(e);
	struct utsname u;
	char buf[128];
	long v;
	int cpu = sched_getcpu();

	memset(f, 0, sizeof(*f));
	gethostname(f->host, sizeof(f->host) - 1);
	if (!uname(&u))
		snprintf(f->kernel, sizeof(f->kernel), "%s", u.release);
	snprintf(f->device, sizeof(f->device), "%s", in->device);
	snprintf(f->link_layer, sizeof(f->link_layer), "%s", in->link_layer);
	f->mtu = in->mtu;
	f->gid_index = in->gid_index;
	snprintf(f->gid_type, sizeof(f->gid_type), "%s", in->gid_type);
	snprintf(f->gid, sizeof(f->gid), "%.39s", in->gid);
	f->numa_node = in->numa_node;
	if (p) {
		snprintf(f->fw_ver, sizeof(f->fw_ver), "%.31s", p->fw_ver);
		snprintf(f->ca_type, sizeof(f->ca_type), "%.31s", p->ca_type);
		/* the data rate after encoding: what a test can reach */
		f->netdev_mtu = p->netdev[0] && p->netdev_mtu > 0 ? (uint32_t)p->netdev_mtu : 0;
		if (p->data_rate_gbps > 0)
			f->rate_mbps = (uint32_t)(p->data_rate_gbps * 1000 + 0.5);
		if (p->pcie.v.valid)
			snprintf(f->pcie, sizeof(f->pcie), "%s %g GT/s x%d (max %g GT/s x%d)",
				 p->pcie.address, p->pcie.cur_gts, p->pcie.cur_width,
				 p->pcie.max_gts, p->pcie.max_width);
	}
	if (!f->fw_ver[0])
		snprintf(f->fw_ver, sizeof(f->fw_ver), "%.31s", e->dattr.fw_ver);
	/* the kernel driver: the PCI function's, or the parent netdev's for
	 * software devices (rxe, siw) that have no PCI function */
	port_driver_version(in->device, f->driver, sizeof(f->driver), f->driver_version,
			    sizeof(f->driver_version));
	if (cpu >= 0) {
		if (!sysfs_read_long(&v, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu))
			f->cpu_mhz = (uint32_t)(v / 1000);
		sysfs_read(f->cpu_governor, sizeof(f->cpu_governor),
			   "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	}
	if (!f->cpu_mhz) {
		FILE *c = fopen("/proc/cpuinfo", "r");
		double mhz;

		while (c && fgets(buf, sizeof(buf), c))
			if (sscanf(buf, "cpu MHz : %lf", &mhz) == 1) {
				f->cpu_mhz = (uint32_t)(mhz + 0.5);
				break;
			}
		if (c)
			fclose(c);
	}
	ascii(f->host); ascii(f->kernel); ascii(f->fw_ver); ascii(f->ca_type);
	ascii(f->pcie); ascii(f->driver); ascii(f->driver_version); ascii(f->cpu_governor);
}
