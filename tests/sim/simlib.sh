# SPDX-License-Identifier: MIT
# simlib.sh — run a test against a simulated InfiniBand fabric (ibsim +
# umad2sim + one opensm sweep). Sourced by the tests in tests/sim (bash).
#
#   sim_isolate "$@"   re-exec the test in a private network namespace
#   sim_start TOPO     start ibsim on TOPO, assign LIDs with opensm -o
#   sim_ctl CMD        send one console command to ibsim, wait for it
#   sim_run CMD...     run CMD under the umad2sim preload as $SIM_HOST
#   sim_stop           kill what sim_start started, remove the temp dir
#                      (installed as EXIT trap; INT/TERM exit through it)
#   sim_at_exit CMD    also eval CMD on exit (the test's own cleanup)
#   sim_bg NAME CMD... CMD under the preload in the background, stdout in
#                      $SIM_DIR/NAME.out, stderr in NAME.err
#   sim_bg_wait NAME [WANT]  wait for it: a check fails unless it exited
#                      WANT (default 0; a case pattern such as '0|1' where
#                      the verdict is not what the test judges) with no
#                      sanitizer report on its stderr
#   sim_ui_cmd NAME CMD    the shell line for tmux that runs CMD (a string)
#                      in $SIM_DIR, stderr in NAME.err, its status in NAME.rc
#   sim_ui_wait NAME [WANT] [S]  wait S s (default 10) for NAME.rc: a check
#                      fails unless it says WANT (default 0) with no report
#
# Every process a test starts is held to account: a sanitizer report
# (ASan, LSan, UBSan) in any file under $SIM_DIR fails the test when it
# ends, so a report printed by a background process at exit is not lost
# when the folder is removed.
# ibsim binds a fixed abstract socket name; a test gets its own through a
# network namespace (unshare -n) and, belt and braces, its own
# IBSIM_SOCKNAME, which both ibsim and umad2sim honour.

SIM_UMAD2SIM=${SIM_UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
SIM_DIR=
SIM_PID=
SIM_WRITER_PID=
SIM_EXTRA_PIDS=
SIM_FAILS=0
SIM_AT_EXIT=

sim_fail()
{
	echo "FAIL: $*" >&2
	SIM_FAILS=$((SIM_FAILS + 1))
}

# A hard error (99): the test could not run at all.
sim_die()
{
	echo "ERROR: $*" >&2
	exit 99
}

sim_need()
{
	local c
	for c in ibsim ibstat smpquery perfquery ibportstate ibnetdiscover; do
		command -v "$c" >/dev/null 2>&1 ||
			sim_die "$c not found — apt-get install ibsim-utils infiniband-diags"
	done
	command -v opensm >/dev/null 2>&1 || [ -x /usr/sbin/opensm ] ||
		sim_die "opensm not found — apt-get install opensm"
	[ -r "$SIM_UMAD2SIM" ] ||
		sim_die "$SIM_UMAD2SIM not found — apt-get install ibsim-utils"
	command -v python3 >/dev/null 2>&1 ||
		sim_die "python3 not found — apt-get install python3"
	command -v unshare >/dev/null 2>&1 ||
		sim_die "unshare not found — apt-get install util-linux"
}

# Re-exec the calling test under `unshare -n` (as root) or `unshare -rn`
# (unprivileged user namespace) so its ibsim cannot meet anyone else's.
sim_isolate()
{
	PATH=$PATH:/usr/sbin:/sbin
	export PATH
	sim_need
	if [ -z "${SIM_IN_NETNS:-}" ]; then
		export SIM_IN_NETNS=1
		if unshare -n true 2>/dev/null; then
			exec unshare -n -- bash "$0" "$@"
		elif unshare -rn true 2>/dev/null; then
			exec unshare -rn -- bash "$0" "$@"
		fi
		echo "note: no network namespace available; relying on IBSIM_SOCKNAME" >&2
	fi
	IBSIM_SOCKNAME=ibcsim$$
	export IBSIM_SOCKNAME
	sim_trap
}

sim_first_hca()
{
	sed -n 's/^[[:space:]]*Hca[[:space:]]\{1,\}[0-9]\{1,\}[[:space:]]\{1,\}"\([^"]*\)".*/\1/p' "$1" | head -n 1
}

sim_kill_all()
{
	local p
	for p in $SIM_EXTRA_PIDS $SIM_PID $SIM_WRITER_PID; do
		kill "$p" 2>/dev/null
	done
	for p in $SIM_EXTRA_PIDS $SIM_PID $SIM_WRITER_PID; do
		wait "$p" 2>/dev/null
	done
	SIM_EXTRA_PIDS= SIM_PID= SIM_WRITER_PID=
}

# sim_procs_with_sock SOCK PID...: "pid cmdline" of each PID whose
# environment carries IBSIM_SOCKNAME=SOCK (the simulator a test started:
# other tests running beside it have their own)
sim_procs_with_sock()
{
	local sock=$1 p
	shift
	for p in "$@"; do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
			grep -qx "IBSIM_SOCKNAME=$sock" && echo "$p $(tr '\0' ' ' <"/proc/$p/cmdline")"
	done
}

sim_stop()
{
	sim_kill_all
	if [ -n "$SIM_DIR" ] && [ -d "$SIM_DIR" ]; then
		rm -rf "$SIM_DIR"
	fi
	SIM_DIR=
}

# sim_sanitizer_reports DIR...: print the sanitizer reports in the files
# under DIR; status 0 when there was one
SIM_SAN_RE='ERROR: (Address|Leak|Thread|Memory)Sanitizer|runtime error: |SUMMARY: UndefinedBehaviorSanitizer'
sim_sanitizer_reports()
{
	local f found=1
	for f in $(grep -rlaE "$SIM_SAN_RE" "$@" 2>/dev/null); do
		echo "FAIL: a sanitizer report in ${f##*/}:" >&2
		grep -aE -A20 "$SIM_SAN_RE" "$f" | head -40 >&2
		found=0
	done
	return $found
}

sim_exit()
{
	local rc=$?
	trap - EXIT
	eval "$SIM_AT_EXIT"
	# the processes have ended (or are ended now): their last words count
	sim_kill_all
	if [ -n "$SIM_DIR" ] && sim_sanitizer_reports "$SIM_DIR"; then
		[ "$rc" = 0 ] && rc=1
	fi
	sim_stop
	exit $rc
}

sim_trap()
{
	trap sim_exit EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

sim_at_exit()
{
	SIM_AT_EXIT="$SIM_AT_EXIT
$1"
	sim_trap
}

# Track a background process so sim_stop kills it too.
sim_track()
{
	SIM_EXTRA_PIDS="$SIM_EXTRA_PIDS $1"
}

declare -A SIM_BG
sim_bg()
{
	local name=$1
	shift
	[ -n "$SIM_DIR" ] || sim_die "sim_bg before sim_start"
	(cd "$SIM_DIR" && LD_PRELOAD="$SIM_UMAD2SIM" exec "$@") \
		>"$SIM_DIR/$name.out" 2>"$SIM_DIR/$name.err" &
	SIM_BG[$name]=$!
	sim_track $!
}

# sim_status_ok NAME WHAT GOT WANT: the check on a process that ended
sim_status_ok()
{
	# WANT may list several: 0|1
	case "|$4|" in *"|$3|"*) ;; *) false ;; esac || {
		sim_fail "$2 exited $3, want $4: $(tail -n 5 "$SIM_DIR/$1.err" 2>/dev/null)"
		return 1
	}
	if sim_sanitizer_reports "$SIM_DIR/$1.err"; then
		sim_fail "$2: a sanitizer report (above)"
		return 1
	fi
	return 0
}

sim_bg_wait()
{
	local name=$1 want=${2:-0} rc=0
	[ -n "${SIM_BG[$name]:-}" ] || sim_die "sim_bg_wait $name: not started"
	wait "${SIM_BG[$name]}" || rc=$?
	SIM_BG[$name]=
	sim_status_ok "$name" "$name (background)" "$rc" "$want"
}

# a core dump where the kernel puts one in the process's folder (core
# pattern "core"): its backtrace goes to the test's log when gdb is there
sim_ui_cmd()
{
	mkdir -p "$SIM_DIR/$1.cwd"
	printf "cd '%s' && ulimit -c unlimited 2>/dev/null; LD_PRELOAD='%s' %s 2>'%s'; echo \$? >'%s'" \
		"$SIM_DIR/$1.cwd" "$SIM_UMAD2SIM" "$2" "$SIM_DIR/$1.err" "$SIM_DIR/$1.rc"
}

sim_backtrace()	# NAME BINARY: the backtrace of NAME's core dump, if any
{
	local c
	for c in "$SIM_DIR/$1.cwd"/core*; do
		[ -f "$c" ] || continue
		if command -v gdb >/dev/null 2>&1; then
			gdb -q -batch -ex 'thread apply all bt' "$2" "$c" 2>&1 | tail -n 60 >&2
		else
			echo "($1 left $c; install gdb for its backtrace)" >&2
		fi
	done
}

sim_ui_wait()
{
	local name=$1 want=${2:-0} i
	for i in $(seq 1 $(( ${3:-10} * 10 ))); do
		[ -s "$SIM_DIR/$name.rc" ] && break
		sleep 0.1
	done
	if [ ! -s "$SIM_DIR/$name.rc" ]; then
		sim_fail "$name did not end within ${3:-10} s"
		return 1
	fi
	sim_status_ok "$name" "$name (on the terminal)" "$(cat "$SIM_DIR/$name.rc")" "$want" && return 0
	sim_backtrace "$name" "${IBC:-$IBCONSOLE}"
	return 1
}

sim_log()
{
	cat "$SIM_DIR/ibsim.log" 2>/dev/null
}

# ibsim's log with `sim_ctl "verbose 1"`: a line per MAD delivered, with
# its attribute. sim_log_lines: the log's length now; sim_log_count
# PATTERN FROM: lines after line FROM that match (grep's basic RE).
sim_log_lines()
{
	wc -l <"$SIM_DIR/ibsim.log"
}
sim_log_count()
{
	tail -n +"$(($2 + 1))" "$SIM_DIR/ibsim.log" | grep -c "$1"
}
# PMA MADs (ClassPortInfo, PortCounters, PortCountersExtended), NodeInfo
# SMPs, and ClassPortInfo alone
SIM_PMA_RE='process_packet: packet (attr 0x\(1\|12\|1d\) mod'
SIM_NODEINFO_RE='process_packet: packet (attr 0x11 mod'
SIM_CPI_RE='process_packet: packet (attr 0x1 mod'

# Number of console prompts ibsim has printed: one per command handled.
sim_prompts()
{
	grep -o 'sim> ' "$SIM_DIR/ibsim.log" 2>/dev/null | wc -l
}

sim_start()
{
	local topo=$1 i rc line
	[ -r "$topo" ] || sim_die "topology $topo not readable"
	[ -n "$SIM_DIR" ] && sim_stop
	sim_trap
	SIM_DIR=$(mktemp -d "${TMPDIR:-/tmp}/ibc-sim.XXXXXX") ||
		sim_die "mktemp failed"
	SIM_TOPO=$topo
	mkfifo "$SIM_DIR/ctl" || sim_die "mkfifo failed"
	# The writer keeps the console FIFO open: without it ibsim sees EOF.
	sleep 1e6 >"$SIM_DIR/ctl" &
	SIM_WRITER_PID=$!
	# SIM_IBSIM_ARGS: e.g. "-N 4096" for fabrics over 2,048 nodes
	ibsim ${SIM_IBSIM_ARGS:-} -s "$topo" <"$SIM_DIR/ctl" >"$SIM_DIR/ibsim.log" 2>&1 &
	SIM_PID=$!
	for i in $(seq 1 "${SIM_READY_TENTHS:-100}"); do
		grep -q 'Network simulator ready' "$SIM_DIR/ibsim.log" && break
		kill -0 "$SIM_PID" 2>/dev/null || {
			sim_log >&2
			sim_die "ibsim exited while loading $topo"
		}
		sleep 0.1
	done
	grep -q 'Network simulator ready' "$SIM_DIR/ibsim.log" ||
		sim_die "ibsim not ready after $(( ${SIM_READY_TENTHS:-100} / 10 )) s on $topo"
	SIM_HOST=${SIM_HOST:-$(sim_first_hca "$topo")}
	export SIM_HOST
	mkdir -p "$SIM_DIR/osm"
	(cd "$SIM_DIR" && OSM_CACHE_DIR="$SIM_DIR/osm" LD_PRELOAD="$SIM_UMAD2SIM" \
		timeout -k 2 "${SIM_OPENSM_TIMEOUT:-30}" opensm -f "$SIM_DIR/opensm.log" -o \
		>"$SIM_DIR/opensm.out" 2>&1)
	rc=$?
	[ $rc -eq 0 ] || {
		tail -n 20 "$SIM_DIR/opensm.out" "$SIM_DIR/opensm.log" >&2
		sim_die "opensm -o failed (rc $rc) on $topo"
	}
	# Faults that must be applied after the SM (see degraded.net).
	while IFS= read -r line; do
		sim_post_sm "$line"
	done <<POST
$(sed -n 's/^#@post-sm[[:space:]]\{1,\}//p' "$topo")
POST
	return 0
}

# LID of a node by name, from ibnetdiscover (switches: port 0's LID).
sim_lid_of()
{
	sim_run ibnetdiscover 2>/dev/null |
		sed -n "s/.*# \"$1\".* lid \([0-9]\{1,\}\).*/\1/p" | head -n 1
}

sim_post_sm()
{
	local verb node port val lid
	[ -n "$1" ] || return 0
	eval "set -- $1"
	verb=$1 node=$2 port=$3 val=$4
	lid=$(sim_lid_of "$node")
	[ -n "$lid" ] || sim_die "post-sm: no LID for \"$node\""
	case $verb in
	speed | espeed | width)
		sim_run ibportstate "$lid" "$port" "$verb" "$val" >/dev/null 2>&1 ||
			sim_die "post-sm: ibportstate $lid $port $verb $val failed"
		;;
	*) sim_die "post-sm: unknown verb $verb" ;;
	esac
}

sim_ctl()
{
	local before i
	[ -n "$SIM_DIR" ] || sim_die "sim_ctl before sim_start"
	before=$(sim_prompts)
	printf '%s\n' "$1" >"$SIM_DIR/ctl"
	for i in $(seq 1 50); do
		[ "$(sim_prompts)" -gt "$before" ] && return 0
		sleep 0.05
	done
	echo "warning: ibsim did not acknowledge: $1" >&2
	return 1
}

sim_run()
{
	[ -n "$SIM_DIR" ] || sim_die "sim_run before sim_start"
	(cd "$SIM_DIR" && LD_PRELOAD="$SIM_UMAD2SIM" "$@")
}

# Exit status for the test: 0 when nothing failed.
sim_result()
{
	if [ "$SIM_FAILS" -gt 0 ]; then
		echo "$SIM_FAILS check(s) failed" >&2
		exit 1
	fi
	echo "all checks passed"
	exit 0
}
