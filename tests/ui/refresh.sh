# SPDX-License-Identifier: MIT
# refresh.sh: ui_refreshes N — until the console in the caller's tmux
# (its cap function prints the pane) has redrawn N times: the header's
# clock (HH:MM:SS, a refresh a second) moved N times, 5 s at most each.
# Returns 1 when it did not; UI_CLOCK is the last clock seen.
ui_clock() { cap | sed -n '1s/.* \([0-9][0-9]:[0-9][0-9]:[0-9][0-9]\) .*/\1/p'; }
ui_refreshes()
{
	local n c i
	UI_CLOCK=$(ui_clock)
	[ -n "$UI_CLOCK" ] || return 1
	for n in $(seq 1 "$1"); do
		for i in $(seq 1 50); do
			c=$(ui_clock)
			[ -n "$c" ] && [ "$c" != "$UI_CLOCK" ] && break
			sleep 0.1
		done
		[ -n "$c" ] && [ "$c" != "$UI_CLOCK" ] || return 1
		UI_CLOCK=$c
	done
}
