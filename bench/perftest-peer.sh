#!/bin/sh
# SPDX-License-Identifier: MIT
# perftest-peer.sh (results: bench/perftest-peer.md): how closely
# `ibconsole test ... --perftest` (our client speaking perftest's
# handshake) agrees with perftest's own client against the same kind of
# unmodified perftest server, in ONE Soft-RoCE VM boot (tests/vm/rxe-vm.sh):
# ib_write_bw / ib_read_bw / ib_send_bw at 64 KiB (average Gb/s) and
# ib_write_lat / ib_send_lat at 2 B (t_typical, the median, in us).
# Per test: one warm-up run of each client, then PAIRS pairs alternating
# which client runs first (ours first in odd pairs); the figure is the
# median and range of the pairwise ratio ibconsole / perftest. Under TCG
# the absolute numbers mean nothing; only the ratios do.
#
# usage (from a build tree, or IBCONSOLE=BUILD/ibconsole):
#   bench/perftest-peer.sh [PAIRS [OUT]]   (9 pairs; OUT: Markdown section,
#                                           default stdout)
# Env: IBCONSOLE_BENCH_BW_ITERS (1000), IBCONSOLE_BENCH_LAT_ITERS (1000),
# IBCONSOLE_VM_TIMEOUT (2400 s for the whole boot).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

if [ "${1:-}" = --in-vm ]; then
	# ---- inside the VM: the measurement; results into $2 (shared dir) ----
	res=$2
	IBC_TMP=$(mktemp -d)
	cd "$IBC_TMP"
	. "$top/tests/vm/vmlib.sh"
	PORT=18680
	. "$top/tests/vm/enginelib.sh"
	. "$top/tests/vm/perftestlib.sh"
	. "$top/bench/benchlib.sh"
	# IPv6 autoconfiguration adds GIDs for a few seconds after boot
	n=0
	while ip -6 addr | grep -q tentative && [ $n -lt 40 ]; do n=$((n + 1)); sleep 0.25; done
	pairs=$IBCONSOLE_BENCH_PAIRS
	# perftest's own calibration fails now and then under TCG: a third try
	IBCONSOLE_PERFTEST_TRIES=${IBCONSOLE_PERFTEST_TRIES:-3}
	bwn=${IBCONSOLE_BENCH_BW_ITERS:-1000} latn=${IBCONSOLE_BENCH_LAT_ITERS:-1000}
	# one ratio: NAME LABEL TOOL FIELD KEY KIND ARGS... (as perftestlib's
	# compare); b_ names: perftestlib's functions use the plain ones
	bench() {
		b_name=$1 b_label=$2 b_tool=$3 b_field=$4 b_key=$5 b_kind=$6
		shift 6
		b_pa=$(perftest_args "$@" | sed "s/^ *//")
		echo "BENCH $(date +%T) $b_name: warm-up"
		ours "$b_tool" "$b_key" "$b_kind" "$@" > /dev/null
		theirs "$b_tool" "$b_field" $b_pa > /dev/null
		: > "$res/$b_name.ours"
		: > "$res/$b_name.theirs"
		b_i=1
		while [ $b_i -le "$pairs" ]; do
			if [ $((b_i % 2)) = 1 ]; then
				ours "$b_tool" "$b_key" "$b_kind" "$@" >> "$res/$b_name.ours"
				theirs "$b_tool" "$b_field" $b_pa >> "$res/$b_name.theirs"
			else
				theirs "$b_tool" "$b_field" $b_pa >> "$res/$b_name.theirs"
				ours "$b_tool" "$b_key" "$b_kind" "$@" >> "$res/$b_name.ours"
			fi
			echo "BENCH $(date +%T) $b_name pair $b_i: ibconsole $(tail -1 "$res/$b_name.ours"), perftest $(tail -1 "$res/$b_name.theirs")"
			b_i=$((b_i + 1))
		done
		echo "$b_name|$b_tool $b_label|$b_kind $*|$b_pa|$(bench_median "$res/$b_name.ours" 1)|$(bench_median "$res/$b_name.theirs" 1)|$(bench_ratio "$res/$b_name.ours" "$res/$b_name.theirs" 1)" >> "$res/rows"
	}
	{
		echo "vm_load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
		echo "vm_cpus=$(nproc)"
		echo "gid=$gid"
		echo "ip4=$ip4"
		echo "pp=$PP"
		echo "perftest=$(ib_write_bw --version 2>&1 | awk '/[Vv]ersion/ {print $NF; exit}')"
		echo "kernel=$(uname -r)"
		echo "clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	} > "$res/facts"
	bench write_bw_64k "64 KiB" ib_write_bw 4 bw_avg_gbps bw -s 65536 -n "$bwn" --report_gbits
	bench read_bw_64k "64 KiB" ib_read_bw 4 bw_avg_gbps bw --op read -s 65536 -n "$bwn" --report_gbits
	bench send_bw_64k "64 KiB" ib_send_bw 4 bw_avg_gbps bw --op send -s 65536 -n "$bwn" --report_gbits
	bench write_lat_2 "2 B" ib_write_lat 5 lat_median_us lat --op write -s 2 -n "$latn"
	bench send_lat_2 "2 B" ib_send_lat 5 lat_median_us lat --op send -s 2 -n "$latn"
	echo "vm_load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$res/facts"
	exit 0
fi

# ---- on the host: one boot, then the Markdown section ----
IBCONSOLE=${IBCONSOLE:-$top/ibconsole}
[ -x "$IBCONSOLE" ] || { echo "perftest-peer: build ibconsole first (make), or set IBCONSOLE" >&2; exit 2; }
case $IBCONSOLE in /*) ;; *) IBCONSOLE=$(pwd)/$IBCONSOLE ;; esac
pairs=${1:-9} out=${2:-/dev/stdout}
case $pairs in '' | *[!0-9]*) echo "perftest-peer: PAIRS must be a number, not '$pairs'" >&2; exit 2 ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/perftest-peer.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/res" && chmod 777 "$work/res"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
IBCONSOLE_BENCH_PAIRS=$pairs IBCONSOLE_VM_TIMEOUT=${IBCONSOLE_VM_TIMEOUT:-2400} IBCONSOLE_VM_QUIET=0 \
	IBCONSOLE="$IBCONSOLE" "$top/tests/vm/rxe-vm.sh" "$here/perftest-peer.sh" --in-vm "$work/res" > "$work/vm.log" 2>&1 || {
	tr -d '\r' < "$work/vm.log" | grep -avE '^\[ *[0-9.]+\]' | tail -n 60 >&2
	echo "perftest-peer: the VM run failed (log above)" >&2
	exit 1
}
load1=$(cut -d' ' -f1-3 /proc/loadavg)
grep -a '^BENCH' "$work/vm.log" | tr -d '\r' >&2
[ -s "$work/res/rows" ] || { echo "perftest-peer: no results came back from the VM" >&2; exit 1; }
f() { sed -n "s/^$1=//p" "$work/res/facts"; }
accel=$(grep -aom1 -- '-accel [a-z]*' "$work/vm.log" | head -1 | cut -d' ' -f2)
{
	echo "## ibconsole --perftest vs perftest's own client, same servers"
	echo
	echo "Written by \`bench/perftest-peer.sh $pairs\` on $(date -u +%Y-%m-%d): one VM, $(tr -d '\r' < "$work/vm.log" | grep -aom1 'rxe-vm: kernel .*' | sed 's/rxe-vm: //; s/, time-out.*//'),"
	echo "accelerator **$(echo "$accel" | tr a-z A-Z)**, clock source $(f clocksource), perftest $(f perftest) (wire version)."
	echo "Host: $(nproc) CPUs, load average $load0 before and $load1 after (1, 5, 15 min);"
	echo "guest load average $(f vm_load_before) before, $(f vm_load_after) after."
	echo
	echo "Per test one warm-up run of each client, then $pairs pairs alternating"
	echo "which runs first (ibconsole first in odd pairs). Each run starts a fresh"
	echo "server. Ratio = ibconsole / perftest's client, pair by pair; for"
	echo "bandwidth higher is better, for latency lower."
	echo
	echo "| test | ibconsole (median) | perftest's client (median) | pairwise ratio median | range | within 10 %? |"
	echo "|---|---|---|---|---|---|"
	while IFS='|' read -r name tool ourargs ptargs mo mt r; do
		set -- $r
		case $name in *lat*) u=us ;; *) u=Gb/s ;; esac
		ok=$(awk -v r="$1" 'BEGIN { print (r >= 1 / 1.1 && r <= 1.1) ? "yes" : "no" }')
		echo "| $tool | $(printf %.3g "$mo") $u | $(printf %.3g "$mt") $u | **$1** | $2 - $3 | $ok |"
	done < "$work/res/rows"
	echo
	echo "Exact command lines (GID index $(f gid), address $(f ip4), server port"
	echo "$(f pp); the server is started anew for every run, and both clients"
	echo "reach it at the same GID; perftest's client makes its TCP handshake to"
	echo "127.0.0.1, ours to the address):"
	echo
	while IFS='|' read -r name tool ourargs ptargs mo mt r; do
		tool=${tool%% *}
		echo "    server:    $tool -d rxe0 -x $(f gid) -p $(f pp) $ptargs"
		echo "    perftest:  $tool -d rxe0 -x $(f gid) -p $(f pp) $ptargs 127.0.0.1"
		echo "    ibconsole: ibconsole test $ourargs --perftest --port $(f pp) --no-record --json $(f ip4)"
		echo
	done < "$work/res/rows"
	echo "Every run (ibconsole; perftest), pair by pair:"
	echo
	while IFS='|' read -r name tool ourargs ptargs mo mt r; do
		echo "    $name: $(awk '{ printf "%s%.3g", (NR > 1 ? " " : ""), $1 }' "$work/res/$name.ours"); $(paste -sd' ' "$work/res/$name.theirs")"
	done < "$work/res/rows"
} > "$out"
