#!/bin/sh
# SPDX-License-Identifier: MIT
# wire/screen-server.sh (in VM A, 192.168.77.1): the agent the client VM's
# console tests against across the lossy wire; one RDMA session, then it
# prints its retransmission counters and exits with the session's status.
set -u
. "$(dirname "$0")/../vmlib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ibc-wire.XXXXXX") || fail "mktemp"
cd "$work" || fail "cd $work"
trap 'rm -rf "$work"' EXIT
echo "server: agent on $RXE_VM_NETDEV ($(netdev_ipv4 "$RXE_VM_NETDEV"))"
timeout -k 5 300 "$IBCONSOLE" serve --once --timeout 60 2>&1 | sed 's/^/server: /'
rc=$?
cat /sys/class/infiniband/rxe0/ports/1/hw_counters/duplicate_request \
	/sys/class/infiniband/rxe0/ports/1/hw_counters/out_of_seq_request 2>/dev/null |
	paste -sd' ' | sed 's/^/server: duplicate_request out_of_seq_request: /'
exit $rc
