#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tuner compare against known truth (targets/noisy): how often it claims a
# difference that is not there, how often it finds one that is, and what
# layout noise does to both. Every compare has its own noise seed.
#
#   A/A     200 compares of two builds with the same true speed, 0.5% run
#           noise, no layout noise, 10 runs a side: false positives <= 5%
#   power   200 compares with a true 2% difference, same noise, 10 runs a
#           side: detected (verdict "B is better") >= 90%
#   layout  layout offsets N(0, 2%) per build, a true 1% flag effect:
#           with one layout seed a side, compare must not pass layout luck
#           for an effect (a claim whose interval misses the true +1%) in
#           more than 5% of compares; with layout seeds it resolves it.
#           Shown for: the run-noise-only test a layout-blind tool makes,
#           compare's default (cannot separate), compare with the layout
#           sd assumed (--layout-sd 2), and with K layout seeds a side.
#
# Usage: bench/compare.sh [TUNER]   (COMPARE_RUNS=N: compares per row)
set -euo pipefail
tuner=$(readlink -f "${1:-build/release/tuner}")
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${COMPARE_RUNS:-200}
. "$root/bench/lib/noisy.sh" compare
# -fa: 2% faster, -fl: 1% faster; -fx, -fy: no effect (other builds).
printf -- '-fa 1.02\n-fl 1.01\n' >"$work/truth"

# compare SEED RUN_SD LAYOUT_SD A B [OPTIONS...]: prints
# "VERDICT_CODE P REL_LO REL_HI" (verdict: better, worse, none, cannot).
compare() {
	local seed=$1 rsd=$2 lsd=$3 a=$4 b=$5
	shift 5
	noisy_study cmp "$seed" "$rsd" "$lsd" >"$work/s.yaml"
	rm -rf "$work/r"
	"$tuner" compare -q "$work/s.yaml" --a "$a" --b "$b" --results "$work/r" "$@" >"$work/out"
	awk '
		/^  B - A/ {
			line = $0
			sub(/.*\(\[/, "", line); sub(/\]\).*/, "", line); gsub(/[%,]/, "", line)
			split(line, ci, " ")
			p = $NF
		}
		/^  verdict:/ {
			v = $2 == "B" ? ($4 == "better" ? "better" : "worse") : ($2 == "no" ? "none" : "cannot")
		}
		END { print v, p, ci[1], ci[2] }' "$work/out"
}

# row LABEL TRUE_PCT RUN_SD LAYOUT_SD A B [OPTIONS...]: runs $runs compares
# and prints: claims of a difference, those whose interval misses the
# truth, detections (B better), and what the run-noise-only test claims.
row() {
	local label=$1 truth=$2 rsd=$3 lsd=$4 a=$5 b=$6 seed
	shift 6
	: >"$work/rows"
	for i in $(seq 1 "$runs"); do
		seed=$((i + 1000 * ${#label}))
		compare "$seed" "$rsd" "$lsd" "$a" "$b" "$@" >>"$work/rows"
	done
	awk -v label="$label" -v t="$truth" -v n="$runs" '
		{
			claim = $1 == "better" || $1 == "worse"
			claims += claim
			miss = !($3 <= t && t <= $4)
			luck += claim && miss
			found += $1 == "better"
			naive += $2 < 0.05
			naive_luck += $2 < 0.05 && miss
		}
		END {
			printf "  %-44s claims %5.1f%%  false claims %5.1f%%  detected %5.1f%%", label, 100 * claims / n, 100 * luck / n, 100 * found / n
			printf "%s\n", $1 == "cannot" ? sprintf("  (run-noise-only test: claims %.1f%%, false %.1f%%)", 100 * naive / n, 100 * naive_luck / n) : ""
			printf "%.1f %.1f %.1f\n", 100 * claims / n, 100 * luck / n, 100 * found / n > "/dev/stderr"
		}' "$work/rows" 2>"$work/figures"
	read -r claims luck found <"$work/figures"
}

status=0
# check DESCRIPTION PERCENT OP BOUND: a rate measured on $runs compares is
# itself uncertain (a true 5% shows as 2..8% in 200 compares), so the
# check fails only when the count is significantly beyond the bound: a
# one-sided binomial test at 5%. The 95% Wilson interval of the rate is
# printed with it.
check() {
	awk -v pct="$2" -v op="$3" -v b="$4" -v n="$runs" -v what="$1" 'BEGIN {
		k = int(pct * n / 100 + 0.5); p = b / 100
		# Tail P(X >= k) under "<=" (too many), P(X <= k) under ">=".
		pmf = (1 - p) ^ n; tail = 0
		for (x = 0; x <= n; x++) {
			if ((op == "<=" && x >= k) || (op == ">=" && x <= k))
				tail += pmf
			pmf *= (n - x) / (x + 1) * p / (1 - p)
		}
		z = 1.96; r = k / n
		c = (r + z * z / (2 * n)) / (1 + z * z / n)
		h = z * sqrt(r * (1 - r) / n + z * z / (4 * n * n)) / (1 + z * z / n)
		ok = tail >= 0.05
		printf "bench: compare: %s: %.1f%% (%d of %d; 95%% interval %.1f..%.1f%%), target %s %g%%: %s\n",
			what, 100 * r, k, n, (c - h > 0 ? 100 * (c - h) : 0), 100 * (c + h), op, b,
			ok ? (op == "<=" ? (r <= p ? "ok" : "ok (not significantly above)") : (r >= p ? "ok" : "ok (not significantly below)")) : "FAILED"
		exit !ok
	}' || status=1
}

echo "compare: $runs compares per row (claims: verdict B better or worse; false claims: a claim whose 95% interval misses the truth)"
echo "run noise 0.5%, no layout noise (--layout-sd 0), 10 runs a side:"
row "A/A (true 0%)" 0 0.005 0 -fx -fy --repeats 10 --layout-sd 0
check "A/A false positives" "$claims" "<=" 5
row "true +2%" 2 0.005 0 -fx -fa --repeats 10 --layout-sd 0
check "power at 2%, 10 runs a side" "$found" ">=" 90
echo "run noise 0.5%, layout offsets N(0, 2%) per build, true +1% (-fl):"
row "1 layout seed a side, 5 runs (default)" 1 0.005 0.02 -fx -fl --repeats 5
check "layout luck passed for an effect, one seed" "$luck" "<=" 5
row "1 layout seed a side, 5 runs, --layout-sd 2" 1 0.005 0.02 -fx -fl --repeats 5 --layout-sd 2
check "layout luck passed for an effect, one seed, assumed sd" "$luck" "<=" 5
row "A/A, 1 layout seed, 5 runs, --layout-sd 2" 0 0.005 0.02 -fx -fy --repeats 5 --layout-sd 2
check "A/A under layout noise, assumed sd" "$claims" "<=" 5
# 80% power for an effect d at layout sd s takes about 16 (s/d)^2 + 2
# layout seeds a side (stats.h): 66 for d = s/2; 100 give about 92%
# (Welch, in theory). Measured here, not assumed.
for k in ${COMPARE_SEEDS:-10 100}; do
	row "$k layout seeds a side, 1 run each" 1 0.005 0.02 -fx -fl --repeats 1 --layout "$k"
	check "layout luck passed for an effect, $k seeds" "$luck" "<=" 5
done
check "true 1% resolved with $k seeds (layout sd 2%)" "$found" ">=" 80
echo "run noise 0.5%, layout offsets N(0, 1%) (+-2% as a 95% range), true +1% (-fl):"
row "30 layout seeds a side, 1 run each" 1 0.005 0.01 -fx -fl --repeats 1 --layout 30
check "layout luck passed for an effect, 30 seeds" "$luck" "<=" 5
check "true 1% resolved with 30 seeds (layout sd 1%)" "$found" ">=" 80
[ $status -eq 0 ] && echo "bench: compare: ok"
exit $status
