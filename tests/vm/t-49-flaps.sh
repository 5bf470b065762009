#!/bin/sh
# SPDX-License-Identifier: MIT
# t-49-flaps.sh: `ip link set dev <netdev> down` / `up` under
# `ibconsole watch` on rxe0 is recorded from the verbs asynchronous events
# (port_err, port_active) and from polling (Active -> Down -> Active), and
# a new process (`ibconsole events --json`) reads them back; the netdev
# (virtio_net) has no per-priority pause statistics — read here with the
# ethtool ioctl independently — and watch says so instead of showing 0;
# rxe's sequence / retry counters are classified "loss".
set -u
# shellcheck source=tests/vm/vmlib.sh
. "$VM_TESTS_DIR/vmlib.sh"

dev=rxe0
nd=$RXE_VM_NETDEV
P=/sys/class/infiniband/$dev/ports/1
export XDG_STATE_HOME=$PWD/state
grep -q ACTIVE "$P/state" || fail "$dev/1 not ACTIVE at start: $(cat "$P/state")"

# the oracle: does the netdev's driver have per-priority pause statistics?
prio_stats=$(/usr/bin/python3 - "$nd" <<'PY'
import array, fcntl, re, socket, struct, sys
SIOCETHTOOL, GSSET_INFO, GSTRINGS, SS_STATS = 0x8946, 0x37, 0x1b, 1
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
def ioctl(buf):
    ifr = struct.pack("16sP", sys.argv[1].encode(), buf.buffer_info()[0])
    fcntl.ioctl(s.fileno(), SIOCETHTOOL, ifr)
b = array.array("B", struct.pack("IIQI", GSSET_INFO, 0, 1 << SS_STATS, 0))
ioctl(b)
n = struct.unpack("IIQI", b.tobytes())[3]
b = array.array("B", struct.pack("III", GSTRINGS, SS_STATS, n) + bytes(32 * n))
ioctl(b)
raw = b.tobytes()[12:]
names = [raw[i * 32:(i + 1) * 32].split(b"\0")[0].decode() for i in range(n)]
print(" ".join(x for x in names if re.search(r"prio|pfc|priority", x)))
PY
) || fail "the ethtool ioctl oracle failed on $nd"
[ -z "$prio_stats" ] || fail "$nd has per-priority statistics ($prio_stats): this test expects a driver without them"

"$IBCONSOLE" watch --json --interval 1 -d "$dev" > watch.jsonl 2> watch.err &
wpid=$!
trap 'kill "$wpid" 2>/dev/null; ip link set dev "$nd" up' EXIT
trap 'exit 1' HUP INT TERM
n=0
until [ "$(wc -l < watch.jsonl)" -ge 1 ]; do
	n=$((n + 1))
	[ "$n" -le 60 ] && kill -0 "$wpid" 2>/dev/null ||
		{ cat watch.err; fail "ibconsole watch printed nothing"; }
	sleep 0.5
done
# watch_saw SOURCE WHAT: watch.jsonl (compact JSON, a record a line)
# holds an rxe0/1 event from SOURCE (verbs, poll) named WHAT or going to
# a state WHAT... (grep: a python per look costs a second under TCG; the
# records are parsed in full below)
watch_saw() {
	grep -Eq "\"port\": \"rxe0/1\",\"event\": (\"$2\",\"source\": \"$1\"|\"[^\"]*\",\"source\": \"$1\",\"from\": [^,]*,\"to\": \"$2)" watch.jsonl
}
# wait_watch SOURCE WHAT...: until watch has printed each (20 s)
wait_watch() {
	src=$1
	shift
	for w in "$@"; do
		n=0
		until watch_saw "$src" "$w"; do
			n=$((n + 1))
			[ "$n" -le 100 ] && kill -0 "$wpid" 2>/dev/null ||
				{ cat watch.err; fail "watch never printed the $src event $w"; }
			sleep 0.2
		done
	done
}
ip link set dev "$nd" down || fail "ip link set dev $nd down"
# the verbs event and the poll that saw the port down, on watch's output
wait_watch verbs port_err
wait_watch poll Down
echo "after down: $(cat "$P/state") / $(cat "$P/phys_state")"
ip link set dev "$nd" up || fail "ip link set dev $nd up"
n=0
until grep -q ACTIVE "$P/state"; do
	n=$((n + 1))
	[ "$n" -le 40 ] || fail "$dev/1 not ACTIVE again 20 s after up"
	sleep 0.5
done
wait_watch verbs port_active
wait_watch poll Active
kill -INT "$wpid"
wait "$wpid"
cat watch.err

"$IBCONSOLE" events --json > events.json 2> events.err ||
	{ cat events.err; fail "events --json failed"; }
cat events.json
/usr/bin/python3 - watch.jsonl events.json <<'PY' || fail "flap, PFC and loss checks"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
ev = [e for e in json.load(open(sys.argv[2]))["events"] if e["port"] == "rxe0/1"]
bad = 0
def fail(m):
    global bad; bad += 1; print("FAIL:", m)
kinds = [(e["source"], e["event"]) for e in ev]
for want in [("verbs", "port_err"), ("verbs", "port_active")]:
    if want not in kinds: fail("no %s %s event: %s" % (*want, kinds))
polls = [(e["from"].split("/")[0], e["to"].split("/")[0]) for e in ev if e["source"] == "poll"]
if ("Active", "Down") not in polls or ("Down", "Active") not in polls:
    fail("polling did not see Active -> Down -> Active: %s" % polls)
if kinds.index(("verbs", "port_err")) > kinds.index(("verbs", "port_active")):
    fail("port_active before port_err")
seen = [(e["source"], e["event"]) for r in recs for e in r["events"]]
if ("verbs", "port_err") not in seen: fail("watch --json did not show the verbs event: %s" % seen)
ports = [p for r in recs for p in r["ports"] if p["port"] == "rxe0/1"]
if not ports: fail("no rxe0/1 in watch")
for p in ports:
    pfc = p.get("pfc")
    if not pfc or pfc["note"] != "the driver exposes no per-priority pause counters" or pfc["priorities"]:
        fail("pfc on rxe0/1: %s" % pfc)
        break
loss = {c["name"]: c["class"] for p in ports for c in p.get("roce_congestion_loss", [])}
import os
hwdir = "/sys/class/infiniband/rxe0/ports/1/hw_counters/"
want = [n for n in ("rcvd_seq_err", "out_of_seq_request", "retry_exceeded_err", "duplicate_request",
                    "out_of_sequence") if os.path.exists(hwdir + n)]
if len(want) < 2: fail("rxe has too few of its sequence / retry counters: %s" % os.listdir(hwdir))
for n in want:
    if loss.get(n) != "loss": fail("%s not classified loss: %s" % (n, loss))
sys.exit(1 if bad else 0)
PY
echo "PASS: flaps recorded from verbs events and polling; no per-priority pause counters said; loss classified"
