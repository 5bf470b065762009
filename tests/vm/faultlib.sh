# SPDX-License-Identifier: MIT
# faultlib.sh: what the engine fault tests (t-41, t-44) share: the agent port,
# valgrind, the QP count, waiting for a log line and checking a one-line error;
# and the wire faults of the two-VM tests (wire_*: one end of the wire, its
# netdev DEV, rxe0 on it). Sourced after vmlib.sh; the caller has set -eu.
IBC=$IBCONSOLE
P=18700
ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
command -v valgrind > /dev/null || fail "valgrind missing: apt-get install valgrind"
# valgrind.supp lies beside this file: the caller is a test here (suite.sh
# sets VM_TESTS_DIR) or a two-VM script in wire/
vg_supp=${VM_TESTS_DIR:-$(dirname "$0")/..}/valgrind.supp
VG="timeout 150 valgrind --vgdb=no --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite --suppressions=$vg_supp"
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
# wait_moving N SECONDS [PID ERRFILE]: until rxe0's sent_pkts
# (hw_counters) rose by N from now: a test's data is on the wire, not only
# its handshake. With PID, a client that ended meanwhile fails at once,
# showing ERRFILE, instead of after SECONDS.
wait_moving() {
	c=/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts
	m0=$(cat "$c") || fail "no $c"
	i=0
	until [ $(($(cat "$c") - m0)) -ge "$1" ]; do
		i=$((i + 1))
		[ $i -le $(($2 * 10)) ] || fail "sent_pkts did not rise by $1 in $2 s: $m0 -> $(cat "$c")"
		if [ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null; then
			cat "${4:-/dev/null}"
			fail "the client ended before its data moved (above)"
		fi
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


# ---- two NICs per VM on one wire (the acceptance tests) ----
# wire_nics DEV N: two NICs of this VM on the wire DEV, each with its own
# rxe device: macvlans mv0 (rxe0, 192.168.78.N) and mv1 (rxe1,
# 192.168.78.N+10), MAC 52:54:00:78:00:<last octet>; the rxe0 that
# rxe-vm.sh made on DEV goes. N is 1 in VM A and 2 in VM B. Every
# address of both VMs has a fixed neighbour entry (no ARP guessing which
# macvlan answers). Without help the kernel would deliver mv0 -> mv1
# through lo, where no rxe device listens: a rule sends that traffic out
# of its own NIC, and the macvlan bridge hands it to the other one, as a
# switch would.
wire_nics() {
	dev=$1 n=$2
	rdma link delete rxe0 2>/dev/null || true
	for k in 0 1; do
		a=$((n + 10 * k))
		ip link add "mv$k" link "$dev" address "$(printf '52:54:00:78:00:%02x' "$a")" type macvlan mode bridge ||
			fail "ip link add mv$k: no macvlan"
		ip addr add "192.168.78.$a/24" dev "mv$k"
		ip link set "mv$k" up
	done
	for s in all default mv0 mv1; do
		for kv in accept_local=1 rp_filter=0 arp_ignore=1; do
			echo "${kv#*=}" > "/proc/sys/net/ipv4/conf/$s/${kv%=*}" || fail "cannot set $kv on $s"
		done
	done
	for k in 0 1; do
		for a in 1 2 11 12; do
			[ "$a" = $((n + 10 * k)) ] ||
				ip neigh replace "192.168.78.$a" lladdr "$(printf '52:54:00:78:00:%02x' "$a")" dev "mv$k" nud permanent
		done
	done
	ip route add 192.168.78.$((n + 10))/32 dev mv0 table 78
	ip route add 192.168.78.$n/32 dev mv1 table 78
	ip rule add pref 10 iif lo from "192.168.78.$n" to "192.168.78.$((n + 10))" lookup 78
	ip rule add pref 11 iif lo from "192.168.78.$((n + 10))" to "192.168.78.$n" lookup 78
	for k in 0 1; do
		rdma link add "rxe$k" type rxe netdev "mv$k" || fail "rdma link add rxe$k on mv$k"
	done
	for k in 0 1; do
		i=0
		until [ -n "$(roce_v2_ipv4_index "rxe$k" 1 "192.168.78.$((n + 10 * k))")" ]; do
			i=$((i + 1))
			[ $i -le 50 ] || fail "rxe$k has no RoCE v2 GID for 192.168.78.$((n + 10 * k))"
			sleep 0.1
		done
	done
}
# wire_begin HOST: a scratch directory of the script's own as the current
# one (WORK; the caller removes it) and this VM's host name HOST
wire_begin() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/ibc-wire.XXXXXX") || fail "mktemp"
	cd "$WORK" || fail "cd $WORK"
	hostname "$1"
}
# wire_nic_agents N: wire_nics as VM N, the acceptance tests' shared
# secret in ./secret, an agent per NIC taking orders with it (rxe0 on TCP
# port 18700, rxe1 on 18702), listening when this returns; their pids in
# AGENTS, their logs agent0.log and agent1.log. An order stops after
# WIRE_ORDER_CAP_S (default 30: a healthy pair's 30 messages take a second
# or two, but a cross-VM pair on a loaded machine once ran past 15 s)
# instead of the agent's 60 s.
wire_nic_agents() {
	wire_nics "$RXE_VM_NETDEV" "$1"
	echo "wire-accept-secret" > secret
	AGENTS=
	trap 'kill $AGENTS 2>/dev/null; rm -rf "$WORK"' EXIT
	wire_agents_start "${WIRE_ORDER_CAP_S:-30}" ""
}
# wire_agents_start CAP SUFFIX: the two agents of wire_nic_agents with an
# order cap of CAP s, logging to agent0SUFFIX.log and agent1SUFFIX.log
wire_agents_start() {
	AGENTS=
	for k in 0 1; do
		IBCONSOLE_ORDER_CAP_S=$1 \
			"$IBCONSOLE" serve -d "rxe$k" --port $((18700 + 2 * k)) --secret-file secret --timeout 30 \
			> "agent$k$2.log" 2>&1 &
		AGENTS="$AGENTS $!"
	done
	for k in 0 1; do wait_listening "agent$k$2.log"; done
}
# wire_shape RATE MS [A B FRATE FMS]: every NIC of this VM (mv0, mv1)
# sends at RATE kbit/s with MS ms added (netem: a queue, no drops; RATE
# "-": unshaped); with A B (the
# addresses of two NICs, of either VM): what A sends to B and B to A goes
# at FRATE kbit/s with FMS ms instead. B "*": every NIC's traffic to A,
# and all that A sends. "none": no shaping. Called in both VMs with the
# same words (wire_shape_both) it shapes both directions of each path.
wire_shape() {
	for k in 0 1; do
		dev=mv$k
		wire_nic_clear "$dev"
		[ "$1" != none ] || continue
		my=$(ip -4 -o addr show dev "$dev" | awk '{split($4, a, "/"); print a[1]; exit}')
		peer=
		if [ $# -ge 6 ]; then
			if [ "$3" = "$my" ]; then peer=${4#\*}; [ -n "$peer" ] || peer=all
			elif [ "$4" = "$my" ] || [ "$4" = "*" ]; then peer=$3
			fi
		fi
		base="netem delay ${2}ms rate ${1}kbit limit 10000"
		[ "$1" != - ] || base=pfifo
		if [ "$peer" = all ]; then
			tc qdisc add dev "$dev" root netem delay "${6}ms" rate "${5}kbit" limit 10000 ||
				fail "tc: no netem on $dev"
		elif [ -z "$peer" ]; then
			[ "$1" = - ] || tc qdisc add dev "$dev" root $base || fail "tc: no netem on $dev"
		else
			tc qdisc add dev "$dev" root handle 1: prio bands 3 priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 &&
				tc qdisc add dev "$dev" parent 1:1 handle 10: $base &&
				tc qdisc add dev "$dev" parent 1:3 handle 30: netem delay "${6}ms" rate "${5}kbit" limit 10000 &&
				tc filter add dev "$dev" parent 1: protocol ip prio 1 u32 match ip dst "$peer/32" flowid 1:3 ||
				fail "tc: cannot shape $dev's path to $peer"
		fi
	done
	echo "shaped: $*"
}
# wire_shape_both WORDS (in the client VM): wire_shape WORDS here and in
# the server VM (through IBCONSOLE_WIRE_DIR/shape, answered in shape-ack
# once done), both shaped when this returns
wire_shape_both() {
	SHAPE_N=$((${SHAPE_N:-0} + 1))
	echo "$SHAPE_N $*" > "$IBCONSOLE_WIRE_DIR/shape.tmp" && mv "$IBCONSOLE_WIRE_DIR/shape.tmp" "$IBCONSOLE_WIRE_DIR/shape" ||
		fail "cannot write $IBCONSOLE_WIRE_DIR/shape"
	wire_shape "$@"
	i=0
	until [ "$(cat "$IBCONSOLE_WIRE_DIR/shape-ack" 2>/dev/null)" = "$SHAPE_N" ]; do
		i=$((i + 1))
		[ $i -le 300 ] || fail "the server VM never shaped its NICs ($*)"
		sleep 0.1
	done
}
# wire_shape_serve (in the server VM, in its wait loop): what the client
# asked for with wire_shape_both
wire_shape_serve() {
	want=$(cat "$IBCONSOLE_WIRE_DIR/shape" 2>/dev/null) || return 0
	[ -n "$want" ] && [ "${want%% *}" != "${SHAPE_NOW:-}" ] || return 0
	SHAPE_NOW=${want%% *}
	# shellcheck disable=SC2086 # the words wire_shape_both wrote
	set -f
	wire_shape ${want#* } > shape.log
	set +f
	sed 's/^/server: /' shape.log
	echo "$SHAPE_NOW" > "$IBCONSOLE_WIRE_DIR/shape-ack.tmp" && mv "$IBCONSOLE_WIRE_DIR/shape-ack.tmp" "$IBCONSOLE_WIRE_DIR/shape-ack" ||
		fail "cannot write $IBCONSOLE_WIRE_DIR/shape-ack"
}
# wire_nic_clear NIC: no limit on NIC any more
wire_nic_clear() {
	tc qdisc del dev "$1" root 2>/dev/null || true
	tc qdisc del dev "$1" ingress 2>/dev/null || true
}
