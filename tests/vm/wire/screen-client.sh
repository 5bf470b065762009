#!/bin/sh
# SPDX-License-Identifier: MIT
# wire/screen-client.sh (in VM B, 192.168.77.2): netem drops 3 % of what
# eth1 sends while the console's test screen runs a write bandwidth test
# against the agent in VM A; the screen must show the local retransmission
# counters and the peer's (duplicate_request / out_of_seq_request) rising,
# marked and highlighted, while the test runs. Then, with the wire clean,
# a second run against an unmodified ib_write_bw server in VM A ("Peer
# runs: perftest"): the local counters rise on the screen between two
# looks during the run, and the result row carries the figures the
# perftest server printed for that run.
set -u
. "$(dirname "$0")/../vmlib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ibc-wire.XXXXXX") || fail "mktemp"
cd "$work" || fail "cd $work"
# shellcheck disable=SC2034 # read by screenlib.sh
IBC_TMP=$work
. "$(dirname "$0")/../faultlib.sh"
. "$(dirname "$0")/../screenlib.sh"
trap 'cleanup; rm -rf "$work"' EXIT
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

# ---- the same screen against an unmodified perftest server ----
wire_lossless "$RXE_VM_NETDEV"
wait_log "$IBCONSOLE_WIRE_DIR/perftest-up" listening 120
to_form
field 9 20	# duration 20 s, as the server's -D 20
field 4	# on to the last field: who the peer is
key Space
wait_for 'Peer runs .*< perftest >' 5
key Enter
wait_for 'TEST write bw 64 KiB RC 1 QP -> .*running' 30
wait_for '^ peer +192\.168\.77\.1 +perftest [0-9.]+ server' 30
# two looks while it runs: the local packet counter must have risen
loc_sent() { grep -E '^ sent_pkts ' "$1" | head -1 | sed 's/([^)]*)//g; s/!//g' | awk '{print $2}'; }
end=$(($(ms) + 30000))
first=
until [ -n "$first" ]; do
	cap > pt1.txt
	grep -q running pt1.txt || { cat pt1.txt; fail "the perftest run ended before its counters showed"; }
	first=$(loc_sent pt1.txt)
	[ "$(ms)" -le "$end" ] || { cat pt1.txt; fail "no local sent_pkts during the perftest run"; }
	[ -n "$first" ] || sleep 0.2
done
a=$(num "$first") b=$a
until [ "$b" -gt "$a" ]; do
	sleep 0.2
	cap > pt2.txt
	b=$(num "$(loc_sent pt2.txt)")
	# on a loaded host the first look can come near the run's end: then
	# the run's last counters, still on the screen, must show the rise
	grep -q running pt2.txt || [ "$b" -gt "$a" ] ||
		{ cat pt1.txt pt2.txt; fail "local sent_pkts did not rise during the perftest run ($a, then $b)"; }
done
cat pt2.txt
echo "ok: perftest peer: local sent_pkts rose on the screen during the run: $a -> $b"
wait_for '^ RESULT' 60
cap > ptdone.txt
cat ptdone.txt
wait_log "$IBCONSOLE_WIRE_DIR/perftest-rc" '^[0-9]' 30
pl=$IBCONSOLE_WIRE_DIR/perftest-server.log
[ "$(cat "$IBCONSOLE_WIRE_DIR/perftest-rc")" = 0 ] || { cat "$pl"; fail "ib_write_bw ended with $(cat "$IBCONSOLE_WIRE_DIR/perftest-rc") against the console"; }
# perftest's row: bytes iterations peak avg[MB/sec] Mpps; ours: the same in Gb/s
theirs=$(awk '/^ *#bytes/ {h = 1; next} h && $1 ~ /^[0-9]+$/ {print; exit}' "$pl")
ours=$(grep -E '^ 65536 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+' ptdone.txt | head -1)
[ -n "$theirs" ] && [ -n "$ours" ] || { cat "$pl"; fail "no result row (screen: '$ours', ib_write_bw: '$theirs')"; }
# the same within 1 % and the rounding of the printed digits (MB/sec to
# 2 decimals, Mpps to 6)
awk -v t="$theirs" -v o="$ours" 'BEGIN { split(t, a); split(o, b)
	gb = a[4] * 1048576 * 8 / 1e9; d = gb - b[4]; m = a[5] - b[5]
	exit !(a[1] == b[1] && a[2] == b[2] && b[4] > 0 && b[5] > 0 &&
		d * d <= (0.01 * b[4] + 0.00005) ^ 2 && m * m <= (0.01 * b[5] + 0.0000015) ^ 2) }' ||
	fail "the screen's result ($ours Gb/s) is not what ib_write_bw printed ($theirs MB/sec)"
echo "ok: perftest peer: the result row is ib_write_bw's (screen: $(echo $ours); ib_write_bw: $(echo $theirs) MB/sec)"
