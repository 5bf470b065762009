#!/bin/sh
# SPDX-License-Identifier: MIT
# t-45-triage.sh: `ibconsole triage` on rxe0 against `ibconsole serve`:
# the walk with a peer (facts of both ends with the peer's GID kind, the
# traffic steps ran); -x at a RoCE v1 and at a link-local entry fails step
# 3 naming the right index
# (the oracle: the GID table read here with vmlib.sh); a memlock limit of
# 64 KiB fails the environment check before any test reaches the agent.
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
PORT=18650
. "$VM_TESTS_DIR/enginelib.sh"
# the oracle: the GID table read here (builtin reads: a fork per entry of
# a 1,000-entry table takes minutes under TCG)
g=/sys/class/infiniband/rxe0/ports/1
v1=
ll=
table=
for f in "$g"/gid_attrs/types/*; do
	i=${f##*/}
	read -r t < "$f" 2>/dev/null || continue
	read -r val < "$g/gids/$i" || continue
	table="$table $i:$t:$val"
	case "$t:$val" in
	*v1:*) [ -n "$v1" ] || v1=$i ;;
	"RoCE v2:fe80:"*) [ -n "$ll" ] || ll=$i ;;
	esac
done
echo "GID table:$table"
echo "GIDs: RoCE v2 IPv4 $gid, RoCE v1 ${v1:-none}, RoCE v2 link-local ${ll:-none}"
# this kernel's rxe may list RoCE v2 entries only; a link-local one it has
[ -n "$ll" ] || fail "GID table lacks a RoCE v2 link-local entry"

start_agent

echo "# the walk with a peer"
rc=0
timeout 120 "$IBC" triage --peer "$ip4" --port "$PORT" -D 1 --json > walk.json 2> walk.err || rc=$?
cat walk.err
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "triage --peer exited $rc"
/usr/bin/python3 - walk.json "$rc" "$gid" "$ip4" <<'PY' || fail "walk with a peer (above)"
import json, sys
d = json.load(open(sys.argv[1])); rc = int(sys.argv[2]); gid = int(sys.argv[3]); ip = sys.argv[4]
s = {x["id"]: x for x in d["steps"]}
errs = []
def want(c, what):
    if not c: errs.append(what)
want(d["schema"] == "ibconsole/triage/1", "schema")
want(d["link_layer"] == "Ethernet", "link layer")
want((rc == 1) == any(x["state"] == "fail" for x in d["steps"]), "exit status follows the steps")
want(d["passed"] == (rc == 0), "passed follows the exit status")
for k in ("environment", "port_rate", "gid", "mtu"):
    want(s[k]["state"] != "fail", "%s should not fail here: %s" % (k, s[k]["reason"]))
want(s["gid"]["state"] == "pass" and s["gid"]["reason"] == "index %d, RoCE v2, %s" % (gid, ip), "gid: %s" % s["gid"]["reason"])
want(s["mtu"]["state"] == "pass", "mtu: %s" % s["mtu"]["reason"])
f = d["facts"]
want(f["peer"] and f["local"] and f["peer"]["device"] == "rxe0" and f["peer"]["gid_index"] == gid, "peer facts: %s" % f)
want(f["peer"]["gid_type"] == "RoCE v2" and any(l == "the same kind on both ends: RoCE v2, IPv4" for l in s["gid"]["evidence"]), "the peer's GID kind: %s" % s["gid"]["evidence"])
t = d["traffic"]
for k in ("one_qp", "eight_qps", "load"):
    want(t[k]["bw_gbps"] is not None and t[k]["bw_gbps"] > 0, "%s ran: %s" % (k, t[k]))
want(t["eight_qps"]["qps"] == 8 and t["load"]["bidirectional"] is True, "run shapes")
want(s["more_qps"]["state"] in ("pass", "info"), "more_qps: %s" % s["more_qps"])
want(s["lossless"]["state"] != "n/a", "lossless judged with traffic: %s" % s["lossless"])
for e in errs: print("FAILED:", e)
print("walk: conclusion:", d["conclusion"]["text"])
for x in d["steps"]: print("  %-12s %-4s %s" % (x["id"], x["state"], x["reason"]))
sys.exit(1 if errs else 0)
PY

echo "# -x at RoCE v1 (${v1:-none}) and at a link-local entry ($ll): step 3 names index $gid"
for x in $v1 $ll; do
	rc=0
	timeout 60 "$IBC" triage -x "$x" --json > x$x.json 2> x$x.err || rc=$?
	[ "$rc" = 1 ] || { cat x$x.err; fail "triage -x $x exited $rc, want 1"; }
	/usr/bin/python3 - x$x.json "$x" "$gid" "$ip4" "${v1:--1}" <<'PY' || fail "-x $x (above)"
import json, sys
d = json.load(open(sys.argv[1])); x, gid, ip, v1 = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
s = {k["id"]: k for k in d["steps"]}
kind = "RoCE v1" if x == v1 else "RoCE v2, IPv6 link-local"
want = "-x %s is %s; the right index is %s (RoCE v2, %s)" % (x, kind, gid, ip)
ok = s["gid"]["state"] == "fail" and s["gid"]["reason"] == want and d["conclusion"]["step"] == 3
print(("ok" if ok else "FAILED") + ": -x %s: %s (want %s)" % (x, s["gid"]["reason"], want))
sys.exit(0 if ok else 1)
PY
done

echo "# memlock 64 KiB, no CAP_IPC_LOCK: the environment fails before any test"
rc=0
before=$(grep -c . agent.log || true)
t0=$(date +%s)
sh -c "ulimit -l 64 && exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
	'$IBC' triage --peer '$ip4' --port '$PORT' --json" > mem.json 2> mem.err || rc=$?
t1=$(date +%s)
[ "$rc" = 1 ] || { cat mem.err; fail "memlock 64 KiB: exit $rc, want 1"; }
/usr/bin/python3 - mem.json <<'PY' || fail "memlock 64 KiB (above)"
import json, sys
d = json.load(open(sys.argv[1]))
e = d["steps"][0]
ok = (e["state"] == "fail" and e["reason"].startswith("memlock 64 KiB and no CAP_IPC_LOCK")
      and d["conclusion"]["step"] == 0
      and all(d["traffic"][k]["bw_gbps"] is None and "environment check failed" in d["traffic"][k]["bw_gbps_error"]
              for k in ("one_qp", "eight_qps", "load")))
print(("ok" if ok else "FAILED") + ": memlock: %s; traffic: %s" % (e["reason"], d["traffic"]["one_qp"]["bw_gbps_error"]))
sys.exit(0 if ok else 1)
PY
after=$(grep -c . agent.log || true)
[ "$before" = "$after" ] || { cat agent.log; fail "the agent saw a client though the environment failed"; }
[ $((t1 - t0)) -lt 20 ] || fail "the environment failure took $((t1 - t0)) s"
stop_agent
echo "triage: walk, -x, memlock checked"
