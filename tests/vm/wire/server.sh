#!/bin/sh
# SPDX-License-Identifier: MIT
# wire/server.sh (in VM A, 192.168.77.1): the ib_write_bw server the
# client VM runs against across the lossy wire.
set -u
. "$(dirname "$0")/../vmlib.sh"
# scratch files in a directory of our own, not the caller's
work=$(mktemp -d "${TMPDIR:-/tmp}/ibc-wire.XXXXXX") || fail "mktemp"
cd "$work" || fail "cd $work"
trap 'rm -rf "$work"' EXIT
ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
idx=$(roce_v2_ipv4_index rxe0 1 "$ip4")
[ -n "$idx" ] || fail "server: no RoCE v2 GID for $ip4"
echo "server: GID index $idx on $RXE_VM_NETDEV ($ip4)"
timeout -k 5 240 ib_write_bw -d rxe0 -x "$idx" -s 65536 -n "${WIRE_ITERS:-40}" \
	--report_gbits -p 18515
rc=$?
cat /sys/class/infiniband/rxe0/ports/1/hw_counters/duplicate_request \
	/sys/class/infiniband/rxe0/ports/1/hw_counters/out_of_seq_request 2>/dev/null |
	paste -sd' ' | sed 's/^/server: duplicate_request out_of_seq_request: /'
exit $rc
