#!/bin/sh
# SPDX-License-Identifier: MIT
# roce-demo.sh: `ibconsole --demo roce` — two throw-away Soft-RoCE VMs
# joined by a wire: the agent (`ibconsole serve`, with a shared secret) on one, the console on
# the other, on this terminal, with the agent already its test peer. Real
# RoCE traffic, real retransmission counters, planted faults switchable
# from the console (key F; roce-fault.sh). Nothing outlives it: both VMs,
# qemu and the temporary folder are gone when the console quits.
#
# usage: roce-demo.sh            (on the host; IBCONSOLE names the binary)
#        roce-demo.sh server     (inside VM A, run by rxe-vm.sh)
#        roce-demo.sh console    (inside VM B, run by rxe-vm.sh)
#
# The VMs come from rxe-vm.sh (installed beside this script; in the source
# tree tests/vm/rxe-vm.sh): they mount this machine's root read-write over
# 9p, so the binary, the tools and the temporary folder are the same in
# both. The first run downloads a Debian kernel into rxe-vm.sh's cache.
# Environment: IBCONSOLE_VM_ACCEL, IBCONSOLE_VM_CACHE (see rxe-vm.sh),
# IBCONSOLE_VM_TIMEOUT (the longest a demo may last, s; default 4 hours).
set -u

me="ibconsole --demo roce"
here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
server_ip=192.168.77.1
client_ip=192.168.77.2

say() { echo "$me: $*" >&2; }

# ---- inside VM A: the agent, restarted whenever serve.args changes ----
# A fault may ask for other agent options (roce-fault.sh writes the file;
# gid=link-local is resolved here, where the GID table is).
serve_args() {
	a=$(cat "$IBCONSOLE_DEMO_DIR/serve.args" 2>/dev/null) || a=
	case $a in
	gid=link-local)
		p=/sys/class/infiniband/rxe0/ports/1
		for g in $(cd "$p/gids" && printf '%s\n' * | sort -n); do
			[ "$(cat "$p/gid_attrs/types/$g" 2>/dev/null)" = "RoCE v2" ] || continue
			case $(cat "$p/gids/$g") in fe80:*) echo "-x $g"; return ;; esac
		done
		;;
	esac
}

role_server() {
	dir=$IBCONSOLE_DEMO_DIR
	hostname roce-agent
	# the clean wire (roce-fault.sh): a queue that drops nothing
	"$IBCONSOLE_DEMO_FAULTS" clean || echo "$me: could not set the clean wire's queue" >> "$dir/serve.log"
	while [ ! -e "$dir/stop" ]; do
		want=$(cat "$dir/serve.args" 2>/dev/null) || want=
		# shellcheck disable=SC2046 # serve_args is a word list
		"$IBCONSOLE" serve --secret-file "$dir/secret" $(serve_args) >> "$dir/serve.log" 2>&1 &
		pid=$!
		sleep 1
		echo "$want" > "$dir/ready"
		while kill -0 "$pid" 2>/dev/null && [ ! -e "$dir/stop" ] &&
			[ "$(cat "$dir/serve.args" 2>/dev/null)" = "$want" ]; do
			sleep 0.5
		done
		kill "$pid" 2>/dev/null
		wait "$pid"
	done
}

# ---- inside VM B: the demo's line rate ----
# The emulated wire carries far less than the 2.5 Gb/s rxe reports, so a
# clean wire judged against 2.5 fails. At boot the console's VM measures
# what the wire carries: bandwidth to the agent at 64 KiB (the size the
# acceptance and the default test use), write and send, 4 s each. Under
# emulation the wire's rate follows the host's free CPU, so a later run
# on a busy host carries a third less than at boot (measured: 0.0146
# Gb/s in a 20 s test after 0.0211 at boot). The line rate the console's
# test and acceptance screens judge against (IBCONSOLE_DEMO_LINE_RATE,
# Gb/s) is therefore the lower of the two less a margin: 50 %
# (IBCONSOLE_DEMO_MARGIN_PCT; the demo's own choice, no source gives
# one). The planted faults show in the triage's steps and the counters,
# not in this margin. Nothing measured: the port's rate.
measure_line_rate() {
	printf '%s\r\n' "$me: measuring what the emulated wire carries (about 10 s) ..."
	low=
	for op in write send; do
		g=$("$IBCONSOLE" test bw --op "$op" -s 65536 -D 4 --no-record --json -d rxe0 \
			--secret-file "$dir/secret" "$server_ip" \
			2>> "$dir/measure.err" | sed 's/[,{}]/\n/g' |
			sed -n 's/^ *"bw_avg_gbps" *: *\([0-9.eE+-]*\) *$/\1/p' | head -n 1)
		case $g in ''|*[!0-9.eE+-]*) continue ;; esac
		awk -v a="$g" 'BEGIN { exit !(a + 0 > 0) }' || continue
		[ -z "$low" ] && low=$g && continue
		low=$(awk -v a="$low" -v b="$g" 'BEGIN { print (b < a) ? b : a }')
	done
	if [ -z "$low" ]; then
		printf '%s\r\n' "$me: the wire could not be measured (see $dir/measure.err): judging against the port's rate"
		return 0
	fi
	margin=${IBCONSOLE_DEMO_MARGIN_PCT:-50}
	case $margin in [0-9]|[0-9][0-9]) ;; *) margin=50 ;; esac
	keep=$((100 - margin))
	IBCONSOLE_DEMO_LINE_RATE=$(awk -v a="$low" -v k="$keep" 'BEGIN { printf "%.4g", a * k / 100 }')
	IBCONSOLE_DEMO_LINE_MEASURED=$(awk -v a="$low" -v k="$keep" 'BEGIN { printf "%d %% of %.3g", k, a }')
	export IBCONSOLE_DEMO_LINE_RATE IBCONSOLE_DEMO_LINE_MEASURED
	printf '%s\r\n' "$me: demo line rate $IBCONSOLE_DEMO_LINE_RATE Gb/s ($IBCONSOLE_DEMO_LINE_MEASURED)"
}

# ---- inside VM B: the demo's settings ----
# The emulated wire comes in bursts: a clean 20 s run peaks at about three
# times its average (0.0449 against 0.0168 Gb/s), which on a real link the
# bandwidth stability rule (peak and average within 1 %) rightly calls
# unstable. In the demo that says nothing about the wire, so its console
# reads a settings file that lets peak and average differ (the config key
# test_bw_stability_pct, the demo's choice); a file the user gave
# (IBCONSOLE_CONFIG) is used instead. Each emulated QP works on a CPU of
# its own, so a clean wire carries more with 8 QPs than with one
# (measured: 1.3x and 2.3x in two walks), which the triage's step 7
# would call a single-QP limit; the demo's planted one (fault qp: a tbf
# per band of source ports, 8 QPs falling in several of its 16) gave
# 3.6x: the file asks for 3 (triage.qp_gain, the demo's choice; the
# margin on both sides is thin).
demo_config() {
	[ -z "${IBCONSOLE_CONFIG:-}" ] || return 0
	{
		echo "# ibconsole --demo roce: the emulated wire's bursts are not a link's instability"
		echo "test_bw_stability_pct = 100"
		echo "triage.qp_gain = 3"
	} > "$dir/demo.conf" || return 0
	IBCONSOLE_CONFIG=$dir/demo.conf
	export IBCONSOLE_CONFIG
}

# ---- inside VM B: the console, once the agent answers ----
role_console() {
	dir=$IBCONSOLE_DEMO_DIR
	hostname roce-console
	"$IBCONSOLE_DEMO_FAULTS" clean || printf '%s\r\n' "$me: could not set the clean wire's queue"
	printf '%s\r\n' "$me: waiting for the agent on $server_ip ..."
	n=0
	until [ -e "$dir/ready" ]; do
		n=$((n + 1))
		if [ "$n" -gt 240 ]; then
			printf '%s\r\n' "$me: the agent VM did not start within 120 s; its log: $dir/server.log"
			return 99
		fi
		sleep 0.5
	done
	XDG_STATE_HOME=$dir/state
	export XDG_STATE_HOME
	demo_config
	measure_line_rate
	# exec: on Ctrl-C the VM's wrapper waits for the console itself,
	# which restores the terminal before the VM powers off
	exec "$IBCONSOLE" -d rxe0 --peer "$server_ip" --secret-file "$dir/secret"
}

case ${1:-} in
server) role_server; exit $? ;;
console) role_console; exit $? ;;
"") ;;
*) echo "usage: $0 [server|console]" >&2; exit 2 ;;
esac

# ---- on the host ----
vm=$here/rxe-vm.sh
[ -x "$vm" ] || vm=$here/../tests/vm/rxe-vm.sh
[ -x "$vm" ] || { say "rxe-vm.sh is not installed beside $self — reinstall ibconsole"; exit 3; }
[ -n "${IBCONSOLE:-}" ] || { say "IBCONSOLE is not set — start the demo with: ibconsole --demo roce"; exit 2; }
command -v ss > /dev/null 2>&1 || { say "ss not found — apt-get install iproute2"; exit 3; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/ibconsole-demo.XXXXXX") || { say "cannot create a temporary folder"; exit 5; }
spid=
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	: > "$dir/stop"
	if [ -n "$spid" ]; then
		kill -TERM "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
	fi
	rm -rf "$dir"
}
trap cleanup EXIT
# The agent wants a shared secret, as a site's agents should; the console
# is given the file (--secret-file) and its test, acceptance and triage
# send it.
(umask 077 && od -An -tx1 -N 24 /dev/urandom | tr -d ' \n' > "$dir/secret") ||
	{ say "cannot write the demo's secret in $dir"; exit 5; }
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Host tools and the kernel cache; the first run downloads (apt prints
# its progress). One line when something is missing.
say "checking qemu and the VM kernel (the first run downloads a Debian kernel once, ~100 MB)"
{ "$vm" --prepare 2>&1; echo $? > "$dir/prep.rc"; } | sed -u "s/^rxe-vm: ERROR: /$me: cannot start the VMs: /; s/^rxe-vm: /$me: /" >&2
[ "$(cat "$dir/prep.rc")" = 0 ] || exit 3
{ [ -t 0 ] && [ -t 1 ]; } || { say "the console needs a terminal — run it in one (or in tmux)"; exit 2; }

IBCONSOLE_VM_TIMEOUT=${IBCONSOLE_VM_TIMEOUT:-14400}
IBCONSOLE_DEMO_DIR=$dir
IBCONSOLE_DEMO_FAULTS=$here/roce-fault.sh
export IBCONSOLE IBCONSOLE_VM_TIMEOUT IBCONSOLE_DEMO_DIR IBCONSOLE_DEMO_FAULTS

# a free port for the wire: the kernel picks one, qemu gets it next
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null) ||
	port=$((20000 + $$ % 20000))
say "booting two Soft-RoCE VMs: the agent on $server_ip, the console on $client_ip (under TCG about a minute)"
RXE_VM_WIRE=listen=127.0.0.1:$port RXE_VM_IP=$server_ip/24 IBCONSOLE_VM_QUIET=1 \
	"$vm" "$self" server > "$dir/server.log" 2>&1 < /dev/null &
spid=$!
n=0
until ss -ltn "sport = :$port" | grep -q LISTEN; do
	n=$((n + 1))
	if ! kill -0 "$spid" 2>/dev/null || [ "$n" -gt 300 ]; then
		say "the agent VM did not start: $(grep -m1 ERROR "$dir/server.log" || tail -n 1 "$dir/server.log")"
		exit 99
	fi
	sleep 0.1
done
RXE_VM_TTY=1 RXE_VM_WIRE=connect=127.0.0.1:$port RXE_VM_IP=$client_ip/24 "$vm" "$self" console
exit $?
