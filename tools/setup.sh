#!/bin/sh
# SPDX-License-Identifier: MIT
# setup.sh run|check — the README's two commands on a fresh Debian 12:
#   run:   install every dependency, build, install, start the console
#          (on the bundled simulated fabric when no RDMA device exists);
#   check: install every dependency, build, run the whole test suite
#          (make distcheck: unit, fixture, ibsim, Soft-RoCE VM, tmux tests).
set -eu
mode=${1:-run}
cd "$(dirname "$0")/.."

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

# Build tools, rdma-core libraries, the real stacks the tests run on
# (ibsim + opensm for the fabric, qemu + busybox for the Soft-RoCE VM),
# the oracle tools (infiniband-diags, perftest, ibverbs-utils, iperf3), tmux,
# the Prometheus server and node_exporter the exporter's tests scrape with,
# libarchive (capture archives: tar + gzip, read safely), libmnl (the
# generic-netlink plumbing of the ethtool module EEPROM page read),
# ethtool (`ethtool -m`, the oracle that a netdev exposes no module),
# gdb, which prints a crashed test process's backtrace into its log, and
# nftables, whose nft plants the firewall rule the triage's environment
# check must find (in a network namespace of the test's own), and strace,
# which counts the console's reads of an optic module (the slow timer).
PKGS="build-essential autoconf automake pkg-config
 libibumad-dev libibmad-dev libibnetdisc-dev libibverbs-dev ibverbs-providers rdma-core
 libncurses-dev libnuma-dev libcmocka-dev libmicrohttpd-dev nettle-dev libjson-c-dev libmnl-dev
 libarchive-dev
 ibsim-utils opensm infiniband-diags perftest ibverbs-utils
 prometheus prometheus-node-exporter
 tmux iperf3 python3 curl procps util-linux iproute2 numactl time
 qemu-system-x86 busybox-static cpio kmod
 valgrind clang-14 libclang-rt-14-dev gdb nftables ethtool strace"

$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $PKGS >/dev/null

autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
case "$mode" in
run)
	./configure -q
	make -s -j"$(nproc)"
	$SUDO make -s install
	if ls /sys/class/infiniband/* >/dev/null 2>&1; then
		exec ibconsole
	fi
	echo "setup: no RDMA device here — starting the console on the simulated demo fabric"
	exec ibconsole --demo
	;;
check)
	./configure -q --enable-werror
	# distcheck builds and tests its own tree from the tarball (no build
	# here first: it would be thrown away). Jobs: one per CPU, and one for
	# each of the 7 VM tests, which all start at once and wait for a free
	# slot (tests/vm/vmlock.sh)
	rc=0
	make -s -j"$(($(nproc) + 7))" distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror || rc=$?
	if [ "$rc" != 0 ]; then
		# the lines that say what failed, from every failed test's log
		# (the in-VM suite runs many scripts in one test), then the
		# summary again, so both are at the end of the output
		logs=$(grep -l '^:test-result: FAIL' ibconsole-*/_build/sub/*.trs \
			ibconsole-*/_build/sub/*/*.trs ibconsole-*/_build/sub/*/*/*.trs 2>/dev/null |
			sed 's/\.trs$/.log/')
		for l in $logs; do
			echo "--- what failed in ${l#*/_build/sub/}:"
			grep -E '^(FAIL|ERROR|not ok)|: ERROR|Assertion|FAILED' "$l" | tail -20
		done
		sed -n '/^# TOTAL/,/^# ERROR/p' ibconsole-*/_build/sub/test-suite.log 2>/dev/null
	fi
	exit "$rc"
	;;
*)
	echo "usage: tools/setup.sh run|check" >&2
	exit 2
	;;
esac
