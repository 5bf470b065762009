#!/bin/sh
# SPDX-License-Identifier: MIT
# wire/screen-server.sh (in VM A, 192.168.77.1): the agent the client VM's
# console tests against across the lossy wire; one RDMA session, then it
# prints its retransmission counters. Then an unmodified ib_write_bw
# server (20 s, perftest's port 18515) for the console's second run, with
# "Peer runs: perftest"; its output goes to perftest-server.log in the
# shared directory. Exits with the agent session's status, or perftest's
# when that failed.
set -u
. "$(dirname "$0")/../vmlib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ibc-wire.XXXXXX") || fail "mktemp"
cd "$work" || fail "cd $work"
trap 'rm -rf "$work"' EXIT
echo "server: agent on $RXE_VM_NETDEV ($(netdev_ipv4 "$RXE_VM_NETDEV"))"
timeout -k 5 300 "$IBCONSOLE" serve --once --timeout 60 2>&1 | sed 's/^/server: /'
rc=$?
cat /sys/class/infiniband/rxe0/ports/1/hw_counters/duplicate_request \
	/sys/class/infiniband/rxe0/ports/1/hw_counters/out_of_seq_request 2>/dev/null |
	paste -sd' ' | sed 's/^/server: duplicate_request out_of_seq_request: /'

gid=$(roce_v2_ipv4_index rxe0 1 "$(netdev_ipv4 "$RXE_VM_NETDEV")")
pl=$IBCONSOLE_WIRE_DIR/perftest-server.log
timeout -k 5 120 stdbuf -oL ib_write_bw -d rxe0 -x "$gid" -D 20 > "$pl" 2>&1 &
srv=$!
# a client that failed before its run: end with it
( while [ ! -e "$IBCONSOLE_WIRE_DIR/done" ]; do sleep 1; done; kill $srv 2> /dev/null ) &
watch=$!
n=0
until ss -Hltn "sport = :18515" | grep -q .; do
	n=$((n + 1))
	[ $n -le 200 ] && kill -0 $srv 2> /dev/null || { cat "$pl"; fail "ib_write_bw did not listen on 18515"; }
	sleep 0.1
done
echo "server: ib_write_bw -d rxe0 -x $gid -D 20 listening"
echo listening > "$IBCONSOLE_WIRE_DIR/perftest-up"
prc=0
wait $srv || prc=$?
kill $watch 2> /dev/null
sed 's/^/server: perftest: /' "$pl"
echo $prc > "$IBCONSOLE_WIRE_DIR/perftest-rc"
[ $prc = 0 ] || exit 1
exit $rc
