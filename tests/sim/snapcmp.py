#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# snapcmp.py — compares `ibconsole snapshot --json` with what ibstat and
# `smpquery portinfo` print for the same port (the oracles). stdlib only.
"""usage: snapcmp.py IBSTAT_FILE SMPQUERY_FILE JSON_FILE EXPECT_BELOW(yes|no) LABEL

Exit 0 when every field both sides print agrees, 1 with a diff otherwise.
"""
import json
import re
import sys

WIDTH_BITS = {"1X": 1, "4X": 2, "8X": 4, "12X": 8, "2X": 16}
WIDTH_LANES = {1: 1, 2: 4, 4: 8, 8: 12, 16: 2}
SPEED_BITS = {"2.5 Gbps": 1, "5.0 Gbps": 2, "10.0 Gbps": 4}
EXT_BITS = {"14.0625 Gbps": 1, "25.78125 Gbps": 2, "53.125 Gbps": 4,
            "106.25 Gbps": 8}
# per-lane data rate as ibstat / the IBTA tables count it
SPEED_NAME = {1: ("SDR", 2.5), 2: ("DDR", 5.0), 4: ("QDR", 10.0)}
EXT_NAME = {1: ("FDR", 14.0), 2: ("EDR", 25.0), 4: ("HDR", 50.0),
            8: ("NDR", 100.0)}
LANE_GBPS = {1: 2.5, 2: 5.0, 4: 10.0}
EXT_LANE_GBPS = {1: 14.0625, 2: 25.78125, 4: 53.125, 8: 106.25}
# ibstat and libibmad wording of the state codes
STATE_CODES = {"Down": 1, "Initializing": 2, "Init": 2, "Initialize": 2,
               "Armed": 3, "Active": 4}
PHYS_CODES = {"Sleep": 1, "Polling": 2, "Disabled": 3,
              "PortConfigurationTraining": 4, "Training": 4, "LinkUp": 5,
              "LinkErrorRecovery": 6, "Phy Test": 7, "PhyTest": 7}


def parse_ibstat(text):
    """Returns (ca fields, port fields) of the first CA's port 1."""
    ca, port, cur, cas = {}, {}, None, 0
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("CA '"):
            cas += 1
            if cas > 1:
                break
            cur = ca
            continue
        m = re.match(r"Port (\d+):$", s)
        if m:
            cur = port if m.group(1) == "1" else None
            continue
        if cur is not None and ":" in s:
            k, v = s.split(":", 1)
            cur[k.strip()] = v.strip()
    return ca, port


def parse_smp(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r"^(\w+):\.+(.*)$", line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def strip_ext(s):
    """libibmad appends " (IBA extension)" to some masks: an annotation."""
    return s.replace(" (IBA extension)", "").strip() if isinstance(s, str) else s


def mask_of(text, bits):
    text = strip_ext(text)
    if text in ("0", "No Extended Speed", ""):
        return 0
    m = 0
    for part in text.split(" or "):
        part = part.strip()
        if part not in bits:
            raise ValueError("unknown value %r" % part)
        m |= bits[part]
    return m


def highest(mask):
    return 1 << (mask.bit_length() - 1) if mask else 0


def best_width(mask):
    """Widest lane count in a width mask (2X sits above 12X in the bits)."""
    return max((WIDTH_LANES[b] for b in WIDTH_LANES if mask & b), default=0)


class Cmp:
    def __init__(self, label):
        self.label = label
        self.bad = []
        self.n = 0

    def eq(self, field, got, want, oracle):
        self.n += 1
        if got != want:
            self.bad.append("  %-26s json=%r  %s=%r" % (field, got, oracle, want))

    def close(self, field, got, want, oracle, tol=0.01):
        self.n += 1
        if not isinstance(got, (int, float)) or abs(got - want) > tol:
            self.bad.append("  %-26s json=%r  %s=%r" % (field, got, oracle, want))


def main(argv):
    if len(argv) != 6:
        print(__doc__, file=sys.stderr)
        return 99
    ibstat_f, smp_f, json_f, expect_below, label = argv[1:]
    ca, ib = parse_ibstat(open(ibstat_f).read())
    smp = parse_smp(open(smp_f).read())
    try:
        snap = json.load(open(json_f))
    except ValueError as e:
        print("%s: snapshot --json is not JSON: %s" % (label, e))
        return 1
    if not ca or not ib or "LinkWidthActive" not in smp:
        print("%s: oracle output incomplete (ibstat %d fields, smpquery %d)"
              % (label, len(ca) + len(ib), len(smp)))
        return 99
    c = Cmp(label)
    c.eq("schema", snap.get("schema"), "ibconsole/snapshot/1", "contract")
    ports = [p for p in snap.get("ports", [])
             if p.get("device") == "ibsim0" and p.get("port") == 1]
    if len(ports) != 1:
        print("%s: expected one ibsim0/1 port in the JSON, got %d"
              % (label, len(ports)))
        return 1
    p = ports[0]

    # --- ibstat ---
    c.eq("ca_type", p.get("ca_type"), ca.get("CA type"), "ibstat")
    c.eq("fw_ver", p.get("fw_ver"), ca.get("Firmware version"), "ibstat")
    c.eq("hw_ver", p.get("hw_ver"), ca.get("Hardware version"), "ibstat")
    c.eq("node_guid", p.get("node_guid"), ca.get("Node GUID"), "ibstat")
    c.eq("sys_image_guid", p.get("sys_image_guid"),
         ca.get("System image GUID"), "ibstat")
    c.eq("state_code", p.get("state_code"), STATE_CODES.get(ib.get("State")),
         "ibstat")
    c.eq("phys_state_code", p.get("phys_state_code"),
         PHYS_CODES.get(ib.get("Physical state")), "ibstat")
    c.eq("ibstat_rate", p.get("ibstat_rate"), ib.get("Rate"), "ibstat")
    c.eq("lid", p.get("lid"), int(ib.get("Base lid", "-1")), "ibstat")
    c.eq("lmc", p.get("lmc"), int(ib.get("LMC", "-1")), "ibstat")
    c.eq("sm_lid", p.get("sm_lid"), int(ib.get("SM lid", "-1")), "ibstat")
    c.eq("cap_mask", p.get("cap_mask"), ib.get("Capability mask"), "ibstat")
    c.eq("port_guid", p.get("port_guid"), ib.get("Port GUID"), "ibstat")
    layer = {"IB": "InfiniBand", "Ethernet": "Ethernet"}.get(
        ib.get("Link layer"), ib.get("Link layer"))
    c.eq("link_layer", p.get("link_layer"), layer, "ibstat")
    c.eq("ports of ibsim0", len([q for q in snap.get("ports", [])
                                 if q.get("device") == "ibsim0"]),
         int(ca.get("Number of ports", "-1")), "ibstat")

    # --- smpquery portinfo ---
    def hexval(s):
        try:
            return int(s, 16)
        except (TypeError, ValueError):
            return s

    c.eq("gid_prefix", hexval(p.get("gid_prefix")), hexval(smp.get("GidPrefix")),
         "smpquery")
    # GID 0 is GidPrefix:PortGUID, in sysfs' full form
    raw = "%016x%016x" % (hexval(smp.get("GidPrefix", "0")),
                          hexval(ib.get("Port GUID", "0")))
    gid0 = ":".join(raw[i:i + 4] for i in range(0, 32, 4))
    gids = p.get("gids") or [{}]
    c.eq("gids[0].gid", gids[0].get("gid"), gid0, "smpquery+ibstat")
    c.eq("lid(smp)", p.get("lid"), int(smp.get("Lid", "-1")), "smpquery")
    c.eq("sm_lid(smp)", p.get("sm_lid"), int(smp.get("SMLid", "-1")), "smpquery")
    c.eq("lmc(smp)", p.get("lmc"), int(smp.get("LMC", "-1")), "smpquery")
    c.eq("sm_sl", p.get("sm_sl"), int(smp.get("SMSL", "-1")), "smpquery")
    c.eq("cap_mask(smp)", hexval(p.get("cap_mask")), hexval(smp.get("CapMask")),
         "smpquery")
    c.eq("state(smp)", p.get("state_code"), STATE_CODES.get(smp.get("LinkState")),
         "smpquery")
    c.eq("phys_state(smp)", p.get("phys_state_code"),
         PHYS_CODES.get(smp.get("PhysLinkState")), "smpquery")
    # names: the JSON may use ibstat's or libibmad's wording
    c.eq("state", p.get("state") in (ib.get("State"), smp.get("LinkState")),
         True, "ibstat|smpquery wording of " + str(ib.get("State")))
    c.eq("phys_state", p.get("phys_state") in (ib.get("Physical state"),
                                               smp.get("PhysLinkState")),
         True, "ibstat|smpquery wording of " + str(ib.get("Physical state")))

    wa = mask_of(smp["LinkWidthActive"], WIDTH_BITS)
    we = mask_of(smp["LinkWidthEnabled"], WIDTH_BITS)
    ws = mask_of(smp["LinkWidthSupported"], WIDTH_BITS)
    sa = mask_of(smp["LinkSpeedActive"], SPEED_BITS)
    se = mask_of(smp["LinkSpeedEnabled"], SPEED_BITS)
    ss = mask_of(smp["LinkSpeedSupported"], SPEED_BITS)
    ext_valid = bool(hexval(smp.get("CapMask", "0")) & 0x4000)
    xa = mask_of(smp.get("LinkSpeedExtActive", "0"), EXT_BITS) if ext_valid else 0
    xe = mask_of(smp.get("LinkSpeedExtEnabled", "0"), EXT_BITS) if ext_valid else 0
    xs = mask_of(smp.get("LinkSpeedExtSupported", "0"), EXT_BITS) if ext_valid else 0
    for key, want in (("width_active_mask", wa), ("width_enabled_mask", we),
                      ("width_supported_mask", ws), ("speed_active_mask", sa),
                      ("speed_enabled_mask", se), ("speed_supported_mask", ss),
                      ("speed_ext_active_mask", xa),
                      ("speed_ext_enabled_mask", xe),
                      ("speed_ext_supported_mask", xs)):
        c.eq(key, p.get(key), want, "smpquery")
    for key, smpkey in (("width_active", "LinkWidthActive"),
                        ("width_enabled", "LinkWidthEnabled"),
                        ("width_supported", "LinkWidthSupported"),
                        ("speed_enabled", "LinkSpeedEnabled"),
                        ("speed_supported", "LinkSpeedSupported")):
        c.eq(key, strip_ext(p.get(key)), strip_ext(smp[smpkey]), "smpquery")
    # contract: LinkSpeedActive and LinkSpeedExt* wording verbatim; the
    # ext fields are null when CapMask bit 14 (extended speeds) is clear
    c.eq("speed_active", p.get("speed_active"), smp["LinkSpeedActive"], "smpquery")
    for key, smpkey in (("speed_ext_active", "LinkSpeedExtActive"),
                        ("speed_ext_enabled", "LinkSpeedExtEnabled"),
                        ("speed_ext_supported", "LinkSpeedExtSupported")):
        c.eq(key, p.get(key), smp.get(smpkey) if ext_valid else None, "smpquery")
    c.eq("mtu_active", p.get("mtu_active"), int(smp.get("NeighborMTU", "-1")),
         "smpquery NeighborMTU")
    c.eq("mtu_max", p.get("mtu_max"), int(smp.get("MtuCap", "-1")),
         "smpquery MtuCap")

    # --- derived from the oracle: speed, rates, below capability ---
    lanes = WIDTH_LANES.get(wa, 0)
    if xa:
        name, per_lane = EXT_NAME[highest(xa)]
        lane = EXT_LANE_GBPS[highest(xa)]
    else:
        name, per_lane = SPEED_NAME.get(sa, ("?", 0.0))
        lane = LANE_GBPS.get(sa, 0.0)
    rate = lanes * per_lane
    c.eq("speed", p.get("speed"), name, "smpquery")
    c.close("lane_gbps", p.get("lane_gbps"), lane, "smpquery")
    c.close("rate_gbps", p.get("rate_gbps"), rate, "smpquery")
    # contract: widest supported width of 1X/2X/4X (8X/12X only when also
    # enabled: ibsim claims every width) times the fastest supported speed
    cap_w = (ws & (1 | 2 | 16)) | (ws & we & (4 | 8))
    cap_lanes = max(best_width(cap_w if cap_w else we), lanes)
    if highest(xs):
        best = EXT_NAME[highest(xs)][1]
    else:
        best = SPEED_NAME.get(highest(ss), ("?", 0.0))[1]
    max_rate = cap_lanes * max(best, per_lane)
    below = rate + 1e-9 < max_rate
    want_below = expect_below == "yes"
    if below != want_below:
        print("%s: topology problem: the oracle says below=%s, the test "
              "planted %s" % (label, below, want_below))
        return 99
    c.eq("below_capability", p.get("below_capability"), want_below, "planted")
    if want_below:
        c.eq("below_capability_reason set", bool(p.get("below_capability_reason")),
             True, "planted")

    if c.bad:
        print("%s: %d of %d fields differ from the oracles:" % (label, len(c.bad), c.n))
        print("\n".join(c.bad))
        return 1
    print("%s: %d fields agree" % (label, c.n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
