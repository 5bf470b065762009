#!/bin/bash
# SPDX-License-Identifier: MIT
# sweep-cpu.sh [LEAVES HCAS_PER_LEAF SPINES] — what the repeated fabric
# sweeps cost while they run: the console with its fabric sweep screen
# open (in tmux; it sweeps every 10 s while the screen is shown) and the
# exporter's fabric mode (`export --fabric --sweep-interval 10 --listen`),
# each for DUR seconds (default 120) on one generated ibsim fat tree with
# LIDs assigned by opensm (default 112 leaves x 18 HCAs + 18 spines =
# 2,146 nodes, 8,064 ports). For each: the process's own user + system
# CPU time over its wall time (from /proc/PID/stat, start to end, the
# first discovery included), and the MADs it sent per 10 s by class
# (bench/madcount.c): the first sweep discovers (SMPs) and reads every
# port (PMA), each later one should send PMA queries only. The load
# average before and after. Prints Markdown; OUT=FILE also writes it.
#   IBCONSOLE=path/to/ibconsole  DUR=120  INTERVAL=10
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

# NAME PID: samples CPU over DUR s into NAME.cpu "wall cpu ibsim_cpu
# ended": read each second, so a process that dies (a crash) still has
# its figures up to its last second; ended 1 then
measure()
{
	local t0 c0 s0 t1 c1 s1 end=0 i c
	t0=$(bench_now) c0=$(cpu_s "$2") s0=$(bench_sim_cpu)
	t1=$t0 c1=$c0 s1=$s0
	for i in $(seq 1 "$DUR"); do
		sleep 1
		c=$(cpu_s "$2" 2>/dev/null) || { end=1; break; }
		t1=$(bench_now) c1=$c s1=$(bench_sim_cpu)
	done
	awk -v a="$t0" -v b="$t1" -v c="$c0" -v d="$c1" -v e="$s0" -v f="$s1" -v x=$end \
		'BEGIN { printf "%.1f %.2f %.2f %d\n", b - a, d - c, f - e, x }' >"$SIM_DIR/$1.cpu"
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
# --- the exporter ---
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$SIM_DIR" && LD_PRELOAD="$SIM_UMAD2SIM $MADCOUNT_SO" MADCOUNT_OUT="$SIM_DIR/exp.mads" \
	MADCOUNT_CLASSES="$SIM_DIR/exp.classes" exec "$IBC" export --fabric \
	--sweep-interval "$INTERVAL" --listen "127.0.0.1:$PORT" $EXPORT_ARGS >"$SIM_DIR/exp.out" 2>"$SIM_DIR/exp.err") &
XP=$!
sim_track $XP
measure exp $XP
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

# --- the console, its sweep screen open ---
TS="ibc-sweepcpu-$$"
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
measure ui "$UP"
tmux -L "$TS" capture-pane -p -t ui >"$SIM_DIR/ui.screen"
tmux -L "$TS" send-keys -t ui q 2>/dev/null
gone "$UP" 30 || sim_die "the console did not end on q"
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
	local wall cpu sim end
	read -r wall cpu sim end <"$SIM_DIR/$2.cpu"
	awk -v n="$1" -v w="$wall" -v c="$cpu" -v s="$sim" -v m="$(cut -s -d' ' -f1 "$SIM_DIR/$2.mads" 2>/dev/null)" \
		-v l="$(later "$SIM_DIR/$2.classes" 2>/dev/null)" -v e="$end" 'BEGIN { split(l, x, " ")
		if (e) n = n " (ENDED EARLY: crashed)"
		printf "| %s | %.1f s | %.2f s | **%.2f %%** | %s | %d SMP, %d PMA | %.2f s |\n", n, w, c, 100 * c / w, m == "" ? "n/a" : m, x[1], x[2], s }'
}
{
	echo "## Repeated sweeps' CPU: the console's sweep screen and \`export --fabric\`"
	echo
	echo "Written by \`$(basename "$0") $LEAVES $PER $SPINES\` (DUR=$DUR, INTERVAL=$INTERVAL) on $(date -u +%Y-%m-%d),"
	echo "$(nproc) CPUs shared with other developers' builds and VMs: load average"
	echo "$LOAD0 before, $LOAD1 after (1, 5, 15 min)."
	echo
	echo "Fabric: fat tree ${LEAVES}x${PER} + $SPINES spines, $NODES nodes, LIDs by opensm."
	echo "Exporter at the end: $SCRAPE."
	echo "Console's sweep screen at the end: $(grep -m1 -o 'Fabric sweep: [^|]*' "$SIM_DIR/ui.screen")"
	echo
	echo "    exporter: $IBC export --fabric --sweep-interval $INTERVAL --listen 127.0.0.1:PORT${EXPORT_ARGS:+ $EXPORT_ARGS}"
	echo "    console:  $IBC   (in tmux, 160x50; key x: the fabric sweep screen)"
	echo
	echo "CPU: user + system time of the process from /proc/PID/stat over $DUR s"
	echo "from its start, the first discovery and sweep included. MADs: every"
	echo "MAD the process sent (bench/madcount.c), by class per $INTERVAL s."
	echo
	echo "| process | wall | user+sys CPU | share of a core | MADs sent | after the first $((2 * INTERVAL)) s | ibsim CPU |"
	echo "|---|---|---|---|---|---|---|"
	row "export --fabric" exp
	row "console, sweep screen" ui
	echo
	echo "MADs per $INTERVAL s, exporter: $(buckets "$SIM_DIR/exp.classes" 2>/dev/null)"
	echo
	echo "MADs per $INTERVAL s, console: $(buckets "$SIM_DIR/ui.classes" 2>/dev/null)"
} >"$SIM_DIR/result.md"
cat "$SIM_DIR/result.md"
[ -z "$OUT" ] || cp "$SIM_DIR/result.md" "$OUT"
grep -q 'ENDED EARLY' "$SIM_DIR/result.md" && sim_fail "a process ended early"
sim_result >&2
