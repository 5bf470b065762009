#!/bin/sh
# SPDX-License-Identifier: MIT
# wire/screen-client.sh (in VM B, 192.168.77.2): netem drops 3 % of what
# eth1 sends while the console's test screen runs a write bandwidth test
# against the agent in VM A; the screen must show the local retransmission
# counters and the peer's (duplicate_request / out_of_seq_request) rising,
# marked and highlighted, while the test runs.
set -u
. "$(dirname "$0")/../vmlib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ibc-wire.XXXXXX") || fail "mktemp"
cd "$work" || fail "cd $work"
vm_tmux "$work/tmux" wire
XDG_STATE_HOME=$work/state
export XDG_STATE_HOME
trap 'vm_tmux_end; rm -rf "$work"' EXIT
peer=192.168.77.1
wire_wait_agent "$peer"
tc qdisc add dev "$RXE_VM_NETDEV" root netem loss 3% || fail "netem unavailable"
echo "client: agent up; netem loss 3% on $RXE_VM_NETDEV"
$T new-session -d -s ui -x 120 -y 40 "LC_ALL=C.UTF-8 $IBCONSOLE -d rxe0 --peer $peer 2> console.err; sleep 60"
wait_for 'rxe0/1' 60
$T send-keys -t ui t
wait_for 'TEST  from rxe0/1' 10
# the form opens on --peer's host; Tab to the duration (the 10th field):
# an arrow key's escape sequence may arrive split on an emulated guest
wait_for "Peer .*\\[${peer}_\\]" 10
$T send-keys -t ui Tab Tab Tab Tab Tab Tab Tab Tab Tab C-u 30 Enter
wait_for 'running' 60
# while it runs: a local retransmission counter and a peer one, each
# with its mark, and at least one of them highlighted
loc='^ (rcvd_seq_err|completer_retry_err|retry_exceeded_err|local_ack_timeout_err) +\+[0-9.kMG]+ !'
per='^ (duplicate_request|out_of_seq_request) +[^ ]+( !)? +\+[0-9.kMG]+ !'
end=$(($(ms) + 90000))
until cap | grep -Eq "$loc" && cap | grep -Eq "$per"; do
	[ "$(ms)" -le "$end" ] || { cap; fail "the retransmission counters never showed at both ends"; }
	cap | grep -q 'running' || { cap; fail "the test ended before both ends' retransmission counters showed"; }
	sleep 0.5
done
cap > lossy.txt
$T capture-pane -e -p -t ui > lossy.ansi
cat lossy.txt
# highlighted: drawn in the warning (yellow) or, within 3 s of a rise,
# the alarm (red) colour
esc=$(printf '\033')
grep -E 'rcvd_seq_err|completer_retry_err|retry_exceeded_err|local_ack_timeout_err|duplicate_request|out_of_seq_request' lossy.ansi |
	grep -Eq "$esc\[[0-9;]*3[13]m" || fail "the moving retransmission counters are not highlighted"
echo "client: local $(grep -Eo "$loc" lossy.txt | head -1 | tr -s ' '), peer $(grep -Eo "$per" lossy.txt | head -1 | tr -s ' ')"
echo "ok: 3% loss on the wire: both ends' retransmission counters rise on the test screen while it runs"
$T send-keys -t ui Escape Escape	# the second Esc confirms the cancel
wait_for 'CANCELLED|verdict' 20
