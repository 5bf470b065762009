#!/bin/sh
# SPDX-License-Identifier: MIT
# in-vm.sh: the body of engine-vs-perftest.sh, run inside the VM.
# One agent ('serve') per ibconsole build under test, then REPS rounds (the
# first a warm-up, left out of the figures); in every round each metric
# runs once with perftest and once with every build, the order rotated
# by one place per round, so each tool goes first in turn.
set -eu
. "$(dirname "$0")/../tests/vm/vmlib.sh"
reps=${IBCONSOLE_BENCH_REPS:-10}
# builds under test: NAME=PATH ... (default: the one in the build tree)
variants=${IBCONSOLE_BENCH_VARIANTS:-ibconsole=$IBCONSOLE}
# builds that also run the bandwidth check (default: all)
bw_variants=${IBCONSOLE_BENCH_BW_VARIANTS:-}
metrics=${IBCONSOLE_BENCH_METRICS:-send_lat write_lat read_lat ud_send_lat write_bw}
ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
gid=$(roce_v2_ipv4_index rxe0 1 "$ip4")
echo "BENCH clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource);" \
	"cpu flags: $(grep -m1 '^flags' /proc/cpuinfo | grep -o 'constant_tsc\|nonstop_tsc' | tr '\n' ' ');" \
	"$(ib_send_lat --version 2>&1 | head -1)"
# Where the two ends run: both tools alike, the initiator on one vCPU and
# the responder on the other (IBCONSOLE_BENCH_PIN="CLIENT SERVER", "none"
# for the scheduler's choice), so that neither tool gets a better
# placement than the other. Either tool's runs still fall in one of two
# latency clusters (about 12 and 20 us under TCG) with or without it.
pin=${IBCONSOLE_BENCH_PIN:-0 1}
if [ "$pin" = none ]; then
	pin_c= pin_s=
else
	pin_c="taskset -c ${pin% *}" pin_s="taskset -c ${pin#* }"
fi
PT_CLIENT_WRAP=$pin_c PT_SERVER_WRAP=$pin_s
echo "BENCH ends placed: initiator '${pin_c:-any}', responder '${pin_s:-any}'"
dir=$(mktemp -d)
cd "$dir"
echo "BENCH runs in $dir/runs.txt"
agents=
trap 'for a in $agents; do kill $a 2>/dev/null || true; done' EXIT
port=18800
names=
for v in $variants; do
	name=${v%%=*} bin=${v#*=}
	# shellcheck disable=SC2086 # a command prefix, split on purpose
	$pin_s "$bin" serve -p $port 2> "agent-$name.log" &
	agents="$agents $!"
	wait_listening "agent-$name.log"
	eval "port_$name=$port bin_$name=\$bin"
	names="$names $name"
	port=$((port + 10))	# the agent uses port + 1 too (TCP baseline)
done

# metric -> perftest program and options, ibconsole options, JSON key
pt_args() {
	case $1 in
	send_lat) echo "ib_send_lat -s 2 -n 1000" ;;
	write_lat) echo "ib_write_lat -s 2 -n 1000" ;;
	read_lat) echo "ib_read_lat -s 2 -n 1000" ;;
	ud_send_lat) echo "ib_send_lat -c UD -s 2 -n 1000" ;;
	write_bw) echo "ib_write_bw -s 65536 -n 2000 --report_gbits" ;;
	esac
}
our_args() {
	case $1 in
	send_lat) echo "lat --op send -s 2 -n 1000" ;;
	write_lat) echo "lat --op write -s 2 -n 1000" ;;
	read_lat) echo "lat --op read -s 2 -n 1000" ;;
	ud_send_lat) echo "lat --op send -c UD -s 2 -n 1000" ;;
	write_bw) echo "bw -s 65536 -n 2000" ;;
	esac
}

# The cycle counter against CLOCK_MONOTONIC at the start (and at the end):
# perftest's latency is read in cycles (--report-cycles) and turned into
# microseconds with the counter's rate over the whole bench, not with the
# few-ms calibration each perftest run makes for itself, which scatters by
# several percent on a loaded emulated host (and now and then fails)
"$IBCONSOLE_BENCH_TSCRATE" > "$dir/tsc0"
proc_mhz=$(awk -F': ' '/^cpu MHz/ {print $2; exit}' /proc/cpuinfo)
echo "BENCH cpu MHz in /proc/cpuinfo: $proc_mhz"
# A latency median above this (µs) is a starved run, not a loop's
# figure: with both ends busy-polling on the VM's 2 vCPUs, rxe's deferred
# work waits for the guest's 4 ms timer tick when the loaded host runs the
# vCPUs late (medians of 3.9-4.0 ms, either tool). Such a run is run
# again (3 tries, whichever tool), said so, and counted per tool below,
# so a tool that starves more often than the other still shows.
starved_us=${IBCONSOLE_BENCH_STARVED_US:-1000}
: > starved.txt

# pt METRIC: one perftest run on rxe0, prints t_typical in cycles (lat) or
# the BW average
pt() {
	set -- $(pt_args "$1")
	prog=$1
	shift
	case $prog in
	*_bw) col=4 ;;
	*) col=5; set -- "$@" --report-cycles ;;
	esac
	# under TCG perftest's cycle-counter calibration now and then gives
	# "inf": such a run is run again (3 tries), and said so on stderr
	try=0
	while :; do
		try=$((try + 1))
		perftest_pair 120 18799 "$prog" -d rxe0 -x "$gid" -p 18799 "$@" >&2
		[ "$pt_rc$pt_src" = 00 ] || { cat client.log server.log >&2; fail "$prog: client $pt_rc, server $pt_src"; }
		val=$(awk -v c=$col '/^ *#bytes/ {h = 1; next} h && $1 ~ /^[0-9]+$/ {print $c; exit}' client.log)
		case $val in
		*[0-9]*) case $val in *inf* | *nan*) ;; *) break ;; esac ;;
		esac
		echo "BENCH perftest $prog gave '$val' (try $try)" >&2
		[ $try -lt 3 ] || break
	done
	echo "$val"
}
# ours NAME METRIC: one run of build NAME against its own agent
ours() {
	eval "bin=\$bin_$1 port=\$port_$1"
	case $2 in
	*_bw) key=bw_avg_gbps ;;
	*) key=lat_median_us ;;
	esac
	rc=0
	# shellcheck disable=SC2046
	timeout 120 $pin_c "$bin" test $(our_args "$2") -p "$port" --json --no-record "$ip4" > o.json 2> o.err || rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || { cat o.err; fail "$1 $2: exit $rc"; }
	python3 -c "import json; print(json.load(open('o.json'))['phases'][0]['$key'])"
}

tools="perftest$names"
ntools=$(echo $tools | wc -w)
r=0
while [ $r -lt "$reps" ]; do
	# this round's order: the tool list rotated by r places
	k=$((r % ntools))
	order=$tools
	j=0
	while [ $j -lt $k ]; do
		order="$(echo $order | cut -d' ' -f2-) $(echo $order | cut -d' ' -f1)"
		j=$((j + 1))
	done
	for m in $metrics; do
		for t in $order; do
			if [ $m = write_bw ] && [ $t != perftest ] && [ -n "$bw_variants" ]; then
				case " $bw_variants " in *" $t "*) ;; *) continue ;; esac
			fi
			try=1
			while :; do
				if [ $t = perftest ]; then v=$(pt $m); else v=$(ours $t $m); fi
				[ -n "$v" ] || fail "round $r: $t $m gave no figure"
				case $t/$m in
				perftest/*_lat) unit=cycles us=$(awk -v v="$v" -v f="$proc_mhz" 'BEGIN {print v / f}') ;;
				*_lat) unit= us=$v ;;
				*) unit= us=0 ;;
				esac
				echo "BENCH RUN round=$r metric=$m tool=$t value=$v $unit"
				[ "$(awk -v u="$us" -v l="$starved_us" 'BEGIN {print (u > l) ? 1 : 0}')" = 1 ] && [ $try -lt 3 ] || break
				echo "BENCH STARVED round=$r metric=$m tool=$t: median $us us > $starved_us us, run again (try $try)"
				echo "$m $t" >> starved.txt
				try=$((try + 1))
			done
			echo "$r $m $t $v" >> runs.txt
		done
	done
	r=$((r + 1))
done
"$IBCONSOLE_BENCH_TSCRATE" > "$dir/tsc1"
python3 - "$dir/runs.txt" "$dir/tsc0" "$dir/tsc1" "$proc_mhz" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
import math
(c0, n0), (c1, n1) = [map(int, open(f).read().split()) for f in sys.argv[2:4]]
mhz = (c1 - c0) * 1e3 / (n1 - n0)     # cycles per microsecond over the bench
print("BENCH cycle counter: %.3f MHz over %.0f s (perftest latency cycles / this)" % (mhz, (n1 - n0) / 1e9))
# the kernel's own calibration at boot is the independent check of the rate
if abs(mhz / float(sys.argv[4]) - 1) > 0.05:
    sys.exit("BENCH FAIL: the cycle counter's rate %.3f MHz is not /proc/cpuinfo's %s MHz within 5 %%: "
             "bench/tscrate.c reads the wrong clock or unit" % (mhz, sys.argv[4]))
val = {}
for r, m, t, v in rows:
    v = float(v)
    if t == "perftest" and m.endswith("_lat"):
        v /= mhz
    if int(r) > 0:      # round 0: warm-up
        val[(int(r), m, t)] = v
for k in [k for k, v in val.items() if not math.isfinite(v) or v <= 0]:
    print("BENCH round %d %s %s gave %s: that round of %s is left out" % (k + (val[k], k[1])))
    for kk in [kk for kk in val if kk[0] == k[0] and kk[1] == k[1]]:
        del val[kk]
starved = [l.split() for l in open("starved.txt")]
for m, t in sorted(set(map(tuple, starved))):
    print("BENCH %s %s: %d starved runs run again" % (m, t, starved.count([m, t])))
metrics = sorted({m for _, m, _ in val}, key=lambda m: [x[1] for x in rows].index(m))
tools = []
for _, _, t, _ in rows:
    if t not in tools:
        tools.append(t)
for m in metrics:
    rounds = sorted({r for r, mm, t in val if mm == m and t == "perftest"})
    pt = [val[(r, m, "perftest")] for r in rounds]
    print("BENCH %s perftest: %s (median %.3f)" % (m, " ".join("%.4g" % x for x in pt), st.median(pt)))
    for t in tools[1:]:
        if (rounds[0], m, t) not in val:
            continue
        o = [val[(r, m, t)] for r in rounds]
        q = [a / b for a, b in zip(o, pt)]
        print("BENCH %s %s: %s (median %.3f)" % (m, t, " ".join("%g" % x for x in o), st.median(o)))
        print("BENCH RATIO %s %s/perftest pairs=%d median=%.3f range=%.3f-%.3f" %
              (m, t, len(q), st.median(q), min(q), max(q)))
PY
