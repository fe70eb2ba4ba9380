#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The qemu-linux study's measure command: boots $TUNER_ARTIFACT (a zImage,
# with arch/arm/boot/dts/vexpress-v2p-ca9.dtb beside it as build.sh leaves
# it) under qemu-system-arm -M vexpress-a9 as a NAT router between two
# network namespaces, and prints on stdout the `iperf3 -J` document of one
# TCP run LAN -> WAN through the router (tuner's `iperf3` parser).
#
#   lan ns (iperf3 client, 192.168.1.2) -- veth -- bridge -- tap -- QEMU eth LAN
#   wan ns (iperf3 server, 10.0.0.1)    -- veth -- bridge -- tap -- QEMU eth WAN
#
# The wan namespace has no route back to 192.168.1.0/24: traffic flows only
# if the guest masquerades, and the server must see the router's WAN address
# (10.0.0.2) as its client, or the run fails.
#
# QEMU runs on one CPU and both iperf3 ends on the other (taskset). Before
# it starts it takes the lock build.sh holds while compiling, exclusively,
# so no measurement runs during a kernel build of this study.
#
# Every name carries this process's id (namespaces tuner-lan-PID and
# tuner-wan-PID, links tq[btv]PID[lw]), so a stale one cannot break a run;
# everything is removed on exit, on INT/TERM (tuner's timeout) and, for a
# run killed with SIGKILL, at the start of the next run (names whose PID is
# gone).
#
# Guest instruction count: QEMU runs with the insncount plugin (insncount.c,
# built by mk-plugin.sh), and the document printed gets
#   "tuner_guest": {"instructions": N, "bytes": B, "instructions_per_byte": N/B}
# N: guest instructions executed while the iperf3 client ran, B: bytes it
# delivered (all intervals, warm-up included); parser
# json:tuner_guest.instructions_per_byte. TCG has no caches: this is what
# emulated throughput follows, and it does not move with the host's load.
#
# Options (environment):
#   TUNER_KERNEL_INSNS         1 (default): count guest instructions
#                              (needs the plugin); 0: do not
#   TUNER_KERNEL_WORK          work area (default <repo>/results/qemu-linux-work)
#   TUNER_KERNEL_BOOT_TIMEOUT  seconds to wait for the ready marker (default 60)
#   TUNER_KERNEL_IPERF_TIME    seconds of traffic (default 20) after
#   TUNER_KERNEL_IPERF_OMIT    seconds of warm-up left out (default 2)
#   TUNER_KERNEL_QEMU_CPU      CPU for QEMU (default 0)
#   TUNER_KERNEL_IPERF_CPU     CPU for iperf3 (default 1)
#   TUNER_KERNEL_LOCK_WAIT     seconds to wait for running builds (default 3000)
#   TUNER_KERNEL_GCOV          a file: the kernel is a gcov one (build.sh
#                              with TUNER_PGO=generate); after the run its
#                              profile (every .gcda under the guest's
#                              /sys/kernel/debug/gcov, counted from the
#                              ready marker on) is written there as a
#                              gzipped tar (train.sh uses this)
#   TUNER_KERNEL_GCOV_TIMEOUT  seconds to wait for it (default 600)
#   TUNER_KERNEL_UARCH         arguments for tuner's uarch plugin (e.g.
#                              "preset=cortex-a9,count=c0000000-ffffffff,
#                              lines=on"): QEMU also runs tuner-uarch.so
#                              ($TUNER_UARCH_PLUGIN, default
#                              build/release/tuner-uarch.so), its counters
#                              reset just before the iperf3 client starts
#                              and dumped just after it ends to
#                              $TUNER_KERNEL_UARCH_OUT (and .lines), with
#                              the packets the router forwarded meanwhile
#                              (data packets reaching WAN + ACKs reaching
#                              LAN, the namespaces' rx counters) in
#                              $TUNER_KERNEL_UARCH_OUT.packets
#   TUNER_KERNEL_UARCH_OUT     where (required with TUNER_KERNEL_UARCH)
#   TUNER_KERNEL_LOG           directory for the console log and iperf3
#                              server output (default: a temporary one,
#                              removed; given: kept)
# Exit status: 0 measured; 1 anything else, with the reason on stderr.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${TUNER_KERNEL_WORK:-$root/results/qemu-linux-work}
boot_timeout=${TUNER_KERNEL_BOOT_TIMEOUT:-60}
itime=${TUNER_KERNEL_IPERF_TIME:-20}
iomit=${TUNER_KERNEL_IPERF_OMIT:-2}
qcpu=${TUNER_KERNEL_QEMU_CPU:-0}
icpu=${TUNER_KERNEL_IPERF_CPU:-1}
lock=${TUNER_KERNEL_LOCK:-$work/cpu.lock}
lock_wait=${TUNER_KERNEL_LOCK_WAIT:-3000}
insns=${TUNER_KERNEL_INSNS:-1}
gcov=${TUNER_KERNEL_GCOV:-}
gcov_timeout=${TUNER_KERNEL_GCOV_TIMEOUT:-600}
uarch=${TUNER_KERNEL_UARCH:-}
uarch_out=${TUNER_KERNEL_UARCH_OUT:-}
uarch_so=${TUNER_UARCH_PLUGIN:-$root/build/release/tuner-uarch.so}

# shellcheck source=cable.sh
. "$here/cable.sh"

say() { echo "measure.sh: $*" >&2; }
die() { say "$*"; exit 1; }

zimage=${TUNER_ARTIFACT:?TUNER_ARTIFACT not set}
[ -f "$zimage" ] || die "no kernel image $zimage"
dtb=$(dirname "$zimage")/dts/vexpress-v2p-ca9.dtb
[ -f "$dtb" ] || die "no device tree $dtb"
[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, tap devices)"

id=$$
ns_lan=tuner-lan-$id
ns_wan=tuner-wan-$id
br_l=tqb${id}l br_w=tqb${id}w
tap_l=tqt${id}l tap_w=tqt${id}w
veth_l=tqv${id}l veth_w=tqv${id}w
LAN_MAC=52:54:00:12:01:01
WAN_MAC=52:54:00:12:02:01

if [ -n "${TUNER_KERNEL_LOG:-}" ]; then
	logdir=$TUNER_KERNEL_LOG
	mkdir -p "$logdir"
	keep_log=1
else
	logdir=$(mktemp -d /tmp/tuner-qemu.XXXXXX)
	keep_log=0
fi
console=$logdir/console.log
qemu_pid=
srv_pid=
gcat_pid=

# Removes what a run with process id $1 left.
remove_run() {
	local p=$1 l
	ip netns del "tuner-lan-$p" 2>/dev/null || true
	ip netns del "tuner-wan-$p" 2>/dev/null || true
	for l in "tqb${p}l" "tqb${p}w" "tqt${p}l" "tqt${p}w" "tqv${p}l" "tqv${p}w"; do
		ip link del "$l" 2>/dev/null || true
	done
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	set +e # everything below is best effort
	[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null
	[ -n "$gcat_pid" ] && kill "$gcat_pid" 2>/dev/null
	if [ -n "$qemu_pid" ]; then
		kill "$qemu_pid" 2>/dev/null
		wait "$qemu_pid" 2>/dev/null || true
	fi
	remove_run "$id"
	if [ $keep_log -eq 0 ]; then rm -rf "$logdir"; fi
	exit $rc
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT
trap 'say "terminated"; exit 143' TERM

# Leftovers of runs that were killed outright.
for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }' | grep -E '^tuner-(lan|wan)-[0-9]+$' || true); do
	p=${ns##*-}
	kill -0 "$p" 2>/dev/null || remove_run "$p"
done
for l in $(ip -o link show 2>/dev/null | awk -F': ' '{ print $2 }' | sed 's/@.*//' |
	   grep -E '^tq[btv][0-9]+[lw]$' || true); do
	p=${l:3:-1}
	kill -0 "$p" 2>/dev/null || remove_run "$p"
done

exec 9>"$lock"
if ! flock -x -w "$lock_wait" 9; then
	die "a kernel build held $lock for more than $lock_wait s"
fi

initrd=$("$here/mk-initramfs.sh")
plugin=()
if [ "$insns" = 1 ]; then
	so=$("$here/mk-plugin.sh") || die "cannot build the instruction-count plugin (TUNER_KERNEL_INSNS=0 measures without it)"
	plugin=(-plugin "$so,out=$logdir/insns")
fi
if [ -n "$uarch" ]; then
	[ -n "$uarch_out" ] || die "TUNER_KERNEL_UARCH needs TUNER_KERNEL_UARCH_OUT"
	[ -f "$uarch_so" ] || die "no uarch plugin at $uarch_so (make builds it)"
	mkfifo "$logdir/uarch.ctl"
	rm -f "$uarch_out" "$uarch_out.lines" "$uarch_out.packets"
	plugin+=(-plugin "$uarch_so,$uarch,ctl=$logdir/uarch.ctl")
fi

# Host side: two namespaces, each a veth into a bridge with a tap for QEMU.
ip netns add "$ns_lan"
ip netns add "$ns_wan"
cable_side "$br_l" "$tap_l" "$veth_l" "$ns_lan" 192.168.1.2/24
cable_side "$br_w" "$tap_w" "$veth_w" "$ns_wan" 10.0.0.1/24
ip -n "$ns_lan" route add default via 192.168.1.1

: >"$console"

# The gcov channel: the guest's second UART as a pair of FIFOs (QEMU opens
# both read-write, so neither open blocks), read from the start so the
# guest never waits on a full pipe.
append="console=ttyAMA0 rdinit=/init"
serial2=()
if [ -n "$gcov" ]; then
	mkfifo "$logdir/gcov.in" "$logdir/gcov.out"
	cat "$logdir/gcov.out" >"$logdir/gcov.txt" &
	gcat_pid=$!
	append+=" tuner.gcov"
	serial2=(-serial "pipe:$logdir/gcov")
fi

# The router. No -daemonize: QEMU stays in this process group, so tuner's
# timeout reaches it.
taskset -c "$qcpu" qemu-system-arm -M vexpress-a9 -m 256M -smp 1 -audiodev none,id=snd0 \
	-dtb "$dtb" -kernel "$zimage" -initrd "$initrd" \
	-append "$append" \
	-display none -monitor none -serial "file:$console" "${serial2[@]}" "${plugin[@]}" \
	-netdev "tap,id=lan,ifname=$tap_l,script=no,downscript=no" \
	-device "virtio-net-device,netdev=lan,mac=$LAN_MAC,csum=off,guest_csum=off" \
	-netdev "tap,id=wan,ifname=$tap_w,script=no,downscript=no" \
	-device "virtio-net-device,netdev=wan,mac=$WAN_MAC,csum=off,guest_csum=off" \
	</dev/null >"$logdir/qemu.out" 2>&1 &
qemu_pid=$!

# Boot watchdog.
t0=$(date +%s.%N)
deadline=$(( $(date +%s) + boot_timeout ))
until grep -q '^TUNER-ROUTER-READY' "$console" 2>/dev/null; do
	if ! kill -0 "$qemu_pid" 2>/dev/null; then
		say "QEMU exited before the router was ready: $(tail -3 "$logdir/qemu.out" | tr '\n' ' ')"
		die "console: $(tail -5 "$console" 2>/dev/null | tr '\n' ' ')"
	fi
	if grep -q '^TUNER-ROUTER-FAILED' "$console" 2>/dev/null; then
		die "router init failed: $(grep '^TUNER-ROUTER-FAILED' "$console")"
	fi
	if grep -q 'Kernel panic' "$console" 2>/dev/null; then
		die "kernel panic: $(grep -m1 'Kernel panic' "$console")"
	fi
	if [ "$(date +%s)" -ge "$deadline" ]; then
		die "no boot: no ready marker within $boot_timeout s (console tail: $(tail -3 "$console" 2>/dev/null | tr '\n' ' '))"
	fi
	sleep 0.2
done
say "router ready after $(echo "$(date +%s.%N) - $t0" | bc | cut -c1-5) s"

# The server logs its view (who connected) to a file; the client's document
# goes to stdout.
ip netns exec "$ns_wan" taskset -c "$icpu" iperf3 -s -1 -B 10.0.0.1 -J \
	>"$logdir/server.json" 2>"$logdir/server.err" &
srv_pid=$!
for _ in $(seq 50); do
	ip netns exec "$ns_wan" ss -Hltn 2>/dev/null | grep -q '10.0.0.1:5201' && break
	sleep 0.1
done
client=$logdir/client.json
rc=0
# The plugin rewrites the file every 10 ms.
count() { cat "$logdir/insns" 2>/dev/null || echo 0; }
# rx NS: the packets eth0 of namespace NS received.
rx() { ip netns exec "$1" cat /sys/class/net/eth0/statistics/rx_packets; }
[ "$insns" = 1 ] && c0=$(count)
if [ -n "$uarch" ]; then
	p0=$(( $(rx "$ns_wan") + $(rx "$ns_lan") ))
	echo reset >"$logdir/uarch.ctl"
fi
ip netns exec "$ns_lan" taskset -c "$icpu" iperf3 -c 10.0.0.1 -t "$itime" -O "$iomit" -J \
	--connect-timeout 5000 >"$client" 2>"$logdir/client.err" || rc=$?
[ "$insns" = 1 ] && { sleep 0.05; c1=$(count); }
if [ -n "$uarch" ]; then
	echo "dump $uarch_out" >"$logdir/uarch.ctl"
	p1=$(( $(rx "$ns_wan") + $(rx "$ns_lan") ))
	for _ in $(seq 600); do
		[ -f "$uarch_out" ] && { [ -f "$uarch_out.lines" ] || ! echo "$uarch" | grep -q 'lines=on'; } && break
		kill -0 "$qemu_pid" 2>/dev/null || die "QEMU exited before the uarch plugin's report"
		sleep 0.1
	done
	[ -f "$uarch_out" ] || die "no report from the uarch plugin within 60 s"
	echo "packets=$((p1 - p0))" >"$uarch_out.packets"
	say "uarch: $((p1 - p0)) packets forwarded while counting"
fi
wait "$srv_pid" 2>/dev/null || true
srv_pid=
if [ $rc -ne 0 ]; then
	say "iperf3 failed ($rc): $(grep -o '"error":.*' "$client" | head -1) $(cat "$logdir/client.err")"
	cat "$client"
	exit 1
fi
grep -q '"remote_host":[[:space:]]*"10.0.0.2"' "$logdir/server.json" ||
	die "the server did not see the router's WAN address: no masquerade? $(grep -o '"remote_host":[^,]*' "$logdir/server.json" | head -1)"
if [ -n "$gcov" ]; then
	echo dump >"$logdir/gcov.in"
	deadline=$(( $(date +%s) + gcov_timeout ))
	until grep -q '^TUNER-GCOV-END' "$logdir/gcov.txt"; do
		kill -0 "$qemu_pid" 2>/dev/null || die "QEMU exited before the profile was written"
		[ "$(date +%s)" -lt "$deadline" ] ||
			die "no profile from the guest within $gcov_timeout s ($(stat -c %s "$logdir/gcov.txt") bytes)"
		sleep 0.5
	done
	n=$(tr -d '\r' <"$logdir/gcov.txt" | sed -n 's/^TUNER-GCOV-BEGIN \([0-9]*\)$/\1/p')
	tr -d '\r' <"$logdir/gcov.txt" | sed -n '/^TUNER-GCOV-BEGIN/,/^TUNER-GCOV-END/{/^TUNER-GCOV/d;p}' |
		base64 -d >"$gcov" || die "the guest's profile does not decode"
	got=$(tar -tzf "$gcov" | grep -c '\.gcda$' || true)
	[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$got" = "$n" ] ||
		die "the guest sent ${n:-no} .gcda files, the archive holds $got"
	say "profile: $n .gcda files, $(stat -c %s "$gcov") bytes"
fi
if [ "$insns" = 1 ]; then
	[ "$c0" -gt 0 ] && [ "$c1" -gt "$c0" ] || die "no instruction count from the plugin ($c0 -> $c1)"
	jq --argjson n "$((c1 - c0))" '. + {tuner_guest: {instructions: $n,
		bytes: ([.intervals[].sum.bytes] | add),
		instructions_per_byte: ($n / ([.intervals[].sum.bytes] | add))}}' "$client" ||
		die "cannot add the instruction count to the iperf3 document"
else
	cat "$client"
fi
