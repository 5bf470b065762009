#!/bin/sh
# SPDX-License-Identifier: MIT
# roce-fault.sh: the planted faults of `ibconsole --demo roce`, switched
# from the console's demo menu (key F). Runs as root inside the console's
# VM; the wire is eth1 (RXE_VM_NETDEV). One fault at a time: switching one
# on switches the others off.
#
# usage: roce-fault.sh list            one line per fault: NAME on|off TEXT
#        roce-fault.sh on NAME | off NAME | off all
#        roce-fault.sh clean           the clean wire (no fault, no drop)
#
# Faults (each shows where a real one would):
#   load  loss only under load: CoDel (fq_codel, target 1 ms, no ECN) on
#         this end's wire drops packets once a queue stands, as a switch
#         port without PFC drops when its buffer fills: one QP leaves the
#         ring room, many QPs both ways do not (the triage's step 5)
#   loss  a steady 2 % loss on this end's wire (netem)
#   mtu   MTU mismatch: this end's eth1 at 1100 bytes (RoCE MTU 512 B),
#         the peer's at 1500 (1024 B)
#   gid   wrong GID index: the peer's agent restarts on its IPv6
#         link-local RoCE v2 entry instead of the IPv4 one
#   half  a path held to half the demo's line rate (tbf on this end's
#         wire, a queue deep enough to drop nothing): the port still says
#         its full rate, the traffic carries half (the triage's step 1)
#   qp    a single-QP limit: each QP held to a quarter of the line. rxe
#         gives each QP its own UDP source port: prio with 16 bands, u32
#         on the port's low 4 bits, a tbf per band. One QP is slow, eight
#         (in up to 8 bands) carry the wire (the triage's step 7)
# half and qp need the line rate the demo measured at boot
# (IBCONSOLE_DEMO_LINE_RATE, Gb/s).
set -u

dev=${RXE_VM_NETDEV:-eth1}
dir=${IBCONSOLE_DEMO_DIR:?IBCONSOLE_DEMO_DIR not set: run from ibconsole --demo roce}
state=$dir/fault

faults="load loss mtu gid half qp"
text() {
	case $1 in
	load) echo "loss only under load: CoDel drops on $dev once a queue stands (no PFC)" ;;
	loss) echo "steady 2 % loss on $dev (netem)" ;;
	mtu) echo "MTU mismatch: $dev 1100 B here (RoCE 512 B), 1500 B at the peer" ;;
	gid) echo "wrong GID index: the peer's agent on its IPv6 link-local entry" ;;
	half) echo "path at half the demo line rate: tbf on $dev, nothing dropped" ;;
	qp) echo "single-QP limit: each QP held to a quarter of the line (tbf per UDP source port)" ;;
	esac
}

# kbit/s: the demo's line rate times $1 / 100 (tc's unit)
line_kbit() {
	awk -v g="${IBCONSOLE_DEMO_LINE_RATE:-}" -v p="$1" \
		'BEGIN { if (!(g + 0 > 0)) exit 1; k = int(g * 1e6 * p / 100); if (k < 8) k = 8; print k }'
}

# clean: the wire with no fault, a queue that never drops: a tail-drop
# FIFO far longer than what rxe keeps in flight. The kernel's default
# (fq_codel) drops once a queue stands for 100 ms, which under emulation a
# busy host causes at 8 QPs; the demo's wire is lossless but for its
# planted faults. roce-demo.sh sets it on both ends at boot.
clean() {
	tc qdisc replace dev "$dev" root pfifo limit 10000
}

# shaper NAME PCT: a tbf at the line's PCT % (tc's words after "tbf"),
# a queue deep enough (4 MB) to drop nothing
shaper() {
	k=$(line_kbit "$2") || { echo "no demo line rate measured at boot: '$1' needs one" >&2; return 1; }
	echo "tbf rate ${k}kbit burst 32k limit 4000000"
}

# RoCE v2 (UDP port 4791) by the source port's low 4 bits, one band
# (and one tbf) each, in one tc -batch
per_qp() {
	t=$(shaper qp 25) || return 1
	{
		echo "qdisc replace dev $dev root handle 1: prio bands 16"
		i=0
		while [ "$i" -lt 16 ]; do
			# tc reads class and handle numbers as hex
			c=$(printf %x $((i + 1)))
			echo "qdisc add dev $dev parent 1:$c handle $(printf %x $((i + 16))): $t"
			echo "filter add dev $dev parent 1: protocol ip prio 1 u32 match ip protocol 17 0xff match ip dport 4791 0xffff match ip sport $i 0x000f flowid 1:$c"
			i=$((i + 1))
		done
	} | tc -batch -
}

# wait until the agent restarted with the new options (serve.args)
agent_restarted() {
	want=$(cat "$dir/serve.args" 2>/dev/null) || want=
	n=0
	until [ "$(cat "$dir/ready" 2>/dev/null)" = "$want" ]; do
		n=$((n + 1))
		[ "$n" -le 100 ] || { echo "the peer's agent did not restart within 10 s"; exit 1; }
		sleep 0.1
	done
}

fault_off() {
	case $1 in
	load | loss | half | qp) clean ;;
	mtu) ip link set "$dev" mtu 1500 ;;
	gid)
		if [ -s "$dir/serve.args" ]; then
			: > "$dir/serve.args"
			agent_restarted
		fi
		;;
	esac
	return 0
}

fault_on() {
	case $1 in
	load) tc qdisc replace dev "$dev" root fq_codel limit 10240 target 1ms interval 5ms noecn ;;
	loss) tc qdisc replace dev "$dev" root netem loss 2% ;;
	mtu) ip link set "$dev" mtu 1100 ;;
	gid) echo gid=link-local > "$dir/serve.args" && agent_restarted ;;
	half)
		t=$(shaper half 50) || return 1
		# shellcheck disable=SC2086 # t is a word list
		tc qdisc replace dev "$dev" root $t
		;;
	qp) per_qp ;;
	esac
}

known() {
	for f in $faults; do [ "$f" = "$1" ] && return 0; done
	echo "unknown fault '$1' — one of: $faults"
	exit 2
}

active=$(cat "$state" 2>/dev/null) || active=
case ${1:-} in
list)
	for f in $faults; do
		[ "$f" = "$active" ] && on=on || on=off
		echo "$f $on $(text "$f")"
	done
	;;
on)
	known "${2:-}"
	for f in $faults; do fault_off "$f"; done
	: > "$state"
	fault_on "$2" || { echo "could not switch on '$2'"; exit 1; }
	echo "$2" > "$state"
	echo "$2 on: $(text "$2")"
	;;
clean) clean ;;
off)
	[ "${2:-}" = all ] || known "${2:-}"
	for f in $faults; do fault_off "$f"; done
	: > "$state"
	echo "no fault: the wire is clean"
	;;
*)
	echo "usage: $0 list | on NAME | off NAME | off all | clean"
	exit 2
	;;
esac
