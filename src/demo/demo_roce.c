/* SPDX-License-Identifier: MIT */
/* `ibconsole --demo roce`: hands the terminal to the installed script
 * that boots two Soft-RoCE VMs (agent and console) and cleans them up. */
#include "config.h"
#include "demo/demo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PKGLIBEXECDIR
#define PKGLIBEXECDIR "/usr/local/libexec/ibconsole"
#endif

int demo_roce_run(void)
{
	const char *env = getenv("IBCONSOLE_LIBEXECDIR");
	char script[PATH_MAX], exe[PATH_MAX];
	ssize_t n;

	snprintf(script, sizeof(script), "%s/roce-demo.sh",
		 env && *env ? env : PKGLIBEXECDIR);
	/* the VMs see this machine's root: the script runs this very binary
	 * inside them */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		fprintf(stderr, "ibconsole: --demo roce: cannot find this binary's path: %s\n",
			strerror(errno));
		return 5;
	}
	exe[n] = '\0';
	setenv("IBCONSOLE", exe, 1);
	execl(script, script, (char *)NULL);
	fprintf(stderr, "ibconsole: --demo roce: cannot run %s: %s \xe2\x80\x94 reinstall ibconsole or set IBCONSOLE_LIBEXECDIR\n",
		script, strerror(errno));
	return 3;
}
