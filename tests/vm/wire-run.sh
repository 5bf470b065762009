#!/bin/sh
# SPDX-License-Identifier: MIT
# wire-run.sh NAME SERVER CLIENT: the harness of the two-VM wire tests.
# Two Soft-RoCE VMs (rxe-vm.sh, one boot each, started together) joined
# by a qemu socket wire: SERVER runs in VM A (192.168.77.1), CLIENT in
# VM B (192.168.77.2). Both see IBCONSOLE_WIRE_DIR, a directory on this
# machine (the VMs mount its root over 9p) where they leave files for
# each other; `done` appears there when the client has ended, so a
# server that waits for it ends with it.
# Env: WIRE_NEEDS "tool:package ..." besides tc; IBCONSOLE_VM_TIMEOUT.
# Exit: 0 when both VMs' scripts passed, 1 when either failed, 99 when
# either VM never ran its script.
set -u
name=$1 server=$2 client=$3
here=$(cd "$(dirname "$0")" && pwd)
[ -n "${IBCONSOLE:-}" ] || { echo "$name: ERROR: IBCONSOLE not set" >&2; exit 99; }
case $IBCONSOLE in /*) ;; *) IBCONSOLE=$(pwd)/$IBCONSOLE ;; esac
export IBCONSOLE
for p in tc:iproute2 ss:iproute2 flock:util-linux ${WIRE_NEEDS:-}; do
	command -v "${p%%:*}" >/dev/null 2>&1 ||
		{ echo "$name: ERROR: ${p%%:*} not found — apt-get install ${p#*:}" >&2; exit 99; }
done
. "$here/vmlock.sh"
vm_lock "$name"
IBCONSOLE_VM_TIMEOUT=${IBCONSOLE_VM_TIMEOUT:-480}
IBCONSOLE_VM_QUIET=${IBCONSOLE_VM_QUIET:-0}
export IBCONSOLE_VM_TIMEOUT IBCONSOLE_VM_QUIET
# a wire port of its own: several wire tests may run at once
sum=$(printf %s "$name" | cksum | cut -d' ' -f1)
port=$((20000 + ($$ + sum) % 20000))
log=$(mktemp -d "${TMPDIR:-/tmp}/wire-test.XXXXXX")
IBCONSOLE_WIRE_DIR=$log/shared
mkdir "$IBCONSOLE_WIRE_DIR" && chmod 777 "$IBCONSOLE_WIRE_DIR"
export IBCONSOLE_WIRE_DIR
apid=
trap 'kill "$apid" 2>/dev/null; rm -rf "$log"' EXIT
trap 'exit 99' HUP INT TERM

RXE_VM_WIRE=listen=127.0.0.1:$port RXE_VM_IP=192.168.77.1/24 \
	"$here/rxe-vm.sh" "$server" > "$log/a.log" 2>&1 &
apid=$!
# the listening side first: wait for its qemu's wire socket (bounded; a
# server VM that failed before it says why in its log, shown below)
i=0
until ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; do
	i=$((i + 1))
	{ [ $i -le 1200 ] && kill -0 "$apid" 2>/dev/null; } || break
	sleep 0.1
done
RXE_VM_WIRE=connect=127.0.0.1:$port RXE_VM_IP=192.168.77.2/24 \
	"$here/rxe-vm.sh" "$client" > "$log/b.log" 2>&1
brc=$?
touch "$IBCONSOLE_WIRE_DIR/done"
wait "$apid"
arc=$?
apid=
echo "---- server VM (exit $arc)"; grep -aE '^(server|ok:|FAILED|rxe-vm)' "$log/a.log"
echo "---- client VM (exit $brc)"; tr -d '\r' < "$log/b.log" | grep -avE '^\[ *[0-9.]+\]' | tail -n 80
# a guest that died: its kernel's last words
for v in a b; do
	tr -d '\r' < "$log/$v.log" | grep -aE '^\[ *[0-9.]+\] .*(BUG|Oops|panic|RIP:|general protection|rxe)' |
		head -n 30 | sed "s/^/kernel $v: /"
done
[ "$brc" = 99 ] || [ "$arc" = 99 ] && exit 99
# either VM's script failing fails the test: an agent that died in the
# server VM is a failure even when the client got its answers
[ "$arc" = 0 ] || { echo "$name: FAILED: the server VM's script exited $arc (above)"; exit 1; }
[ "$brc" = 0 ] || exit 1
exit 0
