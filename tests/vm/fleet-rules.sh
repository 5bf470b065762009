#!/bin/sh
# SPDX-License-Identifier: MIT
# fleet-rules.sh (in the VM of tests/vm/fleet.test): the all-pairs fleet rules with their DEFAULT limits
# (a pair is bad below 93 % of the best pair's bandwidth or above 2.1x
# the best pair's p99 latency, as ClusterKit) judge measured pairs.
# Three agents in this one VM, each on its own rxe device over its own
# macvlan NIC (fl1..fl3 on the VM's NIC, bridge mode: a packet from one
# to another leaves through the sender's queue, where netem shapes it).
# Every NIC sends at 1 Mb/s with 100 ms added (netem: a queue, no
# drops), so the shaper, not the emulation, sets each pair's rate and
# latency floor; with three hosts the pairs run one at a time (one per
# round), so no pair shares the CPUs with another.
#  1. the path fl1 - fl2 at 0.5 Mb/s: the 93 % rule names that pair, a
#     bad path, no bad host; the other two pairs good;
#  2. the path fl1 - fl3 with 250 ms more each way: the 2.1x rule names
#     that pair, a bad path; the other two good.
# The oracle is the shaper: no pair can beat its NICs' rate, and no
# latency (half a ping-pong's round trip) can be below netem's delay;
# the limits are accept's own defaults (the JSON says which were used).
# The absolute line (a share of a device's data rate, meaningless for a
# shaped NIC) is put below every shaped rate: --line-rate 0.001 Gb/s (its
# least) and test_accept_pct 40 in a config file.
# Why these figures: a pair's bandwidth is timed from the first post to
# the last acknowledgement, so a path's round trip is part of it: 45
# messages of 32 KiB (12.5 s at 1 Mb/s) keep the delayed path (0.7 s
# round trip) at about 96 % of the others (0.2 s); rxe keeps 128 packets
# of 1 KiB in flight and retransmits after about 1 s, which bounds the
# round trip (0.7 s at 1 Mb/s is 87 KB in flight) and the message size
# (64 KiB messages on the half-rate path ran at 27 % of its rate).
# The guests' stalls add to every latency: the 100 ms floor keeps a
# healthy pair's p99 within 2.1x of the best one's on a quiet machine;
# under a load average of 18 they did not hold (docs/tests.md).
# vm-timeout: 720
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
IBC=$IBCONSOLE
ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
[ -n "$ip4" ] || fail "no IPv4 address on $RXE_VM_NETDEV"
t0=$(date +%s)
N=3
RATE=1000 DELAY=100
nic_ip() { echo "192.168.79.$1"; }
nic_mac() { printf '52:54:00:79:00:%02x' "$1"; }

# the sysctls changed below, restored on exit (later scripts share the VM)
saved=
for s in all default; do
	for k in accept_local rp_filter arp_ignore; do
		saved="$saved $s/$k=$(cat "/proc/sys/net/ipv4/conf/$s/$k")"
	done
done
pids=
undo() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	for k in $(seq 1 $N); do
		rdma link delete "rxe$k" 2>/dev/null || true
		ip link del "fl$k" 2>/dev/null || true
		ip rule del pref $((790 + k)) 2>/dev/null || true
		ip route flush table $((790 + k)) 2>/dev/null || true
	done
	for kv in $saved; do echo "${kv#*=}" > "/proc/sys/net/ipv4/conf/${kv%=*}"; done
}
trap undo EXIT

# fl1..flN: a macvlan each with its address and rxe device. What one
# sends to another's address is local to the kernel and would go through
# lo, where no rxe device listens: a rule per NIC sends it out of the
# sender's own NIC (its own routing table), and the macvlan bridge hands
# it to the other, as a switch would. Fixed neighbour entries: no ARP.
for k in $(seq 1 $N); do
	ip link add "fl$k" link "$RXE_VM_NETDEV" address "$(nic_mac "$k")" type macvlan mode bridge ||
		fail "ip link add fl$k: no macvlan"
	ip addr add "$(nic_ip "$k")/24" dev "fl$k"
	ip link set "fl$k" up
done
for s in all default $(seq -f 'fl%g' 1 $N); do
	for kv in accept_local=1 rp_filter=0 arp_ignore=1; do
		echo "${kv#*=}" > "/proc/sys/net/ipv4/conf/$s/${kv%=*}" || fail "cannot set $kv on $s"
	done
done
for k in $(seq 1 $N); do
	for j in $(seq 1 $N); do
		[ "$j" = "$k" ] || ip neigh replace "$(nic_ip "$j")" lladdr "$(nic_mac "$j")" dev "fl$k" nud permanent
	done
	ip route add 192.168.79.0/24 dev "fl$k" table $((790 + k))
	ip rule add pref $((790 + k)) iif lo from "$(nic_ip "$k")" lookup $((790 + k))
	rdma link add "rxe$k" type rxe netdev "fl$k" || fail "rdma link add rxe$k on fl$k"
done
# the GID of each NIC's address (::ffff:192.168.79.K) in its rxe device
for k in $(seq 1 $N); do
	i=0
	until grep -qs "^0000:0000:0000:0000:0000:ffff:c0a8:4f0$k\$" "/sys/class/infiniband/rxe$k/ports/1/gids/"*; do
		i=$((i + 1))
		[ $i -le 50 ] || fail "rxe$k has no RoCE v2 GID for $(nic_ip "$k")"
		sleep 0.1
	done
done

echo "NICs and rxe devices up in $(($(date +%s) - t0)) s"

# shape A B KBIT MS: every NIC at RATE kbit/s with DELAY ms added; what
# flA sends to flB and flB to flA at KBIT with MS instead
shape() {
	for k in $(seq 1 $N); do
		tc qdisc del dev "fl$k" root 2>/dev/null || true
		base="netem delay ${DELAY}ms rate ${RATE}kbit limit 10000"
		peer=
		[ "$k" = "$1" ] && peer=$2
		[ "$k" = "$2" ] && peer=$1
		if [ -z "$peer" ]; then
			# shellcheck disable=SC2086 # base is a word list
			tc qdisc add dev "fl$k" root $base || fail "tc: no netem on fl$k"
			continue
		fi
		# shellcheck disable=SC2086
		tc qdisc add dev "fl$k" root handle 1: prio bands 3 priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 &&
			tc qdisc add dev "fl$k" parent 1:1 handle 10: $base &&
			tc qdisc add dev "fl$k" parent 1:3 handle 30: netem delay "${4}ms" rate "${3}kbit" limit 10000 &&
			tc filter add dev "fl$k" parent 1: protocol ip prio 1 u32 match ip dst "$(nic_ip "$peer")/32" flowid 1:3 ||
			fail "tc: cannot shape fl$k's path to fl$peer"
	done
	echo "shaped: every NIC ${RATE} kbit/s + ${DELAY} ms; fl$1 - fl$2 $3 kbit/s + $4 ms"
}

echo "s3cret-for-the-fleet" > secret
: > hosts
for k in $(seq 1 $N); do
	port=$((18800 + 2 * k))
	"$IBC" serve -d "rxe$k" --port "$port" --secret-file secret 2> "agent$k.log" &
	pids="$pids $!"
	echo "$ip4:$port" >> hosts
done
for k in $(seq 1 $N); do wait_listening "agent$k.log"; done
host() { echo "$ip4:$((18800 + 2 * $1))"; }
printf '# the absolute line below the shaped rates; the fleet rules as they are\ntest_accept_pct = 40\n' > line.conf
echo "set up: $N NICs, rxe devices and agents in $(($(date +%s) - t0)) s"
t0=$(date +%s)

# fleet NAME A B: accept --hosts with the default fleet limits into
# NAME.d; exit 1 (a bad pair); then the checks: the pair A-B alone is
# bad, a bad path, for the reason WHY (an ERE), within the shaper's
# bounds
fleet() {
	rc=0
	timeout 330 "$IBC" accept --hosts hosts --secret-file secret --config line.conf --line-rate 0.001 \
		-s 32K -n 45 --results "$1.d" > "$1.out" 2> "$1.err" || rc=$?
	cat "$1.out" "$1.err"
	[ "$rc" = 1 ] || fail "$1: accept --hosts exit $rc, want 1 (one bad pair)"
	echo "ran: $1: exit $rc at $(($(date +%s) - t0)) s"
	/usr/bin/python3 - "$1.d/accept.json" "$(host "$2")" "$(host "$3")" "$4" "$RATE" "$DELAY" "$5" "$6" <<'PY' ||
import json, re, sys
r = json.load(open(sys.argv[1]))
a, b, why = sys.argv[2], sys.argv[3], sys.argv[4]
rate, delay, prate, pdelay = (float(x) for x in sys.argv[5:9])
errs = []
def want(c, what):
    if not c: errs.append(what)
# the defaults judged, not a config file
want(r["fleet_bw_pct"] == 93 and r["fleet_lat_ratio"] == 2.1 and r["line_rate_gbps"] == 0.001, "limits %s %s" % (r["fleet_bw_pct"], r["fleet_lat_ratio"]))
want(r["rounds"] == 3 and r["pairs_per_round"] == 1 and len(r["pairs"]) == 3, "rounds %s" % r["rounds"])
want(r["bad_hosts"] == [] and r["bad_pairs"] == 1 and not r["passed"], "bad hosts %s, %s bad pairs" % (r["bad_hosts"], r["bad_pairs"]))
want([{x["a"], x["b"]} for x in r["bad_paths"]] == [{a, b}], "bad paths %s, want %s - %s" % (r["bad_paths"], a, b))
# 1024 of every 1082 bytes on the wire are payload (RoCE v2 headers)
for p in r["pairs"]:
    mine = {p["a"], p["b"]} == {a, b}
    kbit, ms = (prate, pdelay) if mine else (rate, delay)
    print("pair %s - %s: %s, %.6f Gb/s, median %.0f us, p99 %.0f us, shaped %g kbit/s + %g ms each way%s" %
          (p["a"], p["b"], p["verdict"], p["bw_gbps"] or 0, p["lat_median_us"] or 0, p["lat_p99_us"] or 0, kbit, ms,
           (": " + p["why"]) if p["verdict"] == "bad" else ""))
    want(p["error"] is None and p["bw_gbps"] and p["lat_p99_us"], "no result: %s" % p)
    if not (p["bw_gbps"] and p["lat_p99_us"]):
        continue
    want(p["bw_gbps"] <= kbit * 1e-6 * 1024 / 1082 * 1.02, "faster than its shaper: %s" % p)
    # half a write ping-pong's round trip, as perftest: at least one way's delay
    want(p["lat_p99_us"] >= ms * 1000, "faster than netem's delay: %s" % p)
    if mine:
        want(p["verdict"] == "bad" and p["retested"] and re.search(why, p["why"] or ""), "the path not named for %s: %s" % (why, p))
    else:
        want(p["verdict"] == "good", "a healthy pair judged bad: %s" % p)
for e in errs: print("FAILED:", e)
sys.exit(1 if errs else 0)
PY
		fail "$1 (above)"
	grep -Eq "^BAD PATH ($(host "$2") - $(host "$3")|$(host "$3") - $(host "$2")): " "$1.out" ||
		fail "$1: no BAD PATH line"
}

echo "# 1. the path fl1 - fl2 at half the rate: the 93 % rule"
shape 1 2 $((RATE / 2)) "$DELAY"
fleet half 1 2 "of the best pair's .*\(line 93 %\)" $((RATE / 2)) "$DELAY"

echo "# 2. the path fl1 - fl3 with 250 ms more each way: the 2.1x rule"
shape 1 3 "$RATE" $((DELAY + 250))
fleet delay 1 3 "^latency .*x the best pair's .*\(line 2\.1x\)" "$RATE" $((DELAY + 250))
echo "ok: fleet rules with their defaults: the half-rate path and the delayed path named in $(($(date +%s) - t0)) s"
