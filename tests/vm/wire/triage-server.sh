#!/bin/sh
# SPDX-License-Identifier: MIT
# wire/triage-server.sh (in VM A, 192.168.77.1, host name wire-a): the
# agent the client VM's triage walks against, serving every session until
# the client has ended, on a lossless queue (faultlib.sh); leaves its own
# rxe0 MTU (ibv_devinfo, the oracle) and netdev MTU in the shared
# directory first.
set -eu
. "$(dirname "$0")/../vmlib.sh"
. "$(dirname "$0")/../faultlib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ibc-wire.XXXXXX") || fail "mktemp"
cd "$work"
hostname wire-a
wire_lossless "$RXE_VM_NETDEV"
rxe_active_mtu > "$IBCONSOLE_WIRE_DIR/a-active-mtu"
cat "/sys/class/net/$RXE_VM_NETDEV/mtu" > "$IBCONSOLE_WIRE_DIR/a-netdev-mtu"
"$IBCONSOLE" serve --timeout 30 > agent.log 2>&1 &
agent=$!
trap 'kill $agent 2>/dev/null; rm -rf "$work"' EXIT
echo "server: agent on $RXE_VM_NETDEV ($(netdev_ipv4 "$RXE_VM_NETDEV")), rxe0 active MTU $(cat "$IBCONSOLE_WIRE_DIR/a-active-mtu")"
i=0
while [ ! -e "$IBCONSOLE_WIRE_DIR/done" ]; do
	kill -0 $agent 2>/dev/null || { cat agent.log; fail "the agent died"; }
	i=$((i + 1))
	[ $i -lt 2400 ] || fail "the client never ended"
	sleep 0.25
done
sed 's/^/server: /' agent.log
