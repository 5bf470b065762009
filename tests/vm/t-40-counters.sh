#!/bin/sh
# SPDX-License-Identifier: MIT
# t-40-counters.sh: while perftest moves data over rxe0, `ibconsole watch`
# shows packet deltas and rates that agree with the packets the test
# implies (messages x ceil(size / MTU)) and with rxe's own hw_counters;
# any error counter that moves (retransmissions under emulation do
# happen) is named, and the exit status follows the verdicts shown.
set -u
# shellcheck source=tests/vm/vmlib.sh
. "$VM_TESTS_DIR/vmlib.sh"

dev=rxe0
P=/sys/class/infiniband/$dev/ports/1
ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
idx=$(roce_v2_ipv4_index "$dev" 1 "$ip4")
[ -n "$idx" ] || fail "no RoCE v2 GID for $ip4 on $dev"
size=65536 iters=300 tcp_port=18517
mtu=$(ibv_devinfo -d "$dev" -i 1 | awk '/active_mtu/ {print $2; exit}')
[ -n "$mtu" ] || fail "no active_mtu from ibv_devinfo"
per_msg=$(( (size + mtu - 1) / mtu ))
implied=$((iters * per_msg))
echo "active MTU $mtu: $iters x $size B = $implied data packets implied"

s0=$(cat "$P/hw_counters/sent_pkts")
"$IBCONSOLE" watch --json --interval 1 -d "$dev" > watch.jsonl 2> watch.err &
wpid=$!
trap 'kill "$wpid" "${spid:-}" 2>/dev/null' EXIT
trap 'exit 1' HUP INT TERM
n=0
until [ -s watch.jsonl ]; do	# the first record: watch runs
	n=$((n + 1))
	[ "$n" -le 60 ] && kill -0 "$wpid" 2>/dev/null ||
		{ cat watch.err; fail "ibconsole watch printed nothing"; }
	sleep 0.5
done

args="-d $dev -x $idx -s $size -n $iters --report_gbits -p $tcp_port"
# shellcheck disable=SC2086
perftest_pair 120 "$tcp_port" ib_write_bw $args
cat client.log
implied=$((implied * perftest_runs))	# a repeated run moved its packets too
# two more records after the traffic stopped (20 s at most)
n0=$(wc -l < watch.jsonl) n=0
while [ "$(wc -l < watch.jsonl)" -lt $((n0 + 2)) ]; do
	n=$((n + 1))
	[ "$n" -le 200 ] || { cat watch.err; fail "watch wrote no record for 20 s"; }
	sleep 0.1
done
kill -INT "$wpid"
wait "$wpid"
wrc=$?
s1=$(cat "$P/hw_counters/sent_pkts")
echo "rxe hw_counters sent_pkts: $s0 -> $s1 (+$((s1 - s0)))"
cat watch.err

/usr/bin/python3 - watch.jsonl "$implied" "$((s1 - s0))" "$wrc" <<'PY' || fail "watch disagrees with the packets perftest moved"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
implied, sysfs, wrc = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
bad = 0
def ctr(p, name):
    for c in p["counters"]:
        if c["name"] == name:
            return c
    return None
sent = rcvd = 0
peak = 0.0
for r in recs:
    p = r["ports"][0]
    assert p["source"] == "sysfs" and "hw_counters" in p["mode"], p["mode"]
    c = ctr(p, "sent_pkts")
    d = c["delta"] or 0
    sent += d
    rcvd += ctr(p, "rcvd_pkts")["delta"] or 0
    if c["per_s"] is not None:
        # the rate is the delta over the interval actually measured
        if abs(c["per_s"] * p["interval_s"] - d) > 1 + 1e-6 * d:
            print("FAIL: rate %s x %s s != delta %s" % (c["per_s"], p["interval_s"], d)); bad += 1
        peak = max(peak, c["per_s"])
        if p["tx_pps"] is None or abs(p["tx_pps"] - c["per_s"]) > 1e-6:
            print("FAIL: tx_pps %s != sent_pkts rate %s" % (p["tx_pps"], c["per_s"])); bad += 1
    for e in p["counters"]:
        if e["class"] == "error" and e["delta"]:
            print("note: record %d: error counter %s +%s" % (r["seq"], e["name"], e["delta"]))
    if p["verdict"]["level"] != "ok":
        print("note: record %d verdict %s: %s" % (r["seq"], p["verdict"]["level"], p["verdict"]["text"]))
act = any(r["ports"][0]["verdict"]["level"] == "act" for r in recs)
# stopped with SIGINT: it dies of it after its clean-up, as a shell expects
if wrc != 130:
    print("FAIL: exit status %d after SIGINT, want 130 (act shown: %s)" % (wrc, act)); bad += 1
print("watch: %d records, sent_pkts deltas sum %d, rcvd_pkts %d, peak %.0f pkt/s; implied %d data packets; sysfs +%d"
      % (len(recs), sent, rcvd, peak, implied, sysfs))
# watch started before s0 was read... no: s0 first, then watch's baseline
if sent > sysfs:
    print("FAIL: watch counted %d sent packets, more than sysfs saw (%d)" % (sent, sysfs)); bad += 1
# every data packet plus its ACKs (rxe loops both back through rxe0):
# at least the implied count, and not a factor off (x4, x16)
if not (implied <= sent <= 1.5 * implied + 200):
    print("FAIL: sent_pkts deltas %d not within [%d, %d]" % (sent, implied, 1.5 * implied + 200)); bad += 1
if not (implied <= rcvd <= 1.5 * implied + 200):
    print("FAIL: rcvd_pkts deltas %d not within [%d, %d]" % (rcvd, implied, 1.5 * implied + 200)); bad += 1
if peak <= 0:
    print("FAIL: no packet rate while perftest ran"); bad += 1
sys.exit(1 if bad else 0)
PY
echo "ok: watch's packet deltas and rates agree with perftest and hw_counters"
