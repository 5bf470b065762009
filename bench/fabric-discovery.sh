#!/bin/bash
# SPDX-License-Identifier: MIT
# fabric-discovery.sh [gen-fattree args...] — fabric discovery,
# `ibconsole fabric --json` against `ibnetdiscover`, on one generated
# ibsim fat tree (tests/topo/gen-fattree.py; default 2,146 nodes,
# `--leaves 224` for 4,274), LIDs and routes from opensm, which then
# keeps running as the subnet's SM, on another HCA than the tools
# (bench_sm in benchlib.sh; BENCH_SM=none: no SM after `opensm -o`, as
# before). ibnetdiscover asks the SA for nothing, but on a real subnet
# the SM's periodic sweeps share the fabric with it, and the sweep bench
# needs the SM anyway, so both benches measure the same subnet. ibsim
# and the SM run on one CPU, the tools on another (bench_pin), so a
# MAD's round trip crosses processors as on a wire: left to the
# scheduler, the ratio followed the machine's load instead (0.9 with both
# on one CPU, 0.27 on two). BENCH_PIN=none leaves them unpinned.
# Method (bench/benchlib.sh): one warm-up run each, then PAIRS (default
# 9) alternating pairs; the median and range of the pairwise ratios of
# wall time, CPU time and peak RSS; the MADs each tool sends
# (bench/madcount.c) and the simulator's CPU time per run (the floor);
# the load average before and after; and whether both find the
# same switches, HCAs and links. Prints Markdown; write it down with
#   bench/fabric-discovery.sh > bench/fabric-discovery.results
#   IBCONSOLE=path/to/ibconsole  PAIRS=9
#   BENCH_SM=none  BENCH_PIN=none  BENCH_CPUS="SIM_CPU TOOL_CPU" ("0 1")
#   IBCONSOLE_BASE=path/to/older/ibconsole: also PAIRS alternating pairs
#   of the older binary's `fabric --json` against IBCONSOLE's.
srcdir=$(cd "$(dirname "$0")/.." && pwd)
IBC=${IBCONSOLE:-$srcdir/ibconsole}
PAIRS=${PAIRS:-9}
BASE=${IBCONSOLE_BASE:-}
. "$srcdir/tests/sim/simlib.sh"
. "$srcdir/bench/benchlib.sh"
sim_isolate "$@"
ARGS="$*"	# the generator's arguments, before `set --` below reuses $@
[ -x "$IBC" ] || sim_die "$IBC not built — run make"
[ -z "$BASE" ] || [ -x "$BASE" ] || sim_die "$BASE not built"
[ -x /usr/bin/time ] || sim_die "/usr/bin/time not found — apt-get install time"
command -v ibnetdiscover >/dev/null || sim_die "ibnetdiscover not found — apt-get install infiniband-diags"
[ "$PAIRS" -ge 9 ] 2>/dev/null || sim_die "PAIRS=$PAIRS: at least 9 pairs, or noise passes for a finding"

TOPO=$(mktemp "${TMPDIR:-/tmp}/ibc-ft.XXXXXX") || sim_die mktemp
sim_at_exit 'rm -f "$TOPO"'
python3 "$srcdir/tests/topo/gen-fattree.py" "$@" >"$TOPO" || sim_die "gen-fattree.py failed"
SIM_IBSIM_ARGS="-N 8192 -S 1024 -P 65536" SIM_OPENSM_TIMEOUT=300 SIM_READY_TENTHS=1200
SIM_HOST=h-0000 sim_start "$TOPO"
bench_sm
bench_pin
bench_madcount_build

CMD_IBC="$IBC fabric --json"
CMD_REF="ibnetdiscover"
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
read -r MADS_IBC _ <<<"$(bench_mads ibc $CMD_IBC)"
read -r MADS_REF _ <<<"$(bench_mads ref $CMD_REF)"
bench_pairs "$PAIRS" ibc "$CMD_IBC" ref "$CMD_REF"
if [ -n "$BASE" ]; then
	bench_pairs "$PAIRS" new "$CMD_IBC" old "$BASE fabric --json"
	read -r MADS_OLD _ <<<"$(bench_mads old "$BASE" fabric --json)"
fi
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

# The same fabric found: switches, HCAs and links (each cable once).
FIND=$(python3 - "$SIM_DIR/ibc.out" "$SIM_DIR/ref.out" <<'PY'
import json, re, sys
s = json.load(open(sys.argv[1]))["summary"]
ours = (s["switches"], s["cas"], s["links"])
sw = ca = 0
links = set()
node = None
for line in open(sys.argv[2]):
    m = re.match(r'(Switch|Ca)\s+\d+\s+"[SH]-([0-9a-f]+)"', line)
    if m:
        node = m.group(2)
        if m.group(1) == "Switch": sw += 1
        else: ca += 1
        continue
    m = re.match(r'\[(\d+)\]\S*\s+"[SH]-([0-9a-f]+)"\[(\d+)\]', line)
    if m and node:
        a, b = (node, int(m.group(1))), (m.group(2), int(m.group(3)))
        links.add(tuple(sorted((a, b))))
theirs = (sw, ca, len(links))
print("identical" if ours == theirs else "DIFFERENT", "%d/%d/%d" % ours, "%d/%d/%d" % theirs)
PY
)
set -- $FIND
SAME=$1 OURS=$2 THEIRS=$3

med() { bench_median "$SIM_DIR/$1.runs" "$2"; }
row() # NAME RUNS MADS
{
	awk -v n="$1" -v w="$(med "$2" 1)" -v r="$(med "$2" 2)" -v c="$(med "$2" 3)" \
		-v u="$(med "$2" 4)" -v m="$3" 'BEGIN {
		f = (c > 0) ? sprintf("%.1fx", w / c) : "below the 10 ms tick"
		printf "| %s | %.3f s | %.2f s | %.1f MB | %s | %.3f s (%.1f us/MAD) | %s |\n", n, w, u, r / 1024, m, c, (m ? c / m * 1e6 : 0), f }'
}
echo "# Discovery: \`ibconsole fabric --json\` vs \`ibnetdiscover\`"
echo
echo "Written by \`$(basename "$0")${ARGS:+ $ARGS}\` (PAIRS=$PAIRS) on $(date -u +%Y-%m-%d), ibsim,"
echo "rdma-core $(pkg-config --modversion libibnetdisc 2>/dev/null), $(nproc) CPUs shared with other"
echo "developers' builds and VMs: load average $LOAD0 before, $LOAD1 after."
echo "Only the pairwise ratios mean much on such a machine."
echo
echo "Fabric: gen-fattree.py${ARGS:+ $ARGS}. Switches/HCAs/links found: ibconsole $OURS,"
echo "ibnetdiscover $THEIRS: **$SAME**. LIDs and routes by \`opensm -o\`; $BENCH_SM_TEXT;"
echo "the tools run on $SIM_HOST; $BENCH_PINNING."
echo
echo "    A: $CMD_IBC"
echo "    B: $CMD_REF"
[ -z "$BASE" ] || echo "    old: $BASE fabric --json"
echo
echo "One warm-up run each, then $PAIRS pairs, A first in odd pairs, B in even;"
echo "MADs counted by bench/madcount.c; the floor is ibsim's CPU time during"
echo "the run (one single-threaded simulator answers every MAD)."
echo
echo "| tool | wall (median) | user+sys CPU | peak RSS | MADs sent | ibsim CPU = floor | wall / floor |"
echo "|---|---|---|---|---|---|---|"
row "ibconsole fabric --json" ibc "$MADS_IBC"
row "ibnetdiscover" ref "$MADS_REF"
[ -z "$BASE" ] || row "old ibconsole fabric --json" old "$MADS_OLD"
echo
echo "| pairwise ratio | median | range |"
echo "|---|---|---|"
bench_ratio_row "wall, ibconsole / ibnetdiscover" ibc ref 1
bench_ratio_row "user+sys CPU, ibconsole / ibnetdiscover" ibc ref 4
bench_ratio_row "peak RSS, ibconsole / ibnetdiscover" ibc ref 2
if [ -n "$BASE" ]; then
	bench_ratio_row "wall, new / old ibconsole" new old 1
	bench_ratio_row "user+sys CPU, new / old ibconsole" new old 4
	bench_ratio_row "peak RSS, new / old ibconsole" new old 2
fi
echo
echo "Every run (wall s, peak RSS kB, ibsim CPU s, user+sys CPU s, exit status):"
echo
for f in ibc ref ${BASE:+new old}; do
	echo "    $f: $(tr '\n' ';' <"$SIM_DIR/$f.runs")"
done
[ "$SAME" = identical ] || sim_fail "the fabrics found differ"
sim_result >&2
