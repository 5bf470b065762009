# SPDX-License-Identifier: MIT
# enginelib.sh: helpers for the test-engine VM tests (t-40, t-42, t-43):
# an agent on rxe0, `check` to run one test, `validate` to check every
# JSON result for plausible numbers in ONE python run (python's start-up
# is slow under TCG). Source after vmlib.sh; set PORT first.
IBC=$IBCONSOLE
ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
gid=$(roce_v2_ipv4_index rxe0 1 "$ip4")
[ -n "$gid" ] || fail "no RoCE v2 IPv4 GID on rxe0"
export IBCONSOLE_RECORD_DIR=$IBC_TMP/records
checks=

start_agent() {
	"$IBC" serve --port "$PORT" --timeout 10 2> agent.log &
	agent=$!
	trap 'kill $agent 2>/dev/null; wait $agent 2>/dev/null || true' EXIT
	i=0
	until grep -qs listening agent.log; do
		i=$((i + 1))
		[ $i -le 100 ] || fail "the agent did not start: $(cat agent.log)"
		sleep 0.1
	done
}

stop_agent() {
	kill $agent
	wait $agent 2>/dev/null || true
	trap - EXIT
	if ps -eo comm | grep -qx ibconsole; then fail "stray ibconsole processes"; fi
}

# check NAME ARGS...: one test; exit 0 or 1 (the verdict), JSON kept
check() {
	name=$1
	shift
	rc=0
	timeout 90 "$IBC" test "$@" --port "$PORT" --json "$ip4" > "$name.json" 2> "$name.err" || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || { cat "$name.err"; fail "$name ($*): exit $rc"; }
	case " $* " in *" -x "*) ga=False ;; *) ga=True ;; esac
	checks="$checks $name:$rc:$ga"
	echo "ran: $name ($*): exit $rc"
}

# validate: every check's JSON has plausible numbers
validate() {
	/usr/bin/python3 - $checks <<'PY' || fail "implausible results (above)"
import json, sys
bad = 0
for spec in sys.argv[1:]:
    name, rc, ga = spec.split(":")
    try:
        r = json.load(open(name + ".json"))
        assert r["schema"] == "ibconsole/test/1" and r["error"] is None, "error set"
        v = r["verdict"]
        assert (v["state"] == "fail") == (rc == "1"), "exit status must follow the verdict"
        p = r["params"]; ph = r["phases"]
        assert ph, "no phases"
        for x in ph:
            assert x["msgs"] > 0 and x["time_s"] > 0, "no messages or no time"
            assert 0 < x["bw_avg_gbps"] < 1000 and x["msg_rate_mpps"] > 0, "bandwidth"
            if x["bw_peak_gbps"] is not None:
                assert x["bw_peak_gbps"] >= x["bw_avg_gbps"] * 0.999, "peak < average"
            if p["kind"] == "lat":
                assert 0 < x["lat_min_us"] <= x["lat_median_us"] <= x["lat_p99_us"] <= x["lat_p999_us"] <= x["lat_max_us"], "latency order"
                assert sum(h["count"] for h in x["lat_histogram"]) == x["lat_samples"], "histogram"
                assert ("half" in x["lat_convention"]) == (p["op"] != "read"), "convention"
        if p["sweep"]:
            sizes = [x["size_bytes"] for x in ph]
            assert sizes == [2 ** k for k in range(1, len(sizes) + 1)], "sweep sizes"
        for k in ("device", "fw_ver", "kernel", "link_layer"):
            assert r["local_facts"][k] and r["peer_facts"][k], k
        assert r["local"]["gid_auto"] is (ga == "True"), "gid_auto"
        pc = r["peer_counters_delta"]
        assert r["peer_counter_updates"] >= 1 and pc.get("sent_pkts", 0) > 0, \
            "peer counters: %d update(s), peer sent_pkts %s, local sent_pkts %s, peer has %d counters" % (
                r["peer_counter_updates"], pc.get("sent_pkts"), r["local_counters_delta"].get("sent_pkts"), len(pc))
        print("ok: %s: %s %s, %d phase(s), verdict %s" % (name, p["kind"], p["op"], len(ph), v["state"]))
    except Exception as e:
        bad += 1
        print("FAILED: %s: %r" % (name, e))
        print(open(name + ".json").read()[:1500])
sys.exit(1 if bad else 0)
PY
}
