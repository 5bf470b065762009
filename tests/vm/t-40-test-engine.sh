#!/bin/sh
# SPDX-License-Identifier: MIT
# t-40-test-engine.sh: `ibconsole serve` and `ibconsole test` on rxe0 in
# one VM: every kind, op and option completes with plausible numbers, and
# perftest run on the same sizes is the oracle (ratio within TOL).
#
# Tolerance: under TCG emulation both tools share 2 emulated CPUs with
# the kernel's rxe worker, so single runs scatter; we assert agreement
# within a factor of IBCONSOLE_ORACLE_TOL (default 3) on bandwidth at
# 64 KiB (write) and on median latency at 2 B (send), and write the
# measured ratios to $IBCONSOLE_BENCH_OUT when set (bench/ uses that).
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
IBC=$IBCONSOLE
TOL=${IBCONSOLE_ORACLE_TOL:-3}
PORT=18600
ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
gid=$(roce_v2_ipv4_index rxe0 1 "$ip4")
[ -n "$gid" ] || fail "no RoCE v2 IPv4 GID on rxe0 (the oracle needs -x)"
export IBCONSOLE_RECORD_DIR=$IBC_TMP/records

"$IBC" serve --port $PORT --timeout 10 2> agent.log &
agent=$!
trap 'kill $agent 2>/dev/null; wait $agent 2>/dev/null || true' EXIT
sleep 0.3

# check NAME ARGS...: one test, JSON validated for plausible numbers.
check() {
	name=$1
	shift
	rc=0
	timeout 60 "$IBC" test "$@" --port $PORT --json "$ip4" > "$name.json" 2> "$name.err" || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || { cat "$name.err"; fail "$name: exit $rc"; }
	case " $* " in *" -x "*) ga=False ;; *) ga=True ;; esac
	/usr/bin/python3 - "$name.json" "$rc" "$ga" <<'PY' || fail "$name: implausible result: $(cat "$name.json" | head -c 600)"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "ibconsole/test/1" and r["error"] is None
v = r["verdict"]; rc = int(sys.argv[2])
assert (v["state"] == "fail") == (rc == 1), "exit status must follow the verdict"
p = r["params"]; ph = r["phases"]
assert ph, "no phases"
for x in ph:
    assert x["msgs"] > 0 and x["time_s"] > 0
    assert 0 < x["bw_avg_gbps"] < 1000 and x["msg_rate_mpps"] > 0
    if x["bw_peak_gbps"] is not None:
        assert x["bw_peak_gbps"] >= x["bw_avg_gbps"] * 0.999
    if p["kind"] == "lat":
        assert 0 < x["lat_min_us"] <= x["lat_median_us"] <= x["lat_p99_us"] <= x["lat_p999_us"] <= x["lat_max_us"]
        assert sum(h["count"] for h in x["lat_histogram"]) == x["lat_samples"]
        assert ("half" in x["lat_convention"]) == (p["op"] != "read")
for k in ("device", "fw_ver", "kernel", "link_layer"):
    assert r["local_facts"][k] and r["peer_facts"][k], k
assert r["local"]["gid_auto"] is (sys.argv[3] == "True")
assert r["peer_counter_updates"] >= 1 and r["peer_counters_delta"].get("sent_pkts", 0) > 0
PY
	echo "ok: $name ($*) verdict $(sed -n 's/.*"state": "\([a-z]*\)".*/\1/p' "$name.json" | head -1)"
}

check bw-write bw -n 200
check bw-read bw --op read -n 200
check bw-send bw --op send -n 200
check bw-write-4qp bw -n 100 -q 4 -t 16 -Q 4 -I 0
check bw-bidir bw -n 100 --bidir
check bw-send-bidir bw --op send -n 100 --bidir -s 4096
check bw-duration bw -D 1
check bw-sweep bw --sweep -s 64K -n 20
check bw-ud bw --op send -c UD -s 1024 -n 200
check lat-write lat -n 200
check lat-read lat --op read -n 200
check lat-send lat --op send -n 200
check lat-duration lat -D 1
check lat-ud lat --op send -c UD -n 200
check rate rate -n 200
check rate-gid rate -n 100 -x "$gid" --cq-mod 10 -t 64

# ---- the oracle: perftest on the same sizes, same VM ----
pt() {	# pt TOOL ARGS...: server then client, prints the client's result line
	tool=$1
	shift
	timeout 60 "$tool" -d rxe0 -x "$gid" -p $((PORT + 1)) "$@" > pt-server.log 2>&1 &
	s=$!
	sleep 0.5
	timeout 60 "$tool" -d rxe0 -x "$gid" -p $((PORT + 1)) "$@" 127.0.0.1 > pt-client.log 2>&1 ||
		{ cat pt-client.log; fail "$tool failed"; }
	wait $s || true
	awk '/^ *#bytes/ {getline; print; exit}' pt-client.log
}
ours() {	# ours JSONKEY ARGS...: one number from our JSON
	key=$1
	shift
	rc=0
	timeout 60 "$IBC" test "$@" --port $PORT --json --no-record "$ip4" > o.json 2> o.err || rc=$?
	[ "$rc" -le 1 ] || { cat o.err; fail "ibconsole test $*: exit $rc"; }
	/usr/bin/python3 -c "import json,sys; print(json.load(open('o.json'))['phases'][0]['$key'])"
}
ratio() { /usr/bin/python3 -c "print('%.3f' % ($1 / $2))"; }
within() { /usr/bin/python3 -c "import sys; r=$1; t=$TOL; sys.exit(0 if 1/t <= r <= t else 1)"; }

n=500
pt_bw=$(pt ib_write_bw -s 65536 -n $n --report_gbits | awk '{print $4}')
our_bw=$(ours bw_avg_gbps bw -s 65536 -n $n)
pt_lat=$(pt ib_send_lat -s 2 -n 1000 | awk '{print $5}')
our_lat=$(ours lat_median_us lat --op send -s 2 -n 1000)
pt_rbw=$(pt ib_read_bw -s 65536 -n $n --report_gbits | awk '{print $4}')
our_rbw=$(ours bw_avg_gbps bw --op read -s 65536 -n $n)
r_bw=$(ratio "$our_bw" "$pt_bw")
r_lat=$(ratio "$our_lat" "$pt_lat")
r_rbw=$(ratio "$our_rbw" "$pt_rbw")
echo "oracle: write bw 64 KiB: ibconsole $our_bw Gb/s, ib_write_bw $pt_bw Gb/s, ratio $r_bw"
echo "oracle: read bw 64 KiB: ibconsole $our_rbw Gb/s, ib_read_bw $pt_rbw Gb/s, ratio $r_rbw"
echo "oracle: send lat 2 B median: ibconsole $our_lat us, ib_send_lat $pt_lat us, ratio $r_lat"
if [ -n "${IBCONSOLE_BENCH_OUT:-}" ]; then
	{
		echo "write_bw_64k_gbps ibconsole=$our_bw perftest=$pt_bw ratio=$r_bw"
		echo "read_bw_64k_gbps ibconsole=$our_rbw perftest=$pt_rbw ratio=$r_rbw"
		echo "send_lat_2b_median_us ibconsole=$our_lat perftest=$pt_lat ratio=$r_lat"
	} >> "$IBCONSOLE_BENCH_OUT"
fi
within "$r_bw" || fail "write bandwidth disagrees with ib_write_bw beyond x$TOL"
within "$r_rbw" || fail "read bandwidth disagrees with ib_read_bw beyond x$TOL"
within "$r_lat" || fail "send latency disagrees with ib_send_lat beyond x$TOL"

# records: one per run, and --compare reruns a record's test
ls "$IBCONSOLE_RECORD_DIR"/test-*.json > /dev/null || fail "no records saved"
rec=$(ls "$IBCONSOLE_RECORD_DIR"/test-bw-write-*.json | head -1)
rc=0
timeout 60 "$IBC" test bw --compare "$rec" --port $PORT --no-record > cmp.txt 2>&1 || rc=$?
[ "$rc" -le 1 ] || { cat cmp.txt; fail "--compare: exit $rc"; }
grep -q "compared with $rec" cmp.txt || { cat cmp.txt; fail "--compare printed no comparison"; }
grep -q "bw_avg_gbps" cmp.txt || { cat cmp.txt; fail "--compare shows no bandwidth change"; }
kill $agent
wait $agent 2>/dev/null || true
trap - EXIT
if ps -eo comm | grep -qx ibconsole; then fail "stray ibconsole processes"; fi
echo "test engine ok"
