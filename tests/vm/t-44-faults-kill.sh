#!/bin/sh
# SPDX-License-Identifier: MIT
# t-44-faults-kill.sh: the agent killed mid-test and the client killed
# mid-test on rxe0. The survivor runs under valgrind (no definite leak, no
# invalid access) and must end with a clear error within its time-out;
# no process is left and the QP count is back.
# Under valgrind on an emulated CPU a loaded host took 177 s of the 180
# the suite gives a test, most of it valgrind's start-up:
# vm-timeout: 360
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
. "$VM_TESTS_DIR/faultlib.sh"

# 4. agent killed mid-test: the client (under valgrind) ends with exit 4
"$IBC" serve -p $((P + 3)) --timeout 5 2> agent2.log &
agent=$!
pids="$pids $agent"
wait_log agent2.log listening 10
t0=$(now)
rc=0
$VG --log-file=vg-client.log "$IBC" test bw -D 60 --timeout 20 --no-record -p $((P + 3)) "$ip4" \
	> client.out 2> client.err &
client=$!
pids="$pids $client"
wait_log agent2.log 'bw write' 60
# mid-test: 64 KiB messages moving (1000 packets, a few ms of traffic;
# the side under valgrind may take a minute to set up its QP on a busy host)
wait_moving 1000 90 $client client.err
kill -9 $agent
tk=$(now)
wait $client || rc=$?
dt=$(($(now) - tk))
[ "$rc" = 4 ] || { cat client.err; fail "agent killed: client exit $rc, want 4"; }
[ "$dt" -le 15 ] || fail "agent killed: the client took $dt s to notice"
grep -Eq 'went away|stopped answering|no completion|closed the connection' client.err || { cat client.err; fail "agent killed: unclear error"; }
clean_vg vg-client.log
echo "ok: agent killed mid-test: client exit 4 after $dt s: $(grep '^ibconsole' client.err | head -1)"

# 5. client killed mid-test: the agent (under valgrind, --once) frees all and says why
$VG --log-file=vg-agent.log "$IBC" serve --once -p $((P + 4)) --timeout 5 2> agent3.log &
agent=$!
pids="$pids $agent"
wait_log agent3.log listening 60
# --timeout 60: the agent under valgrind took over the default 10 s to
# answer the set-up on a loaded host, and the client gave up before any
# data moved
"$IBC" test bw -D 60 --timeout 60 --no-record -p $((P + 4)) "$ip4" > /dev/null 2> client3.err &
client=$!
pids="$pids $client"
wait_log agent3.log 'bw write' 60
wait_moving 1000 90 $client client3.err
kill -9 $client 2>/dev/null || { cat client3.err agent3.log; fail "client killed: the client had already ended"; }
tk=$(now)
rc=0
wait $agent || rc=$?
dt=$(($(now) - tk))
[ "$rc" = 4 ] || { cat agent3.log; fail "client killed: agent exit $rc, want 4"; }
[ "$dt" -le 15 ] || fail "client killed: the agent took $dt s to notice"
grep -q 'session failed' agent3.log || { cat agent3.log; fail "client killed: the agent did not say why"; }
clean_vg vg-agent.log
echo "ok: client killed mid-test: agent exit 4 after $dt s: $(grep 'session failed' agent3.log)"

trap - EXIT
sleep 0.5
if ps -eo comm | grep -Eqx 'ibconsole|memcheck-amd64-'; then ps -ef; fail "stray processes"; fi
[ "$(qps_now)" = "$qps0" ] || { rdma resource show qp; fail "QPs left behind: $(qps_now), was $qps0"; }
echo "faults ok"
