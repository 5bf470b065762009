# SPDX-License-Identifier: MIT
# screenlib.sh: what the test-screen tests (t-45-test-screen*) share: tmux
# inside the VM, looking at the screen, typing, the form's fields, the
# agent. Sourced after vmlib.sh and faultlib.sh; the caller has set -eu.
command -v tmux > /dev/null || fail "tmux missing: apt-get install tmux"

TSOCK=ibct45
vm_tmux "$IBC_TMP/tmux" "$TSOCK"
XDG_STATE_HOME=$IBC_TMP/state
export XDG_STATE_HOME
unset IBCONSOLE_RECORD_DIR
cleanup() {
	for p in $pids; do kill -9 "$p" 2> /dev/null || true; done
	vm_tmux_end
}
trap cleanup EXIT

# console [PREFIX...]: the console on rxe0 in tmux session ui (120 x 40),
# the test peer given by --peer; PREFIX runs it (setpriv, sh -c ...);
# CONSOLE_ARGS, when set, adds options
console() {
	$T kill-session -t ui 2> /dev/null || true
	$T new-session -d -s ui -x 120 -y 40 \
		"$* env LC_ALL=C.UTF-8 $IBC -d rxe0 --peer $ip4 ${CONSOLE_ARGS:-} 2> console.err; echo console exit \$?; sleep 60"
	wait_for 'rxe0/1' 30
}
# a screen that never came: the agents' logs say what they were doing
on_wait_fail() {
	for l in agent*.log; do [ ! -f "$l" ] || { echo "--- $l"; cat "$l"; }; done
}
key() { $T send-keys -t ui "$@"; }
# field N [VALUE]: the cursor from the form's first field (the peer, where
# the form opens) to field N (1 kind, 4 size, 8 iterations, 9 duration,
# 11 agent port, 12 secret file), and the text field set to VALUE when
# given. Tab, not the arrows: an arrow's escape sequence may arrive split.
field() {
	# shellcheck disable=SC2046 # one Tab word per field, one tmux call
	[ "$1" -eq 0 ] || key $(seq "$1" | sed 's/.*/Tab/')
	if [ $# -ge 2 ]; then
		key C-u
		[ -z "$2" ] || key -l "$2"
	fi
}
# set_field N VALUE: from the form's first field, field N set to VALUE
# (empty: its default), and round the form's fields (the last one: the
# peer's kind, agent or perftest) to the first again
FORM_FIELDS=14
set_field() {
	field "$1" "$2"
	field $((FORM_FIELDS - $1))
}
# the form again, at its first field (Esc after a run ends)
to_form() {
	key Escape
	wait_for 'Kind .*< (bw|lat|rate|tcp) >' 5
}
# A counter's LOCAL and PEER deltas in a capture: "+N +M" (rates and
# marks dropped)
ctr_vals() { grep -E "^ $1 " "$2" | head -1 | sed 's/([^)]*)//g; s/!//g' | awk '{print $2, $3}'; }
# "+12.3k" -> 12300
num() {
	awk -v s="$1" 'BEGIN { sub(/^\+/, "", s); m = 1
		if (s ~ /k$/) m = 1e3; else if (s ~ /M$/) m = 1e6; else if (s ~ /G$/) m = 1e9
		sub(/[kMGT]$/, "", s); printf "%d\n", s * m }'
}
# agent LOG [ARGS...]: 'ibconsole serve' in the background, niced (on a
# real fabric it busy-polls on another machine; here it shares the VM's
# two CPUs with the console's own test thread); sets $agent
agent() {
	log=$1
	shift
	nice -n 10 "$IBC" serve "$@" 2> "$log" &
	agent=$!
	pids="$pids $agent"
	wait_log "$log" listening 20
}
# still_answers: a key after a failure is on screen (the form comes back)
still_answers() {
	to_form
	echo "ok: the console still answers keys after: $1"
}
# shot NAME: the screen now, kept as NAME.txt, and in $IBCONSOLE_SHOTS
# when set (the README's screenshots come from there)
shot() {
	cap > "$1.txt"
	[ -z "${IBCONSOLE_SHOTS:-}" ] || cp "$1.txt" "$IBCONSOLE_SHOTS/$1.txt"
}
