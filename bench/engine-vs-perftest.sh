#!/bin/sh
# SPDX-License-Identifier: MIT
# engine-vs-perftest.sh (results: bench/engine-vs-perftest.md): ibconsole's
# test engine against perftest in ONE Soft-RoCE VM boot, ROUNDS rounds (the
# first a warm-up, not counted), each tool going first in turn:
#   send_lat   ib_send_lat -s 2 -n 1000   / test lat --op send -s 2 -n 1000
#   write_lat  ib_write_lat -s 2 -n 1000  / test lat --op write -s 2 -n 1000
#   read_lat   ib_read_lat -s 2 -n 1000   / test lat --op read -s 2 -n 1000
#   ud_send_lat ib_send_lat -c UD -s 2 -n 1000 / test lat --op send -c UD …
#   write_bw   ib_write_bw -s 65536 -n 2000 / test bw -s 65536 -n 2000
# (IBCONSOLE_BENCH_METRICS="send_lat write_lat" runs a subset). Latency is
# perftest's t_typical, read in cycles (--report-cycles) and turned into
# microseconds with the cycle counter's rate over the whole bench
# (bench/tscrate.c), and our lat_median_us; bandwidth the averages.
# Printed: every run, then per metric the pairwise ratios ibconsole /
# perftest of the same round, their median and range.
# Under TCG the absolute numbers mean nothing; only the ratios do.
# usage (build tree): bench/engine-vs-perftest.sh [ROUNDS]   (default 10)
# Environment: IBCONSOLE_BENCH_VARIANTS="NAME=BINARY ..." compares several
# builds at once (each with its own agent), IBCONSOLE_BENCH_BW_VARIANTS
# names those that run write_bw too.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
IBCONSOLE=${IBCONSOLE:-$top/ibconsole}
[ -x "$IBCONSOLE" ] || { echo "build ibconsole first (make)" >&2; exit 2; }
# the cycle-counter helper, built here: the VM runs this machine's files
IBCONSOLE_BENCH_TSCRATE=$(dirname "$IBCONSOLE")/bench-tscrate
cc -std=c11 -O2 -o "$IBCONSOLE_BENCH_TSCRATE" "$here/tscrate.c" ||
	{ echo "cannot build bench/tscrate.c — install gcc" >&2; exit 2; }
export IBCONSOLE IBCONSOLE_BENCH_REPS=${1:-10} IBCONSOLE_BENCH_TSCRATE
export IBCONSOLE_VM_TIMEOUT=${IBCONSOLE_VM_TIMEOUT:-3000}
exec "$top/tests/vm/rxe-vm.sh" "$here/in-vm.sh"
