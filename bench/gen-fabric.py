#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# gen-fabric.py LEAVES HCAS_PER_LEAF SPINES > fabric.net
# A two-level fat tree in ibsim's topology syntax: every leaf switch has
# HCAS_PER_LEAF single-port HCAs and one uplink to each spine. All links
# 4X QDR (w=2 s=4 on both ends, as ibsim requires).
import sys

leaves, per_leaf, spines = (int(a) for a in sys.argv[1:4])
leaf_ports = per_leaf + spines
spine_ports = max(leaves, 1)
out = []
for s in range(spines):
    out.append('Switch %d "Spine%d"' % (spine_ports, s))
    for l in range(leaves):
        out.append('[%d] "Leaf%d"[%d] w=2 s=4 e=0' % (l + 1, l, per_leaf + s + 1))
    out.append("")
for l in range(leaves):
    out.append('Switch %d "Leaf%d"' % (leaf_ports, l))
    for h in range(per_leaf):
        out.append('[%d] "H%d-%d"[1] w=2 s=4 e=0' % (h + 1, l, h))
    for s in range(spines):
        out.append('[%d] "Spine%d"[%d] w=2 s=4 e=0' % (per_leaf + s + 1, s, l + 1))
    out.append("")
for l in range(leaves):
    for h in range(per_leaf):
        out.append('Hca 1 "H%d-%d"' % (l, h))
        out.append('[1] "Leaf%d"[%d] w=2 s=4 e=0' % (l, h + 1))
        out.append("")
print("\n".join(out))
