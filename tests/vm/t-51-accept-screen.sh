#!/bin/sh
# SPDX-License-Identifier: MIT
# t-51-accept-screen.sh: the console's acceptance screen on rxe0, driven
# through tmux, with the agent on the same VM as the reference (--peer):
# A opens the screen, Enter runs the acceptance (-n 4000) in the background — a
# progress bar for the card while the screen keeps answering keys — then
# the table's row for rxe0/1 agrees with `accept --ref --json` run right
# after against the same agent (the verdict, the acceptance line and the
# share of the data rate that goes with the Gb/s shown); Enter opens the
# card's evidence (width / speed, PCIe, NUMA, the RoCE v2 GID, both MTUs,
# the cause), Esc closes it, Esc returns to the ports. Esc Esc cancels a
# second run of 120 s (-D): the agent frees its session and the card
# reads "not tested".
# vm-timeout: 480
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
. "$VM_TESTS_DIR/faultlib.sh"
. "$VM_TESTS_DIR/screenlib.sh"

agent agent.log
# 4000 iterations: long enough (seconds) for the progress to be seen
CONSOLE_ARGS='-n 4000' console
key A
wait_for "ACCEPTANCE against $ip4" 5
wait_for 'Enter or r runs it' 5
key Enter
wait_for "ACCEPTANCE against $ip4, (reading the ports|running|done): send bandwidth at 65536 B, 4000 iterations, pass at 90 %" 60
wait_for 'rxe0/1 .* [0-9]+ %  (testing|waiting)' 60
shot accept-run
cat accept-run.txt
grep -q "ACCEPTANCE against $ip4, running: " accept-run.txt || fail "no 'running' in the title while the card is tested"
# a key during the run reaches the screen (Down on a one-card table: the
# selection stays, the screen redraws)
key Down
cap | grep -q 'ACCEPTANCE against' || fail "the screen left after a key during the run"
wait_for 'of 1 passed' 180
shot accept-done
cat accept-done.txt
row=$(grep -E '^ rxe0/1 ' accept-done.txt) || fail "no row for rxe0/1 in the table"
verdict=$(echo "$row" | awk '{ print $5 }')
line=$(echo "$row" | awk '{ print $4 }')
[ "$verdict" = PASS ] || [ "$verdict" = FAIL ] || fail "row verdict '$verdict' is neither PASS nor FAIL: $row"
grep -Eq "^ device +Gb/s +% of rate +line Gb/s +PASS/FAIL +cause" accept-done.txt || fail "no table title"
# the share shown goes with the Gb/s shown and the line (90 % of the rate)
echo "$row" | awk '{ g = $2; p = $3; l = $4; if (l + 0 <= 0 || g == "-") exit 0
	want = 100 * g / (l / 0.9); d = p - want; if (d < 0) d = -d; exit !(d <= 0.2 + want * 0.01) }' ||
	fail "the row's % of rate does not follow from its Gb/s and line: $row"

# the command line's verdict, same agent, same card
rc=0
timeout 120 "$IBC" accept --ref "$ip4" -d rxe0 -n 4000 --json > oracle.json 2> oracle.err || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || { cat oracle.err; fail "accept --ref: exit $rc"; }
/usr/bin/python3 - "$verdict" "$line" <<'PY' || { cat oracle.json; fail "the screen and accept --ref disagree"; }
import json, sys
c = json.load(open("oracle.json"))["cards"][0]
want, line = sys.argv[1].lower(), sys.argv[2]
assert c["device"] == "rxe0" and c["port"] == 1, c
assert c["verdict"] == want, ("screen", want, "accept --ref", c["verdict"])
# the screen prints four significant digits
if c["line_gbps"] is None:
    assert line == "-", (line, None)
else:
    assert line != "-" and abs(float(line) - c["line_gbps"]) <= 5e-4 * c["line_gbps"], (line, c["line_gbps"])
print("ok: the screen's %s (line %s Gb/s) is accept --ref's: %s" % (want.upper(), line, c["cause"] or "passed"))
PY

# Enter: the evidence pane of the selected card
key Enter
wait_for 'EVIDENCE rxe0/1' 5
shot accept-evidence
cat accept-evidence.txt
for want in '^  width/speed +[^ ]' '^  PCIe +[^ ]' '^  NUMA +[^ ]' '^  GID +index [0-9]+, RoCE v2' \
	'^  MTU +active [0-9]+ B here, [0-9]+ B at the reference' '^  measured +[0-9.]+ Gb/s against' '^  cause +[^ ]'; do
	grep -Eq "$want" accept-evidence.txt || fail "evidence pane: no line matching /$want/"
done
if [ "$verdict" = FAIL ]; then
	cause=$(echo "$row" | cut -c64- | sed 's/ *$//')
	grep -F "  cause" accept-evidence.txt | grep -qF "$(echo "$cause" | cut -c1-40)" ||
		fail "the pane's cause is not the row's ($cause)"
fi
echo "ok: Enter opens the evidence pane of rxe0/1"
key Escape
# the probe's positive control: wait_for matched 'EVIDENCE rxe0/1' above;
# the pane goes within 5 s
i=0
while cap | grep -q 'EVIDENCE' && [ $i -lt 50 ]; do i=$((i + 1)); sleep 0.1; done
cap | grep -q 'EVIDENCE' && fail "Esc did not close the evidence pane"
cap | grep -q '^ rxe0/1 ' || fail "the table is gone after the pane closed"
key Escape
wait_for 'rxe0/1 details' 5
echo "ok: Esc closes the pane, Esc again returns to the ports"

# Esc Esc cancels a run — one of 120 s (-D, so it is still going when
# the keys come); the agent frees the session
key F10
wait_for 'console exit 0' 10
CONSOLE_ARGS='-D 120' console
key A
wait_for 'ACCEPTANCE against' 5
nfailed=$(grep -c 'session failed' agent.log || true)
key r
wait_for 'rxe0/1 .* %  testing' 60
wait_for "ACCEPTANCE against $ip4, running: send bandwidth at 65536 B, 120.0 s, " 5
sleep 2
key Escape
wait_for 'Esc again to cancel' 5
key Escape
wait_for "ACCEPTANCE against $ip4, cancelled: " 60
wait_for 'not tested: the run was cancelled' 10
end=$(($(ms) + 30000))
until [ "$(grep -c 'session failed' agent.log || true)" -gt "$nfailed" ]; do
	[ "$(ms)" -le "$end" ] || { cat agent.log; fail "the agent did not free the cancelled session within 30 s"; }
	sleep 0.2
done
shot accept-cancelled
echo "ok: Esc Esc cancelled the run: $(grep -E '^ rxe0/1 ' accept-cancelled.txt | sed 's/  */ /g')"
key F10
wait_for 'console exit 0' 10
echo "acceptance screen ok"
