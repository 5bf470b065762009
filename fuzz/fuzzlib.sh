# SPDX-License-Identifier: MIT
# fuzzlib.sh — build one libFuzzer target (clang, + ASan/UBSan) from the
# sources it names and run it over its seed corpus fuzz/corpus-NAME.
# Sourced by fuzz/fuzz-*.test (sh):
#
#   fuzz_run NAME MAX_LEN SOURCE... [-- LINKER ARGS]
#
# In `make check` each input of the seed corpus runs once (a regression
# replay: seconds); `make fuzz` fuzzes for IBCONSOLE_FUZZ_SECONDS (60 by
# default there; 600 for a real hunt). FUZZ_CORPUS names a corpus folder
# other than fuzz/corpus-NAME.
# Exit 0 clean, 1 a crash / leak / time-out / broken invariant, 99 no clang
# or the target does not build.
# IBCONSOLE_FUZZ_KEEP=DIR keeps the grown corpus and any artifact there.
set -u
srcdir=${srcdir:-$(dirname "$0")/..}

fuzz_run()
{
	name=$1 maxlen=$2
	shift 2
	secs=${IBCONSOLE_FUZZ_SECONDS:-0}
	cc=$(command -v clang-14 || command -v clang || true)
	if [ -z "$cc" ] || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
		echo "fuzz-$name: ERROR: needs clang with libFuzzer: apt-get install clang-14 libclang-rt-14-dev" >&2
		exit 99
	fi
	[ -f config.h ] || { echo "fuzz-$name: ERROR: run from the configured build tree" >&2; exit 99; }
	srcs= libs= inlibs=
	for a in "$@"; do
		if [ "$a" = -- ]; then
			inlibs=1
		elif [ -n "$inlibs" ]; then
			libs="$libs $a"
		else
			srcs="$srcs $a"
		fi
	done
	work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$name.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	trap 'exit 99' HUP INT TERM
	# shellcheck disable=SC2086
	"$cc" -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -I. -I"$srcdir/src" $srcs $libs \
		-o "$work/fuzz_$name" 2>"$work/cc.log" || {
		cat "$work/cc.log" >&2
		echo "fuzz-$name: ERROR: the fuzz target does not build" >&2
		exit 99
	}
	mkdir -p "$work/corpus"
	corpus=${FUZZ_CORPUS:-$srcdir/fuzz/corpus-$name}
	cp "$corpus"/* "$work/corpus/" || { echo "fuzz-$name: ERROR: no seed corpus in $corpus" >&2; exit 99; }
	if [ "$secs" = 0 ]; then
		# -runs=0: every seed once, no mutation
		echo "fuzz-$name: replaying $(ls "$work/corpus" | wc -l) seeds (make fuzz fuzzes for time)"
		set -- -runs=0
	else
		echo "fuzz-$name: libFuzzer for ${secs} s"
		set -- -max_total_time="$secs"
	fi
	rc=0
	timeout -k 5 $((secs + 60)) "$work/fuzz_$name" "$@" -max_len="$maxlen" \
		-timeout=10 -rss_limit_mb=1024 -artifact_prefix="$work/" "$work/corpus" \
		>"$work/log" 2>&1 || rc=1
	if [ -n "${IBCONSOLE_FUZZ_KEEP:-}" ]; then
		mkdir -p "$IBCONSOLE_FUZZ_KEEP"
		cp -r "$work/corpus" "$work/log" "$IBCONSOLE_FUZZ_KEEP/" 2>/dev/null
		cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$IBCONSOLE_FUZZ_KEEP/" 2>/dev/null
	fi
	if [ $rc != 0 ]; then
		tail -40 "$work/log"
		for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
			[ -f "$a" ] && echo "fuzz-$name: FAILED: input $(basename "$a"): $(od -An -c "$a" | head -4)"
		done
		exit 1
	fi
	grep -E '^(#[0-9]+.*(INITED|DONE|pulse))|Done [0-9]+ runs' "$work/log" | tail -2
	# a replay that ran nothing proves nothing
	grep -Eq '^#[0-9]+[[:space:]]+(INITED|DONE)' "$work/log" ||
		{ tail -20 "$work/log"; echo "fuzz-$name: FAILED: libFuzzer never ran the corpus" >&2; exit 1; }
	exit 0
}
