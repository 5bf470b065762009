#!/bin/sh
# SPDX-License-Identifier: MIT
# t-snapshot.sh: `ibconsole snapshot --json` on a real rxe port agrees with
# sysfs, ibv_devinfo and ibstat, and needs no locked memory; a capture
# replayed with --from shows the same GID table.
set -u
# shellcheck source=tests/vm/vmlib.sh
. "$VM_TESTS_DIR/vmlib.sh"

dev=rxe0
oracle() { /usr/bin/python3 "$VM_TESTS_DIR/snapshot_oracle.py" "$1" "$dev" 1 "$RXE_VM_NETDEV"; }
bad=

# Every part runs even when an earlier one failed: one VM boot should
# report every wrong field at once.
echo "# 1. snapshot --json -d $dev"
rc=0
"$IBCONSOLE" snapshot --json -d "$dev" > snap.json 2> snap.err || rc=$?
cat snap.err
if [ "$rc" != 0 ]; then
	bad="$bad 1(exit $rc)"
elif ! oracle snap.json; then
	bad="$bad 1"
fi

echo "# 2. snapshot --json (all devices): $dev listed with the same values"
rc=0
"$IBCONSOLE" snapshot --json > all.json 2> all.err || rc=$?
cat all.err
if [ "$rc" != 0 ]; then
	bad="$bad 2(exit $rc)"
elif ! oracle all.json > all.out; then
	cat all.out
	bad="$bad 2"
else
	echo "ok"
fi

# A snapshot registers no memory: it must work under a tiny memlock limit
# (64 KiB is the usual unprivileged default; use less).
echo "# 3. snapshot --json -d $dev under ulimit -l 16"
rc=0
# shellcheck disable=SC3045 # dash has ulimit -l
(ulimit -l 16 && exec "$IBCONSOLE" snapshot --json -d "$dev") > small.json 2> small.err || rc=$?
cat small.err
if [ "$rc" != 0 ]; then
	bad="$bad 3(exit $rc)"
elif ! oracle small.json > small.out; then
	cat small.out
	bad="$bad 3"
else
	echo "ok"
fi

echo "# 4. snapshot -d $dev (table)"
rc=0
"$IBCONSOLE" snapshot -d "$dev" > table.txt 2>&1 || rc=$?
cat table.txt
if [ "$rc" != 0 ]; then
	bad="$bad 4(exit $rc)"
elif ! grep -q "^$dev " table.txt; then
	bad="$bad 4(no $dev row)"
fi

# The live snapshot reads the GID table through libibverbs (one ioctl);
# a capture records sysfs for --from, which has no device to ask: the
# replay must show the same table, read from the archive's sysfs files.
echo "# 5. capture, then --from: the same GID table as sysfs"
rc=0 rf=0
"$IBCONSOLE" capture --interval 0.5 -d "$dev" -o cap.tar.gz > cap.out 2>&1 || rc=$?
[ "$rc" != 0 ] || "$IBCONSOLE" --from cap.tar.gz snapshot --json -d "$dev" > from.json 2> from.err || rf=$?
if [ "$rc" != 0 ]; then
	cat cap.out
	bad="$bad 5(capture exit $rc)"
elif [ "$rf" != 0 ]; then
	cat from.err
	bad="$bad 5(--from exit $rf)"
elif ! /usr/bin/python3 - from.json snap.json <<'PY'
import json, sys
def gids(f):
    p = [p for p in json.load(open(f))["ports"] if p.get("device") == "rxe0" and p.get("port") == 1][0]
    return [(g["index"], g["gid"], g.get("type"), g.get("netdev")) for g in p.get("gids") or []], p.get("roce_v2_ipv4_gid_index")
a, b = gids(sys.argv[1]), gids(sys.argv[2])
print(f"replayed {len(a[0])} GIDs (RoCE v2 IPv4 index {a[1]}), live {len(b[0])} ({b[1]})")
sys.exit(0 if a == b and a[0] else 1)
PY
then
	bad="$bad 5"
else
	echo "ok"
fi

[ -z "$bad" ] || fail "parts failed:$bad"
