#!/bin/bash
# SPDX-License-Identifier: MIT
# keylat-bench.sh [LEAVES HCAS_PER_LEAF SPINES] — keystroke to screen
# while the console discovers and sweeps a big fabric: on one generated
# ibsim fat tree with LIDs assigned by opensm (default 224 leaves x 18
# HCAs + 18 spines = 4,274 nodes), the console runs in tmux with
# `--rediscover 5` (a discovery every 5 s, the shortest it takes), its
# fabric screen opened once (the discovery worker starts) and then its
# fabric sweep screen (a sweep every 10 s). tests/vm/keylat.py then sends
# ROUNDS (default 300) pairs of keys through one tmux control client —
# f until the fabric screen shows, x until the sweep screen is back (x
# also asks for a sweep now, so sweeps follow each other more closely
# than every 10 s) — and times each from send-keys to the pane showing
# it (polled every 10 ms, so a figure is up to 10 ms above the
# console's own). Prints the
# median, 99th percentile and maximum over all 2 x ROUNDS keys, the MADs
# the console sent meanwhile by class (bench/madcount.c: the SMPs are the
# discoveries, the PMA queries the sweeps), the load average; fails when
# the p99 is LIMIT_MS (default 50) or more. OUT=FILE also writes it.
#   IBCONSOLE=path/to/ibconsole  ROUNDS=300  LIMIT_MS=50
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/sim/simlib.sh"
. "$here/benchlib.sh"
sim_isolate "$@"
LEAVES=${1:-224} PER=${2:-18} SPINES=${3:-18}
ROUNDS=${ROUNDS:-300} LIMIT_MS=${LIMIT_MS:-50}
IBC=${IBCONSOLE:-$here/../ibconsole}
OUT=${OUT:-}
[ -x "$IBC" ] || sim_die "$IBC not built"
command -v tmux >/dev/null || sim_die "tmux not found — apt-get install tmux"

bench_fat_tree "$LEAVES" "$PER" "$SPINES"
bench_madcount_build

TS="ibc-keylat-$$"
T="tmux -L $TS"
sim_at_exit "tmux -L $TS kill-server 2>/dev/null"
$T new-session -d -s ui -x 160 -y 50 \
	"cd '$SIM_DIR' && LD_PRELOAD='$SIM_UMAD2SIM $MADCOUNT_SO' MADCOUNT_CLASSES='$SIM_DIR/ui.classes' exec '$IBC' --rediscover 5 2>'$SIM_DIR/ui.err'" ||
	sim_die "tmux failed"
UP=$($T display-message -p -t ui '#{pane_pid}')
TS0=$(awk '{ print int($1) }' /proc/uptime)
# wait for S s until the pane shows ERE
shows()
{
	local i
	for i in $(seq 1 $(($2 * 10))); do
		$T capture-pane -p -t ui | grep -Eq "$1" && return 0
		sleep 0.1
	done
	$T capture-pane -p -t ui >"$SIM_DIR/screen.txt"
	sim_die "the console never showed /$1/ within $2 s: $(cat "$SIM_DIR/screen.txt")"
}
shows . 30
$T send-keys -t ui f
shows "$NODES nodes" 120	# the first discovery is done
$T send-keys -t ui x
shows 'Fabric sweep: [0-9]+ nodes' 120	# and the first sweep
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
T0=$(awk '{ print int($1) }' /proc/uptime)
python3 "$here/../tests/vm/keylat.py" "$TS" ui:0 "$ROUNDS" f 'r rediscover' x 'Fabric sweep:' \
	>"$SIM_DIR/keylat.txt" 2>&1 || sim_die "keylat.py: $(tail -3 "$SIM_DIR/keylat.txt")"
T1=$(awk '{ print int($1) }' /proc/uptime)
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)
$T send-keys -t ui q
for i in $(seq 1 300); do kill -0 "$UP" 2>/dev/null || break; sleep 0.1; done
kill -0 "$UP" 2>/dev/null && sim_die "the console did not end on q"

read -r N P50 P99 MAX <<<"$(sed -n 's/^key .*: \([0-9]*\) ms$/\1/p' "$SIM_DIR/keylat.txt" | sort -n |
	awk '{ v[NR] = $1 } END { printf "%d %d %d %d\n", NR, v[int((NR + 1) / 2)], v[int(NR * 0.99 + 0.999)], v[NR] }')"
# the console's MADs while the keys were timed (madcount counts seconds
# from its first send, about when it started)
read -r SMP PMA <<<"$(awk -v a=$((T0 - TS0)) -v b=$((T1 - TS0)) '$1 >= a && $1 <= b {
	if ($2 == "4") p += $3; else s += $3 } END { print s + 0, p + 0 }' "$SIM_DIR/ui.classes")"
{
	echo "## Keystroke to screen while a $NODES-node fabric is discovered and swept"
	echo
	echo "Written by \`$(basename "$0") $LEAVES $PER $SPINES\` (ROUNDS=$ROUNDS) on $(date -u +%Y-%m-%d),"
	echo "$(nproc) CPUs shared with other developers' builds and VMs: load average"
	echo "$LOAD0 before, $LOAD1 after (1, 5, 15 min)."
	echo
	echo "    $IBC --rediscover 5   (tmux 160x50; f, then x: the fabric sweep screen)"
	echo "    tests/vm/keylat.py SOCKET ui:0 $ROUNDS f 'r rediscover' x 'Fabric sweep:'"
	echo
	echo "$N keys over $((T1 - T0)) s: median **$P50 ms**, p99 **$P99 ms**, max $MAX ms"
	echo "(send-keys to the pane showing it, polled every 10 ms). Meanwhile the"
	echo "console sent $SMP SMPs (discoveries, every 5 s) and $PMA PMA queries"
	echo "(sweeps: every 10 s and on each x), counted by bench/madcount.c."
} >"$SIM_DIR/result.md"
cat "$SIM_DIR/result.md"
[ -z "$OUT" ] || cp "$SIM_DIR/result.md" "$OUT"
[ "$P99" -lt "$LIMIT_MS" ] || sim_fail "p99 $P99 ms is not below $LIMIT_MS ms"
sim_result >&2
