# SPDX-License-Identifier: MIT
# vmlib.sh: helpers sourced by the in-VM tests (tests/vm/t-*.sh).

fail() {
	echo "FAILED: $*" >&2
	exit 1
}

# roce_v2_ipv4_index DEV PORT IPV4: the GID index of DEV/PORT whose type is
# "RoCE v2" and whose GID is IPV4 mapped into IPv6 (::ffff:a.b.c.d); empty
# when none. Unpopulated entries make gid_attrs reads fail with EINVAL.
roce_v2_ipv4_index() {
	/usr/bin/python3 - "$1" "$2" "$3" <<'PY'
import ipaddress, os, sys
dev, port, want = sys.argv[1], sys.argv[2], ipaddress.IPv4Address(sys.argv[3])
p = f"/sys/class/infiniband/{dev}/ports/{port}"
for name in sorted(os.listdir(p + "/gids"), key=int):
    try:
        t = open(f"{p}/gid_attrs/types/{name}").read().strip()
        g = ipaddress.IPv6Address(open(f"{p}/gids/{name}").read().strip())
    except OSError:
        continue
    if t == "RoCE v2" and g.ipv4_mapped == want:
        print(name)
        break
PY
}

# netdev_ipv4 NETDEV: the first IPv4 address on NETDEV.
netdev_ipv4() {
	ip -4 -o addr show dev "$1" | awk '{sub(/\/.*/, "", $4); print $4; exit}'
}

# vm_tmux DIR NAME: tmux inside the VM for a screen test. Its panes need a
# devpts and its socket a tmpfs of the VM's own (the 9p root holds
# neither): mounts both, exports TMUX_TMPDIR=DIR, sets T to tmux on its
# own server NAME. The screen is session "ui": cap prints it, wait_for
# waits for a pattern. End with vm_tmux_end.
vm_tmux() {
	[ -e /dev/pts/ptmx ] || { mkdir -p /dev/pts; mount -t devpts -o ptmxmode=0666 devpts /dev/pts || fail "cannot mount devpts for tmux"; }
	mkdir -p "$1"
	mount -t tmpfs tmpfs "$1" || fail "cannot mount a tmpfs for tmux's socket"
	TMUX_TMPDIR=$1
	export TMUX_TMPDIR
	T="tmux -u -L $2"
}
vm_tmux_end() {
	$T kill-server 2>/dev/null || true
	umount -l "$TMUX_TMPDIR" 2>/dev/null || true
}
ms() { date +%s%3N; }
cap() { $T capture-pane -p -t ui; }
# wait_for ERE SECONDS: until the screen shows ERE (wall clock: a slow
# emulated guest must not stretch the limit), polling every WAIT_POLL
# seconds (0.2); fails showing the screen, and what the caller's
# on_wait_fail prints when it has one
wait_for() {
	end=$(($(ms) + $2 * 1000))
	while ! cap | grep -Eq -- "$1"; do
		[ "$(ms)" -le "$end" ] || {
			cap
			! command -v on_wait_fail > /dev/null || on_wait_fail
			fail "the screen never showed /$1/ within $2 s"
		}
		sleep "${WAIT_POLL:-0.2}"
	done
}

# wire_wait_agent PEER [PORT [OPTION...]]: until the agent in the other VM
# (booting in parallel) answers (OPTION: e.g. --secret-file F for one that
# wants it); its TCP baseline does not use up its RDMA session.
wire_wait_agent() {
	peer=$1 port=${2:-}
	shift $(($# < 2 ? $# : 2))
	n=0
	until "$IBCONSOLE" test tcp --duration 1 --timeout 2 ${port:+--port "$port"} "$@" "$peer" > /dev/null 2>&1; do
		n=$((n + 1))
		[ "$n" -lt 60 ] || fail "the agent in the other VM ($peer${port:+ port $port}) never answered"
		sleep 2
	done
}

# wait_listening LOG: until the agent writing LOG says it listens (10 s).
wait_listening() {
	i=0
	until grep -qs listening "$1"; do
		i=$((i + 1))
		[ $i -le 100 ] || fail "the agent did not start: $(cat "$1")"
		sleep 0.1
	done
}

# perftest_pair SECONDS PORT PROG ARGS...: an unmodified perftest server
# (PROG ARGS, listening on TCP PORT) and its client (PROG ARGS 127.0.0.1)
# on this VM, each bounded by SECONDS. The server starts first and the
# client only once it listens (the client connects once, never retries).
# Leaves server.log and client.log, the server's pid in spid (kill it in
# the caller's EXIT trap: timeout runs in a process group of its own) and
# its exit status in perftest_src, the number of runs in perftest_runs (a
# run whose calibration failed is repeated); fails when the client fails.
# PT_SERVER_WRAP / PT_CLIENT_WRAP: a command put before each (a benchmark's
# `taskset -c N`), empty by default.
perftest_pair() {
	pt_s=$1 pt_port=$2
	shift 2
	perftest_runs=0
	while :; do
		perftest_runs=$((perftest_runs + 1))
		# shellcheck disable=SC2086 # a command prefix, split on purpose
		timeout -k 5 "$pt_s" ${PT_SERVER_WRAP:-} "$@" > server.log 2>&1 &
		spid=$!
		pt_n=0
		until ss -Hltn "sport = :$pt_port" | grep -q LISTEN; do
			pt_n=$((pt_n + 1))
			if [ "$pt_n" -gt 60 ] || ! kill -0 "$spid" 2>/dev/null; then
				cat server.log
				kill "$spid" 2>/dev/null
				fail "$1 server never listened on port $pt_port"
			fi
			sleep 0.5
		done
		pt_rc=0
		# shellcheck disable=SC2086
		timeout -k 5 "$pt_s" ${PT_CLIENT_WRAP:-} "$@" 127.0.0.1 > client.log 2>&1 || pt_rc=$?
		pt_src=0
		wait "$spid" || pt_src=$?
		# under TCG perftest's cycle-counter calibration now and then
		# fails after the traffic ("r^2 < 0.9, Can't produce a report"):
		# such a run is run again, 3 runs at most; perftest_runs says how
		# many moved their traffic
		[ "$pt_rc$pt_src" != 00 ] && [ "$perftest_runs" -lt 3 ] &&
			grep -qs "Can't produce a report\|Correlation coefficient r^2" client.log server.log || break
		echo "perftest's calibration failed (TCG): run $perftest_runs again"
	done
	perftest_src=$pt_src
	export perftest_src perftest_runs	# read by the caller
	[ "$pt_rc" = 0 ] || { cat client.log; fail "$1 client exited $pt_rc"; }
}
