#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tuner bisect against known truth: 30 commits of natbench history
# (tests/e2e/bisect_history.sh) in which commit 19 adds real work to every
# packet (3% slower) and most others add unused code or move comments, each
# a new layout; the noisy target measures with 0.5% run noise and layout
# offsets N(0, 2%) keyed by the artifact, the seeds' situation. 20 bisects
# with different noise seeds, default options; per run the commit named
# and the measurement runs spent; totals: the real commit named in X/20, a
# layout-only (or any other) commit blamed in Y/20 (targets 20/20, 0/20).
#
# For reference, the naive bisect the seeds describe on the same history
# and noise: one build per commit (layout seed 0), the mean of 3 runs,
# binary search by which endpoint the value is closer to.
#
# Then one deterministic bisect on the real natbench model (real gcc
# builds, cachegrind scores as spaces/natbench.yaml, layout seeds as its
# Makefile makes them), over commits 15..22 of the same history with a
# smaller regression (the header hashed in 12 rounds), one run a build:
# it must name the real commit; its time is printed.
#
# Usage: bench/bisect.sh [TUNER]   (BISECT_RUNS=N: fewer runs;
#        BISECT_NATBENCH=0: skip the natbench bisect)
set -euo pipefail
tuner=$(readlink -f "${1:-build/release/tuner}")
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${BISECT_RUNS:-20}
. "$root/bench/lib/noisy.sh" bisect
ROOT=$root
. "$root/tests/e2e/bisect_history.sh"
bisect_history "$work/h" 19

# naive SEED: prints the commit a naive bisect names and its runs.
naive_value() {
	local rev=$1 seed=$2 d=$work/naive/$1
	if [ ! -e "$d/natbench" ]; then
		mkdir -p "$d/src"
		git -C "$work/h" archive "$rev" natbench | tar -x -C "$d/src"
		cat "$d"/src/natbench/*.c "$d"/src/natbench/*.h >"$d/natbench"
		cp "$d/src/natbench/truth" "$d/truth"
	fi
	for r in 0 1 2; do
		TUNER_FLAGS=-O2 TUNER_LAYOUT_SEED=0 TUNER_RUN=$r "$work/noisy" --truth "$d/truth" \
			--layout-key "$d/natbench" --seed "$seed" --run-sd 0.005 --layout-sd 0.02
	done | awk '{ s += $2 } END { printf "%.6f\n", s / NR }'
}
naive() {
	local seed=$1 g b v lo=-1 hi m
	local -a list
	mapfile -t list < <(git -C "$work/h" rev-list --reverse good..bad -- natbench)
	hi=$((${#list[@]} - 1))
	g=$(naive_value good "$seed")
	b=$(naive_value bad "$seed")
	local n=2
	while [ $((hi - lo)) -gt 1 ]; do
		m=$(((lo + hi) / 2))
		v=$(naive_value "${list[$m]}" "$seed")
		n=$((n + 1))
		if awk -v v="$v" -v g="$g" -v b="$b" 'BEGIN { exit !((v - b) ^ 2 < (v - g) ^ 2) }'; then
			hi=$m
		else
			lo=$m
		fi
	done
	echo "${list[$hi]} $((3 * n))"
}

right=0 wrong=0 none=0 spent=0 nright=0 nwrong=0 start=$(date +%s)
echo "bisect: $runs runs, 30 commits, the regression (-3%) at commit 19 ($(git -C "$work/h" rev-parse --short=12 "$culprit"))"
printf '  %-5s %-14s %-8s %6s %6s %-6s   %-14s %-6s\n' seed named verdict runs steps maxK naive verdict
for i in $(seq 1 "$runs"); do
	seed=$((1000 + i))
	bisect_study "$work/s.yaml" "$work/h" "$work/noisy" "$seed"
	rm -rf "$work/r" "$work/naive"
	set +e
	"$tuner" bisect -q "$work/s.yaml" --good good --bad bad --results "$work/r" >"$work/out"
	rc=$?
	set -e
	named=$(sed -n 's/^first bad commit: \([0-9a-f]*\) .*/\1/p' "$work/out")
	n=$(sed -n 's/^spent: \([0-9]*\) measurement runs.*/\1/p' "$work/out")
	steps=$(grep -c '^step ' "$work/out" || true)
	maxk=$(sed -n 's/^  K=\([0-9]*\)[ :].*/\1/p' "$work/out" | sort -n | tail -n 1)
	spent=$((spent + ${n:-0}))
	if [ "$named" = "$culprit" ]; then
		verdict=right
		right=$((right + 1))
	elif [ -n "$named" ]; then
		verdict=WRONG
		wrong=$((wrong + 1))
	else
		verdict="none($rc)"
		none=$((none + 1))
	fi
	read -r nv nruns < <(naive "$seed")
	if [ "$nv" = "$culprit" ]; then nverdict=right; nright=$((nright + 1)); else nverdict=wrong; nwrong=$((nwrong + 1)); fi
	printf '  %-5s %-14s %-8s %6s %6s %-6s   %-14s %-6s\n' "$seed" "${named:0:12}" "$verdict" "${n:-?}" \
		"$steps" "${maxk:-?}" "${nv:0:12}" "$nverdict"
done
echo "bisect: named the real commit in $right/$runs, blamed another commit in $wrong/$runs, no culprit in $none/$runs; mean $((spent / runs)) measurement runs; $(( $(date +%s) - start ))s"
echo "naive bisect (1 build a commit, 3 runs): named the real commit in $nright/$runs, blamed another commit in $nwrong/$runs; $nruns runs each"
status=0
if [ "$right" -ne "$runs" ] || [ "$wrong" -ne 0 ]; then
	echo "bench: bisect: FAILED (target: $runs/$runs named, 0 blamed)"
	status=1
fi

if [ "${BISECT_NATBENCH:-1}" != 0 ]; then
	BISECT_ROUNDS=12 bisect_history "$work/nb" 19
	cat >"$work/nb.yaml" <<EOF2
study: nbhist
source: {repo: $work/nb, path: natbench}
space:
  opt: [-O2]
build: {command: 'make -s -j"\$TUNER_JOBS" -f "\$TUNER_SRC/Makefile"', artifact: natbench, timeout: 600}
measure: {command: '"\$TUNER_SRC/score.sh"', parser: cachegrind-model, timeout: 600}
objectives:
  - {name: throughput, unit: Mbit/s (modelled), goal: max}
EOF2
	start=$(date +%s)
	set +e
	"$tuner" bisect -q "$work/nb.yaml" --good bad~15 --bad bad~8 --repeats 1 \
		--results "$work/nbr" >"$work/nb.out"
	rc=$?
	set -e
	sed 's/^/  /' "$work/nb.out"
	named=$(sed -n 's/^first bad commit: \([0-9a-f]*\) .*/\1/p' "$work/nb.out")
	echo "bisect on natbench (commits 15..22, real builds and cachegrind): $( [ "$named" = "$culprit" ] && echo "named the real commit" || echo "FAILED (exit $rc, named '$named')" ) in $(( $(date +%s) - start ))s"
	[ "$named" = "$culprit" ] || status=1
fi
[ $status -eq 0 ] && echo "bench: bisect: ok"
exit $status
