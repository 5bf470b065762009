# SPDX-License-Identifier: MIT
# vmlock.sh — sourced by the host-side VM harnesses (verbs.test,
# wire-run.sh, demo.test): at most IBCONSOLE_VM_SLOTS Soft-RoCE VM tests
# at a time per build tree.
# `make check` starts every VM test at once (tests/vm/local.mk) and each
# waits here for a free slot: the next starts within a second of one
# ending, the longest waiting test first: the order of VM_TESTS in
# tests/vm/local.mk (longest first as measured alone: docs/tests.md),
# which make hands on as IBCONSOLE_VM_ORDER, so the last to run are short.
# Two at a time (IBCONSOLE_VM_SLOTS, default 2; 1 runs one at a time):
# once the guests read /usr cached (rxe-vm.sh) their process starts cost
# a half to a third, which left the CPUs room for two VMs beside the
# other tests (docs/tests.md has the runs, and what starved before).
#   vm_lock NAME   wait (at most IBCONSOLE_VM_LOCK_WAIT s, default 3600)
#                  for a slot, held on fd 9 until the shell exits.
#                  IBCONSOLE_VM_LOCK names one lock file for every test
#                  instead (one VM test at a time).
# vm_rank NAME: NAME's place in IBCONSOLE_VM_ORDER (1 first), after the
# list when it is not there; 1 for all when run by hand without it
vm_rank()
{
	_i=0
	for _t in ${IBCONSOLE_VM_ORDER:-}; do
		_i=$((_i + 1))
		[ "${_t##*/}" != "$1" ] || { echo "$_i"; return 0; }
	done
	echo $((_i + 1))
}
# vm_first RANK DIR: true when no live waiter of a lower rank is in DIR
vm_first()
{
	for _w in "$2"/vm-wait.*; do
		[ -e "$_w" ] || continue
		_r=${_w#"$2"/vm-wait.}
		_p=${_r#*.}
		_r=${_r%%.*}
		if ! kill -0 "$_p" 2>/dev/null; then
			rm -f "$_w"	# its test is gone
		elif [ "$_r" -lt "$1" ]; then
			return 1
		fi
	done
	return 0
}
vm_lock()
{
	_slots=${IBCONSOLE_VM_SLOTS:-2}
	_dir=$(dirname "$IBCONSOLE")/tests
	[ -z "${IBCONSOLE_VM_LOCK:-}" ] || { _dir=$(dirname "$IBCONSOLE_VM_LOCK"); _slots=1; }
	mkdir -p "$_dir" || return 99
	_rank=$(vm_rank "$1")
	_me=$_dir/vm-wait.$_rank.$$
	: > "$_me"
	# make starts every VM test at once, but each checks its tools before
	# it gets here: the others give the longest (rank 1) a head start
	[ "$_rank" = 1 ] || sleep 3
	_waited=0
	while :; do
		_s=1
		# the waiters are read once a look, not once a slot
		vm_first "$_rank" "$_dir" || _s=$((_slots + 1))
		while [ "$_s" -le "$_slots" ]; do
			_lock=${IBCONSOLE_VM_LOCK:-$_dir/vm-$_s.lock}
			exec 9>>"$_lock"
			if flock -n 9; then
				rm -f "$_me"
				return 0
			fi
			exec 9>&-
			_s=$((_s + 1))
		done
		[ "$_waited" = 0 ] && echo "$1: waiting for one of the $_slots VM tests of this tree to end ($_dir/vm-*.lock)"
		[ "$_waited" -lt "${IBCONSOLE_VM_LOCK_WAIT:-3600}" ] ||
			{ rm -f "$_me"; echo "$1: ERROR: no VM slot came free within ${IBCONSOLE_VM_LOCK_WAIT:-3600} s" >&2; exit 99; }
		sleep 1
		_waited=$((_waited + 1))
	done
}
