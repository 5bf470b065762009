#!/bin/bash
# SPDX-License-Identifier: MIT
# sweep-bench.sh [LEAVES HCAS_PER_LEAF SPINES] — the fabric error sweep,
# `ibconsole errors --json` against `ibqueryerrors`, on one generated
# ibsim fat tree (default 112 leaves x 18 HCAs + 18 spines = 2,146 nodes,
# 8,064 ports; more than 2,000 nodes needs a bigger ibsim, which this
# script asks for), LIDs and routes from opensm, which then keeps running
# as the subnet's SM (bench_sm in benchlib.sh). The reference tool runs
# as users run it on a real subnet: plain `ibqueryerrors`, which first
# asks the SA for the SL to every destination. BENCH_SM=none measures
# the older way instead, no SM after `opensm -o`: then plain
# ibqueryerrors reads no counter at all ("Query SA failed", exit 0), so
# that setting runs `ibqueryerrors --skip-sl`. ibconsole asks the SA
# for nothing (its PMA queries go on SL 0, as with --skip-sl), so the SL
# look-up is a cost only the reference pays; users pay it too.
# ibsim and the SM run on one CPU, the tools on another (bench_pin), so a
# MAD's round trip crosses processors as on a wire: left to the
# scheduler, the ratio followed the machine's load instead (0.6 with both
# on one CPU, 0.15 on two). BENCH_PIN=none leaves them unpinned.
# Method (bench/benchlib.sh): one warm-up run each, then PAIRS (default
# 9) alternating pairs, each tool first in every other pair; the median
# and range of the pairwise ratios of wall time and of peak RSS; the
# MADs each tool sends (counted by bench/madcount.c, the same way for
# both) and the simulator's CPU time per run, which is the floor no
# client can beat on one single-threaded ibsim; the load average before
# and after; and whether both list the same ports.
#   Prints a Markdown section (bench/RESULTS.md quotes it); OUT=FILE also
#   writes it there.  IBCONSOLE=path/to/ibconsole  PAIRS=9
#   BENCH_SM=none  BENCH_PIN=none  BENCH_CPUS="SIM_CPU TOOL_CPU" ("0 1")
#   IBCONSOLE_BASE=path/to/older/ibconsole: also PAIRS alternating pairs
#   of the older binary's `errors --json` against IBCONSOLE's.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/sim/simlib.sh"
. "$here/benchlib.sh"
sim_isolate "$@"
LEAVES=${1:-112} PER=${2:-18} SPINES=${3:-18}
PAIRS=${PAIRS:-9}
IBC=${IBCONSOLE:-$here/../ibconsole}
OUT=${OUT:-}
BASE=${IBCONSOLE_BASE:-}
[ -x "$IBC" ] || sim_die "$IBC not built"
[ -z "$BASE" ] || [ -x "$BASE" ] || sim_die "$BASE not built"
command -v ibqueryerrors >/dev/null || sim_die "ibqueryerrors not found — apt-get install infiniband-diags"
[ -x /usr/bin/time ] || sim_die "/usr/bin/time not found — apt-get install time"
[ "$PAIRS" -ge 9 ] 2>/dev/null || sim_die "PAIRS=$PAIRS: at least 9 pairs, or noise passes for a finding"

bench_fat_tree "$LEAVES" "$PER" "$SPINES"
bench_sm
bench_pin
bench_madcount_build

# Findings to find: HCA and switch ports, one above act.
bench_findings

CMD_IBC="$IBC errors --json"
CMD_IQE="ibqueryerrors"
[ "$BENCH_SM_HOST" != none ] || CMD_IQE="ibqueryerrors --skip-sl"
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
read -r MADS_IBC RECV_IBC <<<"$(bench_mads ibc $CMD_IBC)"
read -r MADS_IQE RECV_IQE <<<"$(bench_mads iqe $CMD_IQE)"

bench_pairs "$PAIRS" ibc "$CMD_IBC" iqe "$CMD_IQE"
RC_IBC=$(cat "$SIM_DIR/ibc.rc") RC_IQE=$(cat "$SIM_DIR/iqe.rc")
if [ -n "$BASE" ]; then
	bench_pairs "$PAIRS" new "$CMD_IBC" old "$BASE errors --json"
	read -r MADS_OLD RECV_OLD <<<"$(bench_mads old "$BASE" errors --json)"
fi
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

FIND=$(python3 - "$SIM_DIR/ibc.out" "$SIM_DIR/iqe.out" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
ours = sorted((p["node_desc"], p["port"]) for p in d["listed"])
theirs, node = [], None
for line in open(sys.argv[2]):
    m = re.match(r'\s*Errors for (?:0x[0-9a-f]+ )?"([^"]*)"', line)
    if m:
        node = m.group(1); continue
    m = re.match(r'\s*GUID 0x[0-9a-f]+ port (\d+):', line)
    if m and node is not None:
        theirs.append((node, int(m.group(1))))
theirs.sort()
print("identical" if ours == theirs else "DIFFERENT", len(ours), len(theirs),
      d["ports_swept"], " ".join("%s/%d" % x for x in ours))
PY
)
set -- $FIND
SAME=$1 NOURS=$2 NTHEIRS=$3 PORTS=$4
shift 4
LIST="$*"

# medians and ratios: column 1 wall s, 2 peak RSS kB, 3 ibsim CPU s
med() { bench_median "$SIM_DIR/$1.runs" "$2"; }
row() # NAME RUNS MADS: wall, RSS, ibsim CPU (the floor), wall / floor
{
	local w r c
	w=$(med "$2" 1) r=$(med "$2" 2) c=$(med "$2" 3)
	awk -v n="$1" -v w="$w" -v r="$r" -v c="$c" -v m="$3" -v u="$(med "$2" 4)" 'BEGIN {
		f = (c > 0) ? sprintf("%.1fx", w / c) : "below the 10 ms tick"
		printf "| %s | %.3f s | %.3f s | %.1f MB | %s | %.3f s (%.1f us/MAD) | %s |\n", n, w, u, r / 1024, m, c, (m ? c / m * 1e6 : 0), f }'
}
{
	echo "# Sweep: \`ibconsole errors --json\` vs \`$CMD_IQE\`"
	echo
	echo "Written by \`$(basename "$0") $LEAVES $PER $SPINES\` (PAIRS=$PAIRS) on $(date -u +%Y-%m-%d),"
	echo "$(nproc) CPUs shared with other developers' builds and VMs: load average"
	echo "$LOAD0 before, $LOAD1 after (1, 5, 15 min). Only the pairwise ratios mean"
	echo "much on such a machine; single wall times move with the load."
	echo
	echo "Fabric: fat tree ${LEAVES}x${PER} + $SPINES spines, $NODES nodes, $PORTS ports swept;"
	echo "LIDs and routes by \`opensm -o\`; $BENCH_SM_TEXT; the tools run on $SIM_HOST;"
	echo "$BENCH_PINNING."
	echo "Findings: $SAME ($NOURS ports listed by ibconsole, $NTHEIRS by ibqueryerrors: $LIST)."
	echo "Exit status: ibconsole $RC_IBC (1 = a port above act), ibqueryerrors $RC_IQE."
	echo
	echo "Commands (each under \`/usr/bin/time -f %M\` for the peak RSS, ibsim's"
	echo "CPU time read from /proc before and after each run):"
	echo
	echo "    A: $CMD_IBC"
	echo "    B: $CMD_IQE"
	[ -z "$BASE" ] || echo "    old: $BASE errors --json"
	echo
	echo "One warm-up run each, then $PAIRS pairs, A first in odd pairs, B in even."
	echo "MADs: sent by the process through libibumad, counted by bench/madcount.c"
	echo "(all of them: discovery SMPs and PMA queries). The floor is the"
	echo "simulator's own CPU time during the run: one single-threaded ibsim"
	echo "answers every MAD, so no client can finish before it has."
	echo
	echo "| tool | wall (median) | user+sys CPU (median) | peak RSS (median) | MADs sent | ibsim CPU = floor | wall / floor |"
	echo "|---|---|---|---|---|---|---|"
	row "ibconsole errors --json" ibc "$MADS_IBC"
	row "$CMD_IQE" iqe "$MADS_IQE"
	[ -z "$BASE" ] || row "old ibconsole errors --json" old "$MADS_OLD"
	echo
	echo "| pairwise ratio | median | range |"
	echo "|---|---|---|"
	bench_ratio_row "wall, ibconsole / ibqueryerrors" ibc iqe 1
	bench_ratio_row "user+sys CPU, ibconsole / ibqueryerrors" ibc iqe 4
	bench_ratio_row "peak RSS, ibconsole / ibqueryerrors" ibc iqe 2
	if [ -n "$BASE" ]; then
		bench_ratio_row "wall, new / old ibconsole" new old 1
		bench_ratio_row "user+sys CPU, new / old ibconsole" new old 4
		bench_ratio_row "peak RSS, new / old ibconsole" new old 2
	fi
	echo
	echo "Every run (wall s, peak RSS kB, ibsim CPU s, user+sys CPU s, exit status):"
	echo
	for f in ibc iqe ${BASE:+new old}; do
		echo "    $f: $(tr '\n' ';' <"$SIM_DIR/$f.runs")"
	done
} >"$SIM_DIR/result.md"
cat "$SIM_DIR/result.md"
[ -z "$OUT" ] || cp "$SIM_DIR/result.md" "$OUT"
[ "$SAME" = identical ] || sim_fail "findings differ"
sim_result
