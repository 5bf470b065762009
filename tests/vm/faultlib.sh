# SPDX-License-Identifier: MIT
# faultlib.sh: what the engine fault tests (t-41, t-44) share: the agent port,
# valgrind, the QP count, waiting for a log line and checking a one-line error;
# and the wire faults of the two-VM tests (wire_*: one end of the wire, its
# netdev DEV, rxe0 on it). Sourced after vmlib.sh; the caller has set -eu.
IBC=$IBCONSOLE
P=18700
ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
command -v valgrind > /dev/null || fail "valgrind missing: apt-get install valgrind"
VG="timeout 150 valgrind --vgdb=no --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite"
pids=
cleanup() { for p in $pids; do kill -9 "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
qps_now() { rdma resource show qp 2>/dev/null | grep -c 'lqpn' || true; }
qps0=$(qps_now)
now() { date +%s; }
# wait_log FILE PATTERN SECONDS
wait_log() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -le $(($3 * 10)) ] || { cat "$1"; fail "timed out waiting for '$2' in $1"; }
		sleep 0.1
	done
}
# clean_vg LOG: valgrind found no definite leak and no invalid access
clean_vg() {
	grep -q 'ERROR SUMMARY' "$1" || { cat "$1"; fail "$1: valgrind did not finish"; }
	if grep -Eq 'definitely lost: [1-9]|Invalid (read|write|free)|uninitialised value' "$1"; then
		cat "$1"
		fail "$1: valgrind found a leak or a memory error"
	fi
}
# expect_rc WANT SECONDS_MAX NAME CMD...: run CMD, check status, time and message
expect_rc() {
	want=$1 max=$2 name=$3
	shift 3
	t0=$(now)
	rc=0
	timeout 60 "$@" > "$name.out" 2> "$name.err" || rc=$?
	dt=$(($(now) - t0))
	[ "$rc" = "$want" ] || { cat "$name.out" "$name.err"; fail "$name: exit $rc, want $want"; }
	[ "$dt" -le "$max" ] || fail "$name: took $dt s, limit $max s"
	grep -q '^ibconsole: .* — ' "$name.err" || { cat "$name.err"; fail "$name: no one-line error with a remedy"; }
	echo "ok: $name: exit $rc in $dt s: $(head -1 "$name.err")"
}

# ---- wire faults (two VMs, rxe0 on DEV) ----
# wire_lossless DEV: a queue that never drops: a tail-drop FIFO far longer
# than what rxe keeps in flight. The default fq_codel drops (at dequeue,
# unseen by rxe) once a queue stands for 100 ms, which under emulation
# even one QP can cause.
wire_lossless() {
	tc qdisc replace dev "$1" root pfifo limit 10000 || fail "tc: cannot set pfifo on $1"
}
# wire_drop_under_load DEV: a wire that drops only under load: CoDel
# (fq_codel, target 1 ms, interval 5 ms, no ECN) drops packets once a
# queue stands above the target, as a switch port without PFC drops when
# its buffer fills. A queue stands only when the NIC's ring is full: one
# QP (at most 64 packets in flight in rxe) leaves it room, eight QPs both
# ways do not. Its drops happen when a packet leaves the queue, after rxe
# handed it on: real losses that the other end must ask for again.
wire_drop_under_load() {
	tc qdisc replace dev "$1" root fq_codel limit 10240 target 1ms interval 5ms noecn ||
		fail "tc: cannot set fq_codel on $1"
}
# wire_dropped DEV: packets the root queue of DEV dropped so far
wire_dropped() {
	tc -s qdisc show dev "$1" | awk '/dropped/ {sub(/,/, "", $7); print $7; exit}'
}
# wire_mtu DEV MTU ACTIVE: the netdev MTU of this end, then waits for rxe0
# to follow (ACTIVE: its active MTU, the largest IB MTU that fits:
# 1500 -> 1024, 9000 -> 4096).
wire_mtu() {
	ip link set dev "$1" mtu "$2" || fail "ip link set $1 mtu $2"
	i=0
	until [ "$(rxe_active_mtu)" = "$3" ]; do
		i=$((i + 1))
		[ $i -le 50 ] || fail "rxe0's active MTU is $(rxe_active_mtu), want $3 after netdev MTU $2"
		sleep 0.1
	done
}
# rxe_active_mtu: rxe0's active MTU as ibv_devinfo reports it
rxe_active_mtu() {
	ibv_devinfo -d rxe0 | awk '/active_mtu/ {print $2; exit}'
}

