#!/bin/sh
# SPDX-License-Identifier: MIT
# t-47-perftest-lat.sh: `ibconsole test lat --perftest` against unmodified
# ib_write_lat, ib_send_lat and ib_read_lat servers: where the server
# prints its own view of the same ping-pong, its median is ours within
# 10 % (perftestlib.sh same_run_lat; different runs are compared in
# bench/perftest-peer.sh, as latencies in a VM on a shared host scatter
# from run to run); options that differ from the server's are named
# with both values; the record says the peer was perftest and which
# version, and --compare reruns against it; a server killed mid-test gives
# exit 4 within the time-out.
# vm-timeout: 600
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
PORT=18670
. "$VM_TESTS_DIR/enginelib.sh"
. "$VM_TESTS_DIR/perftestlib.sh"

same_run_lat write_lat_2 ib_write_lat --op write -s 2 -n 300
same_run_lat send_lat_2 ib_send_lat --op send -s 2 -n 300
same_run_lat read_lat_2 ib_read_lat --op read -s 2 -n 300
ours_run ib_write_lat lat --op write -n 10 -a
n=$(/usr/bin/python3 -c "import json; print(len(json.load(open('o.json'))['phases']))")
[ "$n" = 23 ] || fail "write lat -a: $n sizes, want 23"

mismatch() {	# mismatch WANT TOOL SERVER-ARGS -- OUR-ARGS: one line naming it, exit 2
	want=$1 tool=$2
	shift 2
	sa=
	while [ "$1" != -- ]; do sa="$sa $1"; shift; done
	shift
	server $tool $sa
	rc=0
	timeout 60 "$IBC" test "$@" --perftest --port $PP --no-record "$ip4" > m.out 2> m.err || rc=$?
	stop_server
	[ "$rc" = 2 ] || { cat m.err; fail "mismatch ($sa / $*): exit $rc, want 2"; }
	[ "$(wc -l < m.err)" = 1 ] || { cat m.err; fail "mismatch ($sa / $*): not one line"; }
	grep -q -- "$want" m.err || { cat m.err; fail "mismatch ($sa / $*): want '$want'"; }
	echo "named: $(cat m.err)"
}
mismatch "-q (QPs) differs: here 1, the perftest server .* 2 " ib_write_bw -s 65536 -n 100 -q 2 -- bw -s 65536 -n 100
mismatch "-q (QPs) differs: here 3, the perftest server .* 1 " ib_send_bw -s 65536 -n 100 -- bw --op send -s 65536 -n 100 -q 3
mismatch "-s (size) differs: here 2, the perftest server .* 64 " ib_write_lat -s 64 -n 100 -- lat --op write -s 2 -n 100

# the record: peer kind and version; --compare reruns against perftest
server ib_send_lat -s 2 -n 200
rc=0
timeout 60 "$IBC" test lat --op send -s 2 -n 200 --perftest --port $PP --save rec.json "$ip4" > s.out 2> s.err || rc=$?
wait $srv || { cat srv.log; fail "ib_send_lat did not finish against ibconsole"; }
[ "$rc" -le 1 ] || { cat s.err; fail "test lat --perftest --save: exit $rc"; }
ver=$(ib_send_lat --version 2>&1 | awk '/[Vv]ersion/ {print $NF; exit}')
/usr/bin/python3 - "$ver" <<'PY' || fail "the record does not say perftest and its version"
import json, sys
p = json.load(open("rec.json"))["params"]
assert p["peer_kind"] == "perftest", p
assert p["peer_version"] and (not sys.argv[1] or p["peer_version"] == sys.argv[1]), (p, sys.argv[1])
PY
server ib_send_lat -s 2 -n 200
rc=0
timeout 60 "$IBC" test lat --compare rec.json --no-record "$ip4" > c.out 2> c.err || rc=$?
wait $srv || { cat srv.log; fail "ib_send_lat did not finish against ibconsole --compare"; }
[ "$rc" -le 1 ] || { cat c.err; fail "test --compare of a perftest record: exit $rc"; }
grep -q "compared with rec.json" c.out || { cat c.out; fail "--compare printed no comparison"; }

# the server dies mid-test: one line, exit 4, no hang
server ib_write_bw -s 65536 -D 30
# $srv is the timeout(1) wrapper: kill perftest itself
( sleep 3; kill -9 $(pgrep -P $srv) $srv ) &
rc=0
timeout 60 "$IBC" test bw -s 65536 -D 30 --perftest --port $PP --no-record "$ip4" > k.out 2> k.err || rc=$?
[ "$rc" = 4 ] || { cat k.err; fail "server killed: exit $rc, want 4"; }
grep -q "^ibconsole: " k.err || { cat k.err; fail "server killed: no one-line error"; }
echo "perftest peer latency, mismatches and records ok"
