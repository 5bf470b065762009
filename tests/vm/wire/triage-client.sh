#!/bin/sh
# SPDX-License-Identifier: MIT
# wire/triage-client.sh (in VM B, 192.168.77.2, host name wire-b): the
# seven-step triage against the agent in VM A across a real wire.
#  1. a lossless wire: every step is judged with the peer's facts and all
#     three traffic runs complete; step 5 does not fail;
#  2. the console's triage screen (tmux, --peer) walks all steps there;
#  3. the wire's MTUs differ (9000 here, 1500 there): step 4 fails naming
#     both active MTUs (ibv_devinfo on each end, the oracle) and both
#     netdev MTUs, and is the conclusion;
#  4. a wire that drops only under load (faultlib.sh): step 5 fails with
#     retransmissions counted, the queue's own drop count moved, and the
#     conclusion says "lossless configuration".
set -eu
. "$(dirname "$0")/../vmlib.sh"
. "$(dirname "$0")/../faultlib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ibc-wire.XXXXXX") || fail "mktemp"
cd "$work"
hostname wire-b
nd=$RXE_VM_NETDEV
peer=192.168.77.1
export IBCONSOLE_RECORD_DIR=$work/rec XDG_STATE_HOME=$work/state
vm_tmux "$work/tmux" wire
trap 'vm_tmux_end; rm -rf "$work"' EXIT
wire_lossless "$nd"
wire_wait_agent "$peer"

# walk NAME SECONDS: `triage --peer` as JSON into NAME.json; exit 0 or 1
walk() {
	rc=0
	timeout 240 "$IBCONSOLE" triage --peer "$peer" -D "$2" --json > "$1.json" 2> "$1.err" || rc=$?
	cat "$1.err"
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "$1: triage exited $rc"
	echo "$1: triage exit $rc"
}
# judge NAME PYTHON: prints the walk, runs the checks (d: the JSON, s:
# steps by id, t: traffic runs, want(cond, what))
judge() {
	/usr/bin/python3 - "$1.json" "$2" <<'PY' || fail "$1 (above)"
import json, sys
d = json.load(open(sys.argv[1]))
s = {x["id"]: x for x in d["steps"]}
t = d["traffic"]
errs = []
def want(c, what):
    if not c: errs.append(what)
for x in d["steps"]: print("  %-12s %-4s %s" % (x["id"], x["state"], x["reason"]))
for k, v in t.items(): print("  traffic %-9s %s" % (k, {a: v.get(a) for a in ("bw_gbps", "broke_off", "retransmissions_delta", "retransmissions_moved", "bw_gbps_error") if v.get(a) is not None}))
print("  conclusion:", d["conclusion"]["text"])
exec(sys.argv[2])
for e in errs: print("FAILED:", e)
sys.exit(1 if errs else 0)
PY
}

echo "# 1. a lossless wire"
walk lossless 2
judge lossless '
want(d["facts"]["peer"]["host"] == "wire-a" and d["facts"]["peer"]["gid_type"] == "RoCE v2", "peer facts: %s" % d["facts"]["peer"])
want(s["gid"]["state"] == "pass" and any("the same kind on both ends: RoCE v2, IPv4" in l for l in s["gid"]["evidence"]), "gid: %s" % s["gid"])
want(s["mtu"]["state"] == "pass", "mtu")
want(t["one_qp"]["bw_gbps"] and t["one_qp"].get("sequence_gaps_delta") == 0, "one QP: %s" % t["one_qp"])
# emulated hosts on a busy machine may ack 16 QPs late enough to break a
# run; a lossless wire shows no sequence gap, whatever the retries
for k in ("eight_qps", "load"):
    want((t[k]["bw_gbps"] or t[k]["broke_off"]) and t[k].get("sequence_gaps_delta") == 0, "%s: %s" % (k, t[k]))
want(s["lossless"]["state"] != "fail", "lossless fails on a lossless wire")
want(s["more_qps"]["state"] != "n/a", "more_qps: %s" % s["more_qps"]["reason"])
'

echo "# 2. the triage screen with the peer's agent"
$T new-session -d -s ui -x 130 -y 45 "LC_ALL=C.UTF-8 $IBCONSOLE -d rxe0 --peer $peer 2> console.err; sleep 60"
wait_for 'peer: '"$peer" 60
$T send-keys -t ui T
wait_for "TRIAGE .* -> $peer" 10
wait_for 'CONCLUSION' 300
cap > screen.txt
cat screen.txt
grep -Eq "TRIAGE .*rxe0/1 -> $peer .*peer agent: yes" screen.txt || fail "the screen does not show the port and the peer's agent"
for row in 'ENV +environment +(pass|warn)' ' 1 +port rate +(pass|warn|info)' ' 2 +PCIe +n/a' \
	' 3 +GID +pass +index [0-9]+, RoCE v2, 192\.168\.77\.2' ' 4 +MTU +pass +1024 / 1024' \
	' 5 +lossless +(pass|warn)' ' 6 +NUMA' ' 7 +more QPs +(pass|info|warn) '; do
	grep -Eq -- "$row" screen.txt || fail "triage screen: no row /$row/"
done
grep -q 'needs --peer' screen.txt && fail "a traffic step still asks for a peer"
# Enter opens step 5's evidence: both runs with their numbers
for _ in 1 2 3 4 5; do $T send-keys -t ui n; done
$T send-keys -t ui Enter
wait_for '1 QP: [0-9.]+ Gb/s; retransmissions' 10
wait_for '8 QPs both ways(: [0-9.]+ Gb/s| broke off)' 10
$T send-keys -t ui q
echo "ok: the triage screen walked every step with the peer's agent"

echo "# 3. MTU 9000 here, $(cat "$IBCONSOLE_WIRE_DIR/a-netdev-mtu") there"
wire_mtu "$nd" 9000 4096
walk mtu 1
judge mtu "
here, there = '$(rxe_active_mtu)', '$(cat "$IBCONSOLE_WIRE_DIR/a-active-mtu")'
reason = 'active MTU %s here vs %s on the peer wire-a (netdev MTU 9000 here, $(cat "$IBCONSOLE_WIRE_DIR/a-netdev-mtu") on the peer)' % (here, there)
want(s['mtu']['state'] == 'fail' and s['mtu']['reason'] == reason, 'mtu: want %s' % reason)
want(d['conclusion']['step'] == 4, 'the conclusion is not step 4')
"
wire_mtu "$nd" 1500 1024

echo "# 4. a wire that drops under load"
wire_drop_under_load "$nd"
before=$(wire_dropped "$nd"); before=${before:-0}
walk load 3
after=$(wire_dropped "$nd"); after=${after:-0}
echo "load: the queue dropped $((after - before)) packets"
judge load "
want(s['lossless']['state'] == 'fail' and s['lossless']['reason'].startswith('fine idle (1 QP '), 'lossless: %s' % s['lossless']['reason'])
want(t['one_qp']['bw_gbps'], 'one QP did not complete')
want(t['load'].get('sequence_gaps_delta', 0) > 0, 'no sequence gap counted under load')
want(d['conclusion']['step'] == 5 and 'lossless configuration' in d['conclusion']['text'], 'conclusion')
want($after > $before, 'the queue dropped nothing')
"
wire_lossless "$nd"
echo "ok: wire triage: lossless walk and screen, MTU mismatch, drops under load"

echo "# 5. a path held to 2 Mb/s: a bandwidth run still ends within its duration and the drain bound"
# A 2 s write test at 64 KiB with 128 WRs in flight (8 MiB: 34 s at 2
# Mb/s, seconds even on the free emulated wire): WRs still outstanding
# 1 s after the duration are flushed. The run's own span (first post to
# last completion) stays within 2 s + 1 s, and its wall time within the
# free run's plus that second (and slack for a loaded host). The oracle
# for what it counts: the packets rxe0 sent (hw_counters), each completed
# write being ceil(65536 / active MTU) of them; those sent but not
# acknowledged at the flush (rxe keeps at most 128 unacknowledged PSNs a
# QP) are sent and not counted.
sp=/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts
ppm=$(((65536 + $(rxe_active_mtu) - 1) / $(rxe_active_mtu)))
# bwrun NAME: the run; NAME.json, its wall time in ms, packets sent
bwrun() {
	p0=$(cat "$sp") || fail "no $sp"
	t0=$(date +%s%N)
	rc=0
	/usr/bin/time -o "$1.cpu" -f '%e %U %S' \
		timeout 120 "$IBCONSOLE" test bw --op write -s 65536 -D 2 -q 1 -t 128 --no-record --json "$peer" \
		> "$1.json" 2> "$1.err" || rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	# the client's CPU time in ms: user (its own loops: polling rxe's
	# completion queues is a read of shared memory) and system (posts and
	# rxe's packet work run in the kernel)
	usr_ms=$(awk 'END { printf "%d", $2 * 1000 }' "$1.cpu")
	sys_ms=$(awk 'END { printf "%d", $3 * 1000 }' "$1.cpu")
	pk=$(($(cat "$sp") - p0))
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || { cat "$1.err"; fail "$1: test exited $rc"; }
	set -- "$1" $(/usr/bin/python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["phases"][0]; print(p["msgs"], int(p["time_s"] * 1000))' "$1.json") ||
		{ cat "$1.json" "$1.err"; fail "$1: no msgs in the record"; }
	msgs=$2 span=$3
	echo "$1: $ms ms wall, CPU $usr_ms ms user + $sys_ms ms system, span $span ms, $msgs writes completed ($((msgs * ppm)) packets), rxe0 sent $pk packets"
	[ "$msgs" -gt 0 ] || fail "$1: nothing completed"
	[ "$pk" -ge $((msgs * ppm)) ] || fail "$1: counted more writes than rxe0 sent packets for"
	[ "$pk" -le $((msgs * ppm + 128 + ppm)) ] ||
		fail "$1: rxe0 sent $((pk - msgs * ppm)) packets beyond the completed writes (at most 128 unacknowledged + one write)"
	[ "$span" -le 3500 ] || fail "$1: the run spanned $span ms: the drain is not bounded (2 s + 1 s grace)"
}
bwrun free
free_ms=$ms
tc qdisc replace dev "$nd" root tbf rate 2000kbit burst 32k limit 4000000 || fail "tc: no tbf on $nd"
bwrun shaped
wire_lossless "$nd"
[ "$ms" -le $((free_ms + 1000 + 8000)) ] ||
	fail "the shaped run took $ms ms, the free one $free_ms ms: the drain is not bounded (1 s grace)"
# a write every 262 ms at 2 Mb/s: the engine sleeps between them instead
# of polling a core away for the whole run (the free run polls all along:
# its user time is about its span)
[ $((usr_ms * 4)) -le "$span" ] ||
	fail "the shaped run used $usr_ms ms of user CPU in its $span ms: the engine spins on a path that moves nothing"
echo "ok: a shaped run ends within its duration and the 1 s drain bound; its count within rxe0's sent packets"
