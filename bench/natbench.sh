#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# natbench's flag table: for each flag set, modelled Mbit/s (mean over 5
# layout seeds), the change against -O2, the spread over the layout seeds,
# and .text size; then the hot footprint of the -O2 build. Builds and scores
# with tuner itself (layout.samples: 5). About 5-10 minutes on 2 cores.
# Usage: bench/natbench.sh [TUNER]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tuner=$(readlink -f "${1:-$root/build/release/tuner}")
work=$(mktemp -d /tmp/tuner-natbench.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat >"$work/table.yaml" <<EOF
study: natbench-table
source: {repo: $root, rev: HEAD, path: targets/natbench}
space:
  flags: [-O2, -Os, -O3, -O2 -fno-reorder-blocks -fno-reorder-blocks-and-partition -fno-tree-ch, -O2 -falign-functions=64]
  pgo: [off, on]
build: {command: 'make -s -j"\$TUNER_JOBS" -f "\$TUNER_SRC/Makefile"', artifact: natbench, timeout: 600}
train: {command: '"\$TUNER_SRC/train.sh"', timeout: 300}
size: {of: artifact, measure: text}
measure: {command: '"\$TUNER_SRC/score.sh"', parser: cachegrind-model, timeout: 600}
layout: {samples: 5}
objectives:
  - {name: throughput, unit: Mbit/s (modelled), goal: max}
  - {name: size, unit: bytes .text, goal: min}
EOF
start=$(date +%s)
"$tuner" run -q --results "$work/res" "$work/table.yaml" >/dev/null
echo "natbench: 10 flag sets x 5 layout seeds built and scored in $(( $(date +%s) - start )) s"
echo "throughput is MODELLED (cachegrind, Cortex-A9 cache geometry, 1.4 GHz), not measured"
echo
# results.csv: config,flags,pgo,status,on_front,feasible,throughput,_n,_median,_sd,_min,_max,size,...
awk -F, 'NR == 1 { next }
	{ key = $2 " pgo=" $3; mb[key] = $7; n[key] = $8; lo[key] = $11; hi[key] = $12; sz[key] = $13; order[++k] = key }
	END {
		base = mb["-O2 pgo=off"]
		printf "%-70s %12s %8s %8s %6s %10s\n", "flags", "Mbit/s", "vs -O2", "layout", "seeds", ".text B"
		for (i = 1; i <= k; i++) {
			key = order[i]
			printf "%-70s %12.2f %+7.2f%% %7.2f%% %6d %10d\n", key, mb[key], (mb[key] / base - 1) * 100,
				(hi[key] - lo[key]) / mb[key] * 100, n[key], sz[key]
		}
	}' "$work/res/results.csv"
echo "(layout = (max - min) / mean over the layout seeds)"
echo
dir=$(awk -F, '$2 == "-O2" && $3 == "off" { print $1 }' "$work/res/results.csv")
art=$(grep -h "\"config\":\"$dir\"" "$work/res/journal.jsonl" | grep '"seed":0' | grep '"type":"build"' |
	sed -E 's/.*"artifact":"([^"]*)".*/\1/' | head -n 1)
"$root/targets/natbench/footprint.sh" "$art"
