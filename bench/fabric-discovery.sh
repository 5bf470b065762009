#!/bin/bash
# SPDX-License-Identifier: MIT
# Fabric discovery on a generated fat tree (tests/topo/gen-fattree.py,
# default 2,146 nodes) under ibsim: wall time and peak RSS of
# `ibconsole fabric` beside ibnetdiscover and iblinkinfo on the same
# fabric, RUNS runs each, medians, as ratios against ibnetdiscover.
#
#   bench/fabric-discovery.sh [RUNS] [gen-fattree args...] > bench/fabric-discovery.results
#   IBCONSOLE_BASE=path/to/older/ibconsole: also `fabric --json` of both
#   binaries alternating (after one untimed warm-up each), RUNS pairs,
#   with the median and range of the pairwise new / old ratio.
srcdir=$(cd "$(dirname "$0")/.." && pwd)
IBCONSOLE=${IBCONSOLE:-$srcdir/ibconsole}
RUNS=${1:-5}
shift 2>/dev/null
[ -x "$IBCONSOLE" ] || { echo "ERROR: $IBCONSOLE not built — run make" >&2; exit 99; }
[ -x /usr/bin/time ] || { echo "ERROR: /usr/bin/time not found — apt-get install time" >&2; exit 99; }
. "$srcdir/tests/sim/simlib.sh"
sim_isolate "$RUNS" "$@"

TOPO=$(mktemp "${TMPDIR:-/tmp}/ibc-ft.XXXXXX") || exit 99
python3 "$srcdir/tests/topo/gen-fattree.py" "$@" >"$TOPO" || sim_die "gen-fattree.py failed"
SIM_IBSIM_ARGS="-N 8192 -S 1024 -P 65536" SIM_OPENSM_TIMEOUT=300 SIM_READY_TENTHS=1200
export SIM_IBSIM_ARGS SIM_OPENSM_TIMEOUT SIM_READY_TENTHS
SIM_HOST=h-0000 sim_start "$TOPO"
trap 'rm -f "$TOPO"; sim_stop' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# measure NAME CMD...: RUNS runs; prints "NAME median_s median_maxrss_kb"
measure()
{
	local name=$1 i
	shift
	: >"$SIM_DIR/runs"
	for i in $(seq 1 "$RUNS"); do
		sim_run /usr/bin/time -f '%e %M' -o "$SIM_DIR/t" "$@" >/dev/null 2>&1
		cat "$SIM_DIR/t" >>"$SIM_DIR/runs"
	done
	echo "$name $(cut -d' ' -f1 "$SIM_DIR/runs" | median) $(cut -d' ' -f2 "$SIM_DIR/runs" | median)"
}

nodes=$(sim_run "$IBCONSOLE" fabric --json 2>/dev/null |
	python3 -c 'import json,sys; s=json.load(sys.stdin)["summary"]; print(s["nodes"], s["switches"], s["cas"], s["links"])')
{
	measure ibnetdiscover ibnetdiscover
	measure iblinkinfo iblinkinfo
	measure "ibconsole_fabric" "$IBCONSOLE" fabric
	measure "ibconsole_fabric_json" "$IBCONSOLE" fabric --json
	sim_run "$IBCONSOLE" fabric --save "$SIM_DIR/saved.topo" >/dev/null 2>&1
	measure "ibconsole_fabric_diff" "$IBCONSOLE" fabric --diff "$SIM_DIR/saved.topo"
} >"$SIM_DIR/m"

if [ -n "${IBCONSOLE_BASE:-}" ]; then
	sim_run "$IBCONSOLE" fabric --json >/dev/null 2>&1	# warm-up, untimed
	sim_run "$IBCONSOLE_BASE" fabric --json >/dev/null 2>&1
	: >"$SIM_DIR/pairs"
	for i in $(seq 1 "$RUNS"); do
		# each binary first in every other pair
		for who in $( [ $((i % 2)) = 1 ] && echo "$IBCONSOLE $IBCONSOLE_BASE" || echo "$IBCONSOLE_BASE $IBCONSOLE"); do
			sim_run /usr/bin/time -f '%e' -o "$SIM_DIR/t" "$who" fabric --json >/dev/null 2>&1
			if [ "$who" = "$IBCONSOLE" ]; then tn=$(cat "$SIM_DIR/t"); else to=$(cat "$SIM_DIR/t"); fi
		done
		echo "$tn $to" >>"$SIM_DIR/pairs"
	done
fi

echo "# bench/fabric-discovery.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) CPUs (shared), ibsim 0.10, rdma-core $(pkg-config --modversion libibnetdisc 2>/dev/null)"
echo "# fabric: gen-fattree.py $* -> nodes switches cas links: $nodes"
echo "# $RUNS runs each, medians; ratios against ibnetdiscover (lower is better)"
printf '%-24s %10s %12s %10s %10s\n' tool wall_s maxrss_kb time_x rss_x
awk 'NR == 1 { t0 = $2; m0 = $3 }
	{ printf "%-24s %10.2f %12d %10.2f %10.2f\n", $1, $2, $3, $2 / t0, $3 / m0 }' "$SIM_DIR/m"
if [ -n "${IBCONSOLE_BASE:-}" ]; then
	echo "# against IBCONSOLE_BASE=$IBCONSOLE_BASE, same run: fabric --json alternating, $RUNS pairs, ratio = new / old"
	awk '{ r[NR] = $1 / $2; n[NR] = $1; o[NR] = $2 }
		function med(a, k,  i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return a[int((k + 1) / 2)] }
		END { k = NR; lo = hi = r[1]; for (i = 2; i <= k; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
		      printf "%-24s %10.2f\n%-24s %10.2f\n%-24s %10.3f (range %.3f - %.3f)\n", "old_median_s", med(o, k), "new_median_s", med(n, k), "ratio_median", med(r, k), lo, hi }' "$SIM_DIR/pairs"
fi
