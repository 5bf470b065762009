#!/bin/bash
# SPDX-License-Identifier: MIT
# monitor-bench.sh [NPORTS [SECONDS [LEAVES PER SPINES]]] — the cost of
# monitoring: `ibconsole watch --json --interval 1` on NPORTS remote CA
# ports (--lid, default 1,000) of a generated ibsim fat tree (default 112
# leaves x 18 HCAs + 18 spines = 2,146 nodes, LIDs assigned by opensm as
# a real subnet has them) for SECONDS (default 60), measured two ways:
#   - from /proc: the process's user + system time over the run (as
#     /usr/bin/time reads it at exit), as a share of one core, and its
#     peak RSS;
#   - with callgrind: instructions of a run of 2 + K ticks minus those of
#     a run of 2 ticks, per port per tick (start-up and discovery cancel).
# Every record must list all NPORTS ports, read. Prints Markdown.
# IBCONSOLE=path/to/ibconsole  IBCONSOLE_BASE=older one (measured the
# same way, in the same run)  TICKS=K (default 4; 0: no callgrind).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/sim/simlib.sh"
. "$here/benchlib.sh"
sim_isolate "$@"
NP=${1:-1000} SECS=${2:-60} TICKS=${TICKS:-4}
IBC=${IBCONSOLE:-$here/../ibconsole}
BASE=${IBCONSOLE_BASE:-}
[ -x "$IBC" ] || sim_die "$IBC not built"
[ "$TICKS" = 0 ] || command -v valgrind >/dev/null || sim_die "valgrind not found — apt-get install valgrind"
[ -x /usr/bin/time ] || sim_die "/usr/bin/time not found — apt-get install time"

bench_fat_tree "${3:-112}" "${4:-18}" "${5:-18}"
# NPORTS CA LIDs but ours, as ibnetdiscover sees them from the switches
LIDS=$(sim_run timeout -k 2 120 ibnetdiscover 2>/dev/null | python3 -c '
import re, sys
n = int(sys.argv[1])
lids = sorted({int(m.group(2)) for m in (re.search(r"\"H-\w+\"\[1\]\(\w+\)\s+# \"([^\"]+)\" lid (\d+)", l) for l in sys.stdin)
               if m and m.group(1) != "H0-0"})
if len(lids) < n:
    sys.exit("only %d CA LIDs" % len(lids))
print(",".join("%d:1" % l for l in lids[:n]))' "$NP") || sim_die "not $NP CA LIDs in the fabric"
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)

proc_cost() # BIN: "cpu_s share_of_a_core" over SECS one-second ticks
{
	sim_run /usr/bin/time -f '%U %S %e %M' -o "$SIM_DIR/t" "$1" watch --json --interval 1 \
		--count "$SECS" --lid "$LIDS" >"$SIM_DIR/w.out" 2>"$SIM_DIR/w.err"
	case $? in 0|1) ;; *) sim_fail "$1 watch exited $(tail -1 "$SIM_DIR/w.err")" ;; esac
	python3 - "$SIM_DIR/w.out" "$NP" "$SECS" <<'PY' || sim_fail "$1: not every port in every record"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
n, secs = int(sys.argv[2]), int(sys.argv[3])
ok = len(recs) == secs and all(sum(1 for p in r["ports"] if p["remote"] and p["valid"]) == n for r in recs)
sys.exit(0 if ok else 1)
PY
	tail -1 "$SIM_DIR/t" | awk '{ printf "%.2f %.3f %.1f %d\n", $1 + $2, ($1 + $2) / $3 * 100, $3, $4 / 1024 }'
}
instr() # BIN COUNT: instructions of one run
{
	sim_run valgrind --tool=callgrind --callgrind-out-file="$SIM_DIR/cg.%p" "$1" watch --json \
		--interval 1 --count "$2" --lid "$LIDS" >/dev/null 2>"$SIM_DIR/cg.err"
	awk '/^summary:|^totals:/ { print $2; exit }' "$SIM_DIR"/cg.* 
	rm -f "$SIM_DIR"/cg.[0-9]*
}
per_port_tick() # BIN
{
	local a b
	a=$(instr "$1" 2) b=$(instr "$1" $((2 + TICKS)))
	awk -v a="$a" -v b="$b" -v n="$NP" -v k="$TICKS" 'BEGIN { printf "%.0f\n", (b - a) / k / n }'
}
echo "# Monitoring cost: \`watch --json --interval 1\` on $NP remote ports"
echo
echo "Written by \`$(basename "$0") $* \` (TICKS=$TICKS) on $(date -u +%Y-%m-%d), ibsim,"
echo "$(nproc) CPUs shared with other developers' builds and VMs (load average"
echo "$LOAD0 at the start). Fabric: fat tree of $NODES nodes, LIDs by opensm;"
echo "$NP remote CA ports by --lid (port 1) besides the local port and its"
echo "neighbour. CPU share: user + system time over the run's wall time,"
echo "as /proc reports them at exit; it includes the simulator shim"
echo "(umad2sim) the process loads, which a real HCA does not need."
echo "Instructions: callgrind, a run of $((2 + TICKS)) ticks minus one of 2, per port per tick."
echo
echo "| binary | CPU over the run | wall | share of one core | peak RSS | instructions per port per tick |"
echo "|---|---|---|---|---|---|"
for b in "$IBC" ${BASE:+"$BASE"}; do
	set -- $(proc_cost "$b")
	echo "| $b | $1 s | $3 s | $2 % | $4 MB | $([ "$TICKS" = 0 ] && echo — || per_port_tick "$b") |"
done
echo
echo "    $IBC watch --json --interval 1 --count $SECS --lid <the $NP CA LIDs>:1"
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
sim_result >&2
