# SPDX-License-Identifier: MIT
# vmlib.sh: helpers sourced by the in-VM tests (tests/vm/t-*.sh).

fail() {
	echo "FAILED: $*" >&2
	exit 1
}

# roce_v2_ipv4_index DEV PORT IPV4: the GID index of DEV/PORT whose type is
# "RoCE v2" and whose GID is IPV4 mapped into IPv6 (::ffff:a.b.c.d); empty
# when none. Unpopulated entries make gid_attrs reads fail with EINVAL.
roce_v2_ipv4_index() {
	/usr/bin/python3 - "$1" "$2" "$3" <<'PY'
import ipaddress, os, sys
dev, port, want = sys.argv[1], sys.argv[2], ipaddress.IPv4Address(sys.argv[3])
p = f"/sys/class/infiniband/{dev}/ports/{port}"
for name in sorted(os.listdir(p + "/gids"), key=int):
    try:
        t = open(f"{p}/gid_attrs/types/{name}").read().strip()
        g = ipaddress.IPv6Address(open(f"{p}/gids/{name}").read().strip())
    except OSError:
        continue
    if t == "RoCE v2" and g.ipv4_mapped == want:
        print(name)
        break
PY
}

# netdev_ipv4 NETDEV: the first IPv4 address on NETDEV.
netdev_ipv4() {
	ip -4 -o addr show dev "$1" | awk '{sub(/\/.*/, "", $4); print $4; exit}'
}

# wait_listening LOG: until the agent writing LOG says it listens (10 s).
wait_listening() {
	i=0
	until grep -qs listening "$1"; do
		i=$((i + 1))
		[ $i -le 100 ] || fail "the agent did not start: $(cat "$1")"
		sleep 0.1
	done
}
