#!/bin/sh
# SPDX-License-Identifier: MIT
# suite.sh: the in-VM test runner; runs every tests/vm/t-*.sh in one boot.
#
# usage (inside the VM, normally through verbs.test): suite.sh [DIR]
# Runs DIR/t-*.sh (default: this script's directory) in name order, each
# under `timeout` (IBCONSOLE_VM_TEST_TIMEOUT seconds, default 180, or
# more where the test has a "# vm-timeout: S" line), with
# its output shown between "=== RUN: name" and a "PASS: name" or
# "FAIL: name" line, then a summary. Exit 0 when all passed, 1 otherwise.
# IBCONSOLE_VM_ONLY=t-foo restricts the run to matching names (a shell
# pattern; handy while writing a test). IBCONSOLE_VM_SCRIPTS (default
# t-*.sh) names the scripts a boot runs: tests/vm/fleet.test runs
# fleet-*.sh in a boot of its own.
#
# Each test gets its own empty directory as cwd and in $IBC_TMP, removed
# afterwards, and these variables: IBCONSOLE (the binary), RXE_VM_NETDEV
# (eth0, or eth1 in wire mode), RXE_VM_IP, VM_TESTS_DIR (this directory),
# and tests/vm/vmlib.sh can be sourced for helpers.
set -u

dir=${1:-$(cd "$(dirname "$0")" && pwd)}
dir=$(cd "$dir" && pwd)
per=${IBCONSOLE_VM_TEST_TIMEOUT:-180}
only=${IBCONSOLE_VM_ONLY:-*}
scripts=${IBCONSOLE_VM_SCRIPTS:-t-*.sh}
VM_TESTS_DIR=$dir
export VM_TESTS_DIR

echo "suite: $(uname -r), IBCONSOLE=${IBCONSOLE:-(unset)}, per-test time-out ${per} s"
# A broken VM set-up fails every test the same way; say so once, plainly.
if [ ! -d /sys/class/infiniband/rxe0 ]; then
	echo "suite: WARNING: no /sys/class/infiniband/rxe0 (rdma link add failed?)"
fi

# Settle the network first: IPv6 addresses (DAD, SLAAC from qemu's user
# network) keep adding GIDs for a few seconds after boot, and a test that
# compares two reads of the GID table must not straddle that.
settle() {
	gids=/sys/class/infiniband/rxe0/ports/1/gids
	prev=
	stable=0
	n=0
	while [ "$n" -lt 30 ]; do
		cur=$(cat "$gids"/* 2>/dev/null | grep -vc '^[0:]*$')
		if ip -6 addr | grep -q tentative; then
			stable=0
		elif [ "$cur" = "$prev" ]; then
			stable=$((stable + 1))
			[ "$stable" -ge 3 ] && break
		fi
		prev=$cur
		n=$((n + 1))
		sleep 0.5
	done
	echo "suite: network settled after $((n / 2)) s: $cur GIDs on rxe0"
}
settle

pass=0
fail=0
failed=
# the guest's busy CPU seconds, all its CPUs (user, nice, system, irq,
# softirq): under emulation each is about a second of a host CPU
busy_s() { awk '/^cpu / { printf "%d", ($2 + $3 + $4 + $7 + $8) / 100 }' /proc/stat; }
# shellcheck disable=SC2231 # $scripts is a pattern on purpose
for t in "$dir"/$scripts; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	# shellcheck disable=SC2254 # $only is a pattern on purpose
	case $name in $only) ;; *) continue ;; esac
	IBC_TMP=$(mktemp -d /tmp/ibc-vmtest.XXXXXX)
	export IBC_TMP
	echo "=== RUN: $name"
	# a test that needs longer says so in a "# vm-timeout: S" line
	tper=$(sed -n 's/^# vm-timeout: \([0-9][0-9]*\)$/\1/p' "$t" | head -1)
	[ -n "$tper" ] && [ "$tper" -gt "$per" ] || tper=$per
	t0=$(date +%s)
	c0=$(busy_s)
	(cd "$IBC_TMP" && exec timeout -k 5 "$tper" sh "$t") 2>&1
	rc=$?
	t1=$(date +%s)
	cpu="guest CPU $(($(busy_s) - c0)) s"
	rm -rf "$IBC_TMP"
	if [ "$rc" = 0 ]; then
		echo "PASS: $name ($((t1 - t0)) s, $cpu)"
		pass=$((pass + 1))
	else
		why="exit $rc"
		[ "$rc" = 124 ] || [ "$rc" = 137 ] && why="timed out after ${tper} s"
		echo "FAIL: $name ($why, $((t1 - t0)) s, $cpu)"
		fail=$((fail + 1))
		failed="$failed $name"
	fi
done

total=$((pass + fail))
echo "=== SUMMARY: $total tests, $pass passed, $fail failed${failed:+ (failed:$failed)}"
if [ "$total" = 0 ]; then
	echo "suite: ERROR: no test matched $dir/$scripts ($only)"
	exit 1
fi
[ "$fail" = 0 ]
