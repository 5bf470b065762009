#!/bin/sh
# SPDX-License-Identifier: MIT
# wire/accept-server.sh (in VM A, 192.168.77.1, host name wire-a): two
# NICs on the wire (mv0 with rxe0, mv1 with rxe1; faultlib.sh wire_nics)
# and an agent on each, on TCP ports 18700 (rxe0) and 18702 (rxe1) of
# eth1, taking orders with the shared secret, until the client has ended.
set -eu
. "$(dirname "$0")/../vmlib.sh"
. "$(dirname "$0")/../faultlib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ibc-wire.XXXXXX") || fail "mktemp"
cd "$work"
hostname wire-a
wire_nics "$RXE_VM_NETDEV" 1
echo "wire-accept-secret" > secret
agents=
for k in 0 1; do
	"$IBCONSOLE" serve -d "rxe$k" --port $((18700 + 2 * k)) --secret-file secret --timeout 30 > "agent$k.log" 2>&1 &
	agents="$agents $!"
done
trap 'kill $agents 2>/dev/null; rm -rf "$work"' EXIT
for k in 0 1; do wait_listening "agent$k.log"; done
echo "server: agents on rxe0 (192.168.78.1) port 18700 and rxe1 (192.168.78.11) port 18702"
i=0
while [ ! -e "$IBCONSOLE_WIRE_DIR/done" ]; do
	for p in $agents; do
		kill -0 "$p" 2>/dev/null || { cat agent*.log; fail "an agent died"; }
	done
	i=$((i + 1))
	[ $i -lt 3200 ] || fail "the client never ended"
	sleep 0.25
done
grep -h 'refused\|error' agent*.log | sed 's/^/server: /' || true
