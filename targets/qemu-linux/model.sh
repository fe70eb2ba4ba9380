#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel router on the modelled core: the measure command of
# spaces/qemu-linux-model.yaml. Boots $TUNER_ARTIFACT (a qemu-linux zImage,
# its dtb beside it as build.sh leaves it) under qemu-system-arm with
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
# It counts kernel code (c0000000 and up): the router's receive, conntrack,
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
#                               maintenance per packet): modern
#                               virtio-mmio (-global
#                               virtio-mmio.force-legacy=false),
#                               iommu_platform=on on each NIC and the
#                               device tree of mk-dtb.sh (QEMU's
#                               virtio-mmio nodes without dma-coherent);
#                               virtio: the path before (legacy
#                               virtio-mmio, no DMA API, the build's dtb
#                               as QEMU amends it), the same QEMU command
#                               line as before it existed
#   TUNER_KERNEL_MODEL_GRO      off (default): every offload off on the
#                               router's NICs; on: GRO on on its LAN and
#                               WAN NICs (tuner.gro=on to router-init.sh);
#                               without it, a testbed's env ROUTER_GRO
#                               (tuner passes no TUNER_* from a testbed)
#   TUNER_KERNEL_MODEL_L2C      the PL310's physical base for the plugin's
#                               outer-cache model (l2c=); default
#                               0x1e00a000 on the dma path, empty on the
#                               virtio path; empty: not passed
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

zimage=${TUNER_ARTIFACT:?TUNER_ARTIFACT not set}
: "${TUNER_UARCH:?TUNER_UARCH not set (the study needs measure.uarch)}"
so=${TUNER_UARCH_PLUGIN:?TUNER_UARCH_PLUGIN not set (make builds tuner-uarch.so)}
[ -f "$zimage" ] || die "no kernel image $zimage"
dtb=$(dirname "$zimage")/dts/vexpress-v2p-ca9.dtb
[ -f "$dtb" ] || die "no device tree $dtb"
[ -f "$so" ] || die "no uarch plugin at $so"
for v in "$rounds" "$warmup" "$gap" "$timeout"; do
	case $v in '' | *[!0-9]*) die "'$v' is not a whole number (TUNER_KERNEL_MODEL_*)" ;; esac
done
case $path in
dma) l2c=${TUNER_KERNEL_MODEL_L2C-0x1e00a000} ;;
virtio) l2c=${TUNER_KERNEL_MODEL_L2C-} ;;
*) die "TUNER_KERNEL_MODEL_PATH is '$path': dma or virtio" ;;
esac
case $gro in on | off) ;; *) die "TUNER_KERNEL_MODEL_GRO is '$gro': on or off" ;; esac
case $blocks in 0 | 1) ;; *) die "TUNER_KERNEL_MODEL_BLOCKS is '$blocks': 0 or 1" ;; esac
case $l2c in '' | 0x[0-9a-fA-F]*) ;; *) die "TUNER_KERNEL_MODEL_L2C is '$l2c': an address 0x..., or empty" ;; esac
case ${l2c#0x} in *[!0-9a-fA-F]*) die "TUNER_KERNEL_MODEL_L2C is '$l2c': an address 0x..., or empty" ;; esac

initrd=$("$here/mk-initramfs.sh")
dir=$(mktemp -d /tmp/tuner-kmodel.XXXXXX)
qemu_pid=
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	if [ -n "$qemu_pid" ]; then
		kill "$qemu_pid" 2>/dev/null
		wait "$qemu_pid" 2>/dev/null
	fi
	if [ -n "${TUNER_OUT:-}" ] && [ -d "$TUNER_OUT" ]; then
		cp "$dir/console.log" "$TUNER_OUT/model.console.$run" 2>/dev/null
		cp "$dir/report" "$TUNER_OUT/model.report.$run" 2>/dev/null
		[ -f "$dir/report.blocks" ] &&
			cp "$dir/report.blocks" "$TUNER_OUT/model.blocks.$run" 2>/dev/null
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
if [ "$path" = dma ]; then
	"$here/mk-dtb.sh" "$dtb" "$dir/router.dtb" 2>"$dir/mk-dtb.out" ||
		die "mk-dtb.sh: $(cat "$dir/mk-dtb.out")"
	dtb=$dir/router.dtb
	nicopt=,iommu_platform=on
	qopt=(-global virtio-mmio.force-legacy=false)
fi
append="console=ttyAMA0 rdinit=/init tuner.gen=$rounds,$warmup,$gap$gen"
[ "$gro" = on ] && append+=" tuner.gro=on"
nic() { # NAME HUB MAC
	echo "-netdev hubport,id=$1,hubid=$2"
	echo "-device virtio-net-device,netdev=$1,mac=$3,csum=off,guest_csum=off,tx=timer$nicopt"
}
marg="$TUNER_UARCH,count=c0000000-ffffffff,marks=on,out=$dir/report"
[ "$lines" = 1 ] && marg+=",lines=on"
[ -n "$l2c" ] && marg+=",l2c=$l2c"
[ "$blocks" = 1 ] && marg+=",blocks=on"
: >"$dir/console.log"
t0=$(date +%s.%N)
# shellcheck disable=SC2046 # nic prints separate words on purpose
qemu-system-arm -M vexpress-a9 -m 256M -smp 1 -icount shift=0,sleep=off \
	-audiodev none,id=snd0 -dtb "$dtb" -kernel "$zimage" -initrd "$initrd" \
	-append "$append" \
	-display none -monitor none -serial "file:$dir/console.log" \
	-plugin "$so,$marg" \
	$(nic lan 0 52:54:00:12:01:01) $(nic wan 1 52:54:00:12:02:01) \
	$(nic snd 0 52:54:00:12:01:02) $(nic sink 1 52:54:00:12:02:02) \
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
say "$packets packets forwarded in the window, $(printf '%.0f' "$secs") s (MODELLED counts)"
# The report is complete when it ends with "end" (the plugin renames it
# into place whole).
grep -qx end "$dir/report" || die "the plugin's report is not whole"
echo "packets=$packets bytes=$bytes wall_seconds=$(printf '%.1f' "$secs")"
cat "$dir/report"
[ "$lines" = 1 ] && [ -n "${TUNER_OUT:-}" ] && cp "$dir/report.lines" "$TUNER_OUT/model.lines.$run"
exit 0
