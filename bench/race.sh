#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Racing against a fixed protocol, on targets/noisy with known truth: a
# 96-configuration study (3 optimisation levels x 5 on/off flags; speed to
# maximize with 0.5% Gaussian run noise, size to minimize, exact), run
# with 50 noise seeds. Racing (measure.repeats: {min: 3, max: 10}) must find
# the true Pareto front (every true member on it, no dominated
# configuration) in >= 95% of the runs while using <= 50% of the
# measurements of the fixed protocol (10 repeats of every configuration).
# The fixed protocol is run once for reference.
# Usage: bench/race.sh [TUNER]   (RACE_RUNS=N for fewer runs)
set -euo pipefail
tuner=$(readlink -f "${1:-build/release/tuner}")
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RACE_RUNS:-50}
. "$root/bench/lib/noisy.sh" race

# Speed factor, size factor. -fa, -fc and -fe trade speed for size, -fb
# only costs, -fd only helps. The true front has 16 members; every
# configuration a smaller one beats is at least 1.19% faster than it, and
# every dominated one has a dominator at least 1.46% faster: 2.4 and 2.9
# run-noise standard deviations.
cat >"$work/truth" <<'EOF2'
-O1 0.90 0.85
-O2 1.00 1.00
-O3 1.06 1.25
-fa 1.046 1.048
-fb 0.963 1.080
-fc 1.016 1.008
-fd 1.029 0.984
-fe 0.970 0.951
EOF2

# The true front from the truth file alone: flag strings as tuner joins
# them (dimension order, empty values skipped).
awk '
	{ t[$1] = $2; z[$1] = $3 }
	END {
		split("-O1 -O2 -O3", o, " ")
		split("-fa -fb -fc -fd -fe", f, " ")
		n = 0
		for (i = 1; i <= 3; i++)
			for (m = 0; m < 32; m++) {
				s = o[i]; sp = t[o[i]]; sz = z[o[i]]
				for (b = 0; b < 5; b++)
					if (int(m / 2 ^ (4 - b)) % 2) {
						s = s " " f[b + 1]; sp *= t[f[b + 1]]; sz *= z[f[b + 1]]
					}
				n++; name[n] = s; v[n] = sp; w[n] = sz
			}
		for (i = 1; i <= n; i++) {
			dom = 0
			for (j = 1; j <= n && !dom; j++)
				if (j != i && v[j] >= v[i] && w[j] <= w[i] && (v[j] > v[i] || w[j] < w[i]))
					dom = 1
			if (!dom)
				print name[i]
		}
	}' "$work/truth" | sort >"$work/front.true"

study() { # seed repeats-yaml file
	cat >"$3" <<EOF2
study: race
source: {repo: $work/repo, path: src}
space:
  opt: [-O1, -O2, -O3]
  a: ["", -fa]
  b: ["", -fb]
  c: ["", -fc]
  d: ["", -fd]
  e: ["", -fe]
build: {command: ': > "\$TUNER_OUT/a"', artifact: a}
size: {of: artifact, measure: command, command: '$work/noisy --truth $work/truth --size 1000000'}
measure:
  command: '$work/noisy --truth $work/truth --seed $1 --run-sd 0.005 --layout-sd 0 --state "\$TUNER_OUT/draws"'
  # The fake measurement judges the flags, not the program: each build
  # is measured (the default shares builds whose code is the same).
  same_code: separate
  repeats: $2
objectives:
  - {name: speed, goal: max}
  - {name: size, unit: bytes, goal: min}
EOF2
}

# Runs one study; prints "MEASUREMENTS FOUND" (FOUND 1 = the true front).
one() { # seed repeats-yaml
	local dir=$work/r$1
	study "$1" "$2" "$work/s$1.yaml"
	"$tuner" run -q --results "$dir" "$work/s$1.yaml" >/dev/null
	tr -d '\r' <"$dir/results.csv" | awk -F, 'NR > 1 && $5 == 1 { print $2 }' | sort >"$dir/front"
	echo "$(grep -c '"type":"measure"' "$dir/journal.jsonl") $(cmp -s "$dir/front" "$work/front.true" && echo 1 || echo 0)"
	rm -rf "$dir"
}

echo "race: 96 configurations, true front of $(wc -l <"$work/front.true"), 0.5% run noise, $runs seeds"
read -r fixed fixed_found < <(one 1000 10)
echo "  fixed protocol (10 repeats each), seed 1000: $fixed measurements, true front found: $([ "$fixed_found" = 1 ] && echo yes || echo no)"
total=0
found=0
worst=0
for seed in $(seq 1 "$runs"); do
	read -r n ok < <(one "$seed" '{min: 3, max: 10}')
	total=$((total + n))
	found=$((found + ok))
	[ "$n" -gt "$worst" ] && worst=$n
	[ "$ok" = 1 ] || echo "  seed $seed: front differs from the truth ($n measurements)"
done
mean=$(awk -v t=$total -v r="$runs" 'BEGIN { printf "%.1f", t / r }')
pct=$(awk -v m="$mean" -v f="$fixed" 'BEGIN { printf "%.1f", 100 * m / f }')
rate=$(awk -v a=$found -v r="$runs" 'BEGIN { printf "%.1f", 100 * a / r }')
echo "  racing {min: 3, max: 10}: $mean measurements per run on average (most $worst), $pct% of the fixed protocol's $fixed"
echo "  true front found in $found of $runs runs ($rate%)"
status=0
awk -v r="$rate" 'BEGIN { exit !(r >= 95) }' || { echo "bench: race: found the true front in $rate% of runs (target >= 95%): FAILED"; status=1; }
awk -v p="$pct" 'BEGIN { exit !(p <= 50) }' || { echo "bench: race: $pct% of the fixed protocol's measurements (target <= 50%): FAILED"; status=1; }
[ $status -eq 0 ] && echo "bench: race: true front in $rate% of runs (>= 95%) with $pct% of the fixed protocol's measurements (<= 50%): ok"
exit $status
