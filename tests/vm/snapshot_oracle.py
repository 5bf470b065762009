#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# snapshot_oracle.py: checks `ibconsole snapshot --json` for one rxe port
# against the kernel's sysfs, ibv_devinfo -v and ibstat (run in the VM).
#
# usage: snapshot_oracle.py JSONFILE DEV PORT NETDEV
# Prints one line per field checked ("ok" or "MISMATCH"), then exits 1 when
# anything differs. Only the Python standard library: it runs in the VM
# on this machine's /usr/bin/python3.
import ipaddress
import json
import os
import re
import subprocess
import sys

jsonfile, dev, port, netdev = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
SYS = f"/sys/class/infiniband/{dev}"
P = f"{SYS}/ports/{port}"
bad = []


def check(field, got, want, oracle):
    if got == want:
        print(f"  ok        {field} = {got!r}")
    else:
        print(f"  MISMATCH  {field}: snapshot says {got!r}, {oracle} says {want!r}")
        bad.append(field)


def read(path):
    """sysfs file contents, stripped; None when absent or unreadable (EINVAL)."""
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


# ---- oracles ----
devinfo = subprocess.run(["ibv_devinfo", "-v", "-d", dev, "-i", str(port)],
                         capture_output=True, text=True, timeout=60)
if devinfo.returncode != 0:
    sys.exit(f"ibv_devinfo -v -d {dev} failed: {devinfo.stderr.strip()}")
dv = {}
dv_gids = {}
for line in devinfo.stdout.splitlines():
    m = re.match(r"\s*GID\[\s*(\d+)\]:\s*(\S+?),?\s+(.*)$", line)
    if m:
        dv_gids[int(m.group(1))] = (m.group(2).rstrip(","), m.group(3).strip())
        continue
    m = re.match(r"\s*([a-z_0-9]+):\s*(.*)$", line)
    if m and m.group(1) not in dv:
        dv[m.group(1)] = m.group(2).strip()


def code(s):
    """ "PORT_ACTIVE (4)" -> 4"""
    m = re.search(r"\((\d+)\)", s or "")
    return int(m.group(1)) if m else None


def guid(colon):
    """ibv_devinfo's "5054:00ff:fe12:3456" -> the snapshot's "0x505400fffe123456"."""
    return "0x" + colon.replace(":", "").lower().rjust(16, "0")


ibstat = subprocess.run(["ibstat", dev, str(port)], capture_output=True, text=True, timeout=60)
ibstat_rate = ibstat_port_guid = None
for line in ibstat.stdout.splitlines():
    m = re.match(r"\s*Rate:\s*(.*)$", line)
    if m:
        ibstat_rate = m.group(1).strip()
    m = re.match(r"\s*Port GUID:\s*(\S+)", line)
    if m:
        ibstat_port_guid = m.group(1).lower()

# The GID table as the kernel has it: unpopulated entries fail with EINVAL
# on gid_attrs reads, so "populated" means "its type can be read".
sys_gids = {}
for name in os.listdir(f"{P}/gids"):
    t = read(f"{P}/gid_attrs/types/{name}")
    if t is None:
        continue
    g = read(f"{P}/gids/{name}")
    sys_gids[int(name)] = {"gid": g, "type": t, "netdev": read(f"{P}/gid_attrs/ndevs/{name}")}

ip = subprocess.run(["ip", "-4", "-o", "addr", "show", "dev", netdev],
                    capture_output=True, text=True).stdout.split()
netdev_ip = ipaddress.IPv4Address(ip[ip.index("inet") + 1].split("/")[0])
want_idx = None
for i in sorted(sys_gids):
    e = sys_gids[i]
    if e["type"] == "RoCE v2" and ipaddress.IPv6Address(e["gid"]).ipv4_mapped == netdev_ip:
        want_idx = i
        break
print(f"oracle: {netdev} {netdev_ip}, RoCE v2 IPv4 GID index {want_idx}, "
      f"{len(sys_gids)} populated GIDs")

# ---- the snapshot ----
with open(jsonfile) as f:
    snap = json.load(f)
check("schema", snap.get("schema"), "ibconsole/snapshot/1", "the contract")
ports = [p for p in snap.get("ports", []) if p.get("device") == dev and p.get("port") == port]
if len(ports) != 1:
    print(f"  MISMATCH  ports: want exactly one entry for {dev}/{port}, got {len(ports)}")
    sys.exit(1)
p = ports[0]

check("device", p.get("device"), dev, "-d")
check("link_layer", p.get("link_layer"), "Ethernet", "sysfs link_layer")
check("link_layer (sysfs)", p.get("link_layer"), read(f"{P}/link_layer"), "sysfs link_layer")
check("netdev", p.get("netdev"), netdev, "rdma link / sysfs parent")
check("netdev_mtu", p.get("netdev_mtu"), int(read(f"/sys/class/net/{netdev}/mtu")),
      f"/sys/class/net/{netdev}/mtu")
# virtio-net reports no speed (-1 or EINVAL): then null, never a number.
speed = read(f"/sys/class/net/{netdev}/speed")
speed = int(speed) if speed and speed.lstrip("-").isdigit() and int(speed) > 0 else None
check("netdev_speed_mbps", p.get("netdev_speed_mbps"), speed, f"/sys/class/net/{netdev}/speed")
check("roce_v2_ipv4_gid_index", p.get("roce_v2_ipv4_gid_index"), want_idx,
      "sysfs gids + gid_attrs/types")
check("mtu_active", p.get("mtu_active"), int(dv["active_mtu"].split()[0]), "ibv_devinfo active_mtu")
check("mtu_max", p.get("mtu_max"), int(dv["max_mtu"].split()[0]), "ibv_devinfo max_mtu")
check("mtu_source", p.get("mtu_source"), "verbs", "the contract (RoCE)")
check("state_code", p.get("state_code"), code(dv["state"]), "ibv_devinfo state")
check("state", p.get("state"), "Active" if code(dv["state"]) == 4 else dv["state"], "ibv_devinfo state")
check("phys_state_code", p.get("phys_state_code"), code(dv["phys_state"]), "ibv_devinfo phys_state")
check("phys_state", p.get("phys_state"), "LinkUp" if code(dv["phys_state"]) == 5 else dv["phys_state"],
      "ibv_devinfo phys_state")
check("node_guid", p.get("node_guid"), guid(dv["node_guid"]), "ibv_devinfo node_guid")
check("sys_image_guid", p.get("sys_image_guid"), guid(dv["sys_image_guid"]), "ibv_devinfo sys_image_guid")
check("node_guid (sysfs)", p.get("node_guid"), guid(read(f"{SYS}/node_guid")), "sysfs node_guid")
check("port_guid", p.get("port_guid"), ibstat_port_guid, "ibstat Port GUID")
check("lmc", p.get("lmc"), int(dv["port_lmc"], 16), "ibv_devinfo port_lmc")
check("sm_sl", p.get("sm_sl"), int(dv["sm_sl"]), "ibv_devinfo sm_sl")
check("fw_ver", p.get("fw_ver"), dv["fw_ver"], "ibv_devinfo fw_ver")
check("lid", p.get("lid"), int(dv["port_lid"]), "ibv_devinfo port_lid")
check("sm_lid", p.get("sm_lid"), int(dv["sm_lid"]), "ibv_devinfo sm_lid")
check("cap_mask", p.get("cap_mask"), read(f"{P}/cap_mask"), "sysfs cap_mask")
check("rate_sysfs", p.get("rate_sysfs"), read(f"{P}/rate"), "sysfs rate")
check("ibstat_rate", p.get("ibstat_rate"), ibstat_rate, "ibstat Rate")
check("width_active", p.get("width_active"), dv["active_width"].split()[0], "ibv_devinfo active_width")
check("speed_active", p.get("speed_active"), " ".join(dv["active_speed"].split()[:2]),
      "ibv_devinfo active_speed")
lanes = int(dv["active_width"].split()[0].rstrip("X"))
check("rate_gbps", p.get("rate_gbps"), lanes * float(dv["active_speed"].split()[0]),
      "ibv_devinfo width x speed")

hw = f"{P}/hw_counters"
root = snap.get("sysfs_root") or "/"
check("hw_counters_dir", p.get("hw_counters_dir"), os.path.normpath(hw), "sysfs (root " + root + ")")
hwdir = p.get("hw_counters_dir")
check("hw_counters_dir exists", bool(hwdir) and os.path.isdir(hwdir), True, "the file system")
check("hw_counters_count", p.get("hw_counters_count"),
      len([f for f in os.listdir(hw) if f != "lifespan"]), "ls hw_counters (without lifespan)")

# GID table: same populated indexes, same values as sysfs and ibv_devinfo.
snap_gids = {g.get("index"): g for g in p.get("gids") or []}
check("gids indexes", sorted(snap_gids), sorted(sys_gids), "sysfs (populated entries)")
for i in sorted(set(snap_gids) | set(sys_gids)):
    sg, kg = snap_gids.get(i, {}), sys_gids.get(i, {})
    check(f"gids[{i}].gid", sg.get("gid"), kg.get("gid"), "sysfs gids")
    check(f"gids[{i}].type", sg.get("type"), kg.get("type"), "sysfs gid_attrs/types")
    check(f"gids[{i}].netdev", sg.get("netdev"), kg.get("netdev"), "sysfs gid_attrs/ndevs")
    mapped = ipaddress.IPv6Address(kg["gid"]).ipv4_mapped if kg.get("gid") else None
    check(f"gids[{i}].ipv4", sg.get("ipv4"), str(mapped) if mapped else None, "the GID itself")
    if i in dv_gids and sg.get("gid"):
        dg, dt = dv_gids[i]
        check(f"gids[{i}] vs ibv_devinfo", (ipaddress.IPv6Address(sg["gid"]), sg.get("type")),
              (ipaddress.IPv6Address(dg), dt), "ibv_devinfo GID[]")

# rxe has no device/ link (it is a virtual device over a netdev): no PCIe
# function, no NUMA node. The contract says null plus a reason, never 0.
has_dev = os.path.exists(f"{SYS}/device")
if not has_dev:
    check("pcie", p.get("pcie"), None, f"no {SYS}/device")
    check("pcie_error is a reason", isinstance(p.get("pcie_error"), str) and bool(p.get("pcie_error")),
          True, "the contract")
    check("numa", p.get("numa"), None, f"no {SYS}/device")
    check("numa_error is a reason", isinstance(p.get("numa_error"), str) and bool(p.get("numa_error")),
          True, "the contract")
if read(f"{SYS}/board_id") is None:
    check("board_id", p.get("board_id"), None, f"no {SYS}/board_id")
    check("board_id_error is a reason",
          isinstance(p.get("board_id_error"), str) and bool(p.get("board_id_error")), True, "the contract")

if bad:
    print(f"snapshot_oracle: {len(bad)} mismatch(es): {', '.join(bad)}")
    print("snapshot JSON for this port:")
    print(json.dumps(p, indent=1))
    sys.exit(1)
print("snapshot_oracle: all fields match")
