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
#   (model.console.RUN, model.report.RUN).
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
		cp "$dir/console.log" "$TUNER_OUT/model.console.${TUNER_RUN:-0}" 2>/dev/null
		cp "$dir/report" "$TUNER_OUT/model.report.${TUNER_RUN:-0}" 2>/dev/null
	fi
	rm -rf "$dir"
	exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT
trap 'say "terminated"; exit 143' TERM

nic() { # NAME HUB MAC
	echo "-netdev hubport,id=$1,hubid=$2"
	echo "-device virtio-net-device,netdev=$1,mac=$3,csum=off,guest_csum=off,tx=timer"
}
marg="$TUNER_UARCH,count=c0000000-ffffffff,marks=on,out=$dir/report"
[ "$lines" = 1 ] && marg+=",lines=on"
: >"$dir/console.log"
t0=$(date +%s.%N)
# shellcheck disable=SC2046 # nic prints separate words on purpose
qemu-system-arm -M vexpress-a9 -m 256M -smp 1 -icount shift=0,sleep=off \
	-audiodev none,id=snd0 -dtb "$dtb" -kernel "$zimage" -initrd "$initrd" \
	-append "console=ttyAMA0 rdinit=/init tuner.gen=$rounds,$warmup,$gap$gen" \
	-display none -monitor none -serial "file:$dir/console.log" \
	-plugin "$so,$marg" \
	$(nic lan 0 52:54:00:12:01:01) $(nic wan 1 52:54:00:12:02:01) \
	$(nic snd 0 52:54:00:12:01:02) $(nic sink 1 52:54:00:12:02:02) \
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
[ "$lines" = 1 ] && [ -n "${TUNER_OUT:-}" ] && cp "$dir/report.lines" "$TUNER_OUT/model.lines.${TUNER_RUN:-0}"
exit 0
