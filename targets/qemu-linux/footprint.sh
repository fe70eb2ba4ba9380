#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The real kernel's per-packet instruction footprint: boots a qemu-linux
# build as the NAT router (measure.sh: iperf3 LAN -> WAN through
# masquerade and conntrack, offloads off) with tuner's uarch plugin in
# system mode counting kernel code (addresses c0000000 and up) from just
# before the iperf3 client starts to just after it ends, and prints, as
# natbench's footprint.sh does, how much kernel code runs how often per
# forwarded packet (scripts/footprint-bands.sh: 32-byte lines whose
# busiest instruction runs at least 0.001 ... 0.5 times per packet), then
# the kernel instructions per packet and the plugin's MODELLED Cortex-A9
# counters per packet (caches and predictors of the cortex-a9 preset;
# TCG runs the code, the model only counts what an A9 would miss).
#
#   footprint.sh [BUILD_DIR | ZIMAGE] [SECONDS]
#   footprint.sh --model [BUILD_DIR | ZIMAGE]
#
# --model: the deterministic workload of model.sh instead (natgen's NAT
# traffic made in the guest, -icount, the window marked by natgen; no
# root, no host networking; SECONDS does not apply): the same kernel gives
# the same bands on every run.
#
# BUILD_DIR is a qemu-linux build directory (tuner's builds/KEY, holding
# arch/arm/boot/zImage), default the -O2 build of results/test-kernel
# (make test-kernel). SECONDS of traffic, default 10. Needs root (as
# measure.sh). Writes the report, lines and packets files to
# $TUNER_FOOTPRINT_OUT (default a temporary directory, removed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

model=0
if [ "${1:-}" = --model ]; then
	model=1
	shift
fi
target=${1:-}
secs=${2:-10}
if [ -z "$target" ]; then
	j=$root/results/test-kernel/journal.jsonl
	[ -f "$j" ] || { echo "footprint.sh: no build given and no $j (make test-kernel)" >&2; exit 2; }
	target=$(jq -r 'select(.type == "build" and .flags == "-O2" and .seed == 0 and .pgo == 0 and .status == "ok") | .dir' "$j" | tail -1)
	[ -n "$target" ] || { echo "footprint.sh: no -O2 build in $j" >&2; exit 2; }
fi
if [ -d "$target" ]; then
	zimage=$target/arch/arm/boot/zImage
else
	zimage=$target
fi
[ -f "$zimage" ] || { echo "footprint.sh: no kernel image $zimage" >&2; exit 2; }

if [ -n "${TUNER_FOOTPRINT_OUT:-}" ]; then
	out=$TUNER_FOOTPRINT_OUT
	mkdir -p "$out"
else
	out=$(mktemp -d /tmp/tuner-kfp.XXXXXX)
	trap 'rm -rf "$out"' EXIT
fi

if [ $model = 1 ]; then
	TUNER_ARTIFACT=$zimage TUNER_UARCH=preset=cortex-a9 \
		TUNER_UARCH_PLUGIN=${TUNER_UARCH_PLUGIN:-$root/build/release/tuner-uarch.so} \
		TUNER_KERNEL_MODEL_LINES=1 TUNER_OUT=$out TUNER_RUN=0 \
		"$here/model.sh" >"$out/model.out"
	packets=$(sed -n 's/^packets=\([0-9]*\) .*/\1/p' "$out/model.out")
	echo "kernel $zimage: $packets packets forwarded in model.sh's window (natgen, deterministic)"
	sed -n '/^uarch-report/,$p' "$out/model.out" >"$out/kernel"
	mv "$out/model.lines.0" "$out/kernel.lines"
	echo "packets=$packets" >"$out/kernel.packets"
else
	TUNER_ARTIFACT=$zimage TUNER_KERNEL_INSNS=0 TUNER_KERNEL_BOOT_TIMEOUT=${TUNER_KERNEL_BOOT_TIMEOUT:-600} TUNER_KERNEL_IPERF_TIME=$secs TUNER_KERNEL_IPERF_OMIT=0 \
		TUNER_KERNEL_UARCH="preset=cortex-a9,count=c0000000-ffffffff,lines=on" \
		TUNER_KERNEL_UARCH_OUT="$out/kernel" \
		"$here/measure.sh" >"$out/iperf3.json"
	packets=$(sed -n 's/^packets=//p' "$out/kernel.packets")
	mbps=$(jq '.end.sum_received.bits_per_second / 1e6 | floor' "$out/iperf3.json")
	echo "kernel $zimage: $packets packets forwarded in $secs s ($mbps Mbit/s emulated, slowed by the plugin)"
fi
"$root/scripts/footprint-bands.sh" "$out/kernel.lines" "$packets" "kernel per forwarded packet"
awk -v P="$packets" '
	/^region / { on = ($2 == "counted") }
	on && NF == 2 && $2 ~ /^[0-9]+$/ { c[$1] = $2 }
	END {
		printf "kernel instructions per packet: %.0f\n", c["insns"] / P
		printf "MODELLED Cortex-A9 per packet: L1I misses %.1f, L1D misses %.1f, L2 misses %.1f, " \
		       "branches %.0f (taken %.0f), mispredicts %.1f\n",
		       c["l1i_miss"] / P, (c["l1d_read_miss"] + c["l1d_write_miss"]) / P,
		       (c["l2i_miss"] + c["l2d_miss"]) / P, c["branches"] / P, c["taken"] / P,
		       (c["mp_direction"] + c["mp_btb"] + c["mp_target"] + c["mp_return"]) / P
	}' "$out/kernel"
