#!/bin/sh
# SPDX-License-Identifier: MIT
# engine-vs-perftest.sh (results: bench/engine-vs-perftest.md): ibconsole's test engine against perftest, in ONE
# Soft-RoCE VM boot: write bandwidth at 64 KiB (ib_write_bw) and send
# latency at 2 B (ib_send_lat, median = perftest's t_typical), REPS
# alternating runs each, reported as ratios of the medians:
#   bandwidth ratio = ibconsole / perftest  (goal >= 1.0)
#   latency ratio   = ibconsole / perftest  (goal <= 1.0)
# Under TCG the absolute numbers mean nothing; only the ratios do.
# usage (build tree): bench/engine-vs-perftest.sh [REPS]   (default 5)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
IBCONSOLE=${IBCONSOLE:-$top/ibconsole}
[ -x "$IBCONSOLE" ] || { echo "build ibconsole first (make)" >&2; exit 2; }
export IBCONSOLE IBCONSOLE_BENCH_REPS=${1:-5}
exec "$top/tests/vm/rxe-vm.sh" "$here/in-vm.sh"
