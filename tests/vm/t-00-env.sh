#!/bin/sh
# SPDX-License-Identifier: MIT
# t-00-env.sh: the VM itself is sound (rxe0 up on the expected netdev,
# verbs work, memlock unlimited): when this fails, read it first.
set -eu
# shellcheck source=tests/vm/vmlib.sh
. "$VM_TESTS_DIR/vmlib.sh"
P=/sys/class/infiniband/rxe0/ports/1
[ -d "$P" ] || fail "no rxe0 port 1 in sysfs"
[ "$(cat "$P/state")" = "4: ACTIVE" ] || fail "rxe0 port state: $(cat "$P/state")"
[ "$(cat /sys/class/infiniband/rxe0/parent)" = "$RXE_VM_NETDEV" ] ||
	fail "rxe0 parent is $(cat /sys/class/infiniband/rxe0/parent), want $RXE_VM_NETDEV"
ibv_devinfo -d rxe0 | grep -q 'PORT_ACTIVE' || fail "ibv_devinfo does not see rxe0 active"
# shellcheck disable=SC3045 # dash and busybox sh both have ulimit -l
[ "$(ulimit -l)" = unlimited ] || fail "ulimit -l is $(ulimit -l)"
[ -x "$IBCONSOLE" ] || fail "IBCONSOLE=$IBCONSOLE is not executable inside the VM"
echo "env ok: rxe0 on $RXE_VM_NETDEV, $(rdma link show rxe0/1)"
