#!/bin/bash
# SPDX-License-Identifier: MIT
# monitor-bench.sh [NPORTS [SECONDS]] — the cost of monitoring: `ibconsole
# watch --json --interval 1` on NPORTS remote ports (--lid, default 63:
# with the local port, the 64 targets watch takes) of a generated ibsim
# fabric for SECONDS (default 60), measured two ways:
#   - from /proc: the process's user + system time over the run (as
#     /usr/bin/time reads it at exit), as a share of one core;
#   - with callgrind: instructions of a run of 2 + K ticks minus those of
#     a run of 2 ticks, per port per tick (start-up and discovery cancel).
# Prints Markdown. IBCONSOLE=path/to/ibconsole  IBCONSOLE_BASE=older one
# (measured the same way, in the same run)  TICKS=K (default 4).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/sim/simlib.sh"
. "$here/benchlib.sh"
sim_isolate "$@"
NP=${1:-63} SECS=${2:-60} TICKS=${TICKS:-4}
IBC=${IBCONSOLE:-$here/../ibconsole}
BASE=${IBCONSOLE_BASE:-}
[ -x "$IBC" ] || sim_die "$IBC not built"
command -v valgrind >/dev/null || sim_die "valgrind not found — apt-get install valgrind"
[ -x /usr/bin/time ] || sim_die "/usr/bin/time not found — apt-get install time"

NET=$(mktemp "${TMPDIR:-/tmp}/ibc-mon.XXXXXX.net") || sim_die mktemp
sim_at_exit 'rm -f "$NET"'
# enough HCAs for NPORTS remote ports: leaves of 16, 2 spines
python3 "$here/gen-fabric.py" $(((NP + 16) / 16)) 16 2 >"$NET"
SIM_HOST=H0-0 sim_start "$NET"
LIDS=$(seq -s, 2 $((NP + 1)))
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)

proc_cost() # BIN: "cpu_s share_of_a_core" over SECS one-second ticks
{
	sim_run /usr/bin/time -f '%U %S %e' -o "$SIM_DIR/t" "$1" watch --json --interval 1 \
		--count "$SECS" --lid "$LIDS" >"$SIM_DIR/w.out" 2>"$SIM_DIR/w.err" ||
		sim_fail "$1 watch exited $(tail -1 "$SIM_DIR/w.err")"
	tail -1 "$SIM_DIR/t" | awk '{ printf "%.2f %.3f\n", $1 + $2, ($1 + $2) / $3 * 100 }'
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
	awk -v a="$a" -v b="$b" -v n="$((NP + 1))" -v k="$TICKS" 'BEGIN { printf "%.0f\n", (b - a) / k / n }'
}
echo "# Monitoring cost: \`watch --json --interval 1\` on $((NP + 1)) ports"
echo
echo "Written by \`$(basename "$0") $NP $SECS\` (TICKS=$TICKS) on $(date -u +%Y-%m-%d), ibsim,"
echo "$(nproc) CPUs shared with other developers' builds and VMs (load average"
echo "$LOAD0 at the start). $NP remote ports by --lid (LIDs 2-$((NP + 1)), port 1) and the"
echo "local one. CPU share: user + system time over the run's wall time,"
echo "as /proc reports them at exit; it includes the simulator shim"
echo "(umad2sim) the process loads, which a real HCA does not need."
echo "Instructions: callgrind, a run of $((2 + TICKS)) ticks minus one of 2, per port per tick."
echo
echo "| binary | CPU over ${SECS} s | share of one core | instructions per port per tick |"
echo "|---|---|---|---|"
for b in "$IBC" ${BASE:+"$BASE"}; do
	set -- $(proc_cost "$b")
	echo "| $b | $1 s | $2 % | $(per_port_tick "$b") |"
done
echo
echo "    $IBC watch --json --interval 1 --count $SECS --lid 2,3,...,$((NP + 1))"
sim_result >&2
