#!/bin/sh
# SPDX-License-Identifier: MIT
# t-47-perftest-peer.sh: `ibconsole test bw --perftest` against unmodified
# perftest servers (ib_write_bw, ib_read_bw, ib_send_bw) in the same VM.
# Each server must finish normally and print the result of the same run,
# and that print must be our figure within 2 % (perftestlib.sh same_run):
# the handshake and the report exchange work, in the server's unit. Two
# different runs are not compared here: in a VM on a shared host one
# tool's runs alone spread by a factor of 1.8, so the agreement with
# perftest's own client is measured by bench/perftest-peer.sh (medians of
# many alternating runs). -b, -a, -D and -q 2 run to the end; what
# perftest has no test for is refused in one line (exit 2).
# vm-timeout: 600
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
PORT=18660
. "$VM_TESTS_DIR/enginelib.sh"
. "$VM_TESTS_DIR/perftestlib.sh"

same_run write_bw_64k ib_write_bw -s 65536 -n 100
same_run read_bw_64k ib_read_bw --op read -s 65536 -n 100
same_run send_bw_64k ib_send_bw --op send -s 65536 -n 300 --report_gbits

# the server prints our numbers in its unit: Gb/s here, like ours
awk '/^ *#bytes/ {h = 1; next} h && $1 ~ /^[0-9]+$/ {ok = $1 == 65536 && $4 > 0 && $4 < 100; exit} END {exit !ok}' srv.log ||
	{ cat srv.log; fail "ib_send_bw's result line does not carry our Gb/s"; }

# the other options, each to the end: the server finishes and prints
ours_run ib_write_bw bw -s 65536 -n 100 -b
/usr/bin/python3 - <<'PY' || fail "write -b: no bidirectional total"
import json
p = json.load(open("o.json"))["phases"][0]
assert p["peer_bw_avg_gbps"] > 0 and p["local_bw_avg_gbps"] > 0, p
assert abs(p["bw_avg_gbps"] - p["local_bw_avg_gbps"] - p["peer_bw_avg_gbps"]) < 0.01 * p["bw_avg_gbps"], p
PY
ours_run ib_send_bw bw --op send -s 8192 -n 50 -b
ours_run ib_read_bw bw --op read -s 65536 -D 2
ours_run ib_write_bw bw -s 65536 -n 50 -q 2
ours_run ib_send_bw bw --op send -n 10 -a
n=$(/usr/bin/python3 -c "import json; print(len(json.load(open('o.json'))['phases']))")
[ "$n" = 23 ] || fail "send -a: $n sizes, want 23 (2 B .. 8 MiB, as perftest)"
[ "$(grep -c '^ *[0-9]' srv.log)" -ge 23 ] || { cat srv.log; fail "ib_send_bw -a printed fewer than 23 result lines"; }

# what perftest has no test for is refused at once, in one line
for args in "rate" "lat -b" "bw -c UD"; do
	rc=0
	timeout 20 "$IBC" test $args --perftest --port $PP --no-record "$ip4" > r.out 2> r.err || rc=$?
	[ "$rc" = 2 ] || { cat r.err; fail "test $args --perftest: exit $rc, want 2"; }
	[ "$(wc -l < r.err)" = 1 ] && grep -q "^ibconsole: " r.err || { cat r.err; fail "test $args --perftest: no one-line reason"; }
done
echo "perftest peer bandwidth ok"
