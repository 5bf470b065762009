#!/bin/sh
# SPDX-License-Identifier: MIT
# t-perftest.sh: the VM's RDMA stack really moves data (perftest write bw
# over rxe0 on the RoCE v2 GID), the counters see it, and ibconsole
# snapshot still reads the port correctly afterwards.
set -u
# shellcheck source=tests/vm/vmlib.sh
. "$VM_TESTS_DIR/vmlib.sh"

dev=rxe0
P=/sys/class/infiniband/$dev/ports/1
ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
idx=$(roce_v2_ipv4_index "$dev" 1 "$ip4")
[ -n "$idx" ] || fail "no RoCE v2 GID for $ip4 on $dev"
echo "RoCE v2 GID index for $ip4: $idx"
# perftest's default TCP port for the out-of-band exchange
tcp_port=18515
args="-d $dev -x $idx -s 65536 -n 200 --report_gbits -p $tcp_port"

sent0=$(cat "$P/hw_counters/sent_pkts")
rcvd0=$(cat "$P/hw_counters/rcvd_pkts")

# The suite's time-out does not reach the server (timeout runs in a
# process group of its own): stop it on every way out of this test.
trap 'kill "${spid:-}" 2>/dev/null' EXIT
trap 'exit 1' HUP INT TERM
# shellcheck disable=SC2086 # args is a word list
perftest_pair 90 "$tcp_port" ib_write_bw $args
echo "--- server (exit $perftest_src)"; cat server.log
echo "--- client"; cat client.log
[ "$perftest_src" = 0 ] || fail "ib_write_bw server exited $perftest_src"

# The result row: "#bytes #iterations BW-peak BW-average MsgRate".
for log in client.log server.log; do
	bw=$(awk '$1 == 65536 && $2 == 200 {print $4; exit}' "$log")
	[ -n "$bw" ] || fail "no 65536-byte result row in $log"
	awk -v b="$bw" 'BEGIN {exit !(b + 0 > 0)}' || fail "$log: BW average is $bw Gb/s, want > 0"
	echo "ok: $log BW average $bw Gb/s"
done

# 200 x 64 KiB at active MTU 1024 is at least 12800 packets; rxe counts
# the loop-back traffic in its hw_counters.
sent1=$(cat "$P/hw_counters/sent_pkts")
rcvd1=$(cat "$P/hw_counters/rcvd_pkts")
echo "hw_counters: sent_pkts $sent0 -> $sent1, rcvd_pkts $rcvd0 -> $rcvd1"
[ $((sent1 - sent0)) -ge 12800 ] || fail "sent_pkts rose by $((sent1 - sent0)), want >= 12800"
[ $((rcvd1 - rcvd0)) -ge 12800 ] || fail "rcvd_pkts rose by $((rcvd1 - rcvd0)), want >= 12800"

# The port is still read correctly after traffic.
rc=0
"$IBCONSOLE" snapshot --json -d "$dev" > snap.json 2> snap.err || rc=$?
cat snap.err
[ "$rc" = 0 ] || fail "ibconsole snapshot after traffic exited $rc"
/usr/bin/python3 "$VM_TESTS_DIR/snapshot_oracle.py" snap.json "$dev" 1 "$RXE_VM_NETDEV" > snap.out ||
	{ cat snap.out; fail "snapshot after traffic disagrees with the oracles"; }
echo "ok: snapshot after traffic matches sysfs / ibv_devinfo / ibstat"
