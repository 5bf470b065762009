# SPDX-License-Identifier: MIT
# benchlib.sh — the bench method shared by the bench/ scripts (sourced
# after tests/sim/simlib.sh and sim_start):
#   bench_madcount_build          build madcount.so (MADs per process)
#   bench_mads NAME CMD...        one run under madcount; prints "sent received"
#   bench_sim_cpu                 ibsim's CPU time so far, seconds
#   bench_pairs N NA A NB B       N alternating pairs of commands $A / $B
#                                 (strings, run with sim_run) after one
#                                 warm-up each; each run's wall time, peak
#                                 RSS and ibsim CPU time go to
#                                 $SIM_DIR/{NA,NB}.runs as "wall_s rss_kb
#                                 sim_cpu_s cpu_s rc" (cpu_s: the
#                                 command's own user + system time)
#   bench_ratio FILE_A FILE_B COL prints "median min max" of A/B by pair
#   bench_ratio_row LABEL NA NB COL  the same as a Markdown table row
#   bench_median FILE COL          median of a column
#   bench_fat_tree LEAVES PER SPINES  generate the fat tree, start ibsim
#                                 and opensm on it (sets NODES)
#   bench_sm [HOST]               keep an SM running, as a real subnet has
#                                 one: opensm as a daemon on HOST (default
#                                 the topology's last HCA), back when its
#                                 SA answers; BENCH_SM=none skips it
#   bench_pin                     ibsim and the SM on one CPU, the tools
#                                 run by bench_mads / bench_pairs on
#                                 another (BENCH_CPUS="0 1"); BENCH_PIN=none
#                                 leaves them to the scheduler
#   bench_findings                five counters above act or watch, on
#                                 the default fat tree
bench_madcount_build()
{
	MADCOUNT_SO=$SIM_DIR/madcount.so
	cc -shared -fPIC -O2 -o "$MADCOUNT_SO" "$(dirname "${BASH_SOURCE[0]}")/madcount.c" -ldl ||
		sim_die "cannot build madcount.so — install gcc"
}

bench_mads()
{
	local name=$1
	shift
	rm -f "$SIM_DIR/$name.mads"
	(cd "$SIM_DIR" && MADCOUNT_OUT="$SIM_DIR/$name.mads" \
		LD_PRELOAD="$SIM_UMAD2SIM $MADCOUNT_SO" $BENCH_TOOL_PIN "$@") >/dev/null 2>&1
	[ -s "$SIM_DIR/$name.mads" ] || sim_die "no MAD count for $name"
	awk '{ s += $1; r += $2 } END { print s, r }' "$SIM_DIR/$name.mads"
}

bench_sim_cpu()
{
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f\n", ($14 + $15) / hz }' "/proc/$SIM_PID/stat"
}

bench_now() { date +%s.%N; }

bench_fat_tree()
{
	local net
	net=$(mktemp "${TMPDIR:-/tmp}/ibc-bench.XXXXXX.net") || sim_die mktemp
	sim_at_exit "rm -f '$net'"
	python3 "$(dirname "${BASH_SOURCE[0]}")/gen-fabric.py" "$1" "$2" "$3" >"$net"
	NODES=$(($1 * $2 + $1 + $3))
	# more than 2,000 nodes needs a bigger ibsim
	SIM_IBSIM_ARGS="-N 8192 -S 1024 -P 65536" SIM_OPENSM_TIMEOUT=300 SIM_READY_TENTHS=1200
	SIM_HOST=H0-0 sim_start "$net"
}

# sim_start's `opensm -o` assigns the LIDs and exits, so afterwards no SA
# answers. On a real subnet an SM keeps running, and the reference tools
# rely on it: plain `ibqueryerrors` first asks the SA for a PathRecord to
# every destination (to send each PMA query on its SL) and, when no SA
# answers, prints "Query SA failed" and exits 0 without reading a single
# counter. The SM runs on another node than the tools, as a subnet's SM
# host would, and its periodic light sweeps are part of what users see.
bench_sm()
{
	local host=${1:-} i
	BENCH_SM_HOST=none BENCH_SM_TEXT="no SM during the runs (BENCH_SM=none)"
	[ "${BENCH_SM:-}" = none ] && return 0
	[ -n "$host" ] || host=$(sed -n 's/^[[:space:]]*Hca[[:space:]]\{1,\}[0-9]\{1,\}[[:space:]]\{1,\}"\([^"]*\)".*/\1/p' "$SIM_TOPO" | tail -n 1)
	[ "$host" != "$SIM_HOST" ] || sim_die "bench_sm: the SM would sit on the tools' host $host"
	mkdir -p "$SIM_DIR/sm"
	# timeout -k: opensm can ignore SIGTERM once ibsim is gone
	SIM_HOST=$host OSM_CACHE_DIR="$SIM_DIR/sm" sim_bg sm \
		timeout -k 2 6h opensm -f "$SIM_DIR/sm.log"
	for i in $(seq 1 600); do
		sim_run saquery -s >"$SIM_DIR/sm.ready" 2>&1 && grep -q . "$SIM_DIR/sm.ready" && break
		kill -0 "${SIM_BG[sm]}" 2>/dev/null || sim_die "opensm on $host exited: $(tail -n 5 "$SIM_DIR/sm.err")"
		sleep 0.1
	done
	sim_run saquery -s >/dev/null 2>&1 || sim_die "no SA answer from opensm on $host after 60 s"
	BENCH_SM_HOST=$host BENCH_SM_TEXT="an SM during the runs, opensm on $host"
}

# Where the simulator and the tool run decides what a MAD's round trip
# costs. On one CPU it is a context switch; on two it is a wake-up of
# the other CPU, as on a real subnet, where every MAD crosses a wire to
# a switch's or an HCA's own processor and the tool waits for it. Left
# to the scheduler, the placement follows the machine's load: on the
# 2,146-node fat tree (medians of 4 to 6 runs, 2026-12-07) ibnetdiscover
# took 0.15 s with ibsim on its CPU and 0.78 s on the other,
# ibqueryerrors 0.23 s and 1.45 s, while ibconsole, which keeps 16 SMPs
# (`fabric`) or 64 (`errors`) and 64 PMA queries in flight, moved only
# from 0.14 to 0.20 - 0.22 s. So the bench pins: ibsim and the SM (the
# fabric) on one CPU, the tools on another.
BENCH_TOOL_PIN=
bench_pin()
{
	local cpus sim_cpu tool_cpu p
	BENCH_PINNING="not pinned (BENCH_PIN=none)"
	[ "${BENCH_PIN:-}" = none ] && return 0
	command -v taskset >/dev/null || sim_die "taskset not found — apt-get install util-linux"
	cpus=${BENCH_CPUS:-0 1}
	read -r sim_cpu tool_cpu <<<"$cpus"
	[ -n "$tool_cpu" ] && [ "$sim_cpu" != "$tool_cpu" ] ||
		sim_die "BENCH_CPUS=\"$cpus\": two different CPUs, the simulator's and the tools'"
	for p in $SIM_PID ${SIM_BG[sm]:-} $(pgrep -P "${SIM_BG[sm]:-0}"); do
		taskset -apc "$sim_cpu" "$p" >/dev/null || sim_die "taskset -apc $sim_cpu $p failed"
	done
	BENCH_TOOL_PIN="taskset -c $tool_cpu"
	BENCH_PINNING="ibsim${SIM_BG[sm]:+ and the SM} on CPU $sim_cpu, the tools on CPU $tool_cpu"
}

bench_findings()
{
	sim_ctl 'PerformanceSet "H3-5"[1] PortCounters.SymbolErrorCounter=7'
	sim_ctl 'PerformanceSet "H20-11"[1] PortCounters.PortRcvErrors=120'
	sim_ctl 'PerformanceSet "Leaf9"[4] PortCounters.PortXmitDiscards=3'
	sim_ctl 'PerformanceSet "Spine2"[17] PortCounters.LinkDownedCounter=2'
	sim_ctl 'PerformanceSet "H40-0"[1] PortCounters.PortXmitWait=1000'
}

# bench_one FILE CMD: appends "wall_s rss_kb sim_cpu_s cpu_s rc" of one run
bench_one()
{
	local file=$1 cmd=$2 t0 t1 c0 c1
	c0=$(bench_sim_cpu)
	t0=$(bench_now)
	# shellcheck disable=SC2086 # the command line is split on purpose
	sim_run $BENCH_TOOL_PIN /usr/bin/time -f '%M %U %S' -o "$SIM_DIR/rss" $cmd >"$file.out" 2>"$file.err"
	echo $? >"$file.rc"
	t1=$(bench_now)
	c1=$(bench_sim_cpu)
	awk -v a="$t0" -v b="$t1" -v c="$c0" -v d="$c1" -v rc="$(cat "$file.rc")" \
		-v m="$(tail -1 "$SIM_DIR/rss")" \
		'BEGIN { split(m, x, " "); printf "%.6f %d %.3f %.2f %d\n", b - a, x[1], d - c, x[2] + x[3], rc }' >>"$file.runs"
}

# bench_pairs N NAME_A CMD_A NAME_B CMD_B: one untimed warm-up each, then
# N pairs, A first in odd pairs, B in even; each side's runs, last output
# and exit status in $SIM_DIR/NAME.runs, .out, .rc
bench_pairs()
{
	local n=$1 na=$2 a=$3 nb=$4 b=$5 i
	: >"$SIM_DIR/$na.runs"
	: >"$SIM_DIR/$nb.runs"
	sim_run $BENCH_TOOL_PIN $a >/dev/null 2>&1	# warm-up, untimed
	sim_run $BENCH_TOOL_PIN $b >/dev/null 2>&1
	for i in $(seq 1 "$n"); do
		if [ $((i % 2)) = 1 ]; then
			bench_one "$SIM_DIR/$na" "$a"
			bench_one "$SIM_DIR/$nb" "$b"
		else
			bench_one "$SIM_DIR/$nb" "$b"
			bench_one "$SIM_DIR/$na" "$a"
		fi
	done
}

# bench_ratio_row LABEL A B COL: a Markdown row "| LABEL | median | range |"
# of the pairwise ratio A / B in column COL of NAME.runs
bench_ratio_row()
{
	set -- "$1" $(bench_ratio "$SIM_DIR/$2.runs" "$SIM_DIR/$3.runs" "$4")
	echo "| $1 | **$2** | $3 - $4 |"
}

bench_ratio()
{
	paste -d' ' "$1" "$2" | awk -v col="$3" -v w="$(head -1 "$1" | wc -w)" '
		$(w + col) > 0 { r[++n] = $col / $(w + col) }
		END { if (!n) { print "n/a n/a n/a"; exit } for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
		      printf "%.3f %.3f %.3f\n", r[int((n + 1) / 2)], r[1], r[n] }'
}

bench_median()
{
	awk -v col="$2" '{ print $col }' "$1" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
