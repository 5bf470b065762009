#!/bin/sh
# SPDX-License-Identifier: MIT
# t-41-fabric.sh: on a RoCE port (rxe0) `ibconsole fabric` cannot discover
# anything (no SMPs on Ethernet): it must say so in one line and exit 3,
# not hang in libibnetdisc's time-outs.
set -u
# shellcheck source=tests/vm/vmlib.sh
. "$VM_TESTS_DIR/vmlib.sh"
out=$(timeout 20 "$IBCONSOLE" fabric 2>&1)
rc=$?
[ "$rc" = 3 ] || fail "ibconsole fabric on rxe0: exit $rc, want 3 ($out)"
echo "$out" | grep -q '^ibconsole: fabric discovery: rxe0 is a RoCE (Ethernet) port.* — ' ||
	fail "ibconsole fabric on rxe0 said: $out"
[ "$(echo "$out" | wc -l)" = 1 ] || fail "more than one line: $out"
echo "fabric on RoCE: exit 3, $out"
