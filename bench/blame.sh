#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tuner blame against known truth and on the natbench model.
#
#   noisy     20 seeded runs on targets/noisy: good "-O2 -fv", bad "-O3 -fw
#             -fx -fy -fz" (6 differences); only -fz changes the speed,
#             by -3%; layout offsets N(0, 2%) per build, 0.5% run noise,
#             16 layout seeds x 3 runs per variant. Target: names exactly
#             "add -fz" in every run. Prints the runs spent.
#   natbench  OpenWrt's 5.4 story on the bundled model (deterministic per
#             build; its layout seeds are real layout shifts): good "-O2
#             -fno-reorder-blocks -fno-reorder-blocks-and-partition
#             -fno-tree-ch", bad "-O2", 4 layout seeds a variant. Prints
#             which switch carries the change. (On x86-64 GCC 12,
#             -fno-reorder-blocks alone leaves the code byte for byte the
#             same, which is why the study pairs it with
#             -fno-reorder-blocks-and-partition.) BLAME_NATBENCH=0 skips it.
#
# Usage: bench/blame.sh [TUNER]   (BLAME_RUNS=N: noisy runs)
set -euo pipefail
tuner=$(readlink -f "${1:-build/release/tuner}")
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${BLAME_RUNS:-20}
. "$root/bench/lib/noisy.sh" blame
printf -- '-fz 0.97\n' >"$work/truth"

named=0 spent=0
for seed in $(seq 1 "$runs"); do
	noisy_study blame "$seed" 0.005 0.02 >"$work/s.yaml"
	"$tuner" blame -q "$work/s.yaml" --good "-O2 -fv" --bad "-O3 -fw -fx -fy -fz" \
		--layout 16 --repeats 3 --results "$work/r$seed" >"$work/out"
	culprit=$(sed -n 's/^culprit: //p' "$work/out")
	runs_spent=$(sed -n 's/^spent: \([0-9]*\) measurement runs.*/\1/p' "$work/out")
	effect=$(sed -n 's/^  good + culprit vs good: //p' "$work/out")
	printf 'seed %2d: culprit %-12s %s; %s runs\n' "$seed" "${culprit:-none}" "$effect" "$runs_spent"
	[ "$culprit" = "{add -fz}" ] && named=$((named + 1))
	spent=$((spent + runs_spent))
done
echo "bench: blame: noisy target: named -fz in $named of $runs runs; mean $((spent / runs)) measurement runs per blame (16 layout seeds x 3 runs per variant, doubled for unresolved ones)"
status=0
[ "$named" -eq "$runs" ] || status=1

if [ "${BLAME_NATBENCH:-1}" != 0 ]; then
	start=$(date +%s)
	"$tuner" blame -q "$root/spaces/natbench.yaml" \
		--good "-O2 -fno-reorder-blocks -fno-reorder-blocks-and-partition -fno-tree-ch" \
		--bad "-O2" --layout 4 --repeats 1 --results "$work/nb" | tee "$work/nb.out"
	echo "bench: blame: natbench (MODELLED throughput): $(sed -n 's/^culprit: //p' "$work/nb.out") in $(( $(date +%s) - start )) s"
fi
[ $status -eq 0 ] && echo "bench: blame: ok"
exit $status
