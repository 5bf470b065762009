#!/bin/sh
# SPDX-License-Identifier: MIT
# in-vm.sh: the body of engine-vs-perftest.sh, run inside the VM.
set -eu
. "$(dirname "$0")/../tests/vm/vmlib.sh"
IBC=$IBCONSOLE
reps=${IBCONSOLE_BENCH_REPS:-5}
ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
gid=$(roce_v2_ipv4_index rxe0 1 "$ip4")
echo "BENCH clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource);" \
	"cpu flags: $(grep -m1 '^flags' /proc/cpuinfo | grep -o 'constant_tsc\|nonstop_tsc' | tr '\n' ' ')"
cd "$(mktemp -d)"
"$IBC" serve -p 18800 2> agent.log &
agent=$!
trap 'kill $agent 2>/dev/null || true' EXIT
sleep 0.5
pt() {
	tool=$1
	shift
	timeout 120 "$tool" -d rxe0 -x "$gid" -p 18801 "$@" > s.log 2>&1 &
	s=$!
	k=0
	until ss -ltn | grep -q ':18801 '; do k=$((k + 1)); [ $k -lt 100 ] || break; sleep 0.1; done
	timeout 120 "$tool" -d rxe0 -x "$gid" -p 18801 "$@" 127.0.0.1 > c.log 2>&1
	wait $s || true
	awk '/^ *#bytes/ {getline; print; exit}' c.log
}
ours() {
	key=$1
	shift
	timeout 120 "$IBC" test "$@" -p 18800 --json --no-record "$ip4" > o.json 2> o.err || [ $? = 1 ]
	python3 -c "import json; print(json.load(open('o.json'))['phases'][0]['$key'])"
}
: > bw.pt; : > bw.ours; : > lat.pt; : > lat.ours
i=0
while [ $i -lt "$reps" ]; do
	pt ib_write_bw -s 65536 -n 2000 --report_gbits | awk '{print $4}' >> bw.pt
	ours bw_avg_gbps bw -s 65536 -n 2000 >> bw.ours
	pt ib_send_lat -s 2 -n 2000 | awk '{print $5}' >> lat.pt
	ours lat_median_us lat --op send -s 2 -n 2000 >> lat.ours
	i=$((i + 1))
done
python3 - <<'PY'
import statistics as st
def rd(f): return [float(x) for x in open(f).read().split()]
bp, bo, lp, lo = rd("bw.pt"), rd("bw.ours"), rd("lat.pt"), rd("lat.ours")
print("BENCH write bw 64 KiB  Gb/s: perftest %s  ibconsole %s" % (bp, bo))
print("BENCH send lat 2 B median us: perftest %s  ibconsole %s" % (lp, lo))
print("BENCH RATIO write_bw_64k = %.3f (goal >= 1.0)" % (st.median(bo) / st.median(bp)))
print("BENCH RATIO send_lat_2b  = %.3f (goal <= 1.0)" % (st.median(lo) / st.median(lp)))
PY
