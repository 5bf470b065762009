#!/bin/sh
# SPDX-License-Identifier: MIT
# t-52-accept-pcie.sh: `ibconsole accept --ref` names PCIe when the slot
# cannot carry the card. The traffic is real (Soft-RoCE, rxe0 against
# `ibconsole serve` in the same VM); the PCIe facts come from a fixture
# tree (IBCONSOLE_SYSFS_ROOT): rxe0's own sysfs entries linked in, its
# port's rate string set to 4X EDR (100 Gb/s of data) and its device a
# PCI function trained at 8 GT/s x4 (about 28 Gb/s usable after encoding
# and TLP overhead, below 90 % of 100). The card FAILs with cause PCIe and
# the figures; the same run without the fixture says nothing of PCIe.
# And perftest's default run (test bw: write, 64 KiB) ends with a verdict
# naming its rule and lines, in the JSON too.
# The fixture sits on a tmpfs of the VM's own: through the 9p root every
# lookup of its ~2000 GID files took a minute.
# vm-timeout: 400
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
PORT=18652
. "$VM_TESTS_DIR/enginelib.sh"
real=/sys/class/infiniband/rxe0
[ -d "$real/ports/1" ] || fail "no rxe0 port 1"

# the fixture: rxe0 and its port 1 linked entry by entry, rate and device ours
fx=$PWD/fx
mkdir -p "$fx"
mount -t tmpfs tmpfs "$fx" || fail "cannot mount a tmpfs for the fixture"
trap 'umount "$fx" 2>/dev/null || true' EXIT
ib=$fx/sys/class/infiniband/rxe0
pci=$fx/sys/devices/pci0000:00/0000:3b:00.0
mkdir -p "$ib/ports/1" "$pci" "$fx/sys/class"
for e in "$real"/*; do
	n=${e##*/}
	case $n in device|ports) ;; *) ln -s "$e" "$ib/$n" ;; esac
done
for e in "$real"/ports/1/*; do
	n=${e##*/}
	[ "$n" = rate ] || ln -s "$e" "$ib/ports/1/$n"
done
echo "100 Gb/sec (4X EDR)" > "$ib/ports/1/rate"
echo "8.0 GT/s PCIe" > "$pci/current_link_speed"
echo 4 > "$pci/current_link_width"
echo "16.0 GT/s PCIe" > "$pci/max_link_speed"
echo 16 > "$pci/max_link_width"
echo -1 > "$pci/numa_node"
ln -s ../../../devices/pci0000:00/0000:3b:00.0 "$ib/device"
ln -s /sys/class/infiniband_verbs "$fx/sys/class/infiniband_verbs"

# the oracle for the facts: the snapshot of the same tree says the PCIe
# link limits the data rate, with the same usable figure
echo "fixture: $(find "$fx" | wc -l) entries"
# bt_after S PID: when PID still runs after S seconds, its stacks (a
# hang is then named in the log instead of a bare time-out)
bt_after() {
	i=0
	while kill -0 "$2" 2>/dev/null && [ $i -lt $(($1 * 10)) ]; do sleep 0.1; i=$((i + 1)); done
	kill -0 "$2" 2>/dev/null && gdb -batch -p "$2" -ex "thread apply all bt" 2>&1 | grep -E '^#|^Thread' | head -40
	return 0
}
t0=$(date +%s)
IBCONSOLE_SYSFS_ROOT=$fx timeout 150 "$IBC" snapshot --json -d rxe0 > snap.json 2> snap.err &
sp=$!
bt_after 60 $sp
rc=0
wait $sp || rc=$?
[ "$rc" = 0 ] || { cat snap.err; fail "snapshot of the fixture: exit $rc"; }
echo "snapshot of the fixture: $(($(date +%s) - t0)) s"

start_agent
trap 'kill $agent 2>/dev/null; wait $agent 2>/dev/null || true; umount "$fx" 2>/dev/null || true' EXIT

rc=0
t0=$(date +%s)
IBCONSOLE_SYSFS_ROOT=$fx timeout 150 "$IBC" accept --ref "$ip4" --port "$PORT" -n 50 -d rxe0 --json \
	> pcie.json 2> pcie.err &
ap=$!
bt_after 90 $ap
wait $ap || rc=$?
echo "accept on the fixture: exit $rc, $(($(date +%s) - t0)) s"
[ "$rc" = 1 ] || { cat pcie.json pcie.err; fail "accept on the Gen3 x4 fixture: exit $rc, want 1"; }
/usr/bin/python3 - <<'PY' || { cat pcie.json snap.json; fail "accept does not name PCIe with its figures"; }
import json
c = json.load(open("pcie.json"))["cards"][0]
p = json.load(open("snap.json"))["ports"][0]
print("cause:", c["cause"])
assert c["error"] is None and c["gbps"] > 0, c          # the traffic ran
assert c["verdict"] == "fail" and c["data_rate_gbps"] == 100, c
assert c["pcie_limits"] is True and c["pcie_gts"] == 8 and c["pcie_lanes"] == 4, c
assert p["pcie_limits_data_rate"] is True, p["pcie_verdict"]
u = c["pcie_usable_gbps"]
assert 20 < u < 31.6, u                                  # 8 GT/s x4: 31.5 after 128b/130b, less TLP
assert abs(u - p["pcie"]["usable_gbps"]) < 0.05, (u, p["pcie"])
assert "PCIe: 8 GT/s x4 (Gen3) carries %.1f Gb/s usable of the 100 Gb/s data rate, below the 90 %% line (90.0 Gb/s)" % u in c["cause"], c["cause"]
assert "card looks healthy" not in c["cause"], c["cause"]
print("ok: PCIe named: 8 GT/s x4, %.1f Gb/s usable of 100" % u)
PY

# without the fixture: rxe0 has no PCIe link, and no PCIe cause
rc=0
timeout 120 "$IBC" accept --ref "$ip4" --port "$PORT" -n 50 -d rxe0 --json > own.json 2> own.err || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || { cat own.err; fail "accept on rxe0: exit $rc"; }
/usr/bin/python3 - <<'PY' || { cat own.json; fail "a PCIe cause without a PCIe limit"; }
import json
c = json.load(open("own.json"))["cards"][0]
assert c["pcie_limits"] is False and c["pcie_gts"] is None, c
assert "PCIe" not in (c["cause"] or ""), c["cause"]
print("ok: no fixture, no PCIe cause:", c["cause"])
PY

# perftest's default run is judged: rule bw-64k, its lines in the JSON
rc=0
timeout 120 "$IBC" test bw -n 50 --json --no-record --port "$PORT" "$ip4" > bw.json 2> bw.err || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || { cat bw.err; fail "test bw: exit $rc"; }
/usr/bin/python3 - "$rc" <<'PY' || { cat bw.json; fail "the default test bw is not judged by the 64 KiB rule"; }
import json, sys
r = json.load(open("bw.json"))
v = r["verdict"]
print("verdict:", v["state"], v["rule"], "|", v["text"])
assert r["params"]["size_bytes"] == 65536 and r["params"]["op"] == "write", r["params"]
assert v["state"] in ("pass", "warn", "fail") and v["rule"] == "bw-64k", v
d = v["line_rate_gbps"]
assert d > 0 and v["unit"] == "Gb/s" and "NDR example" in v["source"], v
assert abs(v["healthy_line"] - 0.925 * d) < 1e-6 and abs(v["abnormal_line"] - 0.875 * d) < 1e-6, v
assert abs(v["pass_line"] - 0.9 * d) < 1e-6, v
assert (sys.argv[1] == "1") == (v["state"] == "fail"), "exit status follows the verdict"
print("ok: default test bw judged by bw-64k")
PY
