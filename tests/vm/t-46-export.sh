#!/bin/sh
# SPDX-License-Identifier: MIT
# t-46-export.sh: `ibconsole export` on rxe0 against node_exporter's
# infiniband collector (Debian's prometheus-node-exporter), both scraped
# before and after the same perftest run.
#
# What rxe exposes decides what can be compared. rxe has no PMA, so the
# kernel gives its port no counters/ directory (no port_xmit_data /
# port_rcv_data: no byte counters at all), only the driver's hw_counters/
# (sent_pkts, rcvd_pkts, errors). node_exporter's infiniband collector
# (1.5.0 here) reads counters/ only and skips the whole device class when
# a port has none: it reports nothing for rxe0, not even state or rate.
# So this test asserts exactly that, and that we report no bytes either
# (absent, never a made-up 0), and compares the packets both of our
# outputs report (/metrics, and our textfile served by node_exporter's
# textfile collector) with the kernel's hw_counters files read over the
# same interval: equal, no traffic runs while they are read. It also runs
# the exporter as nobody: sysfs is enough for a RoCE port.
set -u
# shellcheck source=tests/vm/vmlib.sh
. "$VM_TESTS_DIR/vmlib.sh"

dev=rxe0
P=/sys/class/infiniband/$dev/ports/1
NE=prometheus-node-exporter
command -v $NE >/dev/null 2>&1 || fail "$NE not found — apt-get install prometheus-node-exporter"
command -v promtool >/dev/null 2>&1 || fail "promtool not found — apt-get install prometheus"
command -v curl >/dev/null 2>&1 || fail "curl not found — apt-get install curl"
$NE --version 2>&1 | head -1
[ -d "$P/hw_counters" ] || fail "rxe0 has no hw_counters/"
[ -e "$P/counters" ] && fail "rxe0 now has a counters/ directory: compare bytes with node_exporter here"
ip link set lo up 2>/dev/null

# GET URL: the body on stdout; curl, not a python3 start per scrape
# (slow in an emulated VM); fails on HTTP errors and after 5 s
get() {
	curl -sf -m 5 "$1"
}

NEP=19100 XP=19879
mkdir -p tf
$NE --collector.disable-defaults --collector.infiniband --collector.textfile \
	--collector.textfile.directory="$PWD/tf" --log.level=debug \
	--web.listen-address=127.0.0.1:$NEP > ne.log 2>&1 &
nepid=$!
"$IBCONSOLE" export -d "$dev" --interval 1 --listen 127.0.0.1:$XP --textfile "$PWD/tf" \
	> exp.out 2> exp.err &
xpid=$!
trap 'kill "$nepid" "$xpid" "${spid:-}" 2>/dev/null' EXIT
trap 'exit 1' HUP INT TERM
n=0
until [ -s tf/ibconsole.prom ] && get "http://127.0.0.1:$NEP/metrics" > ne0.prom 2>/dev/null &&
	get "http://127.0.0.1:$XP/metrics" > x0.prom 2>/dev/null; do
	n=$((n + 1))
	[ "$n" -le 60 ] || { cat ne.log exp.err; fail "an exporter never answered"; }
	sleep 0.5
done
echo "both exporters answer after $n tries"

# scrape both, then read the kernel's files, with no traffic running and
# our collection (every 1 s) newer than the last change
scrape() {
	sleep 2.5
	get "http://127.0.0.1:$NEP/metrics" > "ne$1.prom" || fail "node_exporter scrape"
	get "http://127.0.0.1:$XP/metrics" > "x$1.prom" || fail "ibconsole scrape"
	cat "$P/hw_counters/sent_pkts" > "sent$1"
	cat "$P/hw_counters/rcvd_pkts" > "rcvd$1"
}
scrape 0

ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
idx=$(roce_v2_ipv4_index "$dev" 1 "$ip4")
[ -n "$idx" ] || fail "no RoCE v2 GID for $ip4 on $dev"
mtu=$(ibv_devinfo -d "$dev" -i 1 | awk '/active_mtu/ {print $2; exit}')
size=65536 iters=50 tcp_port=18546
implied=$((iters * ((size + mtu - 1) / mtu)))
args="-d $dev -x $idx -s $size -n $iters --report_gbits -p $tcp_port"
echo "perftest: $iters x $size B at MTU $mtu = $implied data packets"
# shellcheck disable=SC2086
perftest_pair 90 "$tcp_port" ib_write_bw $args
echo "perftest done"
scrape 1
grep -v 'level=info\|running as root\|MAXPROCS' ne.log | sed -n 1,4p

/usr/bin/python3 - "$implied" <<'PY' || fail "exporters disagree"
import re, sys
implied = int(sys.argv[1])
def load(f):
    return open(f).read()
def val(text, name, **labels):
    for line in text.splitlines():
        if line.startswith(name + "{") and all('%s="%s"' % kv in line for kv in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return None
bad = 0
ne = [load("ne0.prom"), load("ne1.prom")]
x = [load("x0.prom"), load("x1.prom")]
kern = {c: [int(open(f"{c}{i}").read()) for i in (0, 1)] for c in ("sent", "rcvd")}
# node_exporter: its infiniband collector fails on rxe0 (no counters/)
for t in ne:
    series = [l for l in t.splitlines() if l.startswith("node_infiniband_")]
    if series:
        print("FAIL: node_exporter now reports rxe0: %s — compare with it here" % series[:3]); bad += 1
    if val(t, "node_scrape_collector_success", collector="infiniband") != 0:
        print("FAIL: node_exporter's infiniband collector did not fail on rxe0"); bad += 1
    if val(t, "node_scrape_collector_success", collector="textfile") != 1 or \
       "node_textfile_scrape_error 0" not in t:
        print("FAIL: node_exporter did not accept our textfile"); bad += 1
print("node_exporter: infiniband collector success 0, no node_infiniband_* series for rxe0 (no counters/)")
# we report no bytes for rxe0 either: absent, not 0
for t in x:
    for fam in ("ibconsole_port_transmit_bytes_total", "ibconsole_port_receive_bytes_total"):
        if val(t, fam, device="rxe0") is not None:
            print("FAIL: %s for rxe0 without a counters/ directory" % fam); bad += 1
    if val(t, "ibconsole_port_counters_up", device="rxe0") != 1:
        print("FAIL: rxe0 counters not up"); bad += 1
# packets over the same interval: ours (HTTP and via node_exporter's
# textfile collector) against the kernel's hw_counters files
for c in ("sent", "rcvd"):
    k = kern[c][1] - kern[c][0]
    d = []
    for src in (x, ne):
        a, b = (val(t, "ibconsole_port_hw_events_total", device="rxe0", counter=c + "_pkts") for t in src)
        d.append(None if a is None or b is None else b - a)
    print("%s_pkts over the run: kernel +%d, ibconsole /metrics +%s, via node_exporter textfile +%s"
          % (c, k, d[0], d[1]))
    if d[0] != k or d[1] != k:
        print("FAIL: %s_pkts deltas differ" % c); bad += 1
    if k < implied:
        print("FAIL: %s_pkts +%d below the %d data packets perftest implies" % (c, k, implied)); bad += 1
sys.exit(1 if bad else 0)
PY

# unprivileged: a RoCE port's counters are all in sysfs
nrc=0
setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/tmp \
	"$IBCONSOLE" export --once -d "$dev" > nobody.prom 2> nobody.err || nrc=$?
# 1 is a collection whose verdict says act (retransmissions under
# emulation reach the lifetime levels): then a verdict of 2 is there
case $nrc in
0) ;;
1) grep -q '^ibconsole_port_verdict{device="rxe0",port="1",rule="[a-z-]*"} 2$' nobody.prom ||
	fail "as nobody: exit 1 without an act verdict: $(grep verdict nobody.prom)"
   echo "as nobody: exit 1, act: $(grep '} 2$' nobody.prom | grep -v _total | head -2)" ;;
*) cat nobody.err; fail "export --once as nobody exited $nrc" ;;
esac
grep -q '^ibconsole_port_counters_up{device="rxe0",port="1"} 1$' nobody.prom ||
	fail "as nobody: rxe0 counters not up: $(grep counters_ nobody.prom)"
grep -q '^ibconsole_port_hw_events_total{device="rxe0",port="1",counter="sent_pkts",class="traffic"} [1-9]' nobody.prom ||
	fail "as nobody: no sent_pkts"
promtool check metrics < nobody.prom > promtool.txt 2>&1 && [ ! -s promtool.txt ] ||
	fail "promtool: $(cat promtool.txt)"
echo "ok: as nobody rxe0's counters are read from sysfs; promtool reports nothing"
