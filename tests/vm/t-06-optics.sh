#!/bin/sh
# SPDX-License-Identifier: MIT
# t-06-optics.sh: on the real kernel's ethtool interface, rxe0's netdev
# (virtio_net, no pluggable module) gives `snapshot --json` a module object
# that says why in one line and holds no number; `ethtool -m`, the oracle,
# cannot read a module there either.
set -u
# shellcheck source=tests/vm/vmlib.sh
. "$VM_TESTS_DIR/vmlib.sh"

command -v ethtool >/dev/null 2>&1 || fail "ethtool not found — apt-get install ethtool"
rc=0
ethtool -m "$RXE_VM_NETDEV" >eth.out 2>eth.err || rc=$?
[ "$rc" != 0 ] || fail "ethtool -m $RXE_VM_NETDEV read a module: $(head -3 eth.out)"
echo "ethtool -m $RXE_VM_NETDEV: exit $rc, $(head -1 eth.err)"
rc=0
"$IBCONSOLE" snapshot --json -d rxe0 >snap.json 2>snap.err || rc=$?
[ "$rc" = 0 ] || fail "snapshot --json exit $rc: $(cat snap.err)"
/usr/bin/python3 - "$RXE_VM_NETDEV" <<'PY' || fail "module object checks"
import json, sys
netdev = sys.argv[1]
m = json.load(open("snap.json"))["ports"][0].get("module")
print("module:", m)
assert m is not None, "no module object"
assert m.get("readable") is False, m
assert set(m) == {"readable", "why"}, "numbers beside an unreadable module: %r" % m
why = m["why"]
assert why.startswith(netdev + ": ") and "\n" not in why, why
assert "does not expose the module" in why or "did not answer" in why, why
PY
echo "optics ok"
