#!/bin/bash
# SPDX-License-Identifier: MIT
# export-bench.sh time|rss [LEAVES HCAS_PER_LEAF SPINES]
#   time: one full fabric collection, `ibconsole export --fabric --once`
#         (discovery, every switch and HCA port's PortCounters and
#         PortCountersExtended, rendering), against the method of
#         treydock/infiniband_exporter scripted with the same tools
#         (ibnetdiscover, then one `perfquery -x -l LID` per switch,
#         one after the other) on the same generated ibsim fabric
#         (default 48 leaves x 24 HCAs + 8 spines = 3,072 ports), in the
#         same run: one warm-up each, then PAIRS (default 9) alternating
#         pairs; the median and range of the pairwise time ratio.
#   rss:  the exporter's peak resident memory on a fabric (default 100
#         leaves x 40 HCAs + 10 spines = 10,000 ports): --once, and the
#         server after three sweeps.
# Prints a Markdown section; IBCONSOLE=path/to/ibconsole PAIRS=9.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/sim/simlib.sh"
sim_isolate "$@"
mode=${1:-time}
shift
case $mode in
time) LEAVES=${1:-48} PER=${2:-24} SPINES=${3:-8} ;;
rss) LEAVES=${1:-100} PER=${2:-40} SPINES=${3:-10} ;;
*) sim_die "usage: export-bench.sh time|rss [LEAVES HCAS_PER_LEAF SPINES]" ;;
esac
PAIRS=${PAIRS:-9}
IBC=${IBCONSOLE:-$here/../ibconsole}
[ -x "$IBC" ] || sim_die "$IBC not built"
[ -x /usr/bin/time ] || sim_die "/usr/bin/time not found — apt-get install time"

NET=$(mktemp "${TMPDIR:-/tmp}/ibc-xbench.XXXXXX.net") || sim_die mktemp
sim_at_exit 'rm -f "$NET"'
python3 "$here/gen-fabric.py" "$LEAVES" "$PER" "$SPINES" >"$NET"
NODES=$((LEAVES * PER + LEAVES + SPINES))
PORTS=$((2 * LEAVES * PER + 2 * LEAVES * SPINES))
# big fabrics need ibsim's limits raised and more time for opensm -o
SIM_IBSIM_ARGS="-N $((NODES + 64)) -S $((LEAVES + SPINES + 16)) -P $((PORTS + NODES + 1024))"
SIM_READY_TENTHS=1200 SIM_OPENSM_TIMEOUT=300
export SIM_IBSIM_ARGS SIM_READY_TENTHS SIM_OPENSM_TIMEOUT
SIM_HOST=H0-0 sim_start "$NET"

now() { date +%s.%N; }
# NAME CMD...: runs CMD under the preload, appends its wall time to NAME.t
timeit()
{
	local name=$1 t0 t1
	shift
	t0=$(now)
	sim_run "$@" >"$SIM_DIR/$name.out" 2>"$SIM_DIR/$name.err"
	echo $? >"$SIM_DIR/$name.rc"
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f\n", b - a}' >>"$SIM_DIR/$name.t"
}

if [ "$mode" = rss ]; then
	sim_run /usr/bin/time -f %M -o "$SIM_DIR/once.rss" timeout -k 2 300 "$IBC" export --fabric --once \
		>"$SIM_DIR/once.prom" 2>"$SIM_DIR/once.err" || sim_die "export --once: $(cat "$SIM_DIR/once.err")"
	N=$(grep -c '^ibconsole_fabric_port_counters_up{.* 1$' "$SIM_DIR/once.prom")
	ip link set lo up 2>/dev/null
	(cd "$SIM_DIR" && LD_PRELOAD="$SIM_UMAD2SIM" exec "$IBC" export --fabric --listen 127.0.0.1:19879 \
		--sweep-interval 5 >"$SIM_DIR/srv.out" 2>"$SIM_DIR/srv.err") &
	XP=$!
	sim_track $XP
	for i in $(seq 1 1200); do
		S=$(python3 -c 'import urllib.request as u; print([l for l in u.urlopen("http://127.0.0.1:19879/metrics", timeout=30).read().decode().splitlines() if l.startswith("ibconsole_fabric_sweeps_total ")][0].split()[1])' 2>/dev/null)
		[ "${S:-0}" -ge 4 ] && break
		sleep 0.5
	done
	HWM=$(sed -n 's/^VmHWM:[[:space:]]*//p' /proc/$XP/status)
	RSS=$(sed -n 's/^VmRSS:[[:space:]]*//p' /proc/$XP/status)
	SIZE=$(python3 -c 'import urllib.request as u; print(len(u.urlopen("http://127.0.0.1:19879/metrics", timeout=30).read()))')
	kill $XP
	echo "## Exporter memory on a ${PORTS}-port fabric"
	echo
	echo "Written by \`bench/export-bench.sh rss $LEAVES $PER $SPINES\` on $(date -u +%Y-%m-%d) ($(nproc) CPUs, shared): fat tree ${LEAVES}x${PER} + $SPINES spines, $NODES nodes, $PORTS ports ($N swept and up)."
	echo
	echo "| run | peak RSS |"
	echo "|---|---|"
	echo "| \`export --fabric --once\` (\`/usr/bin/time -f %M\`) | $(cat "$SIM_DIR/once.rss") KiB |"
	echo "| server after ${S:-?} sweeps (VmHWM; VmRSS now $RSS) | $HWM |"
	echo
	echo "One scrape of the server: $SIZE bytes of text."
	sim_result
fi

# treydock's method with the same tools: the topology, then each switch's
# ports one perfquery at a time (LID-addressed: no SA on ibsim)
cat >"$SIM_DIR/treydock.sh" <<'SH'
#!/bin/bash
ibnetdiscover >topo.txt || exit 1
for lid in $(sed -n 's/^Switch.* lid \([0-9]\{1,\}\) .*/\1/p' topo.txt); do
	perfquery -x -l "$lid" >>pq.txt || exit 1
done
SH
chmod +x "$SIM_DIR/treydock.sh"
NSW=$(sim_run ibnetdiscover 2>/dev/null | grep -c '^Switch')

for w in ours theirs; do	# warm-up, not counted
	timeit warm-$w timeout -k 2 120 "$IBC" export --fabric --once
	timeit warm-$w timeout -k 2 300 "$SIM_DIR/treydock.sh"
done
for i in $(seq 1 "$PAIRS"); do
	if [ $((i % 2)) = 1 ]; then
		timeit ours timeout -k 2 120 "$IBC" export --fabric --once
		timeit theirs timeout -k 2 300 "$SIM_DIR/treydock.sh"
	else
		timeit theirs timeout -k 2 300 "$SIM_DIR/treydock.sh"
		timeit ours timeout -k 2 120 "$IBC" export --fabric --once
	fi
done
[ "$(cat "$SIM_DIR/ours.rc")" -le 1 ] || sim_die "export failed: $(cat "$SIM_DIR/ours.err")"
[ "$(cat "$SIM_DIR/theirs.rc")" = 0 ] || sim_die "treydock.sh failed: $(cat "$SIM_DIR/theirs.err")"
UPN=$(grep -c '^ibconsole_fabric_port_counters_up{.* 1$' "$SIM_DIR/ours.out")
PQN=$(grep -c '^# Port extended counters' "$SIM_DIR/pq.txt" 2>/dev/null || true)
python3 - "$SIM_DIR/ours.t" "$SIM_DIR/theirs.t" <<'PY' >"$SIM_DIR/stats"
import statistics, sys
a = [float(x) for x in open(sys.argv[1])]
b = [float(x) for x in open(sys.argv[2])]
r = sorted(x / y for x, y in zip(a, b))
print("%.3f %.3f %.3f %.3f %.3f %d" % (statistics.median(a), statistics.median(b),
      statistics.median(r), r[0], r[-1], len(r)))
PY
read -r OURS THEIRS MED LO HI N <"$SIM_DIR/stats"
echo "## One full fabric collection: \`ibconsole export --fabric --once\` vs treydock's method"
echo
echo "Written by \`bench/export-bench.sh time $LEAVES $PER $SPINES\` (PAIRS=$PAIRS) on $(date -u +%Y-%m-%d) ($(nproc) CPUs, shared): fat tree ${LEAVES}x${PER} + $SPINES spines, $NODES nodes, $PORTS ports, $NSW switches; one warm-up each, then $N alternating pairs in the same run."
echo
echo "| | median wall time | what it reads |"
echo "|---|---|---|"
echo "| \`ibconsole export --fabric --once\` | $OURS s | discovery + PortCounters and PortCountersExtended of all $UPN switch and HCA ports, rendered |"
echo "| ibnetdiscover + \`perfquery -x -l LID\` per switch, serially | $THEIRS s | discovery + the switch ports only |"
echo
echo "Pairwise ratio ours / theirs: median **$MED**, range $LO – $HI ($N pairs)."
awk -v m="$MED" 'BEGIN {exit !(m <= 0.25)}' || sim_fail "median ratio $MED above 0.25"
sim_result
