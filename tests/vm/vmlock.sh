# SPDX-License-Identifier: MIT
# vmlock.sh — sourced by the host-side VM harnesses (verbs.test,
# wire-run.sh, demo.test): at most two Soft-RoCE VM tests at a time per
# build tree, one on each of two lanes.
# A VM test's guests mostly wait (rate-limited paths, process starts under
# emulation; the test engine sleeps on a path that moves nothing), so two
# fit on the two CPUs beside the other tests. Each lane runs its tests one
# after another; the split keeps the lanes near equal in length (docs/tests.md
# has the times):
#   a: verbs.test, wire-triage.test, wire-screen.test, wire.test
#   b: demo.test, fleet.test, wire-accept.test
# `make check` starts every VM test at once (tests/vm/local.mk); each waits
# here for its lane, so the next starts the moment the last one ends.
#   vm_lock NAME   wait (at most IBCONSOLE_VM_LOCK_WAIT s, default 3600)
#                  for NAME's lane on fd 9; it is released when the shell
#                  exits. IBCONSOLE_VM_LANE overrides the lane;
#                  IBCONSOLE_VM_LOCK names one lock for every test (one VM
#                  test at a time).
vm_lock()
{
	case ${IBCONSOLE_VM_LANE:-$1} in
	verbs.test | wire-triage.test | wire-screen.test | wire.test | a) _lane=a ;;
	*) _lane=b ;;
	esac
	_lock=${IBCONSOLE_VM_LOCK:-$(dirname "$IBCONSOLE")/tests/vm-$_lane.lock}
	mkdir -p "$(dirname "$_lock")" || return 99
	exec 9>>"$_lock"
	if ! flock -n 9; then
		echo "$1: waiting for the VM test before it on its lane ($_lock)"
		flock -w "${IBCONSOLE_VM_LOCK_WAIT:-3600}" 9 ||
			{ echo "$1: ERROR: the VM lock $_lock was not free within ${IBCONSOLE_VM_LOCK_WAIT:-3600} s" >&2; exit 99; }
	fi
}
