#!/bin/sh
# SPDX-License-Identifier: MIT
# t-50-accept-hosts.sh: `ibconsole accept --hosts` over four agents on rxe0
# in one VM, each on its own TCP port (hosts file lines IP:PORT): all six
# pairs in three rounds of two, each pair measured by one agent ordered to
# test the other; accept.json and pairs.csv written and checked against
# each other. The fleet rules are loosened in a config file because pairs
# running at once on one emulated rxe device share its CPU (the rules
# themselves are unit-tested); the absolute line is set with --line-rate
# below every measurement.
# Then: a host with no agent fails each of its pairs with the reason and
# is named the bad host (exit 1); a wrong secret is refused with one
# line (exit 3); an agent whose --hosts list lacks the target refuses the
# order with one line (exit 3).
# Every order opens, registers and connects under emulation: on a loaded
# machine the whole run took more than 180 s.
# vm-timeout: 420
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
IBC=$IBCONSOLE
ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
[ -n "$ip4" ] || fail "no IPv4 address on $RXE_VM_NETDEV"
echo "s3cret-for-the-test" > secret
echo "not-the-secret" > wrong
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true' EXIT

# agents on ports 18700, 18702, ... (each also listens on its port + 1)
: > hosts4
for k in 0 1 2 3; do
	port=$((18700 + 2 * k))
	"$IBC" serve -d rxe0 --port "$port" --secret-file secret 2> "agent$k.log" &
	pids="$pids $!"
	echo "$ip4:$port" >> hosts4
done
for k in 0 1 2 3; do wait_listening "agent$k.log"; done
printf '# the fleet rules loosened: one CPU serves every pair here\naccept_fleet_bw_pct = 1\naccept_fleet_lat_ratio = 100\n' > loose.conf

# accept_hosts NAME WANT HOSTS ARGS...
accept_hosts() {
	name=$1 want=$2 hosts=$3
	shift 3
	rc=0
	timeout 170 "$IBC" accept --hosts "$hosts" --secret-file secret --config loose.conf \
		--line-rate 0.001 -s 16K -n 100 --results "$name.d" "$@" \
		> "$name.out" 2> "$name.err" || rc=$?
	[ "$rc" = "$want" ] || { cat "$name.out" "$name.err"; fail "$name: exit $rc, want $want"; }
	echo "ran: $name: exit $rc after $(($(date +%s) - t0)) s"
}
t0=$(date +%s)

# 1. four healthy agents: every pair good, exit 0
accept_hosts all 0 hosts4 --json
cat all.err
[ "$(grep -c '^ibconsole: accept: round [1-3]/3: ' all.err)" = 3 ] || fail "all: want one progress line per round"
/usr/bin/python3 - "$ip4" <<'PY' || { cat all.out; fail "all: JSON or CSV wrong"; }
import csv, itertools, json, sys
ip = sys.argv[1]
r = json.load(open("all.out"))
f = json.load(open("all.d/accept.json"))
assert r == f, "stdout and accept.json differ"
assert r["schema"] == "ibconsole/accept/1" and r["mode"] == "hosts", r
assert r["rounds"] == 3 and r["pairs_per_round"] == 2 and r["passed"] and r["bad_pairs"] == 0, r
assert r["bw_op"] == "send" and r["bw_size_bytes"] == 16384 and r["lat_op"] == "write" and r["lat_size_bytes"] == 2, r
assert r["fleet_bw_pct"] == 1 and r["fleet_lat_ratio"] == 100 and r["line_rate_gbps"] == 0.001, r
names = ["%s:%d" % (ip, 18700 + 2 * k) for k in range(4)]
assert [h["host"] for h in r["hosts"]] == names, r["hosts"]
for h in r["hosts"]:
    assert not h["bad"] and h["device"] == "rxe0" and h["mtu"], h
pairs = r["pairs"]
assert sorted((p["a"], p["b"]) for p in pairs) == list(itertools.combinations(names, 2)), pairs
for rnd in (1, 2, 3):
    hs = [x for p in pairs if p["round"] == rnd for x in (p["a"], p["b"])]
    assert len(hs) == 4 and len(set(hs)) == 4, ("a host twice in a round", rnd, hs)
for p in pairs:
    # a pair may need its re-test on a loaded machine (an agent too slow
    # to answer once); what counts is the confirmed verdict
    assert p["verdict"] == "good" and p["error"] is None, p
    # p99 under emulation is the scheduler's (up to 0.3 s seen), the median ~20 us
    assert 0 < p["bw_gbps"] < 100 and 0 < p["lat_median_us"] <= p["lat_p99_us"] < 1e7, p
rows = list(csv.DictReader(open("all.d/pairs.csv")))
assert len(rows) == 6, rows
for row, p in zip(rows, pairs):
    assert (row["a"], row["b"], row["verdict"]) == (p["a"], p["b"], "good"), (row, p)
    assert abs(float(row["bw_gbps"]) - p["bw_gbps"]) < 1e-5, (row, p)
    assert abs(float(row["lat_p99_us"]) - p["lat_p99_us"]) < 1e-2, (row, p)
print("ok: all: 6 pairs, 3 rounds, bw %.4f..%.4f Gb/s" % (min(p["bw_gbps"] for p in pairs), max(p["bw_gbps"] for p in pairs)))
PY

# 2. a third host with no agent: its two pairs fail with the reason, it is
#    the bad host, the pair of the other two stays good; the text names it.
#    Listed first, it is the one ordered, so accept's own --timeout bounds
#    each try.
echo "$ip4:18708   # no agent here" > hosts3
head -2 hosts4 >> hosts3
accept_hosts missing 1 hosts3 --timeout 4
cat missing.out
/usr/bin/python3 - "$ip4:18708" <<'PY' || { cat missing.out missing.err; fail "missing: wrong result"; }
import json, sys
gone = sys.argv[1]
r = json.load(open("missing.d/accept.json"))
assert r["rounds"] == 3 and r["pairs_per_round"] == 1 and r["bad_pairs"] == 2 and not r["passed"], r
assert r["bad_hosts"] == [gone] and r["bad_paths"] == [], r
for p in r["pairs"]:
    if gone in (p["a"], p["b"]):
        assert p["verdict"] == "bad" and p["bw_gbps"] is None and p["retested"], p
        assert "cannot reach the agent" in p["error"] and p["why"] == "no result", p
    else:
        assert p["verdict"] == "good" and p["bw_gbps"] > 0, p
        # The text table gives the same rate to 4 significant digits,
        # however small (an emulated wire carries hundredths of a Gb/s).
        row = [l.split() for l in open("missing.out")
               if l.startswith(p["a"] + " ") and l.split()[1] == p["b"]]
        assert row, "no table row for %s - %s" % (p["a"], p["b"])
        shown = float(row[0][2])
        assert abs(shown - p["bw_gbps"]) <= 5e-4 * p["bw_gbps"], (row[0], p["bw_gbps"])
PY
grep -q "^BAD HOST $ip4:18708: " missing.out || { cat missing.out; fail "missing: no BAD HOST line"; }
grep -q "cannot reach the agent at $ip4 port 18708" missing.out || { cat missing.out; fail "missing: no reason"; }
grep -q ',bad,,,,0.001,yes,"bandwidth: cannot reach the agent at '"$ip4"' port 18708' missing.d/pairs.csv || { cat missing.d/pairs.csv; fail "missing: CSV row"; }
echo "ok: missing: the host without an agent is named, with the reason"

# 3. a wrong secret: one line, exit 3, no table
rc=0
timeout 60 "$IBC" accept --hosts hosts4 --secret-file wrong --timeout 3 --results wrong.d > wrong.out 2> wrong.err || rc=$?
[ "$rc" = 3 ] || { cat wrong.out wrong.err; fail "wrong secret: exit $rc, want 3"; }
[ ! -s wrong.out ] || { cat wrong.out; fail "wrong secret: output on stdout"; }
[ "$(grep -vc '^ibconsole: accept: round' wrong.err)" = 1 ] || { cat wrong.err; fail "wrong secret: want one line"; }
grep -q '^ibconsole: .*authentication failed.* — ' wrong.err || { cat wrong.err; fail "wrong secret: not the refusal"; }
grep -q 'test order refused: authentication failed' agent0.log || fail "wrong secret: agent0 did not log the refusal"
echo "ok: wrong secret: $(grep -v 'accept: round' wrong.err)"

# 4. an agent that takes orders only towards its --hosts list: a target
#    outside it is refused, one line, exit 3
printf '%s\n' "$ip4:18710" "$ip4:18700" > allow
"$IBC" serve -d rxe0 --port 18710 --secret-file secret --hosts allow 2> agent5.log &
pids="$pids $!"
wait_listening agent5.log
printf '%s\n' "$ip4:18710" "$ip4:18702" > hosts-out
rc=0
timeout 60 "$IBC" accept --hosts hosts-out --secret-file secret --timeout 3 --results out.d > out.out 2> out.err || rc=$?
[ "$rc" = 3 ] || { cat out.out out.err; fail "outside the list: exit $rc, want 3"; }
grep -q "^ibconsole: .*$ip4 port 18702 is not in this agent's --hosts list — " out.err || { cat out.err; fail "outside the list: not the refusal"; }
echo "ok: outside the list refused"
# ... and towards a host in its list it runs
printf '%s\n' "$ip4:18710" "$ip4:18700" > hosts-in
accept_hosts inlist 0 hosts-in
echo "ok: inside the list: $(tail -1 inlist.out)"
