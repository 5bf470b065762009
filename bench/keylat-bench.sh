#!/bin/bash
# SPDX-License-Identifier: MIT
# keylat-bench.sh [LEAVES HCAS_PER_LEAF SPINES] — keystroke to screen
# while the console discovers and sweeps a big fabric: on one generated
# ibsim fat tree with LIDs assigned by opensm (default 224 leaves x 18
# HCAs + 18 spines = 4,274 nodes), the console runs in tmux, its fabric
# screen opened once (the discovery worker starts) and then its fabric
# sweep screen (the first sweep). tests/vm/keylat.py then sends ROUNDS
# (default 300) rounds of keys through one tmux control client and times
# each from send-keys to the pane showing it (polled every 10 ms, so a
# figure is up to 10 ms above the console's own). VARIANT picks the keys:
#   sweep-each-key (default): `--rediscover 5` (a discovery every 5 s,
#     the shortest it takes); f until the fabric screen shows, x until
#     the sweep screen is back — x also asks for a sweep now, so sweeps
#     follow each other back to back.
#   screens: `--rediscover 15`; f (fabric screen), j j k PgDn PgUp (the
#     selection moves: the detail pane's port lines change), ? (help),
#     Enter (back to the ports screen), and x (sweep screen, a sweep now)
#     at most every 10 s, so the fabric is swept every 10 s as on the
#     sweep screen and the keys between switch screens and scroll.
# REDISCOVER=S overrides the timer. Prints the median, 99th percentile
# and maximum over all keys, the MADs the console sent meanwhile by class
# (bench/madcount.c: the SMPs are the discoveries, the PMA queries the
# sweeps), the load average; fails when the p99 is LIMIT_MS (default 50)
# or more. OUT=FILE also writes it.
#   IBCONSOLE=path/to/ibconsole  ROUNDS=300  LIMIT_MS=50
# IBCONSOLE_REF=path/to/other/ibconsole and RUNS=N (default 1): N runs of
# each on the same fabric, alternating (the reference first in odd
# pairs), one row each and the keys of all runs pooled per binary; the
# limit applies to IBCONSOLE's pooled p99.
# TRACE=1: the console writes IBCONSOLE_UI_TRACE (its loop's own time per
# turn, see src/ui/uitrace.h); the rows then add the UI thread's share:
# the p50 / p99 / max of the turns that read a key, from poll() to the
# draw (wall and thread CPU), and the longest turn that read none (a
# key arriving then waits for it). A binary without the trace leaves
# those columns n/a. KEEP=DIR keeps the run's files (traces, key times).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/sim/simlib.sh"
. "$here/benchlib.sh"
sim_isolate "$@"
LEAVES=${1:-224} PER=${2:-18} SPINES=${3:-18}
ROUNDS=${ROUNDS:-300} LIMIT_MS=${LIMIT_MS:-50} RUNS=${RUNS:-1}
VARIANT=${VARIANT:-sweep-each-key}
IBC=${IBCONSOLE:-$here/../ibconsole}
REF=${IBCONSOLE_REF:-}
OUT=${OUT:-}
case $VARIANT in
sweep-each-key)
	REDISCOVER=${REDISCOVER:-5}
	KEYS=(f 'r rediscover' x 'Fabric sweep:')
	;;
screens)
	REDISCOVER=${REDISCOVER:-15}
	# the detail pane's "port" lines: both ends of the selected link
	KEYS=(f 'r rediscover' j '~^ port +[A-Z]' j '~^ port +[A-Z]' k '~^ port +[A-Z]'
		NPage '~^ port +[A-Z]' PPage '~^ port +[A-Z]' '?' '^ Keys *$'
		Enter 'FLAGS: R rate' x@10s 'Fabric sweep:')
	;;
*) sim_die "VARIANT is sweep-each-key or screens, not $VARIANT" ;;
esac
[ -x "$IBC" ] || sim_die "$IBC not built"
[ -z "$REF" ] || [ -x "$REF" ] || sim_die "$REF not built"
command -v tmux >/dev/null || sim_die "tmux not found — apt-get install tmux"

bench_fat_tree "$LEAVES" "$PER" "$SPINES"
bench_madcount_build

TS="ibc-keylat-$$"
T="tmux -L $TS"
sim_at_exit "tmux -L $TS kill-server 2>/dev/null"
[ -z "${KEEP:-}" ] || sim_at_exit "rm -rf '$KEEP'; cp -r \"\$SIM_DIR\" '$KEEP'"
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

# p50 p99 max (whole ms) of the numbers on stdin
pct()
{
	sort -n | awk '{ v[NR] = $1 } END { if (!NR) { print "n/a n/a n/a"; exit }
		printf "%d %d %d\n", v[int((NR + 1) / 2)] + 0.5, v[int(NR * 0.99 + 0.999)] + 0.5, v[NR] + 0.5 }'
}

# the UI thread's own time from a trace: "p50/p99/max wall  p99 cpu
# longest-keyless-turn", or n/a
trace_summary()
{
	local f=$1
	if [ ! -s "$f" ]; then
		echo "n/a n/a n/a n/a n/a"
		return
	fi
	echo "$(awk '$NF != "k=" { print $3 }' "$f" | pct) $(awk '$NF != "k=" { print $4 }' "$f" | pct |
		cut -d' ' -f2) $(awk '$NF == "k=" { print $3 }' "$f" | pct | cut -d' ' -f3)"
}

# slow_keys RUN: the keys of RUN that took LIMIT_MS or more, split by the
# trace at the console's turn that read each (the first to begin after
# the send): "N send-to-read(p50 max) read-to-drawn(p50 max)
# drawn-to-seen(p50 max)", ms; send to read is tmux writing the key and
# the console waking, drawn to seen tmux reading the screen and the poll
slow_keys()
{
	[ -s "$1.trace" ] || { echo "n/a"; return; }
	awk -v lim="$LIMIT_MS" '
	function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
		return n ? sprintf("%.0f / %.0f", a[int((n + 1) / 2)], a[n]) : "- / -" }
	FNR == NR { if ($0 ~ / ms @ /) { nk++; kt[nk] = $NF; split($0, x, ": "); kl[nk] = x[2] + 0 } next }
	$NF != "k=" { nt++; tb[nt] = $2; tw[nt] = $3 }
	END {
		j = 1
		for (i = 1; i <= nk; i++) {
			while (j <= nt && tb[j] < kt[i] - 0.002) j++
			if (j > nt || kl[i] < lim) continue
			a = (tb[j] - kt[i]) * 1000; n++
			A[n] = a; B[n] = tw[j]; C[n] = kl[i] - a - tw[j]
		}
		printf "%d | %s | %s | %s\n", n, med(A, n), med(B, n), med(C, n)
	}' "$1.keylat" "$1.trace"
}

# one_run NAME BINARY: the console under the keys; appends its row's
# numbers to $SIM_DIR/NAME.rows and its keys' times to NAME.ms
one_run()
{
	local name=$1 bin=$2 i up ts0 t0 t1 load0 load1 n p50 p99 max smp pma tr
	local run=$SIM_DIR/$name.$(($(cat "$SIM_DIR/$name.rows" 2>/dev/null | wc -l) + 1))
	tr=
	[ -n "${TRACE:-}" ] && tr="IBCONSOLE_UI_TRACE='$run.trace'"
	$T kill-server 2>/dev/null
	$T new-session -d -s ui -x 160 -y 50 \
		"cd '$SIM_DIR' && LD_PRELOAD='$SIM_UMAD2SIM $MADCOUNT_SO' MADCOUNT_CLASSES='$run.classes' $tr exec '$bin' --rediscover $REDISCOVER 2>'$run.err'" ||
		sim_die "tmux failed"
	up=$($T display-message -p -t ui '#{pane_pid}')
	ts0=$(awk '{ print int($1) }' /proc/uptime)
	shows . 30
	$T send-keys -t ui f
	shows "$NODES nodes" 120	# the first discovery is done
	$T send-keys -t ui x
	shows 'Fabric sweep: [0-9]+ nodes' 120	# and the first sweep
	load0=$(cut -d' ' -f1 /proc/loadavg)
	t0=$(awk '{ print int($1) }' /proc/uptime)
	python3 "$here/../tests/vm/keylat.py" "$TS" ui:0 "$ROUNDS" "${KEYS[@]}" >"$run.keylat" 2>&1 ||
		sim_die "keylat.py ($name): $(tail -3 "$run.keylat")"
	t1=$(awk '{ print int($1) }' /proc/uptime)
	load1=$(cut -d' ' -f1 /proc/loadavg)
	$T send-keys -t ui q
	for i in $(seq 1 300); do kill -0 "$up" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$up" 2>/dev/null && sim_die "the console ($name) did not end on q"
	sed -n 's/^key .*: \([0-9]*\) ms @ .*$/\1/p' "$run.keylat" | tee -a "$SIM_DIR/$name.ms" >"$run.ms"
	n=$(wc -l <"$run.ms")
	read -r p50 p99 max <<<"$(pct <"$run.ms")"
	# the console's MADs while the keys were timed (madcount counts
	# seconds from its first send, about when it started)
	read -r smp pma <<<"$(awk -v a=$((t0 - ts0)) -v b=$((t1 - ts0)) '$1 >= a && $1 <= b {
		if ($2 == "4") p += $3; else s += $3 } END { print s + 0, p + 0 }' "$run.classes")"
	echo "$n $((t1 - t0)) $p50 $p99 $max $smp $pma $load0 $load1 $(trace_summary "$run.trace")" >>"$SIM_DIR/$name.rows"
	echo "$(slow_keys "$run")" >>"$SIM_DIR/$name.slow"
}

if [ -n "$REF" ]; then
	for i in $(seq 1 "$RUNS"); do
		if [ $((i % 2)) = 1 ]; then
			one_run ref "$REF"
			one_run new "$IBC"
		else
			one_run new "$IBC"
			one_run ref "$REF"
		fi
	done
else
	for i in $(seq 1 "$RUNS"); do one_run new "$IBC"; done
fi

row()	# NAME LABEL: one table row per run of NAME
{
	local n s p50 p99 max smp pma l0 l1 u50 u99 umax c99 idle
	while read -r n s p50 p99 max smp pma l0 l1 u50 u99 umax c99 idle; do
		echo "| $2 | $n keys, $s s | $p50 | **$p99** | $max | $u50 / $u99 / $umax ($c99 CPU) | $idle | $smp / $pma | $l0 - $l1 |"
	done <"$SIM_DIR/$1.rows"
}
case $VARIANT in
sweep-each-key) what="f and x alternating; x asks for a sweep on each press" ;;
screens) what="f, j, j, k, PgDn, PgUp, ?, Enter, and x at most every 10 s" ;;
esac
{
	echo "## Keystroke to screen while a $NODES-node fabric is discovered and swept"
	echo
	echo "Written by \`$(basename "$0") $LEAVES $PER $SPINES\` (VARIANT=$VARIANT ROUNDS=$ROUNDS RUNS=$RUNS${TRACE:+ TRACE=1})"
	echo "on $(date -u +%Y-%m-%d), $(nproc) CPUs shared with other developers' builds and VMs."
	echo
	echo "    ibconsole --rediscover $REDISCOVER   (tmux 160x50; f, then x: the fabric sweep screen)"
	echo "    keys: $what"
	echo
	echo "| binary | keys | p50 ms | p99 ms | max ms | UI thread per key turn p50 / p99 / max ms | longest turn without a key, ms | SMPs / PMA queries meanwhile | load average (1 min) before - after |"
	echo "|---|---|---|---|---|---|---|---|---|"
	[ -z "$REF" ] || row ref "$REF"
	row new "$IBC"
	echo
	if [ -n "${TRACE:-}" ]; then
		echo "The keys that took $LIMIT_MS ms or more, split at the console's turn that read"
		echo "each (IBCONSOLE_UI_TRACE; median / max ms): from send-keys to the console"
		echo "reading the key (tmux writing it, the console waking), the console's turn"
		echo "(reading to drawn), and the rest (tmux reading the screen, the 10 ms poll)."
		echo
		echo "| binary | keys >= $LIMIT_MS ms | send to read | read to drawn | drawn to seen |"
		echo "|---|---|---|---|---|"
		for name in ref new; do
			[ -s "$SIM_DIR/$name.slow" ] || continue
			while read -r line; do
				echo "| $([ $name = ref ] && echo "$REF" || echo "$IBC") | $line |"
			done <"$SIM_DIR/$name.slow"
		done
		echo
	fi
	for name in ref new; do
		[ -s "$SIM_DIR/$name.ms" ] || continue
		read -r p50 p99 max <<<"$(pct <"$SIM_DIR/$name.ms")"
		echo "All runs of $([ $name = ref ] && echo "$REF" || echo "$IBC"): $(wc -l <"$SIM_DIR/$name.ms") keys, median **$p50 ms**, p99 **$p99 ms**, max $max ms."
	done
	echo
	echo "Key times: send-keys to the pane showing it, polled every 10 ms. SMPs are"
	echo "the discoveries, PMA queries the sweeps (bench/madcount.c)."
} >"$SIM_DIR/result.md"
cat "$SIM_DIR/result.md"
[ -z "$OUT" ] || cp "$SIM_DIR/result.md" "$OUT"
read -r _ P99 _ <<<"$(pct <"$SIM_DIR/new.ms")"
[ "$P99" -lt "$LIMIT_MS" ] || sim_fail "p99 $P99 ms is not below $LIMIT_MS ms"
sim_result >&2
