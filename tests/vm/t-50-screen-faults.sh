#!/bin/sh
# SPDX-License-Identifier: MIT
# t-50-screen-faults.sh: every failure of a test started from the
# console's test screen lands as one line with the remedy and the console
# stays up, driven through tmux on rxe0: no agent on the port, a wrong
# shared secret, memlock too low (ulimit -l 64 without CAP_IPC_LOCK), the
# agent killed mid-test, the port down. After each a key still reaches
# the screen.
# vm-timeout: 600
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
. "$VM_TESTS_DIR/faultlib.sh"
. "$VM_TESTS_DIR/screenlib.sh"

# failed ERE SECONDS NAME: the run failed with one message matching ERE
# that carries a remedy (" — "), whole on the FAILED pane (wrapped to the
# width there); the screen kept as NAME.txt
failed() {
	t0=$(ms)
	wait_for '^ FAILED' "$2"
	t1=$(ms)
	shot "$3"
	line=$(sed -n '/^ FAILED/,/^ Esc: the form/p' "$3.txt" | sed '1d;$d; s/^ *//' | tr '\n' ' ' | sed 's/ *$//')
	echo "$line" | grep -Eq -- "$1" || { cat "$3.txt"; fail "$3: no message matching /$1/"; }
	case $line in *" — "*) ;; *) cat "$3.txt"; fail "$3: no remedy in: $line" ;; esac
	echo "ok: $3: failed after $((t1 - t0)) ms: $line"
}

agent agent.log -p $P
agent1=$agent
console
key t
wait_for 'TEST  from rxe0/1' 5

# 1. no agent on the port given
set_field 11 $((P + 9))
key Enter
failed "cannot reach the agent at $ip4 port $((P + 9))" 60 no-agent
still_answers "no agent on the port"

# 2. a wrong shared secret
echo right-secret > s1
echo wrong-secret > s2
agent agent-secret.log -p $((P + 3)) --secret-file s1
set_field 11 $((P + 3))
set_field 12 "$PWD/s2"
key Enter
failed 'authentication failed: wrong or missing shared secret' 60 bad-secret
still_answers "a wrong shared secret"
set_field 12 ""
set_field 11 $P

# 3. the agent killed mid-test: one line within the stall time-out
set_field 9 300
key Enter
wait_for 'running' 30
wait_for 'Gb/s +[0-9.]+ now' 10
kill -9 "$agent1"
failed '(went away|stopped answering|no completion)' 40 agent-killed
still_answers "the agent killed mid-test"

# 4. memlock too low: the console under ulimit -l 64, without CAP_IPC_LOCK
# (root registers the buffers whatever the limit)
agent agent2.log -p $P
console "ulimit -l 64; setpriv --bounding-set -ipc_lock"
key t
wait_for 'TEST  from rxe0/1' 5
set_field 11 $P
key Enter
failed 'ulimit -l unlimited' 30 memlock
still_answers "memlock too low"

# 5. the port down (its netdev down), then up again for the next tests
console
key t
wait_for 'TEST  from rxe0/1' 5
set_field 11 $P
nd=$RXE_VM_NETDEV
st=/sys/class/infiniband/rxe0/ports/1/state
trap 'ip link set dev "$nd" up; cleanup' EXIT
trap 'exit 1' HUP INT TERM	# the suite's time-out too brings the link up
# link ACTION: the netdev down or up, and rxe0/1 following it (20 s)
link() {
	ip link set dev "$nd" "$1" || fail "ip link set dev $nd $1"
	n=0
	until { [ "$1" = up ] && grep -q ACTIVE "$st"; } || { [ "$1" = down ] && ! grep -q ACTIVE "$st"; }; do
		n=$((n + 1))
		[ "$n" -le 40 ] || fail "rxe0/1 is $(cat "$st") 20 s after $nd went $1"
		sleep 0.5
	done
}
link down
key Enter
failed 'is not ACTIVE .* bring the link up' 30 port-down
still_answers "the port down"
link up
key F10
wait_for 'console exit 0' 10
echo "test screen failures ok"
