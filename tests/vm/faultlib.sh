# SPDX-License-Identifier: MIT
# faultlib.sh: what the engine fault tests (t-41, t-44) share: the agent port,
# valgrind, the QP count, waiting for a log line and checking a one-line error.
# Sourced after vmlib.sh; the caller has set -eu.
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
