#!/bin/sh
# SPDX-License-Identifier: MIT
# t-05-permission.sh: a user without access to the verbs device still gets
# the port (sysfs), a one-line warning saying what to do, and the MTU as
# null with the reason — never a made-up value. The device node is the
# VM's own (devtmpfs), so changing its mode touches nothing outside.
set -u
# shellcheck source=tests/vm/vmlib.sh
. "$VM_TESTS_DIR/vmlib.sh"

node=$(for d in /sys/class/infiniband_verbs/uverbs*; do
	[ "$(cat "$d/ibdev")" = rxe0 ] && basename "$d"; done)
[ -n "$node" ] || fail "no uverbs device for rxe0"
mode=$(stat -c %a "/dev/infiniband/$node")
trap 'chmod "$mode" "/dev/infiniband/$node"' EXIT
chmod 600 "/dev/infiniband/$node"

setpriv --reuid=nobody --regid=nogroup --clear-groups \
	"$IBCONSOLE" snapshot --json -d rxe0 > perm.json 2> perm.err
rc=$?
cat perm.err
[ "$rc" = 0 ] || fail "snapshot as nobody exited $rc, want 0 (the port is readable)"
/usr/bin/python3 - perm.json <<'PY' || exit 1
import json, sys
s = json.load(open(sys.argv[1]))
p = s["ports"][0]
w = s["warning"] or ""
errs = []
if "/dev/infiniband/uverbs" not in w or "Permission denied" not in w or "run as root" not in w:
    errs.append(f"warning does not say what failed and what to do: {w!r}")
if p["mtu_active"] is not None or not p.get("mtu_error"):
    errs.append(f"MTU should be null with a reason, got {p['mtu_active']!r} / {p.get('mtu_error')!r}")
if p["link_layer"] != "Ethernet" or p["state"] != "Active":
    errs.append(f"sysfs facts missing: {p['link_layer']} {p['state']}")
if p["roce_v2_ipv4_gid_index"] is None:
    errs.append("GID choice (sysfs) lost")
for e in errs:
    print("FAILED:", e)
sys.exit(1 if errs else 0)
PY
setpriv --reuid=nobody --regid=nogroup --clear-groups "$IBCONSOLE" snapshot -d rxe0 > perm.txt 2>&1
grep -q "^warning: cannot open the verbs device of rxe0: Permission denied" perm.txt ||
	{ cat perm.txt; fail "table output does not carry the warning line"; }
echo "as nobody: port read, MTU n/a with reason, warning: $(grep -o 'cannot open[^—]*' perm.txt)"
