#!/bin/sh
# SPDX-License-Identifier: MIT
# t-45-test-screen.sh: the console's test screen on rxe0, driven through
# tmux with the agent on the same VM and the peer given by --peer: a 64 KiB
# write bandwidth test shows Gb/s each second and both ends' packet
# counters rising, then the verdict and the record; a key pressed during a
# run is on screen within 200 ms (measured, reported); one Esc only asks,
# a split arrow key never cancels, Esc Esc cancels and the next test to
# the same agent finishes; a latency test shows its histogram and p50 /
# p99 / p99.9 live, then perftest's figures; the TCP baseline's bytes (on
# the screen and from `test tcp --json`) match the loopback device's count
# of the same run; the counters panel says the driver has
# no per-priority pause counters. The failures are t-50-screen-faults.sh.
# vm-timeout: 600
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
. "$VM_TESTS_DIR/faultlib.sh"
. "$VM_TESTS_DIR/screenlib.sh"

agent agent.log
console
# the counters panel of a RoCE port: per-priority pauses, or why there
# are none (virtio_net has none) — never a row of zeros
key c
wait_for 'PFC per priority +the driver exposes no per-priority pause counters' 20
echo "ok: the counters panel says the driver has no per-priority pause counters"
key Escape
wait_for 'rxe0/1 details' 10
key t
wait_for 'TEST  from rxe0/1' 5
shot form
grep -q 'Kind .*< bw >' form.txt || { cat form.txt; fail "form: no kind row with bw"; }
grep -Eq 'Size .*\[65536\]' form.txt || { cat form.txt; fail "form: size default is not perftest's 65536"; }
grep -Eq 'Iterations .*\[5000\]' form.txt || { cat form.txt; fail "form: write bw iterations default is not 5000"; }
grep -Eq "Peer .*\\[${ip4}_\\]" form.txt || { cat form.txt; fail "form: the peer is not --peer's $ip4"; }
echo "ok: the form starts on --peer $ip4 with perftest's defaults"

# no peer: one line with the remedy, the console stays
key C-u Enter
wait_for 'no peer: .* — ' 3
key "$ip4"
wait_for "\\[${ip4}_\\]" 10

# What a key costs from tmux to the screen: typed into the peer field with
# no run going, then Tab flipping the pane during a run. keylat.py polls
# the pane every 10 ms through one tmux control client.
keylat() { python3 "$VM_TESTS_DIR/keylat.py" "$TSOCK" ui "$@"; }
keylat 3 x "\\[${ip4}x_\\]" BSpace "\\[${ip4}_\\]" > keylat-idle.txt || { cat keylat-idle.txt; fail "keys with no run"; }
idle_ms=$(sed -n 's/^median \([0-9]*\) .*/\1/p' keylat-idle.txt)
# What one look costs the shell steps below (a tmux send and a capture,
# each a process): under KVM the guest runs in real time and the agent's
# 2 s bound is the real one; under TCG (emulated CPUs shared with the two
# busy-polling test threads, and with whatever else loads the host) a
# process start alone can take seconds, so that bound gets ten times this
# figure on top.
t0=$(ms)
key x
wait_for "\\[${ip4}x_\\]" 60
key BSpace
wait_for "\\[${ip4}_\\]" 60
fork_ms=$(( ($(ms) - t0) / 2 ))
if dmesg | grep -q 'Hypervisor detected'; then slack=0; else slack=$((fork_ms * 10)); fi

field 9 300
key Enter
wait_for 'TEST write bw 64 KiB RC 1 QP -> .*running' 30
wait_for 'Gb/s +[0-9.]+ now' 10
keylat 4 Tab 'pane: latency' Tab 'pane: counters' > keylat-run.txt || { cat keylat-run.txt; fail "keys during a run"; }
# the control: the same tmux, the same load, a key echoed by cat in a
# window of its own; what it takes is the guest's and tmux's share
$T new-window -d -t ui:9 -n ctl "stty -echo; exec cat"
sleep 1
$T list-windows -t ui | grep -q '^9: ctl' || { $T list-windows -t ui; fail "no control window"; }
python3 "$VM_TESTS_DIR/keylat.py" "$TSOCK" ui:9 1 'c1 Enter' '^c1$' 'c2 Enter' '^c2$' 'c3 Enter' '^c3$' 'c4 Enter' '^c4$' \
	'c5 Enter' '^c5$' 'c6 Enter' '^c6$' 'c7 Enter' '^c7$' 'c8 Enter' '^c8$' > keylat-ctl.txt ||
	{ cat keylat-ctl.txt; fail "keys to the control window"; }
cat keylat-run.txt keylat-ctl.txt
cap | grep -q 'running' || fail "the run ended before the key check"
med() { sed -n 's/^median \([0-9]*\) .*/\1/p' "$1"; }
max() { sed -n 's/^median [0-9]* max \([0-9]*\)/\1/p' "$1"; }
run_ms=$(med keylat-run.txt) run_max=$(max keylat-run.txt) ctl_ms=$(med keylat-ctl.txt) ctl_max=$(max keylat-ctl.txt)
echo "key to screen during a run: median ${run_ms} ms, max ${run_max} ms; with no run ${idle_ms} ms; cat in the same tmux under the same load ${ctl_ms} ms (max ${ctl_max} ms)"
# Under KVM the guest runs in real time: every key within 200 ms, beyond
# the slowest key cat saw in the same tmux (the host's own stalls). Under
# TCG the emulated guest shares this host's CPUs with whatever else runs
# (seen: 16 to 550 ms for the same key during a run): the console may add
# at most 200 ms (median) to what cat takes under the same load.
if dmesg | grep -q 'Hypervisor detected'; then
	[ "$run_max" -le $((ctl_max + 200)) ] ||
		fail "a key took ${run_max} ms to show during a run, cat at most ${ctl_max} ms: the console adds over 200 ms"
else
	[ "$run_ms" -le $((ctl_ms + 200)) ] ||
		fail "a key took ${run_ms} ms (median) to show during a run, cat ${ctl_ms} ms: the console adds over 200 ms"
fi
wait_for 'sent_pkts|rcvd_pkts' 30
cap > run1.txt
sleep 4
shot run-bw
cat run-bw.txt
grep -q 'running' run-bw.txt || fail "the 300 s run is not running any more"
grep -Eq '^ Gb/s +[0-9.]+ now' run-bw.txt || fail "no Gb/s line while running"
gbps=$(sed -n 's/^ Gb\/s *[0-9.]* now *\([0-9.]*\) avg.*/\1/p' run-bw.txt)
awk -v g="$gbps" 'BEGIN { exit !(g > 0) }' || fail "Gb/s average of the seconds so far is '$gbps' while running"
# packets rising at both ends between the two captures
for c in sent_pkts rcvd_pkts; do
	a=$(ctr_vals $c run1.txt)
	b=$(ctr_vals $c run-bw.txt)
	[ -n "$a" ] && [ -n "$b" ] || fail "$c not in the counter table"
	la=$(num "${a% *}") pa=$(num "${a#* }") lb=$(num "${b% *}") pb=$(num "${b#* }")
	[ "$lb" -gt "$la" ] || fail "local $c did not rise: $la -> $lb"
	[ "$pb" -gt "$pa" ] || fail "peer $c did not rise: $pa -> $pb"
	echo "ok: $c rising: local $la -> $lb, peer $pa -> $pb"
done

# One Esc only asks. An arrow key whose sequence arrives split (a bare
# ESC, the rest after ncurses' ESCDELAY) is a lone Esc and then "[A": the
# run goes on, and the question is dropped.
key Escape
wait_for 'Esc again to cancel' 5
sleep 0.5
key -l '[A'
sleep 1
cap > split.txt
grep -q 'running' split.txt || { cat split.txt; fail "a split arrow key stopped the run"; }
# (the same probe's positive control: wait_for matched 'Esc again to cancel' above)
! grep -Eq 'Esc again|cancelling' split.txt || { cat split.txt; fail "the cancel question outlived the next key"; }
echo "ok: one Esc asks; a split arrow key (Esc, then [A) leaves the run going"
# Esc Esc: cancelled, the agent frees the session
keylat 1 'Escape Escape' 'cancelling|CANCELLED' > keylat-esc.txt || { cat keylat-esc.txt; fail "Esc Esc did not cancel"; }
t1=$(ms)
wait_log agent.log 'session failed' 60
t2=$(ms)
wait_for 'CANCELLED' 20
echo "ok: Esc Esc: on screen after $(sed -n 's/^median \([0-9]*\) .*/\1/p' keylat-esc.txt) ms; the agent freed the session $((t2 - t1)) ms later (limit $((2000 + slack)) ms): $(grep 'session failed' agent.log | tail -1)"
[ $((t2 - t1)) -le $((2000 + slack)) ] || fail "the agent took $((t2 - t1)) ms to free the cancelled session (limit $((2000 + slack)) ms)"

# the next test to the same agent finishes: result, verdict, record
to_form
field 9 4
key Enter
wait_for 'verdict: ' 120
shot done-bw
cat done-bw.txt
grep -Eq '^ record: /.*\.json' done-bw.txt || fail "no record path at the end"
rec=$(sed -n 's/^ record: //p' done-bw.txt)
[ -s "$rec" ] || fail "the record $rec is not there"
grep -q '"schema": "ibconsole/test/1"' "$rec" || fail "the record is not a test record"
grep -Eq '^ 65536 +[0-9]+ +[0-9.]+ +[0-9.]+' done-bw.txt || fail "no result row for 65536 B"
echo "ok: after the cancel the next test finished: result, verdict and record ($rec)"

# compare: the same test again (r), then c picks the earlier record
key r
# done when a second record is on screen (a short run may never be seen
# running between two looks)
end=$(($(ms) + 120000))
until cap | grep -E '^ record: /' | grep -vqF "$rec"; do
	[ "$(ms)" -le "$end" ] || { cap; fail "the second run (r) never ended with a record"; }
	sleep 0.2
done
key c
wait_for 'COMPARE WITH' 5
key Enter
wait_for 'compared with .*\.json' 5
wait_for 'bw_avg_gbps' 5
cap > compare.txt
echo "ok: compare with the earlier record"

# latency: the histogram and p50 / p99 / p99.9 while it runs, then
# perftest's own figures beside them
to_form
key Tab Space
wait_for 'Kind .*< lat >' 5
field 8 20	# from the kind row to the duration: 20 s
key Enter
wait_for 'TEST write lat 2 B RC 1 QP -> .*running' 30
key Tab
wait_for 'p50 [0-9.]+ +p99 [0-9.]+ +p99\.9 [0-9.]+' 10
cap > lat1.txt
sleep 1
shot lat-live
cat lat-live.txt
grep -q 'running' lat-live.txt || fail "the latency run ended before it was seen live"
grep -Eq '^ +[0-9.]+-[0-9.]+ us +[0-9]+ +#+' lat-live.txt || fail "no histogram rows while the latency test runs"
grep -Eq '#+ +<- [^ ]*p50' lat-live.txt || fail "the histogram does not mark the p50 row"
n1=$(sed -n 's/.*, \([0-9.k]*\) samples: p50.*/\1/p' lat1.txt)
n2=$(sed -n 's/.*, \([0-9.k]*\) samples: p50.*/\1/p' lat-live.txt)
[ "$(num "$n2")" -gt "$(num "$n1")" ] || fail "the latency samples did not grow while running: $n1 -> $n2"
echo "ok: latency live: histogram and percentiles, samples $n1 -> $n2"
wait_for 'verdict: ' 60
key Tab Tab
wait_for "perftest's figures" 5
shot lat-done
cat lat-done.txt
python3 - lat-done.txt <<'PY' || fail "the live percentiles disagree with perftest's"
import re, sys
t = open(sys.argv[1]).read()
live = re.search(r"p50 ([0-9.]+) +p99 ([0-9.]+) +p99\.9 ([0-9.]+)", t)
pt = re.search(r"t_typical ([0-9.]+) +p99 ([0-9.]+) +p99\.9 ([0-9.]+)", t)
l50, l99 = float(live.group(1)), float(live.group(2))
p50, p99 = float(pt.group(1)), float(pt.group(2))
print(f"live p50 {l50} / p99 {l99} us, perftest's t_typical {p50} / p99 {p99} us")
# the buckets are 1/8 of their lower bound wide; the live summary also
# keeps the two largest samples perftest drops
sys.exit(0 if abs(l50 - p50) <= p50 / 8 + 0.01 and abs(l99 - p99) <= p99 / 4 + 0.01 else 1)
PY

# The TCP baseline to the agent's own address crosses the loopback
# device: the kernel's byte count of lo during the run is an independent
# view of the same run (what iperf3 would measure is a different run, and
# two runs scatter under emulation; iperf3 against `test tcp` across runs
# is bench/ material). lo carries what the client wrote plus headers and
# ACKs (about 0.2 % at 64 KiB segments), and what the agent counted can
# only be less than what was written.
lo_rx() { cat /sys/class/net/lo/statistics/rx_bytes; }
# lo_check WHAT LO0 LO1 WRITTEN RECEIVED: the same run's figures against
# lo's count (WRITTEN empty: not known): the agent cannot have received
# more than lo carried, nor much less (what sat in the socket buffers when
# the run ended: 16 MiB at most); what was written lies between the two
lo_check() {
	/usr/bin/python3 - "$@" <<'PY' || fail "$1: the bytes do not match the loopback device's count of the same run"
import sys
what, lo, got = sys.argv[1], int(sys.argv[3]) - int(sys.argv[2]), int(sys.argv[5])
sent = int(sys.argv[4]) if sys.argv[4] else None
print(f"{what}: lo carried {lo} B in the same run; written {sent} B, the agent received {got} B")
ok = 0 < got <= lo <= got * 1.03 + 16 * 2 ** 20
if sent is not None:
    ok = ok and got <= sent <= lo <= sent * 1.03 + 262144
sys.exit(0 if ok else 1)
PY
}

# the tcp kind on the screen: the TCP baseline to the same agent
to_form
key Tab Space Space
wait_for 'Kind .*< tcp >' 5
field 8 3	# from the kind row to the duration: 3 s
l0=$(lo_rx)
key Enter
wait_for 'RESULT  TCP baseline' 60
l1=$(lo_rx)
shot tcp-screen
grep -Eq 'received [0-9]+ B in [0-9.]+ s = [0-9.]+ Gb/s' tcp-screen.txt || { cat tcp-screen.txt; fail "tcp kind: no received figure"; }
echo "ok: tcp kind on the screen: $(grep -Eo 'received [0-9]+ B in [0-9.]+ s = [0-9.]+ Gb/s' tcp-screen.txt)"
got=$(sed -n 's/.*received \([0-9]*\) B in.*/\1/p' tcp-screen.txt | head -1)
lo_check "tcp kind on the screen" "$l0" "$l1" "" "$got"
key F10	# q would be typed into the text field
wait_for 'console exit 0' 10

# `test tcp --json`: what it wrote and what the agent received, held to lo
l0=$(lo_rx)
"$IBC" test tcp --duration 2 --json "$ip4" > tcp.json || { cat tcp.json; fail "test tcp failed"; }
l1=$(lo_rx)
vals=$(/usr/bin/python3 -c '
import json; m = json.load(open("tcp.json"))
assert m["schema"] == "ibconsole/tcp/1" and m["error"] is None, m
assert abs(m["gbps"] - m["bytes"] * 8 / m["seconds"] / 1e9) <= 0.001 * m["gbps"] + 1e-6, m
print(m["sent_bytes"], m["bytes"])') || fail "test tcp --json: not a result, or Gb/s is not bytes / seconds ($(cat tcp.json))"
# shellcheck disable=SC2086 # two numbers
set -- $vals
lo_check "test tcp" "$l0" "$l1" "$1" "$2"
echo "test screen ok"
