# SPDX-License-Identifier: MIT
# fuzzlib.sh — build one libFuzzer target (clang, + ASan/UBSan) from the
# sources it names and run it over its seed corpus fuzz/corpus-NAME.
# Sourced by fuzz/fuzz-*.test (sh):
#
#   fuzz_run NAME MAX_LEN SOURCE... [-- LINKER ARGS]
#
# Exit 0 clean, 1 a crash / leak / time-out / broken invariant, 99 no clang
# or the target does not build. Longer runs: IBCONSOLE_FUZZ_SECONDS=600;
# IBCONSOLE_FUZZ_KEEP=DIR keeps the grown corpus and any artifact there.
set -u
srcdir=${srcdir:-$(dirname "$0")/..}

fuzz_run()
{
	name=$1 maxlen=$2
	shift 2
	secs=${IBCONSOLE_FUZZ_SECONDS:-15}
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
	cp "$srcdir/fuzz/corpus-$name"/* "$work/corpus/" 2>/dev/null || true
	echo "fuzz-$name: libFuzzer for ${secs} s"
	rc=0
	timeout -k 5 $((secs + 60)) "$work/fuzz_$name" -max_total_time="$secs" -max_len="$maxlen" \
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
	grep -E '^(#[0-9]+.*(DONE|pulse))|Done [0-9]+ runs' "$work/log" | tail -2
	exit 0
}
