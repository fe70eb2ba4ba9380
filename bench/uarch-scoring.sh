#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What one scoring of the A9 study costs: natbench built for the Cortex-A9
# at -O2, scored RUNS times (default 7) by score-uarch.sh under qemu-arm
# with tuner's uarch plugin (the demo's measure command); prints the CPU
# seconds of each run (user + sys, /usr/bin/time), their median, and
# checks that every run wrote the same counters (MODELLED counts).
#
#   bench/uarch-scoring.sh [TUNER] [RUNS]
#
# The plugin beside TUNER is the one timed (build/release/tuner-uarch.so
# by default). About a minute on this machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tuner=$(readlink -f "${1:-$root/build/release/tuner}")
runs=${2:-7}
plugin=$(dirname "$tuner")/tuner-uarch.so
[ -r "$plugin" ] || { echo "uarch-scoring: no $plugin (make plugin)" >&2; exit 1; }
work=$(mktemp -d /tmp/tuner-uarch-scoring.XXXXXX)
trap 'rm -rf "$work"' EXIT

MAKEFLAGS='' make -s -j2 -f "$root/targets/natbench/Makefile" NB_ARCH=a9 \
	TUNER_OUT="$work/build" TUNER_FLAGS=-O2 >/dev/null
cpu=()
for i in $(seq 1 "$runs"); do
	mkdir -p "$work/score$i"
	/usr/bin/time -f '%U %S' -o "$work/time$i" env TUNER_ARTIFACT="$work/build/natbench" \
		TUNER_OUT="$work/score$i" TUNER_UARCH=preset=cortex-a9 TUNER_UARCH_PLUGIN="$plugin" \
		sh "$root/targets/natbench/score-uarch.sh" >/dev/null
	c=$(awk '{ printf "%.2f", $1 + $2 }' "$work/time$i")
	cpu+=("$c")
	cmp -s "$work/score1/uarch.out.0" "$work/score$i/uarch.out.0" ||
		{ echo "uarch-scoring: run $i wrote other counters than run 1" >&2; exit 1; }
	echo "run $i: $c CPU-s"
done
median=$(printf '%s\n' "${cpu[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
echo "uarch scoring, natbench A9 -O2: median $median CPU-s over $runs runs; counters identical in every run"
