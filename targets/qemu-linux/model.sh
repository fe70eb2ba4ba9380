#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel router on the modelled core: the measure command of
# spaces/qemu-linux-model.yaml (vexpress) and spaces/qemu-linux-mt7621.yaml
# (malta).
#
#   model.sh [vexpress | malta]
#
# vexpress (the default): boots $TUNER_ARTIFACT (a qemu-linux zImage, its
# dtb beside it as build.sh leaves it) under qemu-system-arm -M
# vexpress-a9; malta: $TUNER_ARTIFACT (build.sh malta's vmlinuz) under
# qemu-system-mipsel -M malta -cpu 24KEc (QEMU has no 1004K: a MIPS32r2
# core with the DSP ASE and no FPU, as the 1004Kc) with the MT7621's
# caches given to the kernel (tuner_l1=256,4,32 tuner_l2=1024,8,32,
# malta-caches.patch: QEMU's CPUs report 2 kB L1s and no L2); both with
# tuner's uarch plugin (a MODEL of the router's core: caches, branch
# predictors), deterministically:
#
# - no host networking at all: four guest NICs on two QEMU hubs (LAN + SND,
#   WAN + SINK), the traffic made inside the guest by natgen (natgen.c:
#   4 TCP flows with handshakes, data and ACKs, 2 UDP flows, through the
#   router's conntrack and nftables masquerade);
# - -icount shift=0,sleep=off (one instruction, one virtual nanosecond;
#   idle time skipped) and tx=timer on every virtio-net NIC (transmits on
#   a virtual-clock timer, not when the host schedules QEMU's thread);
# - the counted window is marked by natgen itself at exact instructions
#   (the plugin's marks=on), after its warm-up.
#
# It counts kernel code (c0000000 and up; on malta 80000000 and up, kseg0
# to kseg2): the router's receive, conntrack,
# NAT, forwarding and transmit, and also natgen's own send path
# (AF_PACKET, qdisc bypassed, the virtio-net transmit the router also
# uses) and the idle and timer work meanwhile; natgen's user-space code
# runs through the caches but is not counted.
#
# Prints `packets=N bytes=B` (what the router forwarded in the window) and
# the plugin's report, which tuner's uarch-model parsers score with the
# study's penalties (MODELLED cycles per packet and Mbit/s). Needs no root.
#
#   TUNER_ARTIFACT, TUNER_UARCH (the plugin's machine arguments, from the
#   study's measure.uarch), TUNER_UARCH_PLUGIN (tuner-uarch.so); tuner sets
#   them. TUNER_OUT/TUNER_RUN: where the console log and report are kept
#   (model.console.RUN, model.report.RUN, and model.lines.RUN,
#   model.blocks.RUN when asked for).
# Options (environment):
#   TUNER_KERNEL_MODEL_ROUNDS   rounds of 14 frames counted (default 1000)
#   TUNER_KERNEL_MODEL_WARMUP   rounds before the window (default 200)
#   TUNER_KERNEL_MODEL_GAP_US   virtual microseconds between rounds (500)
#   TUNER_KERNEL_MODEL_TIMEOUT  seconds for the whole run (default 1500)
#   TUNER_KERNEL_MODEL_LINES    1: also keep the report's .lines (the
#                               per-line footprint; footprint bands)
#   TUNER_KERNEL_MODEL_SENDONLY 1: natgen's frames go to MACs no NIC has,
#                               so the router receives none: the cost of
#                               the sender alone, per frame sent
#   TUNER_KERNEL_MODEL_PATH     dma (default): the NICs use the DMA API
#                               with the non-coherent ops, as a router's
#                               NIC driver does (streaming cache
#                               maintenance per packet): on vexpress
#                               modern virtio-mmio (-global
#                               virtio-mmio.force-legacy=false),
#                               iommu_platform=on on each NIC and the
#                               device tree of mk-dtb.sh (QEMU's
#                               virtio-mmio nodes without dma-coherent);
#                               on malta modern virtio-pci
#                               (disable-legacy=on) with iommu_platform=on
#                               (malta's DMA is not coherent);
#                               virtio: the path before (legacy
#                               virtio, no DMA API; on vexpress the
#                               build's dtb as QEMU amends it), the same
#                               QEMU command line as before it existed
#   TUNER_KERNEL_MODEL_GRO      off (default): every offload off on the
#                               router's NICs; on: GRO on on its LAN and
#                               WAN NICs (tuner.gro=on to router-init.sh);
#                               without it, a testbed's env ROUTER_GRO
#                               (tuner passes no TUNER_* from a testbed)
#   TUNER_KERNEL_MODEL_L2C      the PL310's physical base for the plugin's
#                               outer-cache model (l2c=); default
#                               0x1e00a000 on vexpress's dma path, empty
#                               on the virtio path and on malta (its L2
#                               is the core's: cache ops); empty: not
#                               passed
#   TUNER_KERNEL_MODEL_BLOCKS   1 (default): the plugin's blocks=on, its
#                               per-block counters kept as
#                               model.blocks.RUN; 0: not passed
# Exit status: 0 measured; 1 otherwise, with the reason on stderr.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
rounds=${TUNER_KERNEL_MODEL_ROUNDS:-1000}
warmup=${TUNER_KERNEL_MODEL_WARMUP:-200}
gap=${TUNER_KERNEL_MODEL_GAP_US:-500}
timeout=${TUNER_KERNEL_MODEL_TIMEOUT:-1500}
lines=${TUNER_KERNEL_MODEL_LINES:-0}
gen=
[ "${TUNER_KERNEL_MODEL_SENDONLY:-0}" = 1 ] && gen=,sendonly
path=${TUNER_KERNEL_MODEL_PATH:-dma}
gro=${TUNER_KERNEL_MODEL_GRO:-${ROUTER_GRO:-off}}
blocks=${TUNER_KERNEL_MODEL_BLOCKS:-1}
run=${TUNER_RUN:-0}
case ${TUNER_TESTBED:-local} in local) ;; *) run=$TUNER_TESTBED.$run ;; esac

say() { echo "model.sh: $*" >&2; }
die() { say "$*"; exit 1; }

board=${1:-vexpress}
case $board in
vexpress | malta) ;;
*) die "unknown board '$board' (vexpress or malta)" ;;
esac
zimage=${TUNER_ARTIFACT:?TUNER_ARTIFACT not set}
: "${TUNER_UARCH:?TUNER_UARCH not set (the study needs measure.uarch)}"
so=${TUNER_UARCH_PLUGIN:?TUNER_UARCH_PLUGIN not set (make builds tuner-uarch.so)}
[ -f "$zimage" ] || die "no kernel image $zimage"
dtb=
if [ "$board" = vexpress ]; then
	dtb=$(dirname "$zimage")/dts/vexpress-v2p-ca9.dtb
	[ -f "$dtb" ] || die "no device tree $dtb"
fi
[ -f "$so" ] || die "no uarch plugin at $so"
for v in "$rounds" "$warmup" "$gap" "$timeout"; do
	case $v in '' | *[!0-9]*) die "'$v' is not a whole number (TUNER_KERNEL_MODEL_*)" ;; esac
done
case $path/$board in
dma/vexpress) l2c=${TUNER_KERNEL_MODEL_L2C-0x1e00a000} ;;
dma/* | virtio/*) l2c=${TUNER_KERNEL_MODEL_L2C-} ;;
*) die "TUNER_KERNEL_MODEL_PATH is '$path': dma or virtio" ;;
esac
case $gro in on | off) ;; *) die "TUNER_KERNEL_MODEL_GRO is '$gro': on or off" ;; esac
case $blocks in 0 | 1) ;; *) die "TUNER_KERNEL_MODEL_BLOCKS is '$blocks': 0 or 1" ;; esac
case $l2c in '' | 0x[0-9a-fA-F]*) ;; *) die "TUNER_KERNEL_MODEL_L2C is '$l2c': an address 0x..., or empty" ;; esac
case ${l2c#0x} in *[!0-9a-fA-F]*) die "TUNER_KERNEL_MODEL_L2C is '$l2c': an address 0x..., or empty" ;; esac

uarch_arch=armhf
[ "$board" = malta ] && uarch_arch=mipsel
initrd=$("$here/mk-initramfs.sh" --arch $uarch_arch)
dir=$(mktemp -d /tmp/tuner-kmodel.XXXXXX)
qemu_pid=
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	if [ -n "$qemu_pid" ]; then
		# A guest spinning in the kernel keeps QEMU's vCPU thread on the
		# big lock, and QEMU never gets to its SIGTERM (seen on malta):
		# 5 s, then SIGKILL. The wait's status is QEMU's, not ours.
		kill "$qemu_pid" 2>/dev/null || true
		for _ in $(seq 50); do
			kill -0 "$qemu_pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
	fi
	if [ -n "${TUNER_OUT:-}" ] && [ -d "$TUNER_OUT" ]; then
		# What there is (a failed run may have no report); errexit is on.
		cp "$dir/console.log" "$TUNER_OUT/model.console.$run" 2>/dev/null || true
		cp "$dir/report" "$TUNER_OUT/model.report.$run" 2>/dev/null || true
		cp "$dir/report.blocks" "$TUNER_OUT/model.blocks.$run" 2>/dev/null || true
	fi
	rm -rf "$dir"
	exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT
trap 'say "terminated"; exit 143' TERM

# The DMA path: QEMU's virtio-mmio nodes without dma-coherent, in a dtb of
# our own (mk-dtb.sh), the transports modern (a legacy one has 32 feature
# bits: VIRTIO_F_ACCESS_PLATFORM, bit 33, would never reach the guest) and
# iommu_platform=on, so virtio uses the DMA API.
nicopt=
qopt=()
if [ "$path" = dma ] && [ "$board" = vexpress ]; then
	"$here/mk-dtb.sh" "$dtb" "$dir/router.dtb" 2>"$dir/mk-dtb.out" ||
		die "mk-dtb.sh: $(cat "$dir/mk-dtb.out")"
	dtb=$dir/router.dtb
	nicopt=,iommu_platform=on
	qopt=(-global virtio-mmio.force-legacy=false)
elif [ "$path" = dma ]; then
	nicopt=,disable-legacy=on,iommu_platform=on
fi
# malta: the NICs in PCI slots 18-21 (0x12-0x15: the four slots Linux's
# malta IRQ table routes, fixup-malta.c), no VGA, none of QEMU's default
# devices.
if [ "$board" = vexpress ]; then
	qemu=(qemu-system-arm -M vexpress-a9 -m 256M -smp 1 -icount shift=0,sleep=off
		-audiodev none,id=snd0 -dtb "$dtb")
	append="console=ttyAMA0"
	count=c0000000-ffffffff
	dev=virtio-net-device
else
	# The RTC on the virtual clock, and the CP0 Count's rate given
	# (tuner_count_hz: QEMU's 1e9 / 6 Hz): Linux on malta would measure
	# it against the RTC, on the host's clock (QEMU's default) 7.29 MHz
	# on one boot and 8.10 on the next, on the virtual clock after 2 s
	# of emulated RTC reads (over a minute here). -seed: QEMU 7.2's
	# malta hands the kernel 32 random bytes (prom env rngseed), which
	# key its hashes (conntrack's siphash): from QEMU's seeded
	# generator, not the host's, or the counts differ by boot.
	qemu=(qemu-system-mipsel -M malta -cpu 24KEc -nodefaults -m 256M -smp 1
		-icount shift=0,sleep=off -rtc base=2000-01-01T00:00:00,clock=vm -seed 1)
	append="console=ttyS0 tuner_l1=256,4,32 tuner_l2=1024,8,32 tuner_count_hz=0"
	count=80000000-ffffffff
	dev=virtio-net-pci
fi
append+=" rdinit=/init tuner.gen=$rounds,$warmup,$gap$gen"
[ "$gro" = on ] && append+=" tuner.gro=on"
nic() { # NAME HUB MAC SLOT
	local at=
	# malta: no option ROM (nothing boots from it), and no ioeventfd:
	# under TCG virtio-pci keeps it on, so a queue's notify reaches the
	# device through an eventfd the main loop serves when the host
	# schedules it (virtio-mmio turns it off without KVM); with it, two
	# boots of one kernel forwarded differently and one in three hung.
	[ "$board" = malta ] && at=",addr=$4,romfile=,ioeventfd=off"
	echo "-netdev hubport,id=$1,hubid=$2"
	echo "-device $dev,netdev=$1,mac=$3,csum=off,guest_csum=off,tx=timer$nicopt$at"
}
marg="$TUNER_UARCH,count=$count,marks=on,out=$dir/report"
[ "$lines" = 1 ] && marg+=",lines=on"
[ -n "$l2c" ] && marg+=",l2c=$l2c"
[ "$blocks" = 1 ] && marg+=",blocks=on"
: >"$dir/console.log"
t0=$(date +%s.%N)
# shellcheck disable=SC2046 # nic prints separate words on purpose
"${qemu[@]}" -kernel "$zimage" -initrd "$initrd" \
	-append "$append" \
	-display none -monitor none -serial "file:$dir/console.log" \
	-plugin "$so,$marg" \
	$(nic lan 0 52:54:00:12:01:01 0x12) $(nic wan 1 52:54:00:12:02:01 0x13) \
	$(nic snd 0 52:54:00:12:01:02 0x14) $(nic sink 1 52:54:00:12:02:02 0x15) \
	"${qopt[@]}" \
	</dev/null >"$dir/qemu.out" 2>&1 &
qemu_pid=$!

deadline=$(( $(date +%s) + timeout ))
until grep -q '^TUNER-GEN-DONE' "$dir/console.log" && [ -f "$dir/report" ]; do
	kill -0 "$qemu_pid" 2>/dev/null ||
		die "QEMU exited: $(tail -3 "$dir/qemu.out" | tr '\n' ' ') console: $(tail -3 "$dir/console.log" | tr '\n' ' ')"
	for m in TUNER-ROUTER-FAILED TUNER-GEN-FAILED 'Kernel panic' 'natgen:'; do
		grep -q "$m" "$dir/console.log" && die "$(grep -m1 "$m" "$dir/console.log" | tr -d '\r')"
	done
	[ "$(date +%s)" -lt "$deadline" ] ||
		die "no result within $timeout s (console tail: $(tail -3 "$dir/console.log" | tr '\n' ' '))"
	sleep 0.5
done
secs=$(echo "$(date +%s.%N) - $t0" | bc)
done_line=$(grep -m1 '^TUNER-GEN-DONE' "$dir/console.log" | tr -d '\r')
packets=$(echo "$done_line" | sed -n 's/.* packets=\([0-9]*\).*/\1/p')
bytes=$(echo "$done_line" | sed -n 's/.* bytes=\([0-9]*\).*/\1/p')
sent=$(echo "$done_line" | sed -n 's/.* sent=\([0-9]*\).*/\1/p')
if [ -z "$packets" ] || [ -z "$bytes" ] || [ -z "$sent" ]; then die "cannot read '$done_line'"; fi
[ "$packets" = "$sent" ] ||
	die "the router forwarded $packets frames of the $sent sent in the window (lower the load: TUNER_KERNEL_MODEL_GAP_US)"
what="packets forwarded"
[ -n "$gen" ] && what="frames sent (sendonly: nothing forwarded)"
say "$packets $what in the window, $(printf '%.0f' "$secs") s (MODELLED counts)"
# The report is complete when it ends with "end" (the plugin renames it
# into place whole).
grep -qx end "$dir/report" || die "the plugin's report is not whole"
echo "packets=$packets bytes=$bytes wall_seconds=$(printf '%.1f' "$secs")"
cat "$dir/report"
[ "$lines" = 1 ] && [ -n "${TUNER_OUT:-}" ] && cp "$dir/report.lines" "$TUNER_OUT/model.lines.$run"
exit 0
