#!/bin/bash
# SPDX-License-Identifier: MIT
# json-writer-bench.sh [LEAVES HCAS_PER_LEAF SPINES] — ibconsole's JSON
# writer (src/core/base/json.c) against json-c's, on the documents
# `ibconsole errors --json` and `fabric --json` write for one generated
# ibsim fat tree (default 48 leaves x 24 HCAs + 8 spines = 3,072 ports).
# Each document is captured once from the real command; bench/jsonwriter.c
# then writes it REPS times a run (about 20 MB) with each writer (json-c:
# build the tree, serialise, free), timing only the writing. Checks first
# that ours gives the captured document back byte for byte and that
# json-c's output parses to the same document. Method (as bench/benchlib.sh): one warm-up run each, then
# PAIRS (default 9) alternating pairs, each writer first in every other
# pair; median and range of the pairwise ratio ours / json-c of wall and
# CPU time.
#   Prints a Markdown section (bench/RESULTS.md quotes it); OUT=FILE also
#   writes it there.  IBCONSOLE=path/to/ibconsole  PAIRS=9
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/sim/simlib.sh"
. "$here/benchlib.sh"
sim_isolate "$@"
LEAVES=${1:-48} PER=${2:-24} SPINES=${3:-8}
PAIRS=${PAIRS:-9}
IBC=${IBCONSOLE:-$here/../ibconsole}
OUT=${OUT:-}
[ -x "$IBC" ] || sim_die "$IBC not built"
[ -r "$here/../config.h" ] || sim_die "config.h missing — run ./configure first"
pkg-config --exists json-c || sim_die "json-c not found — apt-get install libjson-c-dev"
[ "$PAIRS" -ge 9 ] 2>/dev/null || sim_die "PAIRS=$PAIRS: at least 9 pairs, or noise passes for a finding"

bench_fat_tree "$LEAVES" "$PER" "$SPINES"
# The same findings as sweep-bench.sh: the listing is not empty.
bench_findings

JW=$SIM_DIR/jsonwriter
# shellcheck disable=SC2046 # pkg-config's flags are split on purpose
cc -std=c11 -O2 -g -I"$here/.." -I"$here/../src" -I"$here" -o "$JW" "$here/jsonwriter.c" \
	"$here/jsonwriter_ours.c" "$here/../src/core/base/json.c" $(pkg-config --cflags --libs json-c) -lm ||
	sim_die "cannot build bench/jsonwriter.c"
BENCH=$(mktemp -d "${TMPDIR:-/tmp}/ibc-jw.XXXXXX") || sim_die mktemp
sim_at_exit "rm -rf '$BENCH'"
cp "$JW" "$BENCH/" || sim_die "cannot copy to $BENCH"
JW=$BENCH/jsonwriter

# capture NAME WANT_RC ARGS...: the command's document in $BENCH/NAME.json,
# checked both ways; its wall time, size, and json-c's differing lines in
# $BENCH/NAME.facts
capture()
{
	local name=$1 want=$2 doc=$BENCH/$1.json t0 t1 rc
	shift 2
	t0=$(bench_now)
	sim_run "$IBC" "$@" >"$doc" 2>"$BENCH/$name.err"
	rc=$?
	t1=$(bench_now)
	[ "$rc" = "$want" ] || sim_die "ibconsole $* exited $rc, not $want: $(head -c 300 "$BENCH/$name.err")"
	# fabric --json ends with a blank line after the writer's document
	sed -i '${/^$/d}' "$doc"
	"$JW" write-ours "$doc" >"$BENCH/$name.ours" || sim_die "jsonwriter write-ours $name failed"
	cmp -s "$doc" "$BENCH/$name.ours" ||
		sim_die "ours does not give $name back byte for byte: $(diff "$doc" "$BENCH/$name.ours" | head -c 600)"
	"$JW" write-jsonc "$doc" >"$BENCH/$name.jsonc" || sim_die "jsonwriter write-jsonc $name failed"
	python3 - "$doc" "$BENCH/$name.jsonc" <<'PY' || sim_die "json-c's $name is not the same document"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY
	echo "$rc $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') $(wc -c <"$doc")" \
		"$(wc -c <"$BENCH/$name.jsonc") $(diff "$doc" "$BENCH/$name.jsonc" | grep -c '^<')" >"$BENCH/$name.facts"
}
# 1: a port above act, as set above
capture errors 1 errors --json
capture fabric 0 fabric --json
PORTS=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["ports_swept"])' "$BENCH/errors.json") ||
	sim_die "errors --json has no ports_swept"
sim_stop	# the writers need no fabric: ibsim's CPU back for the timing

# pairs NAME: PAIRS alternating pairs of REPS writes of NAME.json each,
# REPS sized to about 20 MB written a run; "wall_s cpu_s" lines in
# $BENCH/NAME-{ours,jsonc}.runs
pairs()
{
	local n=$1 doc=$BENCH/$1.json reps i
	reps=$(awk -v b="$(wc -c <"$doc")" 'BEGIN { r = int(2e7 / b); print (r < 1 ? 1 : (r > 100000 ? 100000 : r)) }')
	echo "$reps" >"$BENCH/$n.reps"
	: >"$BENCH/$n-ours.runs"
	: >"$BENCH/$n-jsonc.runs"
	"$JW" ours "$doc" "$reps" >/dev/null || sim_die "warm-up failed"
	"$JW" jsonc "$doc" "$reps" >/dev/null || sim_die "warm-up failed"
	for i in $(seq 1 "$PAIRS"); do
		for w in $( [ $((i % 2)) = 1 ] && echo ours jsonc || echo jsonc ours); do
			"$JW" "$w" "$doc" "$reps" >>"$BENCH/$n-$w.runs" || sim_die "jsonwriter $w $n failed"
		done
	done
	[ "$(wc -l <"$BENCH/$n-ours.runs")" = "$PAIRS" ] && [ "$(wc -l <"$BENCH/$n-jsonc.runs")" = "$PAIRS" ] ||
		sim_die "missing runs of $n"
}
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
pairs errors
pairs fabric
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

per() # NAME WRITER COL: the median per document, in ms
{
	awk -v r="$(cat "$BENCH/$1.reps")" -v m="$(bench_median "$BENCH/$1-$2.runs" "$3")" 'BEGIN { printf "%.3f", m / r * 1000 }'
}
ratio() # NAME COL
{
	set -- $(bench_ratio "$BENCH/$1-ours.runs" "$BENCH/$1-jsonc.runs" "$2")
	echo "**$1** | $2 - $3"
}
doc_line() # NAME CMD
{
	set -- "$1" "$2" $(cat "$BENCH/$1.facts")
	echo "- \`ibconsole $2\`: exit status $3, $4 s of wall time, $5 bytes; json-c's"
	echo "  output $6 bytes, $7 of ours' lines differing; written $(cat "$BENCH/$1.reps") times a run."
}
{
	echo "# JSON writer: ours (src/core/base/json.c) vs json-c's"
	echo
	echo "Written by \`$(basename "$0") $LEAVES $PER $SPINES\` (PAIRS=$PAIRS) on $(date -u +%Y-%m-%d),"
	echo "$(nproc) CPUs shared with other developers' builds and VMs: load average"
	echo "$LOAD0 before, $LOAD1 after (1, 5, 15 min)."
	echo
	echo "Documents, captured once each on the fat tree ${LEAVES}x${PER} + $SPINES spines"
	echo "($NODES nodes, $PORTS ports swept; errors: five counters set, exit 1 = a port above act):"
	echo
	doc_line errors "errors --json"
	doc_line fabric "fabric --json"
	echo
	echo "Ours writes each back byte for byte (fabric's blank line after the"
	echo "document, which the command adds, left out); json-c's output (PRETTY | SPACED |"
	echo "NOSLASHESCAPE, doubles as %.10g) parses to the same document, with its"
	echo "own spacing and number forms where lines differ."
	echo
	echo "Commands, each writing the document REPS times to /dev/null and timing"
	echo "only that (json-c: the json_object tree built, serialised, written, freed):"
	echo
	echo "    A: jsonwriter ours DOC REPS"
	echo "    B: jsonwriter jsonc DOC REPS"
	echo
	echo "One warm-up run each, then $PAIRS pairs, A first in odd pairs, B in even."
	echo
	echo "| document | ours, wall / CPU per document (median) | json-c, wall / CPU per document (median) |"
	echo "|---|---|---|"
	for n in errors fabric; do
		echo "| $n --json | $(per $n ours 1) / $(per $n ours 2) ms | $(per $n jsonc 1) / $(per $n jsonc 2) ms |"
	done
	echo
	echo "| pairwise ratio ours / json-c | median | range |"
	echo "|---|---|---|"
	for n in errors fabric; do
		echo "| $n --json, wall | $(ratio $n 1) |"
		echo "| $n --json, CPU | $(ratio $n 2) |"
	done
	echo
	echo "Every run (wall s, CPU s, for REPS documents):"
	echo
	for n in errors fabric; do
		for w in ours jsonc; do
			echo "    $n $w: $(tr '\n' ';' <"$BENCH/$n-$w.runs")"
		done
	done
} | tee ${OUT:+"$OUT"}
