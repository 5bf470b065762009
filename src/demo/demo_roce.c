/* SPDX-License-Identifier: MIT */
/* `ibconsole --demo roce`: hands the terminal to the script that boots
 * two Soft-RoCE VMs (agent and console) and cleans them up — the
 * installed one, or, for a binary run from its build tree, the one in
 * that tree's demo/ folder. */
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

/* The script to run: IBCONSOLE_LIBEXECDIR when set; else demo/ beside
 * the binary (the build tree: ./ibconsole next to demo/), or ../demo
 * (a binary one folder down), when the script is there; else the
 * installed copy. An installed binary has no demo/ beside it, so its
 * path is unchanged. */
static void demo_script(const char *exe, char *script, size_t len)
{
	static const char *const beside[] = { "demo", "../demo" };
	const char *env = getenv("IBCONSOLE_LIBEXECDIR");
	const char *slash = strrchr(exe, '/');
	int dirlen = slash ? (int)(slash - exe) : 0;

	if (env && *env) {
		snprintf(script, len, "%s/roce-demo.sh", env);
		return;
	}
	for (size_t i = 0; slash && i < sizeof(beside) / sizeof(beside[0]); i++) {
		snprintf(script, len, "%.*s/%s/roce-demo.sh", dirlen, exe, beside[i]);
		if (access(script, X_OK) == 0)
			return;
	}
	snprintf(script, len, "%s/roce-demo.sh", PKGLIBEXECDIR);
}

int demo_roce_run(void)
{
	char script[PATH_MAX + 32], exe[PATH_MAX];
	ssize_t n;

	/* the VMs see this machine's root: the script runs this very binary
	 * inside them */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		fprintf(stderr, "ibconsole: --demo roce: cannot find this binary's path: %s\n",
			strerror(errno));
		return 5;
	}
	exe[n] = '\0';
	demo_script(exe, script, sizeof(script));
	setenv("IBCONSOLE", exe, 1);
	execl(script, script, (char *)NULL);
	fprintf(stderr, "ibconsole: --demo roce: cannot run %s: %s \xe2\x80\x94 reinstall ibconsole or set IBCONSOLE_LIBEXECDIR\n",
		script, strerror(errno));
	return 3;
}
