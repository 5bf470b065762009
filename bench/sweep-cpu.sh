#!/bin/bash
# SPDX-License-Identifier: MIT
# sweep-cpu.sh [LEAVES HCAS_PER_LEAF SPINES] — what the repeated fabric
# sweeps cost while they run: the console with its fabric sweep screen
# open (in tmux; it sweeps every 10 s while the screen is shown) and the
# exporter's fabric mode (`export --fabric --sweep-interval 10 --listen`),
# on one generated ibsim fat tree with LIDs assigned by opensm (default
# 112 leaves x 18 HCAs + 18 spines = 2,146 nodes, 8,064 ports). For
# each: the process's own user + system CPU time over wall time (from
# /proc/PID/stat, sampled each second) over the DUR seconds (default
# 120) from its start, the first discovery and sweep included, and over
# DUR seconds of steady state from the end of its first sweep (the
# exporter's first scrape that counts a sweep; the console's screen
# showing its first sweep's result), and the MADs it sent per 10 s by class
# (bench/madcount.c): the first sweep discovers (SMPs) and reads every
# port (PMA), each later one should send PMA queries only. The load
# average before and after. Prints Markdown; OUT=FILE also writes it.
#   IBCONSOLE=path/to/ibconsole  DUR=120  INTERVAL=10
#   ONLY=exporter or ONLY=console: that one alone
#   EXPORT_ARGS="--no-smp": more exporter options (--no-smp: its local
#   ports without SMPs, whose answers, late under a heavy load, can crash
#   a process under umad2sim)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/sim/simlib.sh"
. "$here/benchlib.sh"
sim_isolate "$@"
LEAVES=${1:-112} PER=${2:-18} SPINES=${3:-18}
DUR=${DUR:-120} INTERVAL=${INTERVAL:-10}
EXPORT_ARGS=${EXPORT_ARGS:-}
IBC=${IBCONSOLE:-$here/../ibconsole}
OUT=${OUT:-}
[ -x "$IBC" ] || sim_die "$IBC not built"
command -v tmux >/dev/null || sim_die "tmux not found — apt-get install tmux"
[ "$DUR" -ge 60 ] 2>/dev/null || sim_die "DUR=$DUR: at least 60 s, or one sweep's cost is all it measures"
ip link set lo up 2>/dev/null

bench_fat_tree "$LEAVES" "$PER" "$SPINES"
bench_madcount_build
TICK=$(getconf CLK_TCK)

cpu_s() { awk -v hz="$TICK" '{ printf "%.2f\n", ($14 + $15) / hz }' "/proc/$1/stat"; }
# wait up to S seconds for process P to be gone
gone() { local i; for i in $(seq 1 $(($2 * 10))); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done; return 1; }

# NAME PID FIRST: samples the CPU each second into NAME.samples
# ("elapsed cpu ibsim_cpu"), until DUR s from the start and DUR s from
# the end of the first sweep (FIRST: a command that succeeds once it has
# ended, its time into NAME.first) have passed; a process that dies (a
# crash) still has its samples up to its last second, and NAME.ended
measure()
{
	local t0 c0 s0 el c first=""
	t0=$(bench_now) c0=$(cpu_s "$2") s0=$(bench_sim_cpu)
	echo "0 $c0 $s0" >"$SIM_DIR/$1.samples"
	while :; do
		sleep 1
		c=$(cpu_s "$2" 2>/dev/null) || { touch "$SIM_DIR/$1.ended"; break; }
		el=$(awk -v a="$t0" -v b="$(bench_now)" 'BEGIN { printf "%.2f", b - a }')
		echo "$el $c $(bench_sim_cpu)" >>"$SIM_DIR/$1.samples"
		if [ -z "$first" ] && $3; then
			first=$el
			echo "$first" >"$SIM_DIR/$1.first"
		fi
		[ -n "$first" ] && awk -v e="$el" -v f="$first" -v d="$DUR" 'BEGIN { exit !(e >= d && e >= f + d) }' && break
		awk -v e="$el" -v d="$DUR" 'BEGIN { exit !(e >= 3 * d) }' && break
	done
	true
}
# NAME: "wall cpu ibsim_cpu" from the start over DUR s, then the same
# over DUR s from the first sweep's end ("- - -" when there was none)
figures()
{
	local f
	f=$(cat "$SIM_DIR/$1.first" 2>/dev/null)
	awk -v d="$DUR" -v f="${f:--1}" '
		NR == 1 { t0 = $1; c0 = $2; s0 = $3 }
		!a && $1 >= t0 + d { a = 1; w1 = $1 - t0; c1 = $2 - c0; s1 = $3 - s0 }
		f >= 0 && !b && $1 >= f - 0.001 { b = 1; tf = $1; cf = $2; sf = $3 }
		b && !e && $1 >= tf + d { e = 1; w2 = $1 - tf; c2 = $2 - cf; s2 = $3 - sf }
		END { if (a) printf "%.1f %.2f %.2f", w1, c1, s1; else printf "- - -"
		      if (e) printf " %.1f %.2f %.2f\n", w2, c2, s2; else printf " - - -\n" }' "$SIM_DIR/$1.samples"
}
# the first sweep is over: the exporter serves a sweep / the console's
# sweep screen shows one's result
exp_swept()
{
	python3 - "$PORT" <<'PY' 2>/dev/null
import sys, urllib.request as u
t = u.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=30).read().decode()
sys.exit(0 if any(l.startswith("ibconsole_fabric_sweeps_total ") and float(l.split()[1]) >= 1 and "ibconsole_fabric_sweep_ports " in t for l in t.splitlines()) else 1)
PY
}
ui_swept() { tmux -L "$TS" capture-pane -p -t ui 2>/dev/null | grep -Eq 'Fabric sweep: [0-9]+ nodes'; }

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
ONLY=${ONLY:-}
# --- the exporter ---
if [ "$ONLY" != console ]; then
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$SIM_DIR" && LD_PRELOAD="$SIM_UMAD2SIM $MADCOUNT_SO" MADCOUNT_OUT="$SIM_DIR/exp.mads" \
	MADCOUNT_CLASSES="$SIM_DIR/exp.classes" exec "$IBC" export --fabric \
	--sweep-interval "$INTERVAL" --listen "127.0.0.1:$PORT" $EXPORT_ARGS >"$SIM_DIR/exp.out" 2>"$SIM_DIR/exp.err") &
XP=$!
sim_track $XP
measure exp $XP exp_swept
SCRAPE="gone"
kill -0 $XP 2>/dev/null && SCRAPE=$(python3 - "$PORT" <<'PY'
import sys, urllib.request as u
t = u.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=30).read().decode()
v = {l.split()[0]: l.split()[1] for l in t.splitlines() if l and not l.startswith("#")}
print("%s sweeps, %s discoveries, %s ports" % tuple(v.get("ibconsole_fabric_" + k, "?")
      for k in ("sweeps_total", "discoveries_total", "sweep_ports")))
PY
) || sim_die "no scrape from the exporter"
kill -TERM $XP 2>/dev/null
gone $XP 30 || sim_die "the exporter did not end on SIGTERM"
wait $XP 2>/dev/null
echo $? >"$SIM_DIR/exp.rc"
fi

# --- the console, its sweep screen open ---
TS="ibc-sweepcpu-$$"
if [ "$ONLY" != exporter ]; then
sim_at_exit "tmux -L $TS kill-server 2>/dev/null"
tmux -L "$TS" new-session -d -s ui -x 160 -y 50 \
	"cd '$SIM_DIR' && LD_PRELOAD='$SIM_UMAD2SIM $MADCOUNT_SO' MADCOUNT_OUT='$SIM_DIR/ui.mads' MADCOUNT_CLASSES='$SIM_DIR/ui.classes' exec '$IBC' 2>'$SIM_DIR/ui.err'" ||
	sim_die "tmux failed"
UP=$(tmux -L "$TS" display-message -p -t ui '#{pane_pid}')
for i in $(seq 1 300); do
	tmux -L "$TS" capture-pane -p -t ui | grep -q . && break
	sleep 0.1
done
tmux -L "$TS" send-keys -t ui x
measure ui "$UP" ui_swept
tmux -L "$TS" capture-pane -p -t ui >"$SIM_DIR/ui.screen"
tmux -L "$TS" send-keys -t ui q 2>/dev/null
gone "$UP" 30 || sim_die "the console did not end on q"
fi
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

# per 10 s: SMPs (classes 1, 81), PMA (4)
buckets()
{
	awk -v w="$INTERVAL" '{ b = int($1 / w); if ($2 == "4") p[b] += $3; else if ($2 == "1" || $2 == "81") s[b] += $3
		if (b > m) m = b }
		END { for (i = 0; i <= m; i++) printf "%s%d-%ds: %d SMP, %d PMA", (i ? "; " : ""), i * w, (i + 1) * w, s[i], p[i]; print "" }' "$1"
}
# SMPs and PMA queries after the first 2 intervals (the first discovery and sweep)
later() { awk -v w="$INTERVAL" '$1 >= 2 * w { if ($2 == "4") p += $3; else s += $3 } END { print s + 0, p + 0 }' "$1"; }
row()
{
	[ -f "$SIM_DIR/$2.samples" ] || return 0
	local w1 c1 s1 w2 c2 s2
	read -r w1 c1 s1 w2 c2 s2 <<<"$(figures "$2")"
	awk -v n="$1" -v w1="$w1" -v c1="$c1" -v s1="$s1" -v w2="$w2" -v c2="$c2" -v s2="$s2" \
		-v m="$(cut -s -d' ' -f1 "$SIM_DIR/$2.mads" 2>/dev/null)" -v f="$(cat "$SIM_DIR/$2.first" 2>/dev/null)" \
		-v l="$(later "$SIM_DIR/$2.classes" 2>/dev/null)" -v e="$([ -f "$SIM_DIR/$2.ended" ] && echo 1)" 'BEGIN { split(l, x, " ")
		if (e) n = n " (ENDED EARLY: crashed)"
		share1 = w1 == "-" ? "-" : sprintf("**%.2f %%**", 100 * c1 / w1)
		share2 = w2 == "-" ? "-" : sprintf("**%.2f %%**", 100 * c2 / w2)
		printf "| %s | %s s: %s s, %s | %s s: %s s, %s | %s s | %s | %d SMP, %d PMA | %s s, %s s |\n", n, w1, c1, share1,
			w2, c2, share2, f == "" ? "-" : f, m == "" ? "n/a" : m, x[1], x[2], s1, s2 }'
}
{
	echo "## Repeated sweeps' CPU: the console's sweep screen and \`export --fabric\`"
	echo
	echo "Written by \`$(basename "$0") $LEAVES $PER $SPINES\` (DUR=$DUR, INTERVAL=$INTERVAL) on $(date -u +%Y-%m-%d),"
	echo "$(nproc) CPUs shared with other developers' builds and VMs: load average"
	echo "$LOAD0 before, $LOAD1 after (1, 5, 15 min)."
	echo
	echo "Fabric: fat tree ${LEAVES}x${PER} + $SPINES spines, $NODES nodes, LIDs by opensm."
	[ -n "${SCRAPE:-}" ] && echo "Exporter at the end: $SCRAPE."
	[ -f "$SIM_DIR/ui.screen" ] && echo "Console's sweep screen at the end: $(grep -m1 -o 'Fabric sweep: [^|]*' "$SIM_DIR/ui.screen")"
	echo
	[ "$ONLY" != console ] && echo "    exporter: $IBC export --fabric --sweep-interval $INTERVAL --listen 127.0.0.1:PORT${EXPORT_ARGS:+ $EXPORT_ARGS}"
	[ "$ONLY" != exporter ] && echo "    console:  $IBC   (in tmux, 160x50; key x: the fabric sweep screen, every 10 s)"
	echo
	echo "CPU: user + system time of the process from /proc/PID/stat, sampled"
	echo "each second: over $DUR s from its start (the first discovery and sweep"
	echo "included), and over $DUR s of steady state from the end of its first"
	echo "sweep. MADs: every MAD the process sent (bench/madcount.c), by class"
	echo "per $INTERVAL s."
	echo
	echo "| process | from start: wall, CPU, share | steady: wall, CPU, share | first sweep ended at | MADs sent | after the first $((2 * INTERVAL)) s | ibsim CPU (start, steady) |"
	echo "|---|---|---|---|---|---|---|"
	row "export --fabric" exp
	row "console, sweep screen" ui
	echo
	[ -f "$SIM_DIR/exp.classes" ] && echo "MADs per $INTERVAL s, exporter: $(buckets "$SIM_DIR/exp.classes")" && echo
	[ -f "$SIM_DIR/ui.classes" ] && echo "MADs per $INTERVAL s, console: $(buckets "$SIM_DIR/ui.classes")"
	true
} >"$SIM_DIR/result.md"
cat "$SIM_DIR/result.md"
[ -z "$OUT" ] || cp "$SIM_DIR/result.md" "$OUT"
grep -q 'ENDED EARLY' "$SIM_DIR/result.md" && sim_fail "a process ended early"
sim_result >&2
