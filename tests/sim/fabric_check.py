#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks `ibconsole fabric --json` against the planted faults of
fabric-faults.net and against iblinkinfo's view of the same fabric.

    fabric_check.py faults  FABRIC.json IBLINKINFO.txt [--unlinked]
    fabric_check.py diff    DIFF.json   (after Unlink "sw-b"[2])

Prints one line per failed check; exit 1 when any failed."""
import json
import re
import sys

LANE = {"SDR": 2.5, "DDR": 5.0, "QDR": 10.0, "FDR10": 10.3125, "FDR": 14.0625,
        "EDR": 25.78125, "HDR": 53.125, "NDR": 106.25, "XDR": 212.5}
fails = []


def check(ok, msg):
    if not ok:
        fails.append(msg)


def end(e):
    return (e["node"], e["port"])


def parse_iblinkinfo(path):
    """{frozenset(ends): info} and the set of down switch ports."""
    links, down = {}, set()
    node = None
    up = re.compile(r'^\s*(?:0x[0-9a-f]+\s+)?(\d+)\s+(\d+)\[\s*\]\s+==\(\s*(\d+X)\s+([\d.]+) Gbps\s+(\w+)/\s*(\w+)\)==>'
                    r'\s+(\d+)\s+(\d+)\[\s*\]\s+"([^"]*)"\s+\(([^)]*)\)')
    dn = re.compile(r'^\s*(?:0x[0-9a-f]+\s+)?(\d+)\s+(\d+)\[\s*\]\s+==\(\s+(\w+)/\s*(\w+)\)==>')
    for line in open(path):
        m = re.match(r'^(?:Switch: 0x[0-9a-f]+|CA:) (.*):$', line.rstrip())
        if m:
            node = m.group(1)
            continue
        m = up.match(line)
        if m:
            key = frozenset([(node, int(m.group(2))), (m.group(9), int(m.group(8)))])
            links[key] = {"width": m.group(3), "gbps": float(m.group(4)),
                          "state": m.group(5), "phys": m.group(6),
                          "could": m.group(10).strip()}
            continue
        m = dn.match(line)
        if m:
            down.add((node, int(m.group(2))))
    return links, down


def problems(doc):
    out = {}
    for p in doc["problems"]:
        # "where" names both ends even when one was not discovered
        ends = [(n, int(k)) for n, k in re.findall(r'"([^"]*)"\[(\d+)\]', p["where"])]
        if p["port"]:
            check(end(p["port"]) in ends, "%s: port %s not in %s" % (p["rule"], end(p["port"]), p["where"]))
        out.setdefault((p["rule"], frozenset(ends)), []).append(p)
    return out


def expect_problems(doc, want):
    got = problems(doc)
    for (rule, ends), evidence in want.items():
        hit = got.get((rule, ends))
        check(hit, "missing finding %s on %s" % (rule, sorted(ends)))
        if hit:
            check(evidence in hit[0]["evidence"],
                  "%s on %s: evidence %r lacks %r" % (rule, sorted(ends), hit[0]["evidence"], evidence))
    for key, ps in got.items():
        check(key in want, "unexpected finding %s on %s: %s" % (key[0], sorted(key[1]), ps[0]["evidence"]))


NARROW = frozenset([("sw-a", 1), ("hca-narrow", 1)])
SLOW = frozenset([("sw-a", 2), ("hca-slow", 1)])
GONE = frozenset([("sw-b", 2), ("hca-gone", 1)])
BASE = {
    ("below_width", NARROW): "trained 1X, both ends support 4X",
    ("below_speed", SLOW): "running FDR, both ends support HDR",
    ("unlinked", frozenset([("sw-b", 4)])): "Down/Polling",
}


def faults(jpath, ipath, unlinked):
    doc = json.load(open(jpath))
    want = dict(BASE)
    if unlinked:
        want[("unlinked", frozenset([("sw-b", 2)]))] = "Down/Polling"
    expect_problems(doc, want)
    # Cross-check every link with iblinkinfo.
    ib, down = parse_iblinkinfo(ipath)
    ours = {frozenset([end(l["a"]), end(l["b"])]): l for l in doc["links"]}
    check(set(ib) == set(ours), "links differ from iblinkinfo: only ours %s, only iblinkinfo %s"
          % (sorted(map(sorted, set(ours) - set(ib))), sorted(map(sorted, set(ib) - set(ours)))))
    for key in set(ib) & set(ours):
        i, o = ib[key], ours[key]
        name = sorted(key)
        check(i["width"] == o["width"], "%s: width %s, iblinkinfo %s" % (name, o["width"], i["width"]))
        check(abs(LANE.get(o["speed"], 0) - i["gbps"]) < 1e-6,
              "%s: speed %s, iblinkinfo %s Gbps" % (name, o["speed"], i["gbps"]))
        for e in ("a", "b"):
            check(o[e]["state"] == i["state"] and o[e]["phys_state"] == i["phys"],
                  "%s: %s/%s, iblinkinfo %s/%s" % (name, o[e]["state"], o[e]["phys_state"], i["state"], i["phys"]))
        # iblinkinfo's "Could be <speed> Gbps" is exactly our below_speed.
        could_speed = "Gbps" in i["could"]
        check(could_speed == ("below_speed" in o["flags"]),
              "%s: iblinkinfo says (%s), our flags %s" % (name, i["could"], o["flags"]))
        # iblinkinfo's width advice is "Could be 12X" on every ibsim link
        # (LinkWidthSupported is 31): ours must fire exactly where it
        # trained below 4X, the widest width an HCA has.
        check((i["width"] in ("1X", "2X")) == ("below_width" in o["flags"]),
              "%s: trained %s, our flags %s" % (name, i["width"], o["flags"]))
    unl = {end(p["port"]) for p in doc["problems"] if p["rule"] == "unlinked"}
    check(unl == down, "down ports %s, iblinkinfo %s" % (sorted(unl), sorted(down)))


def diff(jpath):
    doc = json.load(open(jpath))
    ch = doc["diff"]["changes"]
    links = [c for c in ch if c["kind"].startswith("link")]
    nodes = [c for c in ch if c["kind"].startswith("node")]
    check(len(links) == 1, "want exactly one link change, got %s" % [c["text"] for c in links])
    if links:
        c = links[0]
        check(c["kind"] == "link_gone" and
              frozenset([(c["node_a"], c["port_a"]), (c["node_b"], c["port_b"])]) == GONE,
              "link change is %s" % c["text"])
    check([(c["kind"], c["node_a"]) for c in nodes] == [("node_gone", "hca-gone")],
          "node changes: %s" % [c["text"] for c in nodes])
    want = dict(BASE)
    want[("link_lost", GONE)] = "was 4xQDR"
    expect_problems(doc, want)


def main():
    if sys.argv[1] == "faults":
        faults(sys.argv[2], sys.argv[3], "--unlinked" in sys.argv)
    else:
        diff(sys.argv[2])
    for f in fails:
        print("FAIL: " + f)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
