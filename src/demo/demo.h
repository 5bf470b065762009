/* SPDX-License-Identifier: MIT */
/* Demo mode: runs the console on a bundled ibsim fabric whose counters a
 * driver keeps moving, so the product can be tried without hardware. */
#ifndef IBC_DEMO_H
#define IBC_DEMO_H

/* Starts ibsim on demo.net, assigns LIDs with opensm, then re-executes
 * self_exe with argv minus "--demo" under the umad2sim preload and drives
 * the fabric's counters until that console exits. Everything it started
 * is gone when it returns. Returns the console's exit status (128 + signal
 * when killed), 3 when ibsim / opensm / umad2sim are missing, 5 when the
 * simulator could not be set up. Environment: IBCONSOLE_DATADIR (where
 * demo.net is), IBCONSOLE_DEMO_HOST (node the console sits on, default
 * the first HCA of demo.net), TMPDIR. */
int demo_run(const char *self_exe, int argc, char **argv);

/* --demo roce: replaces this process with roce-demo.sh from
 * IBCONSOLE_LIBEXECDIR or the installed pkglibexecdir, IBCONSOLE set to
 * this binary. Returns only when that failed: 3 (script missing) or 5. */
int demo_roce_run(void);

#endif
