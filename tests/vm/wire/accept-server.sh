#!/bin/sh
# SPDX-License-Identifier: MIT
# wire/accept-server.sh (in VM A, 192.168.77.1, host name wire-a): two
# NICs on the wire (mv0 with rxe0, mv1 with rxe1; faultlib.sh wire_nics)
# and an agent on each, on TCP ports 18700 (rxe0) and 18702 (rxe1) of
# eth1, taking orders with the shared secret, until the client has ended;
# its NICs shaped as the client asks (faultlib.sh wire_shape_serve).
set -eu
. "$(dirname "$0")/../vmlib.sh"
. "$(dirname "$0")/../faultlib.sh"
wire_begin wire-a
wire_nic_agents 1
echo "server: agents on rxe0 (192.168.78.1) port 18700 and rxe1 (192.168.78.11) port 18702"
i=0
while [ ! -e "$IBCONSOLE_WIRE_DIR/done" ]; do
	for p in $AGENTS; do
		kill -0 "$p" 2>/dev/null || { cat agent*.log; fail "an agent died"; }
	done
	wire_shape_serve
	i=$((i + 1))
	[ $i -lt 3200 ] || fail "the client never ended"
	sleep 0.25
done
grep -h 'refused\|error' agent*.log | sed 's/^/server: /' || true
