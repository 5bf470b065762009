#!/bin/sh
# SPDX-License-Identifier: MIT
# t-41-test-faults.sh: failure paths on rxe0 that need no kill: agent not
# started, wrong port, a garbage peer and a garbage client (the agent
# survives it), memlock too low, shared secret missing / wrong / right.
# Each ends with a one-line error and its remedy within the time-out;
# no process is left and the QP count is back (t-44 covers the kills).
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
. "$VM_TESTS_DIR/faultlib.sh"

# 1. agent not started: refused, retried until --timeout, exit 4
expect_rc 4 12 no-agent "$IBC" test bw -n 10 --timeout 2 --no-record -p $((P + 9)) "$ip4"
grep -q 'cannot reach the agent' no-agent.err || fail "no-agent: unclear message"

# 2. wrong port: the agent is up, the client knocks elsewhere
"$IBC" serve -p $P --timeout 5 2> agent.log &
agent=$!
pids="$pids $agent"
wait_log agent.log listening 10
expect_rc 4 12 wrong-port "$IBC" test bw -n 10 --timeout 2 --no-record -p $((P + 1)) "$ip4"

# 3. garbage: a peer that answers with noise; and noise sent to the agent
/usr/bin/python3 - $((P + 2)) <<'PY' &
import os, socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", int(sys.argv[1]))); s.listen(1); s.settimeout(30)
c, _ = s.accept(); c.sendall(os.urandom(4096)); c.recv(1); c.close()
PY
garb=$!
pids="$pids $garb"
i=0
until ss -ltn | grep -q ":$((P + 2)) "; do
	i=$((i + 1))
	[ $i -le 200 ] || fail "the garbage server never listened"
	sleep 0.1
done
expect_rc 4 12 garbage-peer "$IBC" test bw -n 10 --timeout 3 --no-record -p $((P + 2)) "$ip4"
grep -Eq 'not an ibconsole agent|bad .* message|protocol version|unknown message type' garbage-peer.err ||
	fail "garbage-peer: the error does not say the peer is no agent"
wait $garb 2>/dev/null || true
# a client that sends a valid header with a huge length, then noise
/usr/bin/python3 - $P <<'PY'
import socket, sys, os
c = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
c.recv(4096)                                   # the agent's HELLO
c.sendall(b"IBCT\x02\x02\x00\x00\x7f\xff\xff\xff" + os.urandom(64))  # version 2, HELLO, huge length
c.settimeout(10)
try:
    c.recv(4096)                               # the agent's ERROR, or close
except OSError:
    pass
c.close()
PY
wait_log agent.log 'bad handshake' 10
grep -q 'limit' agent.log || { cat agent.log; fail "agent: no size-limit rejection logged"; }
# the agent still serves a real client afterwards
expect_ok() { timeout 60 "$IBC" test "$@" --no-record "$ip4" > ok.out 2>&1 || [ $? = 1 ] || { cat ok.out; fail "test $* failed"; }; }
expect_ok bw -n 20 -p $P
kill $agent
wait $agent 2>/dev/null || true

# 6. memlock too low: explained up front, exit 3
# (root has CAP_IPC_LOCK, which lifts the limit: drop it from the bounding set)
expect_rc 3 12 memlock setpriv --bounding-set -ipc_lock \
	sh -c "ulimit -l 64; exec '$IBC' test bw -s 1M --no-record -p $P '$ip4'"
grep -q 'ulimit -l unlimited' memlock.err || fail "memlock: no remedy"

# 7. shared secret: missing, wrong, right
echo right-secret > s1
echo wrong-secret > s2
"$IBC" serve -p $((P + 5)) --secret-file s1 --timeout 5 2> agent4.log &
agent=$!
pids="$pids $agent"
wait_log agent4.log listening 10
expect_rc 3 12 no-secret "$IBC" test bw -n 10 --no-record -p $((P + 5)) "$ip4"
expect_rc 3 12 bad-secret "$IBC" test bw -n 10 --no-record --secret-file s2 -p $((P + 5)) "$ip4"
expect_ok bw -n 10 --secret-file s1 -p $((P + 5))
kill $agent
wait $agent 2>/dev/null || true

trap - EXIT
sleep 0.5
if ps -eo comm | grep -Eqx 'ibconsole|memcheck-amd64-'; then ps -ef; fail "stray processes"; fi
[ "$(qps_now)" = "$qps0" ] || { rdma resource show qp; fail "QPs left behind: $(qps_now), was $qps0"; }
echo "faults ok"
