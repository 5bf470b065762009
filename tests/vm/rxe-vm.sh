#!/bin/sh
# SPDX-License-Identifier: MIT
# rxe-vm.sh: boot one throw-away VM with the real kernel RDMA stack
# (Soft-RoCE rxe0) and run a command in it; the project's VM test harness.
#
# usage: tests/vm/rxe-vm.sh COMMAND [ARG...]
#        tests/vm/rxe-vm.sh --prepare   (check the host tools and fill the
#                                        kernel cache, boot nothing)
#
# COMMAND is a path on THIS machine: the VM mounts this machine's root
# filesystem over 9p and chroots into it, so COMMAND, the build tree and
# every installed tool (rdma, ibv_devinfo, perftest, python3) are the same
# inside. Before COMMAND starts, rxe0 is created on eth0 (10.0.2.15/24),
# `ulimit -l` is unlimited and the current directory is the caller's.
# Prints the VM console (kernel, init and COMMAND output) and exits with
# COMMAND's status; 99 when the VM never ran COMMAND (missing package,
# kernel download failure, boot failure, time-out). Never 77: a missing
# facility is an error to fix, not a skip.
#
# One boot per call: put every test that needs the VM behind one COMMAND
# (tests/vm/suite.sh does that). Measured on the 2-core build machine
# under TCG: the guest reaches COMMAND 3.3-4 s after qemu starts, a
# trivial COMMAND costs 8-9 s wall in all. KVM could not be measured
# there: /dev/kvm opens (nested PVM host), but qemu aborts on MSR 0x10a
# with -cpu host/max, and with -arch-capabilities the guest hangs right
# after "Probing EDD" and ignores SIGTERM; the probe below catches both.
#
# Environment:
#   IBCONSOLE_VM_CACHE    kernel cache (default /var/cache/ibconsole-vm, or
#                         ~/.cache/ibconsole-vm when that is not writable).
#                         Filled once by `apt-get download` of the Debian
#                         kernel linux-image-amd64 depends on; only vmlinuz
#                         and the few modules needed are kept (~12 MB).
#                         The kernel is never refreshed by itself (tests
#                         stay reproducible): delete the directory to
#                         pick up a newer Debian kernel.
#   IBCONSOLE_VM_TIMEOUT  hard limit for the whole VM run, seconds (300).
#                         qemu is killed (TERM, then KILL) when it expires.
#   IBCONSOLE_VM_ACCEL    auto (default: KVM when a one-time probe boot
#                         under KVM works, else TCG; verdict cached in
#                         the cache dir as kvm-probe), kvm, or tcg.
#   IBCONSOLE_VM_MEM      guest memory in MiB (1024); IBCONSOLE_VM_SMP cpus (2).
#   IBCONSOLE_VM_USR_CACHE 1 (default): the guest reads /usr through a
#                         second 9p mount, read-only and cached in the
#                         guest (the root stays uncached: the build tree,
#                         /tmp and /etc are read and written by both
#                         sides), and the binary IBCONSOLE names is copied
#                         into the guest's memory at boot, over its path.
#                         A process start under TCG costs a half to a
#                         third (python3 1.1 s -> 0.3 s); a package
#                         installed or a binary rebuilt on the host while
#                         a VM runs is not seen in it. 0: read uncached.
#   IBCONSOLE_VM_PASSENV  extra variable names to export into the VM; always
#                         passed: IBCONSOLE, srcdir, top_srcdir,
#                         abs_top_srcdir, abs_top_builddir, and IBCONSOLE_*.
#   IBCONSOLE_VM_QUIET    1: do not print the console (it is still kept for
#                         the exit status).
#   RXE_VM_TTY            1: COMMAND runs on this terminal instead: the VM's
#                         serial console is stdin/stdout (raw, restored on
#                         any exit), COMMAND is its session leader with the
#                         console as controlling tty (Ctrl-C reaches it),
#                         TERM and the size are carried in and a resize
#                         (SIGWINCH here) is sent over a second serial line
#                         and applied with stty, which signals COMMAND.
#                         Kernel messages are silenced; IBCONSOLE_VM_QUIET
#                         does not apply.
#
# Two hosts and a wire (for two-node tests): start two VMs at once, joined
# by a qemu socket NIC:
#   RXE_VM_WIRE=listen=127.0.0.1:PORT RXE_VM_IP=192.168.77.1/24 rxe-vm.sh A &
#   RXE_VM_WIRE=connect=127.0.0.1:PORT RXE_VM_IP=192.168.77.2/24 rxe-vm.sh B
# Each VM then gets a second NIC, eth1, with RXE_VM_IP, and rxe0 sits on
# eth1 instead of eth0, so RoCE traffic really crosses the wire:
# `tc qdisc add dev eth1 root netem loss 3%` (sch_netem is loaded) or a
# different `ip link set eth1 mtu` on one side act on RoCE. Within one VM
# rxe loops traffic to its own address back internally: no qdisc sees it.
# The MAC of eth1 ends in the last octet of RXE_VM_IP, so the two must
# differ.
#
# Needs (Debian): qemu-system-x86 busybox-static cpio kmod rdma-core
# iproute2, and apt access the first time (apt-get download; run
# `apt-get update` first on a fresh machine).
set -eu

me=rxe-vm
die99() {
	echo "$me: ERROR: $*" >&2
	exit 99
}

[ $# -ge 1 ] || { echo "usage: $0 COMMAND [ARG...] | --prepare" >&2; exit 2; }
cmd=$1
prepare=false
if [ "$cmd" = --prepare ]; then
	prepare=true
else
	case $cmd in /*) ;; *) cmd=$(pwd)/$cmd ;; esac
	[ -x "$cmd" ] || die99 "$cmd is not an executable file"
fi
shift

timeout_s=${IBCONSOLE_VM_TIMEOUT:-300}
accel=${IBCONSOLE_VM_ACCEL:-auto}
mem=${IBCONSOLE_VM_MEM:-1024}
smp=${IBCONSOLE_VM_SMP:-2}
wire=${RXE_VM_WIRE:-}
wire_ip=${RXE_VM_IP:-}
tty_mode=${RXE_VM_TTY:-0}
usr_cache=${IBCONSOLE_VM_USR_CACHE:-1}
usr_args=
[ "$usr_cache" != 1 ] || usr_args="-virtfs local,path=/usr,mount_tag=hostusr,security_model=none,readonly=on,multidevs=remap"
# the binary under test, copied into the guest's memory at boot (bound
# over its path): read once instead of through the uncached root at every
# start
bin=
case ${IBCONSOLE:-} in /*) [ -f "$IBCONSOLE" ] && bin=$IBCONSOLE ;; esac
if [ "$tty_mode" = 1 ] && ! $prepare && ! [ -t 0 ]; then
	die99 "RXE_VM_TTY=1 needs a terminal on stdin"
fi
if [ -n "$wire" ] && [ -z "$wire_ip" ]; then
	die99 "RXE_VM_WIRE is set but RXE_VM_IP is not (e.g. RXE_VM_IP=192.168.77.1/24)"
fi

# ---- 0. host prerequisites: name the package, never skip ----
missing=
need() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
need qemu-system-x86_64 qemu-system-x86
need cpio cpio
need modprobe kmod
need depmod kmod
need timeout coreutils
need flock util-linux
need dpkg-deb dpkg
need apt-get apt
need gzip gzip
need rdma iproute2
[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 || missing="$missing busybox-static"
if [ -n "$missing" ]; then
	die99 "missing host tools; install them with: apt-get install$missing"
fi

# Modules the guest needs, in any order; modprobe -D resolves the
# dependencies and the load order. rdma_ucm is for rdma_cm (perftest -R);
# macvlan gives a VM a second NIC on its wire (a second rxe device);
# tbf, prio, ingress, u32 and police plant rate limits on one NIC or one
# path (tests/vm/faultlib.sh).
want_mods="crc32_generic virtio_pci virtio_net 9pnet_virtio 9p ib_uverbs rdma_rxe ib_umad rdma_ucm sch_netem macvlan sch_tbf sch_prio sch_ingress cls_u32 act_police"

# ---- 1. kernel cache: vmlinuz + the needed modules of one Debian kernel ----
cache=${IBCONSOLE_VM_CACHE:-}
if [ -z "$cache" ]; then
	cache=/var/cache/ibconsole-vm
	if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
		cache=${XDG_CACHE_HOME:-$HOME/.cache}/ibconsole-vm
	fi
fi
mkdir -p "$cache" || die99 "cannot create the kernel cache $cache (set IBCONSOLE_VM_CACHE)"

fill_cache() {
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
	if [ -z "$pkg" ] && [ "$(id -u)" = 0 ]; then
		echo "$me: linux-image-amd64 unknown to apt; running apt-get update" >&2
		timeout 300 apt-get update -qq >&2 || true
		pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
			awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
	fi
	[ -n "$pkg" ] || die99 "apt knows no linux-image-amd64: run 'apt-get update' (needs a Debian mirror)"
	dl=$(mktemp -d "$cache/dl.XXXXXX")
	echo "$me: downloading $pkg into $cache (once)" >&2
	# As root apt would hand the download to the _apt user, who cannot
	# write into a root-owned cache: keep it as the caller.
	sandbox=
	[ "$(id -u)" = 0 ] && sandbox="-o APT::Sandbox::User=root"
	# shellcheck disable=SC2086 # sandbox is a word list
	if ! (cd "$dl" && timeout 600 apt-get $sandbox download "$pkg" >&2); then
		if [ "$(id -u)" = 0 ]; then
			timeout 300 apt-get update -qq >&2 || true
		fi
		# shellcheck disable=SC2086
		(cd "$dl" && timeout 600 apt-get $sandbox download "$pkg" >&2) || {
			rm -rf "$dl"
			die99 "apt-get download $pkg failed: run 'apt-get update' and check the Debian mirror"
		}
	fi
	dpkg-deb -x "$dl"/"$pkg"_*.deb "$dl/root" || { rm -rf "$dl"; die99 "dpkg-deb -x $pkg failed"; }
	kv=$(ls "$dl/root/lib/modules")
	depmod -b "$dl/root" "$kv"
	mkdir -p "$dl/k/mods"
	cp "$dl/root/boot/vmlinuz-$kv" "$dl/k/vmlinuz"
	for m in $want_mods; do
		modprobe -d "$dl/root" -S "$kv" -D "$m" >> "$dl/modprobe.out" ||
			{ rm -rf "$dl"; die99 "module $m not in kernel $kv"; }
	done
	awk '$1 == "insmod" && !seen[$2]++ {print $2}' "$dl/modprobe.out" > "$dl/order.path"
	: > "$dl/k/order"
	while read -r f; do
		cp "$f" "$dl/k/mods/"
		basename "$f" >> "$dl/k/order"
	done < "$dl/order.path"
	echo "$want_mods" > "$dl/k/wanted"
	echo "$kv" > "$dl/k/kver"
	rm -rf "$cache/kernel"
	mv "$dl/k" "$cache/kernel"
	rm -rf "$dl"
}

# One filler at a time (two wire-mode VMs may start together).
exec 8>"$cache/.lock"
flock -w 900 8 || die99 "could not lock $cache/.lock"
# a cache filled for more modules serves too (branches that want fewer
# must not make it download again)
cached_mods=" $(cat "$cache/kernel/wanted" 2>/dev/null || true) "
refill=false
[ -s "$cache/kernel/order" ] || refill=true
for m in $want_mods; do
	case $cached_mods in *" $m "*) ;; *) refill=true ;; esac
done
if $refill; then
	fill_cache
fi
flock -u 8
exec 8>&-
$prepare && exit 0
kdir=$cache/kernel
kver=$(cat "$kdir/kver")

# ---- 2. per-run directory: initramfs, run wrapper, console, status ----
# It lives under /tmp on this machine, which the guest sees through 9p:
# the guest writes COMMAND's status into it, so the status does not
# depend on parsing a console that kernel messages may interleave.
work=$(mktemp -d "${TMPDIR:-/tmp}/ibconsole-vm.XXXXXX")
qpid=
saved_tty=
[ "$tty_mode" = 1 ] && saved_tty=$(stty -g)
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill -TERM "$qpid" 2>/dev/null || true
		sleep 1
		kill -KILL "$qpid" 2>/dev/null || true
	fi
	# qemu restores the terminal when it exits, not when it is killed
	[ -z "$saved_tty" ] || stty "$saved_tty" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 99' HUP INT TERM

i=$work/initramfs
mkdir -p "$i/bin" "$i/mods" "$i/proc" "$i/sys" "$i/dev" "$i/host"
cp /bin/busybox "$i/bin/"
cp "$kdir"/mods/* "$i/mods/"

# The run wrapper, executed inside the chroot: environment, cwd, limits.
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
{
	echo '#!/bin/sh'
	echo 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin; export PATH'
	echo 'HOME=/root; export HOME'
	names="IBCONSOLE srcdir top_srcdir abs_top_srcdir abs_top_builddir ${IBCONSOLE_VM_PASSENV:-}"
	[ "$tty_mode" = 1 ] && names="$names TERM LANG LC_ALL COLORTERM NO_COLOR"
	names="$names $(env | sed -n 's/^\(IBCONSOLE_[A-Za-z0-9_]*\)=.*/\1/p')"
	# shellcheck disable=SC2154 # isset and v are assigned by eval
	for n in $names; do
		eval "isset=\${$n+y}"
		[ "$isset" = y ] || continue
		eval "v=\$$n"
		echo "$n=$(q "$v"); export $n"
	done
	echo "RXE_VM_NETDEV=$([ -n "$wire" ] && echo eth1 || echo eth0); export RXE_VM_NETDEV"
	echo "RXE_VM_IP=$(q "${wire_ip:-10.0.2.15/24}"); export RXE_VM_IP"
	echo "ulimit -l unlimited"
	# Ctrl-C is for COMMAND: this wrapper lives on to record its status
	[ "$tty_mode" = 1 ] && echo "trap : INT QUIT"
	# the size the terminal has now; later changes come over ttyS1
	[ "$tty_mode" = 1 ] && stty size | { read -r r c; echo "stty rows $r cols $c"; }
	echo "cd $(q "$(pwd)") || exit 99"
	printf '%s' "$(q "$cmd")"
	for a in "$@"; do printf ' %s' "$(q "$a")"; done
	echo
	echo "rc=\$?"
	echo "echo \$rc > $(q "$work/status")"
	echo "exit \$rc"
} > "$work/run.sh"
chmod +x "$work/run.sh"

names=$(tr '\n' ' ' < "$kdir/order")
cat > "$i/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for m in $names; do insmod /mods/\$m || echo "$me: insmod \$m failed"; done
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=none hostroot /host ||
	{ echo "$me: 9p mount failed"; poweroff -f; }
for d in proc sys dev; do mount --rbind /\$d /host/\$d; done
if [ "$usr_cache" = 1 ]; then
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=loose,ro hostusr /host/usr ||
		echo "$me: the cached /usr mount failed: /usr is read uncached"
	if [ -n "$bin" ] && [ -f "/host$bin" ]; then
		cp "/host$bin" /ibconsole-bin && mount --bind /ibconsole-bin "/host$bin" ||
			echo "$me: $bin is read uncached"
	fi
fi
mount -t tmpfs tmpfs /host/dev/shm 2>/dev/null
ip link set lo up; ip link set eth0 up; ip addr add 10.0.2.15/24 dev eth0
dev=eth0
if [ -n "$wire_ip" ]; then ip link set eth1 up; ip addr add $wire_ip dev eth1; dev=eth1; fi
chroot /host rdma link add rxe0 type rxe netdev \$dev || echo "$me: rdma link add failed"
if [ "$tty_mode" = 1 ]; then
	echo 0 > /proc/sys/kernel/printk
	stty -F /dev/ttyS1 -echo icanon
	while read -r r c; do stty -F /dev/ttyS0 rows \$r cols \$c; done < /dev/ttyS1 &
	setsid -c chroot /host $work/run.sh < /dev/ttyS0 > /dev/ttyS0 2>&1
	poweroff -f
fi
echo "$me: \$(dmesg | grep -m1 -o 'Hypervisor detected.*' || echo 'no hypervisor signature: TCG')"
echo "$me: guest up after \$(cut -d' ' -f1 /proc/uptime) s, running $cmd"
chroot /host $work/run.sh
echo "$me: exit \$?"
poweroff -f
INIT
chmod +x "$i/init"
(cd "$i" && find . | cpio -o -H newc 2>/dev/null | gzip -1 > "$work/initrd.gz")

# ---- 3. boot; the console is written to a file and echoed ----
# KVM: /dev/kvm being openable is not enough. Nested set-ups can accept
# KVM_CREATE_VM and then abort qemu (MSR writes refused) or never run the
# guest at all (seen here: a PVM-nested host, guest silent forever), and
# qemu's "-accel kvm -accel tcg" falls back only when KVM cannot be
# initialised. So boot the bare kernel once under KVM (it panics for lack
# of a root fs within a second or two) and remember the verdict per host
# kernel and qemu version.
kvm_works() {
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	key="$(uname -r) $(qemu-system-x86_64 --version | head -1)"
	f=$cache/kvm-probe
	if [ ! -f "$f" ] || [ "$(sed -n 1p "$f")" != "$key" ]; then
		verdict=no
		timeout -k 2 20 qemu-system-x86_64 -accel kvm -cpu host -m 256 \
			-display none -monitor none -serial "file:$work/probe" -no-reboot \
			-kernel "$kdir/vmlinuz" -append "console=ttyS0 panic=-1" \
			< /dev/null > "$work/probe.qemu" 2>&1 || true
		grep -q 'Linux version' "$work/probe" 2>/dev/null && verdict=yes
		printf '%s\n%s\n' "$key" "$verdict" > "$f"
		echo "$me: KVM probe: $verdict" >&2
	fi
	[ "$(sed -n 2p "$f")" = yes ]
}
case $accel in
tcg) accel_args="-accel tcg -cpu max" ;;
kvm) accel_args="-accel kvm -cpu host" ;;
auto)
	if kvm_works; then
		accel_args="-accel kvm -accel tcg -cpu host"
	else
		accel_args="-accel tcg -cpu max"
	fi
	;;
*) die99 "IBCONSOLE_VM_ACCEL must be auto, kvm or tcg, not '$accel'" ;;
esac
wire_args=
if [ -n "$wire" ]; then
	last=$(echo "$wire_ip" | sed 's|/.*||; s|.*\.||')
	wire_args="-netdev socket,id=wire,$wire -device virtio-net-pci,netdev=wire,mac=52:54:00:77:00:$(printf %02x "$last")"
fi

serial_args="-serial file:$work/console"
kargs=
if [ "$tty_mode" = 1 ]; then
	kargs=" loglevel=1"	# the user's terminal: no boot messages
	# signal=off: Ctrl-C goes to the guest; the second serial line
	# (ttyS1) carries "ROWS COLS" lines, written through a FIFO that is
	# held open here so a write never blocks
	mkfifo "$work/winch.in" "$work/winch.out"
	exec 7<>"$work/winch.in" 6<>"$work/winch.out"
	serial_args="-chardev stdio,id=con,signal=off -serial chardev:con -chardev pipe,id=winch,path=$work/winch -serial chardev:winch"
	trap 'stty size >&7 2>/dev/null || true' WINCH
else
	echo "$me: kernel $kver, $accel_args, ${mem} MiB, $smp cpus, time-out ${timeout_s} s"
fi
start=$(date +%s)
: > "$work/console"
# no_timer_check: under emulation on a loaded host the kernel's check of
# the IO-APIC timer can miss its ticks and panic at boot ("IO-APIC + timer
# doesn't work"); the emulated timer works, so the check is skipped.
# exec: qpid is timeout itself, which hands a TERM on to qemu
# shellcheck disable=SC2086 # accel_args, wire_args, usr_args, tflag, serial_args are word lists
run_qemu() {
	exec timeout $tflag -k 5 "$timeout_s" qemu-system-x86_64 $accel_args -m "$mem" -smp "$smp" \
		-display none -monitor none $serial_args -no-reboot \
		-kernel "$kdir/vmlinuz" -initrd "$work/initrd.gz" \
		-append "console=ttyS0 quiet panic=-1 no_timer_check$kargs" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,multidevs=remap \
		$usr_args \
		-nic user,model=virtio-net-pci \
		$wire_args
}
if [ "$tty_mode" = 1 ]; then
	# an asynchronous command's stdin would be /dev/null: hand it ours;
	# --foreground: timeout must not take qemu off the terminal
	exec 5<&0
	tflag=--foreground
	run_qemu <&5 2> "$work/qemu.log" &
else
	tflag=
	run_qemu < /dev/null > "$work/qemu.log" 2>&1 &
fi
qpid=$!
if [ "$tty_mode" != 1 ] && [ "${IBCONSOLE_VM_QUIET:-0}" != 1 ]; then
	tail -n +1 -f --pid="$qpid" "$work/console" | tr -d '\r'
fi
qrc=0
# a trapped signal (SIGWINCH) ends wait early: wait again while qemu runs
while :; do
	wait "$qpid" && qrc=0 || qrc=$?
	kill -0 "$qpid" 2>/dev/null || break
done
qpid=
end=$(date +%s)
grep -v 'host doesn.t support requested feature' "$work/qemu.log" >&2 || true
[ "$tty_mode" = 1 ] || echo "$me: VM ran $((end - start)) s"

if [ -s "$work/status" ]; then
	exit "$(cat "$work/status")"
fi
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	die99 "the VM run exceeded IBCONSOLE_VM_TIMEOUT=${timeout_s} s and was killed"
fi
rc=$(tr -d '\r' < "$work/console" | sed -n "s/.*$me: exit \([0-9]*\).*/\1/p" | tail -1)
[ -n "$rc" ] || die99 "the VM never ran $cmd (qemu status $qrc); see the console above"
exit "$rc"
