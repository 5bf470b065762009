# SPDX-License-Identifier: MIT
# vmlock.sh — sourced by the host-side VM harnesses (verbs.test,
# wire-run.sh, demo.test): one Soft-RoCE VM test at a time per build tree.
# Under emulation a VM (two for a wire test) fills the CPUs; `make -j2
# check` runs the other tests beside it, and tests/vm/local.mk chains the
# VM tests so make does not even start the next before this one ends; the
# lock holds that for any other make or hand-run test in the same tree.
#   vm_lock NAME   wait (at most IBCONSOLE_VM_LOCK_WAIT s, default 3600)
#                  for the lock on fd 9; it is released when the shell exits
vm_lock()
{
	_lock=${IBCONSOLE_VM_LOCK:-$(dirname "$IBCONSOLE")/tests/vm.lock}
	mkdir -p "$(dirname "$_lock")" || return 99
	exec 9>>"$_lock"
	if ! flock -n 9; then
		echo "$1: waiting for the other VM test of this tree ($_lock)"
		flock -w "${IBCONSOLE_VM_LOCK_WAIT:-3600}" 9 ||
			{ echo "$1: ERROR: the VM lock $_lock was not free within ${IBCONSOLE_VM_LOCK_WAIT:-3600} s" >&2; exit 99; }
	fi
}
