#!/bin/sh
# SPDX-License-Identifier: MIT
# wire/client.sh (in VM B, 192.168.77.2): netem drops 3 % of what eth1
# sends while ib_write_bw runs against VM A; `ibconsole watch` must show
# the retransmission counters move and flag the port (verdict act, exit 1).
set -u
. "$(dirname "$0")/../vmlib.sh"
# scratch files in a directory of our own, not the caller's
work=$(mktemp -d "${TMPDIR:-/tmp}/ibc-wire.XXXXXX") || fail "mktemp"
cd "$work" || fail "cd $work"
trap 'rm -rf "$work"' EXIT
ip4=$(netdev_ipv4 "$RXE_VM_NETDEV")
idx=$(roce_v2_ipv4_index rxe0 1 "$ip4")
[ -n "$idx" ] || fail "client: no RoCE v2 GID for $ip4"
tc qdisc add dev "$RXE_VM_NETDEV" root netem loss 3% || fail "netem unavailable"
echo "client: netem loss 3% on $RXE_VM_NETDEV"

"$IBCONSOLE" watch --json --interval 1 -d rxe0 > watch.jsonl 2> watch.err &
wpid=$!
trap 'kill "$wpid" 2>/dev/null; rm -rf "$work"' EXIT
# the server VM boots in parallel: retry the client until it connects
n=0 crc=1
while [ "$n" -lt 40 ]; do
	if timeout -k 5 240 ib_write_bw -d rxe0 -x "$idx" -s 65536 \
		-n "${WIRE_ITERS:-40}" --report_gbits -p 18515 192.168.77.1 > client.log 2>&1; then
		crc=0
		break
	fi
	grep -q "Couldn't connect\|Unable to open file descriptor" client.log || break
	n=$((n + 1))
	sleep 2
done
cat client.log
[ "$crc" = 0 ] || fail "ib_write_bw client failed"
# two more records after the run (the last counters read after it ended),
# within 20 s, instead of a fixed 2.5 s
n0=$(wc -l < watch.jsonl) i=0
while [ "$(wc -l < watch.jsonl)" -lt $((n0 + 2)) ]; do
	i=$((i + 1))
	[ $i -le 200 ] || { cat watch.err; fail "watch wrote no record for 20 s"; }
	sleep 0.1
done
kill -INT "$wpid"
wait "$wpid"
wrc=$?
trap 'rm -rf "$work"' EXIT
cat watch.err
/usr/bin/python3 - watch.jsonl "$wrc" <<'PY' || fail "loss did not show up in watch"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
wrc = int(sys.argv[2])
moved = {}
for r in recs:
    for c in r["ports"][0]["counters"]:
        if c["class"] == "error" and c["delta"]:
            moved[c["name"]] = moved.get(c["name"], 0) + c["delta"]
last = recs[-1]["ports"][0]["verdict"]
print("client: error counters moved:", moved)
print("client: verdict %s: %s; watch exit %d" % (last["level"], last["text"], wrc))
retrans = {"rcvd_seq_err", "completer_retry_err", "retry_exceeded_err", "out_of_seq_request",
           "duplicate_request", "out_of_sequence", "packet_seq_err", "local_ack_timeout_err"}
# the verdict names one counter, or their sum when no single one reaches
# the act threshold but together they do (rules.c)
named = last["counter"] in moved or last["counter"] == "all error counters"
ok = bool(set(moved) & retrans) and last["level"] == "act" and named and wrc == 130  # SIGINT, re-raised
sys.exit(0 if ok else 1)
PY
echo "ok: 3% loss on the wire moved the retransmission counters and flagged the port"
